//===- KernelPlugin.cpp - kernels from a shared library ---------*- C++ -*-===//
//
// dlopen, find the entry point, check the ABI version, register.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/KernelPlugin.h"

#include "tfrt_fallback/Runtime/StrCat.h"

#include <dlfcn.h>

namespace tfrt_fallback::rt {

Status loadKernelPlugin(const std::string &path, KernelRegistry &registry) {
#ifdef TFRT_FALLBACK_NO_KERNEL_PLUGINS
  (void)registry;
  return UnimplementedError(
      strCat("cannot load kernel plugin '", path,
             "': this runtime was built without kernel plugin support "
             "(-DTFRT_FALLBACK_PLUGIN_HOST=OFF)"));
#endif
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return NotFoundError(
        strCat("cannot load kernel plugin '", path, "': ", why ? why : "?"));
  }
  using EntryPoint = const KernelPluginInfo *(*)();
  auto entry =
      reinterpret_cast<EntryPoint>(dlsym(handle, kKernelPluginEntryPoint));
  if (!entry) {
    dlclose(handle);
    return InvalidArgumentError(
        strCat("'", path, "' is not a kernel plugin: it has no '",
               kKernelPluginEntryPoint, "' entry point"));
  }
  const KernelPluginInfo *info = entry();
  if (!info || info->abiVersion != kKernelPluginAbiVersion ||
      !info->registerKernels) {
    int version = info ? info->abiVersion : -1;
    dlclose(handle);
    return FailedPreconditionError(strCat(
        "kernel plugin '", path, "' was built for kernel ABI version ", version,
        "; this runtime has version ", kKernelPluginAbiVersion));
  }
  // Kept loaded: its kernels live as long as the registry's programs.
  info->registerKernels(registry);
  return OkStatus();
}

} // namespace tfrt_fallback::rt

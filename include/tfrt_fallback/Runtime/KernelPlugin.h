//===- KernelPlugin.h - kernels from a shared library -----------*- C++ -*-===//
//
// A kernel plugin is a shared library that adds kernels to a runtime's
// registry: it exports one C entry point, TFRT_FALLBACK_KERNEL_PLUGIN, that
// returns its ABI version and its registration function. The runtime checks
// the version before calling anything else, so a plugin built against other
// runtime headers is refused with an error instead of crashing.
//
//   // mine.cpp, built as a shared library against the runtime's headers:
//   static void registerMine(KernelRegistry &registry) {
//     registerKernel<MineKernel>(registry, KernelDefBuilder("Mine"));
//     registry.setInputArity("Mine", 1, 1);
//   }
//   TFRT_FALLBACK_KERNEL_PLUGIN(registerMine)
//
// fallback-run and fallback-run-lite take --load-kernels=libmine.so; the C
// API has TFRTF_LoadKernelPlugin. A plugin's kernels use the runtime's own
// classes, resolved from the process that loads it.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_KERNELPLUGIN_H
#define TFRT_FALLBACK_RUNTIME_KERNELPLUGIN_H

#include "tfrt_fallback/Runtime/KernelRegistry.h"

#include "tfrt_fallback/Runtime/Status.h"

#include <string>

namespace tfrt_fallback::rt {

/// Bumped whenever OpKernel, the kernel contexts or KernelRegistry change
/// in a way that breaks plugins built against older headers.
constexpr int kKernelPluginAbiVersion = 2;

/// What a plugin's entry point returns.
struct KernelPluginInfo {
  int abiVersion;
  void (*registerKernels)(KernelRegistry &registry);
};

/// The entry point's name, for dlsym.
constexpr const char *kKernelPluginEntryPoint = "tfrt_fallback_kernel_plugin";

/// Loads the plugin at `path` (dlopen) and registers its kernels in
/// `registry`. Errors name the file: it cannot be opened, it has no entry
/// point, or it was built for another ABI version. The library stays loaded
/// for the life of the process.
Status loadKernelPlugin(const std::string &path, KernelRegistry &registry);

} // namespace tfrt_fallback::rt

/// Defines a plugin's entry point around `registerFunction`.
#define TFRT_FALLBACK_KERNEL_PLUGIN(registerFunction)                          \
  extern "C" __attribute__((visibility("default")))                            \
  const ::tfrt_fallback::rt::KernelPluginInfo *                                \
  tfrt_fallback_kernel_plugin() {                                              \
    static const ::tfrt_fallback::rt::KernelPluginInfo info = {                \
        ::tfrt_fallback::rt::kKernelPluginAbiVersion, &registerFunction};      \
    return &info;                                                              \
  }

#endif // TFRT_FALLBACK_RUNTIME_KERNELPLUGIN_H

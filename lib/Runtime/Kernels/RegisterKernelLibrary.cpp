//===- RegisterKernelLibrary.cpp - A kernel library's families --*- C++ -*-===//
//
// register<Library>KernelLibrary(): the families of KernelFamilies.def in
// the kernel library TFRT_FALLBACK_KERNEL_LIBRARY, in the table's order.
// Every library (lib/Runtime/Kernels/<library>/CMakeLists.txt) compiles
// this file with its own name, so the table stays the only list of a
// library's families. The other libraries' rows are discarded statements:
// they are not odr-used, and the library's object references only its own
// families.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

#include <string_view>

#ifndef TFRT_FALLBACK_KERNEL_LIBRARY
#error "compile with -DTFRT_FALLBACK_KERNEL_LIBRARY=<Library>"
#endif

#define TFRT_FALLBACK_STRINGIFY_(x) #x
#define TFRT_FALLBACK_STRINGIFY(x) TFRT_FALLBACK_STRINGIFY_(x)
#define TFRT_FALLBACK_LIBRARY_FUNCTION_(Library)                               \
  register##Library##KernelLibrary
#define TFRT_FALLBACK_LIBRARY_FUNCTION(Library)                                \
  TFRT_FALLBACK_LIBRARY_FUNCTION_(Library)

namespace tfrt_fallback::rt {

void TFRT_FALLBACK_LIBRARY_FUNCTION(TFRT_FALLBACK_KERNEL_LIBRARY)(
    KernelRegistry &registry) {
  constexpr std::string_view library =
      TFRT_FALLBACK_STRINGIFY(TFRT_FALLBACK_KERNEL_LIBRARY);
#define TFRT_FALLBACK_KERNEL_FAMILY(Library, Name)                             \
  if constexpr (std::string_view(#Library) == library)                         \
    register##Name##Kernels(registry);
#include "tfrt_fallback/Runtime/KernelFamilies.def"
}

} // namespace tfrt_fallback::rt

//===- RegisterAllKernels.cpp - Register every built-in kernel --*- C++ -*-===//
//
// registerAllKernels(): every kernel library of KernelFamilies.def, in the
// table's order (a library's rows are contiguous, so calling a library at
// its first row and skipping its later rows registers the families in the
// table's order). A selective build compiles the same calls: each family's
// registerKernel calls keep only the kernels its manifest selects
// (KernelSelection.h).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

#include <string_view>

namespace tfrt_fallback::rt {

void registerAllKernels(KernelRegistry &registry) {
  std::string_view previous;
#define TFRT_FALLBACK_KERNEL_FAMILY(Library, Name)                             \
  if (previous != #Library) {                                                  \
    previous = #Library;                                                       \
    register##Library##KernelLibrary(registry);                                \
  }
#include "tfrt_fallback/Runtime/KernelFamilies.def"
}

} // namespace tfrt_fallback::rt

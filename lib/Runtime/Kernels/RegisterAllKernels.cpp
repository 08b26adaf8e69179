//===- RegisterAllKernels.cpp - Register every built-in kernel --*- C++ -*-===//
//
// registerAllKernels(): every kernel family of KernelFamilies.def, in the
// table's order. A selective build compiles the same calls: each family's
// registerKernel calls keep only the kernels its manifest selects
// (KernelSelection.h).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerAllKernels(KernelRegistry &registry) {
#define TFRT_FALLBACK_KERNEL_FAMILY(Name) register##Name##Kernels(registry);
#include "tfrt_fallback/Runtime/KernelFamilies.def"
}

} // namespace tfrt_fallback::rt

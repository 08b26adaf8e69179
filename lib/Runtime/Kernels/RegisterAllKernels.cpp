//===- RegisterAllKernels.cpp - Register every built-in kernel --*- C++ -*-===//
//
// registerAllKernels(): every kernel family, in a fixed order.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerAllKernels(KernelRegistry &registry) {
  registerElementwiseKernels(registry);
  registerMatMulKernels(registry);
  registerNNKernels(registry);
  registerShapeKernels(registry);
}

} // namespace tfrt_fallback::rt

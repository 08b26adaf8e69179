//===- ConvKernels.cpp - Conv kernels ------------------------- -*- C++ -*-===//
//
// Kernels of the Conv family: convolutions (Conv2D, Conv2DBackpropInput,
// DepthwiseConv2dNative, fused forms).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerConvKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

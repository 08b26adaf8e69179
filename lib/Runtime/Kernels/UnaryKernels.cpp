//===- UnaryKernels.cpp - Unary kernels ----------------------- -*- C++ -*-===//
//
// Kernels of the Unary family: unary math and activation ops (Abs, Log, Sqrt,
// Elu, LeakyRelu, ...).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerUnaryKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

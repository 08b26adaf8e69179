//===- NmsKernels.cpp - NonMaxSuppressionV3 and V5 ------------ -*- C++ -*-===//
//
// Kernels of the Nms family: NonMaxSuppressionV3 and V5.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerNmsKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

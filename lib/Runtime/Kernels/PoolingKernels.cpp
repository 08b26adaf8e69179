//===- PoolingKernels.cpp - MaxPool and AvgPool --------------- -*- C++ -*-===//
//
// Kernels of the Pooling family: MaxPool and AvgPool.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerPoolingKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

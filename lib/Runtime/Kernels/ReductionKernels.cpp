//===- ReductionKernels.cpp - Reduction kernels --------------- -*- C++ -*-===//
//
// Kernels of the Reduction family: reductions (Mean, Sum, Max, Min, Prod, All,
// Any, ArgMax, ArgMin, TopKV2).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerReductionKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

//===- GatherScatterKernels.cpp - GatherScatter kernels ------- -*- C++ -*-===//
//
// Kernels of the GatherScatter family: GatherV2, GatherNd, ScatterNd,
// SparseToDense, Where.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerGatherScatterKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

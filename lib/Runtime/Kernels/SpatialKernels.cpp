//===- SpatialKernels.cpp - Spatial kernels ------------------- -*- C++ -*-===//
//
// Kernels of the Spatial family: DepthToSpace, SpaceToDepth, SpaceToBatchND,
// BatchToSpaceND.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerSpatialKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

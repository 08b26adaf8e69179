//===- CastKernels.cpp - Cast kernels ------------------------- -*- C++ -*-===//
//
// Kernels of the Cast family: Cast between every pair of supported dtypes.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerCastKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

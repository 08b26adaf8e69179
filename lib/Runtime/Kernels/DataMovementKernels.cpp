//===- DataMovementKernels.cpp - DataMovement kernels --------- -*- C++ -*-===//
//
// Kernels of the DataMovement family: data movement (Transpose, ConcatV2, Pack,
// Split, Slice, StridedSlice, Pad, Tile, ...).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerDataMovementKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

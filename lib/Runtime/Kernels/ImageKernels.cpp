//===- ImageKernels.cpp - Image kernels ----------------------- -*- C++ -*-===//
//
// Kernels of the Image family: image resizing (ResizeBilinear,
// ResizeNearestNeighbor).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"

namespace tfrt_fallback::rt {

void registerImageKernels(KernelRegistry &registry) { (void)registry; }

} // namespace tfrt_fallback::rt

//===- GemmAvx2.cpp - The 6x16 AVX2+FMA GEMM microkernel --------*- C++ -*-===//
//
// Compiled with -mavx2 -mfma whatever the runtime's -march, and only called
// after isaSupported(Isa::Avx2). The microkernel is GemmVectorTile.h's over
// vectors of 8 floats; nothing here may be an inline function or template
// shared with other files (see GemmMicroKernels.h): the trait (Avx2Vec.h) is in
// an anonymous namespace.
//
// Registers: 12 ymm accumulators (6 rows x 2 vectors of 8 columns), 2 for
// the B row, 1 for the broadcast A value; tiles of at most 8 columns use one
// vector per row.
//
//===----------------------------------------------------------------------===//

#include "compute/Avx2Vec.h"
#include "compute/GemmMicroKernels.h"
#include "compute/GemmVectorTile.h"

namespace tfrt_fallback::rt::gemm::detail {

const MicroKernelInfo kAvx2MicroKernel = {"avx2 6x16", 6,
                                          2 * simd::Avx2Vec::kLanes, 512,
                                          vectorMicroKernel<simd::Avx2Vec, 6>};

} // namespace tfrt_fallback::rt::gemm::detail

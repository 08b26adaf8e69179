//===- GemmAvx512.cpp - The 14x32 AVX-512F GEMM microkernel -----*- C++ -*-===//
//
// Compiled with -mavx512f -mavx2 -mfma whatever the runtime's -march, and
// only called after isaSupported(Isa::Avx512): a CPU without AVX-512 (part
// of the fleet) never reaches this code. The microkernel is
// GemmVectorTile.h's over vectors of 16 floats; nothing here may be an
// inline function or template shared with other files (see
// GemmMicroKernels.h): everything is in an anonymous namespace.
//
// Registers: 28 zmm accumulators (14 rows x 2 vectors of 16 columns), 2 for
// the B row, 1 for the broadcast A value. Partial tiles use AVX-512 lane
// masks for loads and stores; tiles of at most 16 columns use one vector.
//
//===----------------------------------------------------------------------===//

#include "compute/Avx512Vec.h"
#include "compute/GemmMicroKernels.h"
#include "compute/GemmVectorTile.h"

namespace tfrt_fallback::rt::gemm::detail {

const MicroKernelInfo kAvx512MicroKernel = {
    "avx512 14x32", 14, 2 * simd::Avx512Vec::kLanes, 256,
    vectorMicroKernel<simd::Avx512Vec, 14>};

} // namespace tfrt_fallback::rt::gemm::detail

//===- GemmNeonFp16.cpp - The 8x16 NEON FP16 GEMM microkernel ---*- C++ -*-===//
//
// AArch64 with the ARMv8.2 half-precision arithmetic (compiled with
// -march=armv8.2-a+fp16, run only when isaSupported(Isa::NeonFp16)): hgemm's
// microkernel, GemmVectorTile.h's over vectors of 8 halves (NeonHalfVec.h).
// Per eight k steps, one 128-bit load per A row, then per step two B loads
// and 16 `fmla v.8h, b.8h, a.h[L]`: the f32 tile's loop (GemmNeon.cpp) with
// twice the MACs per instruction, 8 per fmla. Registers as the f32 tile:
// 16 accumulators (8 rows x 2 vectors of 8 columns), 8 for A, 2 for B.
//
//===----------------------------------------------------------------------===//

#include "compute/GemmMicroKernels.h"
#include "compute/GemmVectorTile.h"
#include "compute/NeonHalfVec.h"

namespace tfrt_fallback::rt::gemm::detail {

// kc 512: an 8 x 512 block of A and a 512 x 16 panel of B are 24 KB of
// halves, within L1 as the f32 tile's 256 is.
const MicroKernelInfoOf<uint16_t> kNeonFp16MicroKernel = {
    "neon-fp16 8x16", 8, 2 * simd::NeonHalfVec::kLanes, 512,
    vectorMicroKernel<simd::NeonHalfVec, 8>};

} // namespace tfrt_fallback::rt::gemm::detail

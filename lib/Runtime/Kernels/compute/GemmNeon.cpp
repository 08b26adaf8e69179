//===- GemmNeon.cpp - The 8x8 NEON GEMM microkernel -------------*- C++ -*-===//
//
// AArch64 only (NEON is part of every AArch64 CPU: isaSupported(Isa::Neon)).
// The microkernel is GemmVectorTile.h's over vectors of 4 floats with the
// lane FMA (NeonVec.h): per four k steps, one 128-bit load per A row, two
// `ld1` of four B vectors (two k steps each), then per step MR * 2
// `fmla v.4s, b.4s, a.s[L]`.
//
// Registers (32 of 128 bits): 16 accumulators (8 rows x 2 vectors of 4
// columns), 8 for the A rows' four k values, 8 for B. Per four k steps:
// 8 A loads + 2 B loads + 64 fmla + `subs` and the branch = 76
// instructions for 256 MACs, 3.4 MACs per instruction. The alternatives:
// 12x8 with a broadcast per row (ld1r; 24 accumulators) is 12 ld1r + 2 B
// loads + 24 fmla per k step for 96 MACs (~2.5); 12x8 with lane FMAs needs
// 24 + 12 + 2 = 38 registers. Tiles of at most 4 columns use one vector per
// row.
//
//===----------------------------------------------------------------------===//

#include "compute/GemmMicroKernels.h"
#include "compute/GemmVectorTile.h"
#include "compute/NeonVec.h"

namespace tfrt_fallback::rt::gemm::detail {

const MicroKernelInfo kNeonMicroKernel = {"neon 8x8", 8,
                                          2 * simd::NeonVec::kLanes, 256,
                                          vectorMicroKernel<simd::NeonVec, 8>};

} // namespace tfrt_fallback::rt::gemm::detail

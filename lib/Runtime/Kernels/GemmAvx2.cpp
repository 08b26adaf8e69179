//===- GemmAvx2.cpp - The 6x16 AVX2+FMA GEMM microkernel --------*- C++ -*-===//
//
// Compiled with -mavx2 -mfma whatever the runtime's -march, and only called
// after isaSupported(Isa::Avx2). Nothing here may be an inline function or
// template shared with other files (see GemmMicroKernels.h): everything is
// in an anonymous namespace and uses intrinsics only.
//
// Registers: 12 ymm accumulators (6 rows x 2 vectors of 8 columns), 2 for
// the B row, 1 for the broadcast A value; tiles of at most 8 columns use one
// vector per row.
//
//===----------------------------------------------------------------------===//

#include "GemmMicroKernels.h"
#include "Unroll.h"

#include <immintrin.h>

namespace tfrt_fallback::rt::gemm::detail {
namespace {

constexpr int kMR = 6, kNR = 16;

/// Lane masks for the first `count` (0..8) of 8 lanes.
alignas(32) const int kMaskTable[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
                                        0,  0,  0,  0,  0,  0,  0,  0};

__m256i laneMask(int count) {
  return _mm256_loadu_si256(
      reinterpret_cast<const __m256i *>(kMaskTable + 8 - count));
}

/// Per-column vectors of one half (8 columns) of the tile.
struct Columns {
  bool full;
  __m256i mask;

  __m256 load(const float *p) const {
    return full ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, mask);
  }
  void store(float *p, __m256 v) const {
    if (full)
      _mm256_storeu_ps(p, v);
    else
      _mm256_maskstore_ps(p, mask, v);
  }
};

template <int MR, int NV>
__attribute__((always_inline)) inline void
applyEpilogue(__m256 (&acc)[MR][NV], const TileEpilogue &ep, int64_t col0,
              const Columns (&cols)[2], const float *c, int64_t ldc) {
  const float *addend =
      ep.addend ? reinterpret_cast<const float *>(
                      reinterpret_cast<const char *>(c) + ep.addendOffset)
                : nullptr;
  TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h) {
    const int64_t j = col0 + 8 * h;
    if (ep.bias) {
      const __m256 bias = cols[h].load(ep.bias + j);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm256_add_ps(acc[r][h], bias);
    } else if (ep.bnMean) {
      const __m256 mean = cols[h].load(ep.bnMean + j);
      const __m256 factor = cols[h].load(ep.bnFactor + j);
      const __m256 offset = cols[h].load(ep.bnOffset + j);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm256_add_ps(
            _mm256_mul_ps(_mm256_sub_ps(acc[r][h], mean), factor), offset);
    }
    if (addend) {
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] =
            _mm256_add_ps(acc[r][h], cols[h].load(addend + r * ldc + 8 * h));
    }
    const __m256 zero = _mm256_setzero_ps();
    switch (ep.activation) {
    case TileActivation::None:
      break;
    case TileActivation::Relu:
      // max(0, x) returns its second operand, x, when either is NaN.
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm256_max_ps(zero, acc[r][h]);
      break;
    case TileActivation::Relu6: {
      const __m256 six = _mm256_set1_ps(6.0f);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm256_min_ps(six, _mm256_max_ps(zero, acc[r][h]));
      break;
    }
    case TileActivation::LeakyRelu:
    case TileActivation::Prelu: {
      const __m256 alpha = ep.activation == TileActivation::Prelu
                               ? cols[h].load(ep.prelu + j)
                               : _mm256_set1_ps(ep.alpha);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r) {
        const __m256 positive = _mm256_cmp_ps(acc[r][h], zero, _CMP_GT_OQ);
        acc[r][h] = _mm256_blendv_ps(_mm256_mul_ps(acc[r][h], alpha), acc[r][h],
                                     positive);
      }
      break;
    }
    }
  }
}

/// MR rows by NV vectors of 8 columns: NV = 1 for tiles of at most 8
/// columns, which then cost half the FMAs (the panel's other half is zeros).
template <int MR, int NV> void kernel(const MicroTile &t) {
  __m256 acc[MR][NV];
  TFRT_FALLBACK_UNROLL
  for (int r = 0; r < MR; ++r)
    TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h)
    acc[r][h] = _mm256_setzero_ps();
  const float *a = t.a;
  const float *b = t.b;
  const int64_t lda = t.lda;
  for (int64_t p = 0; p < t.kc; ++p, b += kNR, ++a) {
    __m256 bv[NV];
    TFRT_FALLBACK_UNROLL
    for (int h = 0; h < NV; ++h)
      bv[h] = _mm256_loadu_ps(b + 8 * h);
    TFRT_FALLBACK_UNROLL
    for (int r = 0; r < MR; ++r) {
      const __m256 x = _mm256_broadcast_ss(a + r * lda);
      TFRT_FALLBACK_UNROLL
      for (int h = 0; h < NV; ++h)
        acc[r][h] = _mm256_fmadd_ps(x, bv[h], acc[r][h]);
    }
  }
  const Columns cols[2] = {
      {t.nr >= 8, laneMask(t.nr >= 8 ? 8 : t.nr)},
      {t.nr >= 16, laneMask(t.nr >= 16 ? 8 : (t.nr > 8 ? t.nr - 8 : 0))}};
  float *c = t.c;
  if (t.accumulate) {
    TFRT_FALLBACK_UNROLL
    for (int r = 0; r < MR; ++r)
      TFRT_FALLBACK_UNROLL
    for (int h = 0; h < NV; ++h)
      acc[r][h] = _mm256_add_ps(acc[r][h], cols[h].load(c + r * t.ldc + 8 * h));
  }
  if (t.epilogue)
    applyEpilogue<MR, NV>(acc, *t.epilogue, t.col0, cols, c, t.ldc);
  TFRT_FALLBACK_UNROLL
  for (int r = 0; r < MR; ++r)
    TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h)
    cols[h].store(c + r * t.ldc + 8 * h, acc[r][h]);
}

template <int NV> void kernelRows(const MicroTile &t) {
  switch (t.mr) {
  case 1:
    return kernel<1, NV>(t);
  case 2:
    return kernel<2, NV>(t);
  case 3:
    return kernel<3, NV>(t);
  case 4:
    return kernel<4, NV>(t);
  case 5:
    return kernel<5, NV>(t);
  default:
    return kernel<6, NV>(t);
  }
}

void microKernel(const MicroTile &t) {
  if (t.nr > 8)
    kernelRows<2>(t);
  else
    kernelRows<1>(t);
}

} // namespace

const MicroKernelInfo kAvx2MicroKernel = {"avx2 6x16", kMR, kNR, 512,
                                          microKernel};

} // namespace tfrt_fallback::rt::gemm::detail

//===- GemmAvx512.cpp - The 14x32 AVX-512F GEMM microkernel -----*- C++ -*-===//
//
// Compiled with -mavx512f -mavx2 -mfma whatever the runtime's -march, and
// only called after isaSupported(Isa::Avx512): a CPU without AVX-512 (part
// of the fleet) never reaches this code. Nothing here may be an inline
// function or template shared with other files (see GemmMicroKernels.h):
// everything is in an anonymous namespace and uses intrinsics only.
//
// Registers: 28 zmm accumulators (14 rows x 2 vectors of 16 columns), 2 for
// the B row, 1 for the broadcast A value. Partial tiles use AVX-512 lane
// masks for loads and stores; tiles of at most 16 columns use one vector.
//
//===----------------------------------------------------------------------===//

// GCC 12's avx512fintrin.h builds masked loads from an uninitialized
// vector, which -Wmaybe-uninitialized reports in every instantiation.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include "GemmMicroKernels.h"
#include "Unroll.h"

#include <immintrin.h>

namespace tfrt_fallback::rt::gemm::detail {
namespace {

constexpr int kMR = 14, kNR = 32;

template <int MR, int NV>
__attribute__((always_inline)) inline void
applyEpilogue(__m512 (&acc)[MR][NV], const TileEpilogue &ep, int64_t col0,
              const __mmask16 (&masks)[2], const float *c, int64_t ldc) {
  const float *addend =
      ep.addend ? reinterpret_cast<const float *>(
                      reinterpret_cast<const char *>(c) + ep.addendOffset)
                : nullptr;
  TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h) {
    const int64_t j = col0 + 16 * h;
    const __mmask16 mask = masks[h];
    if (ep.bias) {
      const __m512 bias = _mm512_maskz_loadu_ps(mask, ep.bias + j);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm512_add_ps(acc[r][h], bias);
    } else if (ep.bnMean) {
      const __m512 mean = _mm512_maskz_loadu_ps(mask, ep.bnMean + j);
      const __m512 factor = _mm512_maskz_loadu_ps(mask, ep.bnFactor + j);
      const __m512 offset = _mm512_maskz_loadu_ps(mask, ep.bnOffset + j);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm512_add_ps(
            _mm512_mul_ps(_mm512_sub_ps(acc[r][h], mean), factor), offset);
    }
    if (addend) {
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm512_add_ps(
            acc[r][h], _mm512_maskz_loadu_ps(mask, addend + r * ldc + 16 * h));
    }
    const __m512 zero = _mm512_setzero_ps();
    switch (ep.activation) {
    case TileActivation::None:
      break;
    case TileActivation::Relu:
      // max(0, x) returns its second operand, x, when either is NaN.
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm512_max_ps(zero, acc[r][h]);
      break;
    case TileActivation::Relu6: {
      const __m512 six = _mm512_set1_ps(6.0f);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r)
        acc[r][h] = _mm512_min_ps(six, _mm512_max_ps(zero, acc[r][h]));
      break;
    }
    case TileActivation::LeakyRelu:
    case TileActivation::Prelu: {
      const __m512 alpha = ep.activation == TileActivation::Prelu
                               ? _mm512_maskz_loadu_ps(mask, ep.prelu + j)
                               : _mm512_set1_ps(ep.alpha);
      TFRT_FALLBACK_UNROLL
      for (int r = 0; r < MR; ++r) {
        // Not greater than zero (NaN included): x * alpha.
        const __mmask16 notPositive =
            _mm512_cmp_ps_mask(acc[r][h], zero, _CMP_NGT_UQ);
        acc[r][h] =
            _mm512_mask_mul_ps(acc[r][h], notPositive, acc[r][h], alpha);
      }
      break;
    }
    }
  }
}

/// MR rows by NV vectors of 16 columns: NV = 1 for tiles of at most 16
/// columns, which then cost half the FMAs (the panel's other half is zeros).
template <int MR, int NV> void kernel(const MicroTile &t) {
  __m512 acc[MR][NV];
  TFRT_FALLBACK_UNROLL
  for (int r = 0; r < MR; ++r)
    TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h)
    acc[r][h] = _mm512_setzero_ps();
  const float *a = t.a;
  const float *b = t.b;
  const int64_t lda = t.lda;
  for (int64_t p = 0; p < t.kc; ++p, b += kNR, ++a) {
    __m512 bv[NV];
    TFRT_FALLBACK_UNROLL
    for (int h = 0; h < NV; ++h)
      bv[h] = _mm512_loadu_ps(b + 16 * h);
    TFRT_FALLBACK_UNROLL
    for (int r = 0; r < MR; ++r) {
      const __m512 x = _mm512_set1_ps(a[r * lda]);
      TFRT_FALLBACK_UNROLL
      for (int h = 0; h < NV; ++h)
        acc[r][h] = _mm512_fmadd_ps(x, bv[h], acc[r][h]);
    }
  }
  const int nr = t.nr;
  const __mmask16 masks[2] = {
      static_cast<__mmask16>(nr >= 16 ? 0xffff : (1u << nr) - 1),
      static_cast<__mmask16>(nr >= 32  ? 0xffff
                             : nr > 16 ? (1u << (nr - 16)) - 1
                                       : 0)};
  float *c = t.c;
  if (t.accumulate) {
    TFRT_FALLBACK_UNROLL
    for (int r = 0; r < MR; ++r)
      TFRT_FALLBACK_UNROLL
    for (int h = 0; h < NV; ++h)
      acc[r][h] = _mm512_add_ps(
          acc[r][h], _mm512_maskz_loadu_ps(masks[h], c + r * t.ldc + 16 * h));
  }
  if (t.epilogue)
    applyEpilogue<MR, NV>(acc, *t.epilogue, t.col0, masks, c, t.ldc);
  TFRT_FALLBACK_UNROLL
  for (int r = 0; r < MR; ++r)
    TFRT_FALLBACK_UNROLL
  for (int h = 0; h < NV; ++h)
    _mm512_mask_storeu_ps(c + r * t.ldc + 16 * h, masks[h], acc[r][h]);
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
  case 6:
    return kernel<6, NV>(t);
  case 7:
    return kernel<7, NV>(t);
  case 8:
    return kernel<8, NV>(t);
  case 9:
    return kernel<9, NV>(t);
  case 10:
    return kernel<10, NV>(t);
  case 11:
    return kernel<11, NV>(t);
  case 12:
    return kernel<12, NV>(t);
  case 13:
    return kernel<13, NV>(t);
  default:
    return kernel<14, NV>(t);
  }
}

void microKernel(const MicroTile &t) {
  if (t.nr > 16)
    kernelRows<2>(t);
  else
    kernelRows<1>(t);
}

} // namespace

const MicroKernelInfo kAvx512MicroKernel = {"avx512 14x32", kMR, kNR, 256,
                                            microKernel};

} // namespace tfrt_fallback::rt::gemm::detail

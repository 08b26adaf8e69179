//===- DepthwiseAvx2.cpp - AVX2 depthwise convolution rows ------*- C++ -*-===//
//
// Compiled with -mavx2 -mfma whatever the runtime's -march, and only called
// after gemm::activeIsa() says Isa::Avx2 or better (an AVX-512 CPU takes
// DepthwiseAvx512.cpp's rows where they fit, these for a multiple of 8
// channels that is not one of 16 at a stride above 1;
// TFRT_FALLBACK_ISA=avx2 forces these). The rows are DepthwiseVectorRows.h's,
// in vectors of 8 floats, for a multiple of 8 channels (32-byte vectors on
// whole 64-byte lines when the tensor starts on one), or groups of adjacent
// pixels that fill whole vectors at stride 1. What they add to the portable
// path is the epilogue in
// registers: the portable loop loses its vector form when anything follows
// its taps, and a separate pass over each chunk cost half as much again as
// the taps (a 112x112x96 3x3 layer with bias and Relu6: 0.33 ms without,
// 0.49 with).
//
//===----------------------------------------------------------------------===//

#include "compute/DepthwiseRows.h"

#include <immintrin.h>

namespace tfrt_fallback::rt::kernels {
namespace {

struct Avx2Vec {
  using Type = __m256;
  static constexpr int kLanes = 8;
  static __m256 zero() { return _mm256_setzero_ps(); }
  static __m256 set1(float x) { return _mm256_set1_ps(x); }
  static __m256 load(const float *p) { return _mm256_loadu_ps(p); }
  static void store(float *p, __m256 v) { _mm256_storeu_ps(p, v); }
  static __m256 fma(__m256 a, __m256 b, __m256 c) {
    return _mm256_fmadd_ps(a, b, c);
  }
  static __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
  static __m256 max(__m256 a, __m256 b) { return _mm256_max_ps(a, b); }
  static __m256 min(__m256 a, __m256 b) { return _mm256_min_ps(a, b); }
};

} // namespace
} // namespace tfrt_fallback::rt::kernels

#include "compute/DepthwiseVectorRows.h"

namespace tfrt_fallback::rt::kernels {

void depthwiseRowAvx2(const float *base, const int64_t *rowOffset,
                      const float *const *filters, int nTaps,
                      int64_t pixelStride, int64_t channels, int64_t n,
                      float *out, const float *bias,
                      DepthwiseActivation activation) {
  depthwiseRow<Avx2Vec>(base, rowOffset, filters, nTaps, pixelStride, channels,
                        n, out, bias, activation);
}

} // namespace tfrt_fallback::rt::kernels

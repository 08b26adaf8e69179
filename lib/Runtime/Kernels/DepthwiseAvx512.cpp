//===- DepthwiseAvx512.cpp - AVX-512F depthwise convolution rows -*- C++
//-*-===//
//
// Compiled with -mavx512f -mavx2 -mfma whatever the runtime's -march, and
// only called after gemm::activeIsa() says Isa::Avx512: a CPU without
// AVX-512 never reaches this code. Nothing here may be an inline function or
// template shared with other files: everything is in an anonymous namespace
// and uses intrinsics only.
//
// A block is P pixels x V vectors of 16 channels, P * V = 8 accumulators
// (two FMA units with a latency of four cycles need eight independent sums
// to stay busy). Each filter vector loaded serves the P pixels. Only for a
// multiple of 16 channels: then every pixel's vectors start on a 64-byte
// line when the tensor does; with 24 channels (a 96-byte pixel) every other
// 64-byte load would span two lines, and 16 + 8 channels in 32-byte vectors
// (the portable path) are faster (measured: 24, 40, 72 and 88 channels 7%
// to 18% slower in 64-byte vectors, 48 and 96 channels 15% and 24% faster).
// Other channel counts come here at stride 1 as groups of adjacent pixels
// whose channels fill whole vectors (ConvKernels.cpp, depthwisePixelGroup:
// two pixels of 24 channels are one "pixel" of 48), which keeps every
// vector on whole 64-byte lines where the tensor starts on one.
//
//===----------------------------------------------------------------------===//

#include "DepthwiseRows.h"
#include "Unroll.h"

#include <immintrin.h>

namespace tfrt_fallback::rt::kernels {
namespace {

/// The epilogue a row applies in registers.
struct RowEpilogue {
  const float *bias;
  DepthwiseActivation activation;
};

/// Pixels [0, P) x channels [c, c + 16 * V).
template <int P, int V>
__attribute__((always_inline)) inline void
block(const float *base, const int64_t *rowOffset, const float *const *filters,
      int nTaps, int64_t pixelStride, int64_t c, int64_t channels, float *out,
      const RowEpilogue &epilogue) {
  __m512 acc[P][V];
  TFRT_FALLBACK_UNROLL
  for (int p = 0; p < P; ++p)
    TFRT_FALLBACK_UNROLL
  for (int v = 0; v < V; ++v)
    acc[p][v] = _mm512_setzero_ps();
  for (int t = 0; t < nTaps; ++t) {
    const float *f = filters[t] + c;
    const float *x = base + rowOffset[t] + c;
    __m512 fv[V];
    TFRT_FALLBACK_UNROLL
    for (int v = 0; v < V; ++v)
      fv[v] = _mm512_loadu_ps(f + 16 * v);
    TFRT_FALLBACK_UNROLL
    for (int p = 0; p < P; ++p)
      TFRT_FALLBACK_UNROLL
    for (int v = 0; v < V; ++v)
      acc[p][v] = _mm512_fmadd_ps(_mm512_loadu_ps(x + p * pixelStride + 16 * v),
                                  fv[v], acc[p][v]);
  }
  if (epilogue.bias) {
    TFRT_FALLBACK_UNROLL
    for (int v = 0; v < V; ++v) {
      const __m512 b = _mm512_loadu_ps(epilogue.bias + c + 16 * v);
      TFRT_FALLBACK_UNROLL
      for (int p = 0; p < P; ++p)
        acc[p][v] = _mm512_add_ps(acc[p][v], b);
    }
  }
  if (epilogue.activation != DepthwiseActivation::None) {
    TFRT_FALLBACK_UNROLL
    for (int p = 0; p < P; ++p)
      TFRT_FALLBACK_UNROLL
    for (int v = 0; v < V; ++v)
      acc[p][v] = _mm512_max_ps(acc[p][v], _mm512_setzero_ps());
  }
  if (epilogue.activation == DepthwiseActivation::Relu6) {
    TFRT_FALLBACK_UNROLL
    for (int p = 0; p < P; ++p)
      TFRT_FALLBACK_UNROLL
    for (int v = 0; v < V; ++v)
      acc[p][v] = _mm512_min_ps(acc[p][v], _mm512_set1_ps(6.0f));
  }
  TFRT_FALLBACK_UNROLL
  for (int p = 0; p < P; ++p)
    TFRT_FALLBACK_UNROLL
  for (int v = 0; v < V; ++v)
    _mm512_storeu_ps(out + p * channels + c + 16 * v, acc[p][v]);
}

} // namespace

void depthwiseRowAvx512(const float *base, const int64_t *rowOffset,
                        const float *const *filters, int nTaps,
                        int64_t pixelStride, int64_t channels, int64_t n,
                        float *out, const float *bias,
                        DepthwiseActivation activation) {
  const RowEpilogue epilogue{bias, activation};
  const int64_t numVectors = channels / 16;
  // Pairs of vectors over groups of 4 pixels, every pair of a group before
  // the next group (the input streams in order).
  const int64_t pairs = numVectors / 2;
  int64_t p = 0;
  for (; p + 4 <= n; p += 4)
    for (int64_t i = 0; i < pairs; ++i)
      block<4, 2>(base + p * pixelStride, rowOffset, filters, nTaps,
                  pixelStride, 32 * i, channels, out + p * channels, epilogue);
  for (; p < n; ++p)
    for (int64_t i = 0; i < pairs; ++i)
      block<1, 2>(base + p * pixelStride, rowOffset, filters, nTaps,
                  pixelStride, 32 * i, channels, out + p * channels, epilogue);
  // An odd last vector over groups of 8 pixels.
  if (numVectors % 2 == 0)
    return;
  const int64_t c = 16 * (numVectors - 1);
  for (p = 0; p + 8 <= n; p += 8)
    block<8, 1>(base + p * pixelStride, rowOffset, filters, nTaps, pixelStride,
                c, channels, out + p * channels, epilogue);
  for (; p < n; ++p)
    block<1, 1>(base + p * pixelStride, rowOffset, filters, nTaps, pixelStride,
                c, channels, out + p * channels, epilogue);
}

} // namespace tfrt_fallback::rt::kernels

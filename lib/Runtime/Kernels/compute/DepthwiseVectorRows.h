//===- DepthwiseVectorRows.h - Depthwise rows per vector --------*- C++ -*-===//
//
// Private to the per-ISA depthwise files (DepthwiseAvx512.cpp,
// DepthwiseAvx2.cpp, DepthwiseNeon.cpp, DepthwiseNeonFp16.cpp), each
// compiled for its instruction set: everything here is in an anonymous
// namespace, so every file that includes it gets its own copy compiled with its
// own flags (a template shared across those files would let the linker keep one
// instruction set's copy for all of them). It is written over the same vector
// traits as the GEMM's (Avx2Vec.h, Avx512Vec.h, NeonVec.h; NeonHalfVec.h, whose
// element is the half's bits: the f16 rows sum in f16).
//
// A block is P pixels x V vectors of Vec::kLanes channels, P * V = 8
// accumulators (two FMA units with a latency of four cycles need eight
// independent sums to stay busy). Each filter vector loaded serves the P
// pixels. Every pixel's channels are a whole number of vectors: `channels`
// is a multiple of Vec::kLanes (ConvKernels.cpp groups adjacent pixels
// into one "pixel" when their channels alone are not: depthwisePixelGroup).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DEPTHWISEVECTORROWS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DEPTHWISEVECTORROWS_H

#include "compute/DepthwiseRows.h"
#include "compute/Unroll.h"
#include "compute/VecTraits.h"

#include <cstdint>
#include <type_traits>

namespace tfrt_fallback::rt::kernels {
namespace {

/// The epilogue a row applies in registers.
template <typename E> struct RowEpilogue {
  const E *bias;
  DepthwiseActivation activation;
};

/// Pixels [0, P) x channels [c, c + Vec::kLanes * V).
template <typename Vec, int P, int V, typename E = typename Vec::Elem>
__attribute__((always_inline)) inline void
block(const E *base, const int64_t *rowOffset, const E *const *filters,
      int nTaps, int64_t pixelStride, int64_t c, int64_t channels, E *out,
      const RowEpilogue<E> &epilogue) {
  using T = typename Vec::Type;
  constexpr int L = Vec::kLanes;
  T acc[P][V];
  TFRT_FALLBACK_UNROLL
  for (int p = 0; p < P; ++p)
    TFRT_FALLBACK_UNROLL
  for (int v = 0; v < V; ++v)
    acc[p][v] = Vec::zero();
  for (int t = 0; t < nTaps; ++t) {
    const E *f = filters[t] + c;
    const E *x = base + rowOffset[t] + c;
    T fv[V];
    if constexpr (V == 4 && simd::kHasLoadX4<Vec>) {
      // A pixel's four vectors, and the filter's, with one load each; the
      // pixels through one pointer stepped by the loads (post-indexed by
      // register: the empty asm keeps the compiler from computing each
      // pixel's address from the first).
      Vec::loadX4(f, fv);
      const E *xp = x;
      TFRT_FALLBACK_UNROLL
      for (int p = 0; p < P; ++p) {
        T xv[4];
        Vec::loadX4(xp, xv);
        xp += pixelStride;
        asm("" : "+r"(xp));
        TFRT_FALLBACK_UNROLL
        for (int v = 0; v < V; ++v)
          acc[p][v] = Vec::fma(xv[v], fv[v], acc[p][v]);
      }
    } else {
      TFRT_FALLBACK_UNROLL
      for (int v = 0; v < V; ++v)
        fv[v] = Vec::load(f + L * v);
      TFRT_FALLBACK_UNROLL
      for (int p = 0; p < P; ++p)
        TFRT_FALLBACK_UNROLL
      for (int v = 0; v < V; ++v)
        acc[p][v] =
            Vec::fma(Vec::load(x + p * pixelStride + L * v), fv[v], acc[p][v]);
    }
  }
  // The epilogue in Epilogue::apply's order: bias, then the activation,
  // which passes NaN on as Eigen's max and min do (the vector max and min
  // return their second operand when either is NaN).
  if (epilogue.bias) {
    TFRT_FALLBACK_UNROLL
    for (int v = 0; v < V; ++v) {
      const T b = Vec::load(epilogue.bias + c + L * v);
      TFRT_FALLBACK_UNROLL
      for (int p = 0; p < P; ++p)
        acc[p][v] = Vec::add(acc[p][v], b);
    }
  }
  if (epilogue.activation != DepthwiseActivation::None) {
    TFRT_FALLBACK_UNROLL
    for (int p = 0; p < P; ++p)
      TFRT_FALLBACK_UNROLL
    for (int v = 0; v < V; ++v)
      acc[p][v] = Vec::max(Vec::zero(), acc[p][v]);
  }
  if (epilogue.activation == DepthwiseActivation::Relu6) {
    TFRT_FALLBACK_UNROLL
    for (int p = 0; p < P; ++p)
      TFRT_FALLBACK_UNROLL
    for (int v = 0; v < V; ++v)
      acc[p][v] = Vec::min(Vec::set1(6.0f), acc[p][v]);
  }
  TFRT_FALLBACK_UNROLL
  for (int p = 0; p < P; ++p)
    TFRT_FALLBACK_UNROLL
  for (int v = 0; v < V; ++v)
    Vec::store(out + p * channels + c + L * v, acc[p][v]);
}

/// How many vectors of channels a block of 4 pixels takes when the
/// channels allow: the trait's kDepthwiseVectors (NEON's 32 registers hold
/// 4 x 4 sums, which halves the per-tap address work), else 2.
template <typename Vec, typename = void>
inline constexpr int kDepthwiseVectors = 2;
template <typename Vec>
inline constexpr int
    kDepthwiseVectors<Vec, std::void_t<decltype(Vec::kDepthwiseVectors)>> =
        Vec::kDepthwiseVectors;

/// depthwiseRowAvx512's contract (DepthwiseRows.h) for vectors of Vec.
template <typename Vec, typename E = typename Vec::Elem>
void depthwiseRow(const E *base, const int64_t *rowOffset,
                  const E *const *filters, int nTaps, int64_t pixelStride,
                  int64_t channels, int64_t n, E *out, const E *bias,
                  DepthwiseActivation activation) {
  constexpr int L = Vec::kLanes;
  constexpr int W = kDepthwiseVectors<Vec>;
  const RowEpilogue<E> epilogue{bias, activation};
  const int64_t numVectors = channels / L;
  // Blocks of W vectors, then pairs, over groups of 4 pixels, every block
  // of a group before the next group (the input streams in order).
  const int64_t wide = W > 2 ? numVectors / W : 0;
  const int64_t pairs = (numVectors - W * wide) / 2;
  const int64_t pairStart = W * L * wide;
  int64_t p = 0;
  for (; p + 4 <= n; p += 4) {
    if constexpr (W > 2)
      for (int64_t i = 0; i < wide; ++i)
        block<Vec, 4, W>(base + p * pixelStride, rowOffset, filters, nTaps,
                         pixelStride, W * L * i, channels, out + p * channels,
                         epilogue);
    for (int64_t i = 0; i < pairs; ++i)
      block<Vec, 4, 2>(base + p * pixelStride, rowOffset, filters, nTaps,
                       pixelStride, pairStart + 2 * L * i, channels,
                       out + p * channels, epilogue);
  }
  for (; p < n; ++p)
    for (int64_t i = 0; i < numVectors / 2; ++i)
      block<Vec, 1, 2>(base + p * pixelStride, rowOffset, filters, nTaps,
                       pixelStride, 2 * L * i, channels, out + p * channels,
                       epilogue);
  // An odd last vector over groups of 8 pixels.
  if (numVectors % 2 == 0)
    return;
  const int64_t c = L * (numVectors - 1);
  for (p = 0; p + 8 <= n; p += 8)
    block<Vec, 8, 1>(base + p * pixelStride, rowOffset, filters, nTaps,
                     pixelStride, c, channels, out + p * channels, epilogue);
  for (; p < n; ++p)
    block<Vec, 1, 1>(base + p * pixelStride, rowOffset, filters, nTaps,
                     pixelStride, c, channels, out + p * channels, epilogue);
}

} // namespace
} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DEPTHWISEVECTORROWS_H

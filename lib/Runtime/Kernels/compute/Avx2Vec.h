//===- Avx2Vec.h - The AVX2 vector trait ------------------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the AVX2 + FMA vector trait that the
// instruction-set templates are written over (GemmVectorTile.h's
// microkernel, DepthwiseVectorRows.h's rows): one per instruction set, for
// every template. Included only by files compiled with -mavx2 -mfma; the trait
// is in an anonymous namespace, so each such file's instantiations are its
// own and the linker never mixes them with another instruction set's.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_AVX2VEC_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_AVX2VEC_H

#include <immintrin.h>

namespace tfrt_fallback::rt::simd {
namespace {

/// Lane masks for the first `count` (0..8) of 8 lanes.
alignas(32) const int kMaskTable[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
                                        0,  0,  0,  0,  0,  0,  0,  0};

struct Avx2Vec {
  using Elem = float;
  using Type = __m256;
  static constexpr int kLanes = 8;
  /// A partial vector's lanes; whole vectors use plain loads and stores.
  struct Mask {
    bool full;
    __m256i bits;
  };
  static Mask mask(int count) {
    return {count == kLanes,
            _mm256_loadu_si256(
                reinterpret_cast<const __m256i *>(kMaskTable + 8 - count))};
  }
  static __m256 zero() { return _mm256_setzero_ps(); }
  static __m256 set1(float x) { return _mm256_set1_ps(x); }
  static __m256 broadcast(const float *p) { return _mm256_broadcast_ss(p); }
  static __m256 load(const float *p) { return _mm256_loadu_ps(p); }
  static void store(float *p, __m256 v) { _mm256_storeu_ps(p, v); }
  static __m256 maskLoad(const Mask &m, const float *p) {
    return m.full ? _mm256_loadu_ps(p) : _mm256_maskload_ps(p, m.bits);
  }
  static void maskStore(float *p, const Mask &m, __m256 v) {
    if (m.full)
      _mm256_storeu_ps(p, v);
    else
      _mm256_maskstore_ps(p, m.bits, v);
  }
  static __m256 fma(__m256 a, __m256 b, __m256 c) {
    return _mm256_fmadd_ps(a, b, c);
  }
  static __m256 add(__m256 a, __m256 b) { return _mm256_add_ps(a, b); }
  static __m256 sub(__m256 a, __m256 b) { return _mm256_sub_ps(a, b); }
  static __m256 mul(__m256 a, __m256 b) { return _mm256_mul_ps(a, b); }
  static __m256 max(__m256 a, __m256 b) { return _mm256_max_ps(a, b); }
  static __m256 min(__m256 a, __m256 b) { return _mm256_min_ps(a, b); }
  static __m256 leaky(__m256 x, __m256 alpha) {
    const __m256 positive = _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ);
    return _mm256_blendv_ps(_mm256_mul_ps(x, alpha), x, positive);
  }
};

} // namespace
} // namespace tfrt_fallback::rt::simd

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_AVX2VEC_H

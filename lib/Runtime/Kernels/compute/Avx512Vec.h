//===- Avx512Vec.h - The AVX-512 vector trait -------------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the AVX-512F vector trait that the
// instruction-set templates are written over (GemmVectorTile.h's
// microkernel, DepthwiseVectorRows.h's rows): one per instruction set, for
// every template. Included only by files compiled with -mavx512f -mavx2 -mfma;
// the trait is in an anonymous namespace, so each such file's instantiations
// are its own and the linker never mixes them with another instruction set's.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_AVX512VEC_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_AVX512VEC_H

#include <immintrin.h>

// GCC 12's avx512fintrin.h builds masked loads from an uninitialized
// vector, which -Wmaybe-uninitialized reports in every instantiation.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace tfrt_fallback::rt::simd {
namespace {

struct Avx512Vec {
  using Elem = float;
  using Type = __m512;
  static constexpr int kLanes = 16;
  using Mask = __mmask16;
  static __mmask16 mask(int count) {
    return static_cast<__mmask16>(count >= 16 ? 0xffff : (1u << count) - 1);
  }
  static __m512 zero() { return _mm512_setzero_ps(); }
  static __m512 set1(float x) { return _mm512_set1_ps(x); }
  static __m512 broadcast(const float *p) { return _mm512_set1_ps(*p); }
  static __m512 load(const float *p) { return _mm512_loadu_ps(p); }
  static void store(float *p, __m512 v) { _mm512_storeu_ps(p, v); }
  static __m512 maskLoad(__mmask16 m, const float *p) {
    return _mm512_maskz_loadu_ps(m, p);
  }
  static void maskStore(float *p, __mmask16 m, __m512 v) {
    _mm512_mask_storeu_ps(p, m, v);
  }
  static __m512 fma(__m512 a, __m512 b, __m512 c) {
    return _mm512_fmadd_ps(a, b, c);
  }
  static __m512 add(__m512 a, __m512 b) { return _mm512_add_ps(a, b); }
  static __m512 sub(__m512 a, __m512 b) { return _mm512_sub_ps(a, b); }
  static __m512 mul(__m512 a, __m512 b) { return _mm512_mul_ps(a, b); }
  static __m512 max(__m512 a, __m512 b) { return _mm512_max_ps(a, b); }
  static __m512 min(__m512 a, __m512 b) { return _mm512_min_ps(a, b); }
  static __m512 leaky(__m512 x, __m512 alpha) {
    // Not greater than zero (NaN included): x * alpha.
    const __mmask16 notPositive =
        _mm512_cmp_ps_mask(x, _mm512_setzero_ps(), _CMP_NGT_UQ);
    return _mm512_mask_mul_ps(x, notPositive, x, alpha);
  }
};

} // namespace
} // namespace tfrt_fallback::rt::simd

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_AVX512VEC_H

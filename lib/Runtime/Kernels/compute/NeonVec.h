//===- NeonVec.h - The AArch64 Advanced SIMD vector trait -------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the NEON (AArch64 Advanced SIMD) vector
// trait that the instruction-set templates are written over
// (GemmVectorTile.h's microkernel, DepthwiseVectorRows.h's rows), in the
// shape of Avx2Vec.h. NEON is part of every AArch64 CPU, so the files that
// include it need no extra flags; the trait is still in an anonymous
// namespace, like the x86 ones, so each file's instantiations are its own.
//
// Beyond the common trait it offers the lane FMA (kLaneFma, fmaLane<L>):
// `fmla v.4s, b.4s, a.s[L]` multiplies a vector by one lane of another, so
// the GEMM loads four k steps of an A row with one load instead of
// broadcasting each value (GemmVectorTile.h).
//
// NEON has no masked loads and stores: a partial vector goes through a
// small buffer (only the last columns of a GEMM tile are partial).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_NEONVEC_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_NEONVEC_H

#include "compute/VecTraits.h"

#include <arm_neon.h>

namespace tfrt_fallback::rt::simd {
namespace {

struct NeonVec {
  using Elem = float;
  using Type = float32x4_t;
  static constexpr int kLanes = 4;
  /// GemmVectorTile.h uses fmaLane<L> for four k steps per A load.
  static constexpr bool kLaneFma = true;
  /// DepthwiseVectorRows.h's blocks: 4 pixels x 4 vectors (16 sums).
  static constexpr int kDepthwiseVectors = 4;
  /// A partial vector's lanes: the first `count`.
  struct Mask {
    int count;
  };
  static Mask mask(int count) { return {count}; }
  static float32x4_t zero() { return vdupq_n_f32(0.0f); }
  static float32x4_t set1(float x) { return vdupq_n_f32(x); }
  static float32x4_t broadcast(const float *p) { return vld1q_dup_f32(p); }
  static float32x4_t load(const float *p) { return vld1q_f32(p); }
  /// The four vectors at p with one `ld1 {4 registers}` (GemmVectorTile.h:
  /// two k steps of B per load; DepthwiseVectorRows.h).
  static constexpr bool kLoadX4 = true;
  static void loadX4(const float *p, float32x4_t (&v)[4]) {
    const float32x4x4_t x = vld1q_f32_x4(p);
    v[0] = x.val[0], v[1] = x.val[1], v[2] = x.val[2], v[3] = x.val[3];
  }
  /// loadX4(p, v), then p past the four vectors, as one post-indexed
  /// `ld1 {v16-v19}, [p], #64` (Bank 0; Bank 1: v20-v23). In assembly for
  /// loadAdvance's reason (a separate add otherwise); `ld1` needs four
  /// consecutive registers, which only named ones guarantee.
  template <int Bank>
  static void loadX4Advance(const float *&p, float32x4_t (&v)[4]) {
    static_assert(Bank == 0 || Bank == 1, "two banks of four");
#define TFRT_FALLBACK_LD1X4(a, b, c, d)                                        \
  register float32x4_t v0 asm(a), v1 asm(b), v2 asm(c), v3 asm(d);             \
  asm("ld1 {" a ".4s, " b ".4s, " c ".4s, " d ".4s}, [%4], #64"                \
      : "=w"(v0), "=w"(v1), "=w"(v2), "=w"(v3), "+r"(p)                        \
      : "m"(*reinterpret_cast<const float (*)[64 / sizeof(float)]>(p)));       \
  v[0] = v0, v[1] = v1, v[2] = v2, v[3] = v3;
    if constexpr (Bank == 0) {
      TFRT_FALLBACK_LD1X4("v16", "v17", "v18", "v19")
    } else {
      TFRT_FALLBACK_LD1X4("v20", "v21", "v22", "v23")
    }
#undef TFRT_FALLBACK_LD1X4
  }
  static void store(float *p, float32x4_t v) { vst1q_f32(p, v); }
  /// load(p), then p += 4, as one post-indexed `ldr q, [p], #16`. Written
  /// in assembly because LLVM's loop strength reduction folds the GEMM's
  /// eight A-row pointers, which advance together, back into one base plus
  /// row offsets: an add per row and k step.
  static float32x4_t loadAdvance(const float *&p) {
    float32x4_t v;
    asm("ldr %q0, [%1], #16"
        : "=w"(v), "+r"(p)
        : "m"(*reinterpret_cast<const float (*)[4]>(p)));
    return v;
  }
  static float32x4_t maskLoad(const Mask &m, const float *p) {
    return bufferedMaskLoad<NeonVec>(m.count, p);
  }
  static void maskStore(float *p, const Mask &m, float32x4_t v) {
    bufferedMaskStore<NeonVec>(p, m.count, v);
  }
  static float32x4_t fma(float32x4_t a, float32x4_t b, float32x4_t c) {
    return vfmaq_f32(c, a, b);
  }
  /// c + b * a[L].
  template <int L>
  static float32x4_t fmaLane(float32x4_t a, float32x4_t b, float32x4_t c) {
    return vfmaq_laneq_f32(c, b, a, L);
  }
  /// b * a[L].
  template <int L> static float32x4_t mulLane(float32x4_t a, float32x4_t b) {
    return vmulq_laneq_f32(b, a, L);
  }
  static float32x4_t add(float32x4_t a, float32x4_t b) {
    return vaddq_f32(a, b);
  }
  static float32x4_t sub(float32x4_t a, float32x4_t b) {
    return vsubq_f32(a, b);
  }
  static float32x4_t mul(float32x4_t a, float32x4_t b) {
    return vmulq_f32(a, b);
  }
  // FMAX and FMIN return NaN when either operand is NaN: max(0, x) and
  // min(6, x) pass a NaN x on, as the x86 traits' operand order does.
  static float32x4_t max(float32x4_t a, float32x4_t b) {
    return vmaxq_f32(a, b);
  }
  static float32x4_t min(float32x4_t a, float32x4_t b) {
    return vminq_f32(a, b);
  }
  static float32x4_t leaky(float32x4_t x, float32x4_t alpha) {
    const uint32x4_t positive = vcgtq_f32(x, vdupq_n_f32(0.0f));
    return vbslq_f32(positive, x, vmulq_f32(x, alpha));
  }
};

} // namespace
} // namespace tfrt_fallback::rt::simd

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_NEONVEC_H

//===- NeonHalfVec.h - The AArch64 FP16 vector trait ------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: NeonVec.h's trait for vectors of 8 IEEE
// halves with the ARMv8.2 half-precision arithmetic (FEAT_FP16: `fmla
// v.8h`, `fmax v.8h`...), for the f16 GEMM (GemmNeonFp16.cpp) and the f16
// depthwise rows (DepthwiseNeonFp16.cpp). Only files compiled with
// -march=armv8.2-a+fp16 include it, and they run only after
// isaSupported(Isa::NeonFp16) (HWCAP_ASIMDHP) said yes.
//
// The element in memory is uint16_t, the half's bits (the runtime's
// Eigen::half and the GEMM's interface), read and written as float16_t.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_NEONHALFVEC_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_NEONHALFVEC_H

#include "compute/VecTraits.h"

#include <arm_neon.h>

#include <cstdint>

#if !defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#error "NeonHalfVec.h needs -march=armv8.2-a+fp16"
#endif

namespace tfrt_fallback::rt::simd {
namespace {

struct NeonHalfVec {
  using Elem = uint16_t;
  using Type = float16x8_t;
  static constexpr int kLanes = 8;
  /// GemmVectorTile.h uses fmaLane<L> for eight k steps per A load.
  static constexpr bool kLaneFma = true;
  /// DepthwiseVectorRows.h's blocks: 4 pixels x 4 vectors (16 sums).
  static constexpr int kDepthwiseVectors = 4;
  struct Mask {
    int count;
  };
  static Mask mask(int count) { return {count}; }

  static const float16_t *cast(const uint16_t *p) {
    return reinterpret_cast<const float16_t *>(p);
  }
  static float16_t *cast(uint16_t *p) {
    return reinterpret_cast<float16_t *>(p);
  }

  static float16x8_t zero() { return vdupq_n_f16(0.0f); }
  static float16x8_t set1(float x) {
    return vdupq_n_f16(static_cast<float16_t>(x));
  }
  static float16x8_t broadcast(const uint16_t *p) {
    return vld1q_dup_f16(cast(p));
  }
  static float16x8_t load(const uint16_t *p) { return vld1q_f16(cast(p)); }
  /// The four vectors at p with one `ld1 {4 registers}` (GemmVectorTile.h:
  /// two k steps of B per load; DepthwiseVectorRows.h).
  static constexpr bool kLoadX4 = true;
  static void loadX4(const uint16_t *p, float16x8_t (&v)[4]) {
    const float16x8x4_t x = vld1q_f16_x4(cast(p));
    v[0] = x.val[0], v[1] = x.val[1], v[2] = x.val[2], v[3] = x.val[3];
  }
  /// loadX4(p, v), then p past the four vectors, as one post-indexed
  /// `ld1 {v16-v19}, [p], #64` (Bank 0; Bank 1: v20-v23). In assembly for
  /// loadAdvance's reason (a separate add otherwise); `ld1` needs four
  /// consecutive registers, which only named ones guarantee.
  template <int Bank>
  static void loadX4Advance(const uint16_t *&p, float16x8_t (&v)[4]) {
    static_assert(Bank == 0 || Bank == 1, "two banks of four");
#define TFRT_FALLBACK_LD1X4(a, b, c, d)                                        \
  register float16x8_t v0 asm(a), v1 asm(b), v2 asm(c), v3 asm(d);             \
  asm("ld1 {" a ".8h, " b ".8h, " c ".8h, " d ".8h}, [%4], #64"                \
      : "=w"(v0), "=w"(v1), "=w"(v2), "=w"(v3), "+r"(p)                        \
      : "m"(*reinterpret_cast<const uint16_t (*)[64 / sizeof(uint16_t)]>(p))); \
  v[0] = v0, v[1] = v1, v[2] = v2, v[3] = v3;
    if constexpr (Bank == 0) {
      TFRT_FALLBACK_LD1X4("v16", "v17", "v18", "v19")
    } else {
      TFRT_FALLBACK_LD1X4("v20", "v21", "v22", "v23")
    }
#undef TFRT_FALLBACK_LD1X4
  }
  static void store(uint16_t *p, float16x8_t v) { vst1q_f16(cast(p), v); }
  /// load(p), then p += 8, as one post-indexed `ldr q` (NeonVec.h says why
  /// in assembly).
  static float16x8_t loadAdvance(const uint16_t *&p) {
    float16x8_t v;
    asm("ldr %q0, [%1], #16"
        : "=w"(v), "+r"(p)
        : "m"(*reinterpret_cast<const uint16_t (*)[8]>(p)));
    return v;
  }
  static float16x8_t maskLoad(const Mask &m, const uint16_t *p) {
    return bufferedMaskLoad<NeonHalfVec>(m.count, p);
  }
  static void maskStore(uint16_t *p, const Mask &m, float16x8_t v) {
    bufferedMaskStore<NeonHalfVec>(p, m.count, v);
  }
  static float16x8_t fma(float16x8_t a, float16x8_t b, float16x8_t c) {
    return vfmaq_f16(c, a, b);
  }
  /// c + b * a[L].
  template <int L>
  static float16x8_t fmaLane(float16x8_t a, float16x8_t b, float16x8_t c) {
    return vfmaq_laneq_f16(c, b, a, L);
  }
  /// b * a[L].
  template <int L> static float16x8_t mulLane(float16x8_t a, float16x8_t b) {
    return vmulq_laneq_f16(b, a, L);
  }
  static float16x8_t add(float16x8_t a, float16x8_t b) {
    return vaddq_f16(a, b);
  }
  static float16x8_t sub(float16x8_t a, float16x8_t b) {
    return vsubq_f16(a, b);
  }
  static float16x8_t mul(float16x8_t a, float16x8_t b) {
    return vmulq_f16(a, b);
  }
  // FMAX and FMIN pass a NaN on, as NeonVec's do.
  static float16x8_t max(float16x8_t a, float16x8_t b) {
    return vmaxq_f16(a, b);
  }
  static float16x8_t min(float16x8_t a, float16x8_t b) {
    return vminq_f16(a, b);
  }
  static float16x8_t leaky(float16x8_t x, float16x8_t alpha) {
    const uint16x8_t positive = vcgtq_f16(x, zero());
    return vbslq_f16(positive, x, vmulq_f16(x, alpha));
  }
};

} // namespace
} // namespace tfrt_fallback::rt::simd

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_NEONHALFVEC_H

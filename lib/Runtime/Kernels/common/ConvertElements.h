//===- ConvertElements.h - Arrays converted between float types -*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: `n` values converted from one element type
// to another, as static_cast would convert each (round to nearest even into
// the narrower type). Eigen's vectorized casts serve most pairs (F16C on
// x86-64-v3); on AArch64 Eigen converts Eigen::half one element at a time
// unless the whole build has the FP16 arithmetic, so f16 <-> f32 use
// ARMv8.0's own vector conversions here (FCVTL / FCVTN, four lanes each).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_CONVERTELEMENTS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_CONVERTELEMENTS_H

#include <Eigen/Core>

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace tfrt_fallback::rt::kernels {

/// to[i] = To(from[i]) for i in [0, n).
template <typename From, typename To>
void convertElements(const From *from, To *to, int64_t n) {
#if defined(__aarch64__)
  if constexpr (std::is_same_v<From, Eigen::half> &&
                std::is_same_v<To, float>) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
      float16x4_t h;
      std::memcpy(&h, from + i, sizeof(h));
      vst1q_f32(to + i, vcvt_f32_f16(h));
    }
    for (; i < n; ++i)
      to[i] = static_cast<float>(from[i]);
    return;
  } else if constexpr (std::is_same_v<From, float> &&
                       std::is_same_v<To, Eigen::half>) {
    int64_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const float16x4_t h = vcvt_f16_f32(vld1q_f32(from + i));
      std::memcpy(to + i, &h, sizeof(h));
    }
    for (; i < n; ++i)
      to[i] = static_cast<Eigen::half>(from[i]);
    return;
  }
#endif
  Eigen::Map<Eigen::Array<To, Eigen::Dynamic, 1>>(to, n) =
      Eigen::Map<const Eigen::Array<From, Eigen::Dynamic, 1>>(from, n)
          .template cast<To>();
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_CONVERTELEMENTS_H

//===- VecTraits.h - What a vector trait offers beyond the common set -----===//
//
// Private to the instruction-set templates (GemmVectorTile.h,
// DepthwiseVectorRows.h): compile-time questions about a vector trait
// (Avx2Vec.h, Avx512Vec.h, NeonVec.h, NeonHalfVec.h) for the operations
// only some of them have.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_VECTRAITS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_VECTRAITS_H

#include <type_traits>

namespace tfrt_fallback::rt::simd {

namespace detail {
template <typename Vec, typename = void> struct HasLoadX4 : std::false_type {};
template <typename Vec>
struct HasLoadX4<Vec, std::void_t<decltype(Vec::kLoadX4)>>
    : std::bool_constant<Vec::kLoadX4> {};
} // namespace detail

/// Whether Vec loads four consecutive vectors with one instruction
/// (Vec::kLoadX4: loadX4(p, v) and loadX4Advance<Bank>(p, v), NEON's
/// `ld1 {4 registers}`).
template <typename Vec>
inline constexpr bool kHasLoadX4 = detail::HasLoadX4<Vec>::value;

} // namespace tfrt_fallback::rt::simd

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_VECTRAITS_H

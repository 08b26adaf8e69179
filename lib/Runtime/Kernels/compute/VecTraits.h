//===- VecTraits.h - What a vector trait offers beyond the common set -----===//
//
// Private to the instruction-set templates (GemmVectorTile.h,
// DepthwiseVectorRows.h): compile-time questions about a vector trait
// (Avx2Vec.h, Avx512Vec.h, NeonVec.h, NeonHalfVec.h) for the operations
// only some of them have, and the partial vectors of the traits without
// masked loads. The traits live in anonymous namespaces, so every
// instantiation here is its file's own, compiled with that file's flags.
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

/// Vec::maskLoad for a trait without masked loads (NEON): the first
/// `count` lanes at p through a buffer, the others zero.
template <typename Vec>
typename Vec::Type bufferedMaskLoad(int count, const typename Vec::Elem *p) {
  if (count == Vec::kLanes)
    return Vec::load(p);
  typename Vec::Elem lanes[Vec::kLanes] = {};
  for (int i = 0; i < count; ++i)
    lanes[i] = p[i];
  return Vec::load(lanes);
}

/// Vec::maskStore likewise: the first `count` lanes of v to p.
template <typename Vec>
void bufferedMaskStore(typename Vec::Elem *p, int count, typename Vec::Type v) {
  if (count == Vec::kLanes) {
    Vec::store(p, v);
    return;
  }
  typename Vec::Elem lanes[Vec::kLanes];
  Vec::store(lanes, v);
  for (int i = 0; i < count; ++i)
    p[i] = lanes[i];
}

} // namespace tfrt_fallback::rt::simd

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_VECTRAITS_H

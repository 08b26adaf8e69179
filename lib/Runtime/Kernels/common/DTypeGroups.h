//===- DTypeGroups.h - Kernel dtype groups from DTypes.def ------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the dtype groups kernels register for, as
// TensorFlow's register_types.h (TF_CALL_FLOAT_TYPES, TF_CALL_INTEGRAL_TYPES,
// TF_CALL_REAL_NUMBER_TYPES) and TFRT's DTYPE_FLOAT name them, expanded from
// DTypes.def's rows, so that no kernel file lists dtypes again: a group is
// every buffer dtype of the table (not the opt-in complex and quantized
// ones) whose C++ element type is of the group's class, in the table's
// order. Each group is a TypeList for registerKernel's per-dtype form,
//
//   registerKernel<OpId::kSoftmax, Softmax>(registry, FloatTypes{});
//
// and a DType array (kFloatDTypes, ...) for a type constraint of its
// one-class form.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_DTYPEGROUPS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_DTYPEGROUPS_H

#include "tfrt_fallback/Runtime/DType.h"

#include <Eigen/Core>

#include <cstdint>
#include <type_traits>

namespace tfrt_fallback::rt::kernels {

/// A list of C++ element types.
template <typename... Ts> struct TypeList {};

namespace detail {
template <typename A, typename B> struct Concat;
template <typename... As, typename... Bs>
struct Concat<TypeList<As...>, TypeList<Bs...>> {
  using type = TypeList<As..., Bs...>;
};
/// The types T of List for which Pred<T>::value, in List's order.
template <template <typename> class Pred, typename List> struct Filter;
template <template <typename> class Pred> struct Filter<Pred, TypeList<>> {
  using type = TypeList<>;
};
template <template <typename> class Pred, typename T, typename... Ts>
struct Filter<Pred, TypeList<T, Ts...>> {
  using rest = typename Filter<Pred, TypeList<Ts...>>::type;
  using type =
      std::conditional_t<Pred<T>::value,
                         typename Concat<TypeList<T>, rest>::type, rest>;
};

/// DTypes.def's buffer rows, after a leading void (the rows expand as
/// ", CppType"); every group's predicate rejects void.
using TableTypes = TypeList<void
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  , CppType
#define TFRT_FALLBACK_DTYPE_OPT_IN(Enum, DataType, TFName, PyName, Name,       \
                                   CppType, Npy, Mlir)
#include "tfrt_fallback/Runtime/DTypes.def"
                            >;

template <typename T>
struct IsFloat : std::bool_constant<std::is_floating_point_v<T> ||
                                    std::is_same_v<T, Eigen::half> ||
                                    std::is_same_v<T, Eigen::bfloat16>> {};
template <typename T>
struct IsHalfFloat : std::bool_constant<std::is_same_v<T, Eigen::half> ||
                                        std::is_same_v<T, Eigen::bfloat16>> {};
template <typename T>
struct IsIntegral
    : std::bool_constant<std::is_integral_v<T> && !std::is_same_v<T, bool>> {};
template <typename T>
struct IsRealNumber
    : std::bool_constant<IsFloat<T>::value || IsIntegral<T>::value> {};

template <typename List> struct DTypesOf;
template <typename... Ts> struct DTypesOf<TypeList<Ts...>> {
  static constexpr DType value[] = {dtypeOf<Ts>()...};
};
} // namespace detail

/// TF_CALL_FLOAT_TYPES: f32, f64, bf16, f16.
using FloatTypes = detail::Filter<detail::IsFloat, detail::TableTypes>::type;
/// The 16-bit float types (bf16, f16), which the long-sum kernels compute
/// in f32 (ComputeInF32.h).
using HalfFloatTypes =
    detail::Filter<detail::IsHalfFloat, detail::TableTypes>::type;
/// TF_CALL_INTEGRAL_TYPES (with uint32 and uint64): every integer but bool.
using IntegralTypes =
    detail::Filter<detail::IsIntegral, detail::TableTypes>::type;
/// TF_CALL_REAL_NUMBER_TYPES: the float and integral types.
using RealNumberTypes =
    detail::Filter<detail::IsRealNumber, detail::TableTypes>::type;

/// The groups as DType arrays, for type constraints.
inline constexpr auto &kFloatDTypes = detail::DTypesOf<FloatTypes>::value;
inline constexpr auto &kIntegralDTypes = detail::DTypesOf<IntegralTypes>::value;
inline constexpr auto &kRealNumberDTypes =
    detail::DTypesOf<RealNumberTypes>::value;

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_DTYPEGROUPS_H

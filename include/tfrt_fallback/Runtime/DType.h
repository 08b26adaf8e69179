//===- DType.h - Tensor element types ---------------------------*- C++ -*-===//
//
// The element types of runtime tensors. Enumerator values follow
// TensorFlow's DataType numbering so programs and kernels can exchange them
// with TF tooling unchanged. Names follow the MLIR spelling ("f32", "i1").
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_DTYPE_H
#define TFRT_FALLBACK_RUNTIME_DTYPE_H

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

#include <Eigen/Core>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tfrt_fallback::rt {

/// Element type of a tensor, numbered like TensorFlow's DataType.
enum class DType : uint8_t {
  Invalid = 0,
  F32 = 1,
  F64 = 2,
  I32 = 3,
  U8 = 4,
  I16 = 5,
  I8 = 6,
  String = 7, // Declared for attribute round-trips; no tensor buffers.
  I64 = 9,
  Bool = 10,
  BF16 = 14,
  U16 = 17,
  F16 = 19,
  U32 = 22,
  U64 = 23,
};

/// Size in bytes of one element, or 0 for Invalid and String.
constexpr size_t dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::F64:
  case DType::I64:
  case DType::U64:
    return 8;
  case DType::I16:
  case DType::U16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I8:
  case DType::U8:
  case DType::Bool:
    return 1;
  case DType::Invalid:
  case DType::String:
    return 0;
  }
  return 0;
}

/// True for the dtypes a TensorBuffer can hold (every dtype except Invalid
/// and String).
constexpr bool isBufferDType(DType dtype) { return dtypeSize(dtype) != 0; }

constexpr bool isFloat(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F64 || dtype == DType::F16 ||
         dtype == DType::BF16;
}

/// True for signed and unsigned integers; bool is not an integer.
constexpr bool isInteger(DType dtype) {
  switch (dtype) {
  case DType::I8:
  case DType::I16:
  case DType::I32:
  case DType::I64:
  case DType::U8:
  case DType::U16:
  case DType::U32:
  case DType::U64:
    return true;
  default:
    return false;
  }
}

/// True for floats and signed integers.
constexpr bool isSigned(DType dtype) {
  return isFloat(dtype) || dtype == DType::I8 || dtype == DType::I16 ||
         dtype == DType::I32 || dtype == DType::I64;
}

/// MLIR spelling: "f32", "i1" for bool, "ui8", ...; "invalid" and "string"
/// for the two non-buffer dtypes; "unknown" for out-of-range values.
absl::string_view dtypeName(DType dtype);

/// Parses an MLIR spelling ("f32", "ui16", "i1") or a TensorFlow name
/// ("float", "half", "bfloat16", "double", "int8".."uint64", "bool",
/// "string"). Returns InvalidArgument for anything else.
absl::StatusOr<DType> parseDType(absl::string_view name);

/// NumPy array-interface descriptor for .npy files ("<f4", "|b1", "<f2");
/// empty for dtypes without one (bf16, string, invalid).
absl::string_view numpyDescr(DType dtype);

/// Parses a NumPy descriptor; accepts '<', '=' and '|' byte orders and
/// rejects big-endian ('>') ones.
absl::StatusOr<DType> parseNumpyDescr(absl::string_view descr);

//===----------------------------------------------------------------------===//
// C++ type <-> DType
//===----------------------------------------------------------------------===//

template <typename T> struct DTypeOf;
#define TFRT_FALLBACK_DTYPE_OF(TYPE, ENUM)                                     \
  template <> struct DTypeOf<TYPE> {                                           \
    static constexpr DType value = DType::ENUM;                                \
  };
TFRT_FALLBACK_DTYPE_OF(float, F32)
TFRT_FALLBACK_DTYPE_OF(double, F64)
TFRT_FALLBACK_DTYPE_OF(Eigen::half, F16)
TFRT_FALLBACK_DTYPE_OF(Eigen::bfloat16, BF16)
TFRT_FALLBACK_DTYPE_OF(int8_t, I8)
TFRT_FALLBACK_DTYPE_OF(int16_t, I16)
TFRT_FALLBACK_DTYPE_OF(int32_t, I32)
TFRT_FALLBACK_DTYPE_OF(int64_t, I64)
TFRT_FALLBACK_DTYPE_OF(uint8_t, U8)
TFRT_FALLBACK_DTYPE_OF(uint16_t, U16)
TFRT_FALLBACK_DTYPE_OF(uint32_t, U32)
TFRT_FALLBACK_DTYPE_OF(uint64_t, U64)
TFRT_FALLBACK_DTYPE_OF(bool, Bool)
#undef TFRT_FALLBACK_DTYPE_OF

/// The DType of a C++ element type, e.g. dtypeOf<float>() == DType::F32.
template <typename T> constexpr DType dtypeOf() { return DTypeOf<T>::value; }

/// Tag passed to dispatchDType functors: `using T = typename
/// decltype(tag)::Type;`.
template <typename T> struct DTypeTag {
  using Type = T;
};

/// Calls `f(DTypeTag<T>{})` with the C++ type T of `dtype`. If `f` returns
/// absl::Status that status is returned; otherwise OkStatus. Returns
/// Unimplemented for Invalid/String.
template <typename F> absl::Status dispatchDType(DType dtype, F &&f) {
  auto call = [&](auto tag) -> absl::Status {
    using R = decltype(f(tag));
    if constexpr (std::is_void_v<R>) {
      f(tag);
      return absl::OkStatus();
    } else {
      return f(tag);
    }
  };
  switch (dtype) {
  case DType::F32:
    return call(DTypeTag<float>{});
  case DType::F64:
    return call(DTypeTag<double>{});
  case DType::F16:
    return call(DTypeTag<Eigen::half>{});
  case DType::BF16:
    return call(DTypeTag<Eigen::bfloat16>{});
  case DType::I8:
    return call(DTypeTag<int8_t>{});
  case DType::I16:
    return call(DTypeTag<int16_t>{});
  case DType::I32:
    return call(DTypeTag<int32_t>{});
  case DType::I64:
    return call(DTypeTag<int64_t>{});
  case DType::U8:
    return call(DTypeTag<uint8_t>{});
  case DType::U16:
    return call(DTypeTag<uint16_t>{});
  case DType::U32:
    return call(DTypeTag<uint32_t>{});
  case DType::U64:
    return call(DTypeTag<uint64_t>{});
  case DType::Bool:
    return call(DTypeTag<bool>{});
  case DType::Invalid:
  case DType::String:
    break;
  }
  return absl::UnimplementedError(
      absl::StrCat("unsupported dtype '", dtypeName(dtype), "'"));
}

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_DTYPE_H

//===- DType.h - Tensor element types ---------------------------*- C++ -*-===//
//
// The element types of runtime tensors, expanded from DTypes.def.
// Enumerator values follow TensorFlow's DataType numbering so programs and
// kernels can exchange them with TF tooling unchanged. Names follow the MLIR
// spelling ("f32", "i1").
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_DTYPE_H
#define TFRT_FALLBACK_RUNTIME_DTYPE_H

#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/StrCat.h"

#include <Eigen/Core>

#include <complex>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tfrt_fallback::rt {

/// An element of one of TensorFlow's quantized dtypes (Eigen's QInt8,
/// QUInt8, QInt16, QUInt16, QInt32 in TF): an integer that kernels map to
/// real numbers through a float range given beside the tensor. A type of its
/// own, so that DTypeOf and kernel registrations tell qint8 from int8.
template <typename Int, int DataType> struct Quantized {
  using Storage = Int;
  Int value = 0;
  constexpr Quantized() = default;
  constexpr explicit Quantized(Int v) : value(v) {}
  friend constexpr bool operator==(Quantized a, Quantized b) {
    return a.value == b.value;
  }
  friend constexpr bool operator!=(Quantized a, Quantized b) {
    return a.value != b.value;
  }
  friend constexpr bool operator<(Quantized a, Quantized b) {
    return a.value < b.value;
  }
};
using qint8 = Quantized<int8_t, 11>;
using quint8 = Quantized<uint8_t, 12>;
using qint32 = Quantized<int32_t, 13>;
using qint16 = Quantized<int16_t, 15>;
using quint16 = Quantized<uint16_t, 16>;

template <typename T> inline constexpr bool kIsQuantized = false;
template <typename Int, int DataType>
inline constexpr bool kIsQuantized<Quantized<Int, DataType>> = true;
template <typename T> inline constexpr bool kIsComplex = false;
template <typename T> inline constexpr bool kIsComplex<std::complex<T>> = true;

/// Element type of a tensor, numbered like TensorFlow's DataType
/// (DTypes.def).
enum class DType : uint8_t {
  Invalid = 0,
#define TFRT_FALLBACK_DTYPE(Enum, DataType, ...) Enum = DataType,
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, ...) Enum = DataType,
#include "tfrt_fallback/Runtime/DTypes.def"
};

/// Size in bytes of one element, or 0 for Invalid and String.
constexpr size_t dtypeSize(DType dtype) {
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  case DType::Enum:                                                            \
    return sizeof(CppType);
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    return 0;
  }
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

constexpr bool isComplex(DType dtype) {
  return dtype == DType::C64 || dtype == DType::C128;
}

constexpr bool isQuantized(DType dtype) {
  return dtype == DType::QI8 || dtype == DType::QU8 || dtype == DType::QI16 ||
         dtype == DType::QU16 || dtype == DType::QI32;
}

/// True for floats and signed integers.
constexpr bool isSigned(DType dtype) {
  return isFloat(dtype) || dtype == DType::I8 || dtype == DType::I16 ||
         dtype == DType::I32 || dtype == DType::I64;
}

/// MLIR spelling: "f32", "i1" for bool, "ui8", ...; "invalid" and "string"
/// for the two non-buffer dtypes; "unknown" for out-of-range values.
std::string_view dtypeName(DType dtype);

/// Unimplemented: "unsupported dtype '<dtypeName>'" (dispatchDType's
/// error, out of line).
Status unsupportedDTypeError(DType dtype);

/// The MLIR element type's spelling, for tensor types in messages and
/// output: dtypeName for numeric dtypes, "!tf_type.string" and the like
/// for TensorFlow's own.
std::string_view dtypeTypeName(DType dtype);

/// Parses any name DTypes.def gives a dtype: the MLIR spelling ("f32",
/// "ui16", "i1"), TensorFlow's name ("float", "half", "bfloat16", "bool",
/// "string"), its enum ("DT_FLOAT") or the NumPy name ("float32").
/// Returns InvalidArgument for anything else.
StatusOr<DType> parseDType(std::string_view name);

/// The dtype of TensorFlow DataType number `dataType` (DT_FLOAT = 1).
/// Returns InvalidArgument for a number DTypes.def does not list
/// (DT_COMPLEX64, DT_RESOURCE, ...).
StatusOr<DType> dtypeFromDataType(int dataType);

/// NumPy array-interface descriptor for .npy files ("<f4", "|b1", "<f2");
/// empty for dtypes without one (bf16, string, invalid).
std::string_view numpyDescr(DType dtype);

/// Parses a NumPy descriptor; accepts '<', '=' and '|' byte orders and
/// rejects big-endian ('>') ones.
StatusOr<DType> parseNumpyDescr(std::string_view descr);

//===----------------------------------------------------------------------===//
// C++ type <-> DType
//===----------------------------------------------------------------------===//

template <typename T> struct DTypeOf;
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  template <> struct DTypeOf<CppType> {                                        \
    static constexpr DType value = DType::Enum;                                \
  };
#include "tfrt_fallback/Runtime/DTypes.def"

/// String tensors hold views of their bytes (StringTensor.h). dispatchDType
/// never yields this type: no numeric kernel is instantiated for strings.
template <> struct DTypeOf<std::string_view> {
  static constexpr DType value = DType::String;
};

/// The DType of a C++ element type, e.g. dtypeOf<float>() == DType::F32.
template <typename T> constexpr DType dtypeOf() { return DTypeOf<T>::value; }

/// Tag passed to dispatchDType functors: `using T = typename
/// decltype(tag)::Type;`.
template <typename T> struct DTypeTag {
  using Type = T;
};

/// Calls `f(DTypeTag<T>{})` with the C++ type T of `dtype`. If `f` returns
/// Status that status is returned; otherwise OkStatus. Returns
/// Unimplemented for Invalid/String.
template <typename F> Status dispatchDType(DType dtype, F &&f) {
  auto call = [&](auto tag) -> Status {
    using R = decltype(f(tag));
    if constexpr (std::is_void_v<R>) {
      f(tag);
      return OkStatus();
    } else {
      return f(tag);
    }
  };
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  case DType::Enum:                                                            \
    return call(DTypeTag<CppType>{});
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    break;
  }
  return unsupportedDTypeError(dtype);
}

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_DTYPE_H

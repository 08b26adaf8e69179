//===- DType.cpp - Tensor element types -------------------------*- C++ -*-===//
//
// Names, parsing and NumPy descriptors of DType.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/DType.h"

namespace tfrt_fallback::rt {

absl::string_view dtypeName(DType dtype) {
  switch (dtype) {
  case DType::Invalid:
    return "invalid";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::I32:
    return "i32";
  case DType::U8:
    return "ui8";
  case DType::I16:
    return "i16";
  case DType::I8:
    return "i8";
  case DType::String:
    return "string";
  case DType::I64:
    return "i64";
  case DType::Bool:
    return "i1";
  case DType::BF16:
    return "bf16";
  case DType::U16:
    return "ui16";
  case DType::F16:
    return "f16";
  case DType::U32:
    return "ui32";
  case DType::U64:
    return "ui64";
  }
  return "unknown";
}

namespace {
struct NamedDType {
  absl::string_view name;
  DType dtype;
};
// MLIR spellings first, then TensorFlow names.
constexpr NamedDType kNames[] = {
    {"f32", DType::F32},       {"f64", DType::F64},
    {"f16", DType::F16},       {"bf16", DType::BF16},
    {"i1", DType::Bool},       {"i8", DType::I8},
    {"i16", DType::I16},       {"i32", DType::I32},
    {"i64", DType::I64},       {"ui8", DType::U8},
    {"ui16", DType::U16},      {"ui32", DType::U32},
    {"ui64", DType::U64},      {"float", DType::F32},
    {"double", DType::F64},    {"half", DType::F16},
    {"bfloat16", DType::BF16}, {"bool", DType::Bool},
    {"int8", DType::I8},       {"int16", DType::I16},
    {"int32", DType::I32},     {"int64", DType::I64},
    {"uint8", DType::U8},      {"uint16", DType::U16},
    {"uint32", DType::U32},    {"uint64", DType::U64},
    {"string", DType::String}, {"float32", DType::F32},
    {"float64", DType::F64},   {"float16", DType::F16},
};
} // namespace

absl::StatusOr<DType> parseDType(absl::string_view name) {
  for (const NamedDType &entry : kNames)
    if (entry.name == name)
      return entry.dtype;
  return absl::InvalidArgumentError(absl::StrCat("unknown dtype '", name, "'"));
}

// The runtime assumes a little-endian host, as do the '<' descriptors.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "tfrt-fallback runtime requires a little-endian host");

absl::string_view numpyDescr(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::F16:
    return "<f2";
  case DType::I8:
    return "|i1";
  case DType::I16:
    return "<i2";
  case DType::I32:
    return "<i4";
  case DType::I64:
    return "<i8";
  case DType::U8:
    return "|u1";
  case DType::U16:
    return "<u2";
  case DType::U32:
    return "<u4";
  case DType::U64:
    return "<u8";
  case DType::Bool:
    return "|b1";
  case DType::BF16:
  case DType::String:
  case DType::Invalid:
    return "";
  }
  return "";
}

absl::StatusOr<DType> parseNumpyDescr(absl::string_view descr) {
  if (descr.size() >= 2) {
    char order = descr[0];
    if (order == '>')
      return absl::InvalidArgumentError(absl::StrCat(
          "big-endian numpy dtype '", descr, "' is not supported"));
    if (order == '<' || order == '=' || order == '|') {
      absl::string_view rest = descr.substr(1);
      for (DType dtype : {DType::F32, DType::F64, DType::F16, DType::I8,
                          DType::I16, DType::I32, DType::I64, DType::U8,
                          DType::U16, DType::U32, DType::U64, DType::Bool})
        if (numpyDescr(dtype).substr(1) == rest)
          return dtype;
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unsupported numpy dtype '", descr, "'"));
}

} // namespace tfrt_fallback::rt

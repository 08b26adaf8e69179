//===- DType.cpp - Tensor element types -------------------------*- C++ -*-===//
//
// Names, parsing and NumPy descriptors of DType, from DTypes.def.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/DType.h"

#include "absl/strings/ascii.h"
#include "absl/strings/strip.h"

namespace tfrt_fallback::rt {

namespace {
/// The names DTypes.def gives one dtype.
struct DTypeNames {
  DType dtype;
  absl::string_view tfName;
  absl::string_view pyName;
  absl::string_view name;
};
constexpr DTypeNames kDTypes[] = {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  {DType::Enum, TFName, PyName, Name},
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, PyName, Name,    \
                                      Mlir)                                    \
  {DType::Enum, TFName, PyName, Name},
#include "tfrt_fallback/Runtime/DTypes.def"
};
} // namespace

absl::string_view dtypeName(DType dtype) {
  if (dtype == DType::Invalid)
    return "invalid";
  for (const DTypeNames &entry : kDTypes)
    if (entry.dtype == dtype)
      return entry.name;
  return "unknown";
}

absl::string_view dtypeTypeName(DType dtype) {
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, PyName, Name,    \
                                      Mlir)                                    \
  case DType::Enum:                                                            \
    return Mlir;
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    return dtypeName(dtype);
  }
}

StatusOr<DType> parseDType(absl::string_view name) {
  absl::string_view enumName = name;
  bool isEnum = absl::ConsumePrefix(&enumName, "DT_");
  for (const DTypeNames &entry : kDTypes)
    if (isEnum ? enumName == absl::AsciiStrToUpper(entry.tfName)
               : name == entry.name || name == entry.tfName ||
                     name == entry.pyName)
      return entry.dtype;
  return InvalidArgumentError(strCat("unknown dtype '", name, "'"));
}

StatusOr<DType> dtypeFromDataType(int dataType) {
  for (const DTypeNames &entry : kDTypes)
    if (static_cast<int>(entry.dtype) == dataType)
      return entry.dtype;
  return InvalidArgumentError(strCat("unknown TensorFlow DataType ", dataType));
}

// The runtime assumes a little-endian host, as do the '<' descriptors.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "tfrt-fallback runtime requires a little-endian host");

absl::string_view numpyDescr(DType dtype) {
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  case DType::Enum:                                                            \
    return Npy;
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    return "";
  }
}

StatusOr<DType> parseNumpyDescr(absl::string_view descr) {
  if (descr.size() >= 2) {
    char order = descr[0];
    if (order == '>')
      return InvalidArgumentError(
          strCat("big-endian numpy dtype '", descr, "' is not supported"));
    if (order == '<' || order == '=' || order == '|') {
      absl::string_view rest = descr.substr(1);
      for (const DTypeNames &entry : kDTypes)
        if (absl::string_view own = numpyDescr(entry.dtype);
            !own.empty() && own.substr(1) == rest)
          return entry.dtype;
    }
  }
  return InvalidArgumentError(strCat("unsupported numpy dtype '", descr, "'"));
}

} // namespace tfrt_fallback::rt

//===- DType.cpp - Tensor element types -------------------------*- C++ -*-===//
//
// Names, parsing and NumPy descriptors of DType, from DTypes.def.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/DType.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

namespace tfrt_fallback::rt {

namespace {
/// The names DTypes.def gives one dtype.
struct DTypeNames {
  DType dtype;
  std::string_view tfName;
  std::string_view pyName;
  std::string_view name;
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

std::string_view dtypeName(DType dtype) {
  if (dtype == DType::Invalid)
    return "invalid";
  for (const DTypeNames &entry : kDTypes)
    if (entry.dtype == dtype)
      return entry.name;
  return "unknown";
}

Status unsupportedDTypeError(DType dtype) {
  std::string_view name = dtypeName(dtype);
  return makeError(StatusCode::kUnimplemented, "unsupported dtype '%.*s'",
                   TFRT_FALLBACK_SV(name));
}

std::string_view dtypeTypeName(DType dtype) {
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE_OPT_IN(Enum, DataType, TFName, PyName, Name,       \
                                   CppType, Npy, Mlir)                         \
  case DType::Enum:                                                            \
    return Mlir;
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, PyName, Name,    \
                                      Mlir)                                    \
  case DType::Enum:                                                            \
    return Mlir;
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    return dtypeName(dtype);
  }
}

StatusOr<DType> parseDType(std::string_view name) {
  // "DT_FLOAT": TensorFlow's enum spelling of the TF name, upper case.
  auto isEnumOf = [&](std::string_view tfName) {
    if (name.size() != tfName.size() + 3 || name.substr(0, 3) != "DT_")
      return false;
    for (size_t i = 0; i < tfName.size(); ++i) {
      char c = tfName[i];
      if (name[i + 3] != (c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c))
        return false;
    }
    return true;
  };
  for (const DTypeNames &entry : kDTypes)
    if (name == entry.name || name == entry.tfName || name == entry.pyName ||
        isEnumOf(entry.tfName))
      return entry.dtype;
  return makeError(StatusCode::kInvalidArgument, "unknown dtype '%.*s'",
                   TFRT_FALLBACK_SV(name));
}

StatusOr<DType> dtypeFromDataType(int dataType) {
  for (const DTypeNames &entry : kDTypes)
    if (static_cast<int>(entry.dtype) == dataType)
      return entry.dtype;
  return makeError(StatusCode::kInvalidArgument,
                   "unknown TensorFlow DataType %d", dataType);
}

// The runtime assumes a little-endian host, as do the '<' descriptors.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "tfrt-fallback runtime requires a little-endian host");

std::string_view numpyDescr(DType dtype) {
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

StatusOr<DType> parseNumpyDescr(std::string_view descr) {
  if (descr.size() >= 2) {
    char order = descr[0];
    if (order == '>')
      return makeError(StatusCode::kInvalidArgument,
                       "big-endian numpy dtype '%.*s' is not supported",
                       TFRT_FALLBACK_SV(descr));
    if (order == '<' || order == '=' || order == '|') {
      std::string_view rest = descr.substr(1);
      for (const DTypeNames &entry : kDTypes)
        if (std::string_view own = numpyDescr(entry.dtype);
            !own.empty() && own.substr(1) == rest)
          return entry.dtype;
    }
  }
  return makeError(StatusCode::kInvalidArgument,
                   "unsupported numpy dtype '%.*s'", TFRT_FALLBACK_SV(descr));
}

} // namespace tfrt_fallback::rt

//===- TFDTypeName.h - TensorFlow's names of dtypes -------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the name TensorFlow's DataTypeString gives
// a dtype ("int32", "float", "string"), for the kernels whose messages quote
// it as TF's do.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_TFDTYPENAME_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_TFDTYPENAME_H

#include "tfrt_fallback/Runtime/DType.h"

#include <string_view>

namespace tfrt_fallback::rt::kernels {

/// TensorFlow's name of `dtype` ("int32", "float"), as DataTypeString
/// prints it in TF's messages.
inline std::string_view tfDTypeName(DType dtype) {
  switch (dtype) {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, ...)                       \
  case DType::Enum:                                                            \
    return TFName;
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, ...)             \
  case DType::Enum:                                                            \
    return TFName;
#include "tfrt_fallback/Runtime/DTypes.def"
  default:
    break;
  }
  return "unknown";
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_TFDTYPENAME_H

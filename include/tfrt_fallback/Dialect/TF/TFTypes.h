//===- TFTypes.h - TensorFlow's tf_type types and attributes ----*- C++ -*-===//
//
// The `tf_type` dialect: the types and attributes TensorFlow's MLIR tools
// print (`!tf_type.string`, `!tf_type.resource`, `#tf_type.shape<...>`).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TF_TFTYPES_H
#define TFRT_FALLBACK_DIALECT_TF_TFTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "tfrt_fallback/Dialect/TF/TFTypeDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tfrt_fallback/Dialect/TF/TFTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tfrt_fallback/Dialect/TF/TFAttrs.h.inc"

#endif // TFRT_FALLBACK_DIALECT_TF_TFTYPES_H

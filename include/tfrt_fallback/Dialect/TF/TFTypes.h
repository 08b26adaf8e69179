//===- TFTypes.h - TensorFlow's tf_type types and attributes ----*- C++ -*-===//
//
// The `tf_type` dialect: the types and attributes TensorFlow's MLIR tools
// print (`!tf_type.string`, `!tf_type.resource`, `!tf_type.f32ref`,
// `!tf_type.qint8`, `#tf_type.shape<...>`, `#tf_type.func<...>`,
// `#tf_type<tensor_proto ...>`), and the mapping between TensorFlow dtypes and
// MLIR element types.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TF_TFTYPES_H
#define TFRT_FALLBACK_DIALECT_TF_TFTYPES_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include <cstdint>
#include <optional>

#include "tfrt_fallback/Dialect/TF/TFTypeDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tfrt_fallback/Dialect/TF/TFTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tfrt_fallback/Dialect/TF/TFAttrs.h.inc"

namespace tfrt_fallback::rt {
enum class DType : uint8_t; // tfrt_fallback/Runtime/DType.h
} // namespace tfrt_fallback::rt

namespace tfrt_fallback::tf {

/// The MLIR element type of `dtype`: the type DTypes.def spells for it (f32,
/// i1 for bool, ui8, !tf_type.string). Null for DType::Invalid.
mlir::Type getElementType(rt::DType dtype, mlir::MLIRContext *context);

/// The dtype whose MLIR element type is `type`, or std::nullopt for a type
/// DTypes.def does not list (complex<f32>, !tf_type.resource, si32, ...).
std::optional<rt::DType> getDType(mlir::Type type);

/// The constant a `#tf_type<tensor_proto ...>` holds, as a dense elements
/// attribute of its type: numeric dtypes from `tensor_content` or the typed
/// value fields (the last value repeated to fill the shape, as TensorFlow
/// does), strings from `string_val`. Reports through `emitError` a proto it
/// cannot decode or whose dtype or shape contradicts the attribute's type.
mlir::FailureOr<mlir::DenseElementsAttr>
decodeTensorProto(TensorProtoAttr attr,
                  llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace tfrt_fallback::tf

#endif // TFRT_FALLBACK_DIALECT_TF_TFTYPES_H

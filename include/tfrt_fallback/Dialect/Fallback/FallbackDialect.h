//===- FallbackDialect.h - tfrt_fallback dialect ----------------*- C++ -*-===//
//
// Declares the tfrt_fallback dialect and the helpers that say which MLIR
// types and attributes TensorFlow can express.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKDIALECT_H
#define TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Types.h"

#include <string>

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h.inc"

namespace tfrt_fallback {

/// The static memory plan (--tfrt-fallback-plan-memory, docs/MemoryPlan.md):
/// on a function, `{arena_bytes, offsets, sizes}` of its buffers; on a
/// kernel_call, the buffer of each tensor result (-1: not planned).
inline constexpr llvm::StringLiteral kMemoryPlanAttrName =
    "tfrt_fallback.memory_plan";
inline constexpr llvm::StringLiteral kPlannedBuffersAttrName =
    "tfrt_fallback.buffers";

/// Whether `type` is the element type of a TensorFlow dtype: f16, bf16, f32,
/// f64, i1 (bool), signless i8/i16/i32/i64, ui8/ui16/ui32/ui64, complex<f32>,
/// complex<f64>, or a type of the `tf_type` dialect (string, resource, ...).
bool isTFElementType(mlir::Type type);

/// Checks that `value` is an attribute value TensorFlow can express (see the
/// kernel_call documentation). Returns an empty string when it is, otherwise
/// a reason in user terms, e.g. "is a dictionary, which TensorFlow cannot
/// express".
std::string checkTFAttrValue(mlir::Attribute value);

/// Parses the body of a shape attribute, `<2x?x3>`, `<*>` (unranked) or `<>`
/// (a scalar), as both `#tfrt_fallback.shape` and `#tf_type.shape` spell it.
mlir::ParseResult parseShapeBody(mlir::AsmParser &parser, bool &ranked,
                                 llvm::SmallVectorImpl<int64_t> &dims);
/// Prints what parseShapeBody() reads.
void printShapeBody(mlir::AsmPrinter &printer, bool ranked,
                    llvm::ArrayRef<int64_t> dims);

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKDIALECT_H

//===- TFDialect.h - the TensorFlow input dialect ---------------*- C++ -*-===//
//
// A `tf` dialect that admits every `tf.*` operation in generic form, as
// TensorFlow's MLIR tools print them, and knows whether the ops of the op
// table (tfrt_fallback/Runtime/OpTable.def) have side effects.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TF_TFDIALECT_H
#define TFRT_FALLBACK_DIALECT_TF_TFDIALECT_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/TypeID.h"

#include <optional>

namespace tfrt_fallback::tf {

/// What the dialect knows of a TensorFlow op's side effects.
enum class OpEffects {
  /// No side effects: may be reordered, run in parallel, removed when dead.
  Pure,
  /// Side effects (randomness, I/O, assertions, variables): kept in order.
  Stateful,
};

/// Returns the effects of the TensorFlow op `name` (without the `tf.`
/// prefix), or std::nullopt for an op the dialect does not know.
std::optional<OpEffects> lookupOpEffects(llvm::StringRef name);

/// The unit attribute that orders a `tf.*` op like a stateful one: the graph
/// importers put it on both ends of a control edge (`^node` inputs), so the
/// edge becomes a chain dependency (the op runs after, and fails with, what
/// it waits on). An ordered op has side effects for MLIR (never erased when
/// dead, moved or merged) and tf-to-tfrt-fallback threads it on the chain.
inline constexpr llvm::StringLiteral kOrderedAttrName =
    "_tfrt_fallback_ordered";

/// Whether `op` carries kOrderedAttrName.
bool isOrdered(mlir::Operation *op);

/// Creates `tf.Identity(value) : type` at `builder`'s insertion point: how a
/// pass gives a value a more or less refined type of the same element type
/// (TensorFlow's own casts; the lowering turns it into a kernel call or
/// forwards it).
mlir::Value createIdentity(mlir::OpBuilder &builder, mlir::Location loc,
                           mlir::Value value, mlir::Type type);

class TFDialect : public mlir::Dialect {
public:
  explicit TFDialect(mlir::MLIRContext *context);
  static constexpr llvm::StringLiteral getDialectNamespace() {
    return llvm::StringLiteral("tf");
  }

  /// Provides MemoryEffectOpInterface for the unregistered `tf.*` ops listed
  /// in the op table, so MLIR's generic passes treat pure TF ops as pure.
  void *getRegisteredInterfaceForOp(mlir::TypeID interfaceID,
                                    mlir::OperationName opName) override;

  /// Erases unused pure `tf.*` ops: MLIR's generic dead-code removal keeps
  /// every unregistered op, as it might be a terminator.
  void
  getCanonicalizationPatterns(mlir::RewritePatternSet &results) const override;
};

} // namespace tfrt_fallback::tf

MLIR_DECLARE_EXPLICIT_TYPE_ID(tfrt_fallback::tf::TFDialect)

#endif // TFRT_FALLBACK_DIALECT_TF_TFDIALECT_H

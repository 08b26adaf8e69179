//===- TFExecutorDialect.h - TensorFlow's tf_executor dialect ---*- C++ -*-===//
//
// TensorFlow's `tf_executor` dialect: graph, island, yield, fetch, the v1
// control-flow ops and the `!tf_executor.control` / `token` types.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TFEXECUTOR_TFEXECUTORDIALECT_H
#define TFRT_FALLBACK_DIALECT_TFEXECUTOR_TFEXECUTORDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorTypes.h.inc"

namespace tfrt_fallback::tf_executor {
class FetchOp;
class YieldOp;

/// Checks that no data operand follows a control token.
mlir::LogicalResult verifyControlOperandsLast(mlir::Operation *op);

/// Op trait: control operands (`!tf_executor.control`) come after every data
/// operand.
template <typename ConcreteType>
class ControlOperandsLast
    : public mlir::OpTrait::TraitBase<ConcreteType, ControlOperandsLast> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyControlOperandsLast(op);
  }
};
} // namespace tfrt_fallback::tf_executor

#define GET_OP_CLASSES
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorOps.h.inc"

#endif // TFRT_FALLBACK_DIALECT_TFEXECUTOR_TFEXECUTORDIALECT_H

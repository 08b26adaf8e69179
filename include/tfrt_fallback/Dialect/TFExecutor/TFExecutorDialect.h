//===- TFExecutorDialect.h - TensorFlow's tf_executor dialect ---*- C++ -*-===//
//
// The `tf_executor` ops TensorFlow's MLIR exporter wraps graphs in: graph,
// island, yield, fetch and the `!tf_executor.control` type.
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
} // namespace tfrt_fallback::tf_executor

#define GET_OP_CLASSES
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorOps.h.inc"

#endif // TFRT_FALLBACK_DIALECT_TFEXECUTOR_TFEXECUTORDIALECT_H

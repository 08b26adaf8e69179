//===- FallbackOps.h - tfrt_fallback operations -----------------*- C++ -*-===//
//
// Declares the operations, types and attributes of the tfrt_fallback dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKOPS_H
#define TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKOPS_H

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_TYPEDEF_CLASSES
#include "tfrt_fallback/Dialect/Fallback/FallbackTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tfrt_fallback/Dialect/Fallback/FallbackAttrs.h.inc"

#define GET_OP_CLASSES
#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h.inc"

#endif // TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKOPS_H

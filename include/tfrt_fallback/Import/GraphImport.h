//===- GraphImport.h - TensorFlow graphs into TF-dialect MLIR ---*- C++ -*-===//
//
// The part of every graph importer that does not depend on the input format:
// a TensorFlow graph (nodes with op names, attributes and "node:index" /
// "^control" inputs, constants already decoded) becomes a `@main` function
// of `tf.*` ops in topological order. The TF.js and GraphDef importers fill
// an ImportedGraph from their own formats.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_IMPORT_GRAPHIMPORT_H
#define TFRT_FALLBACK_IMPORT_GRAPHIMPORT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <vector>

namespace tfrt_fallback {

/// One node of a TensorFlow graph, attributes already in MLIR form
/// (TypeAttr for types, #tf_type.shape for shapes, ...).
struct ImportedNode {
  std::string name;
  std::string op;
  std::string device;
  /// "node", "node:2" or "^node" (a control input).
  std::vector<std::string> inputs;
  llvm::SmallVector<mlir::NamedAttribute> attrs;
};

/// A graph and the tensors it is called with. Inputs and outputs are tensor
/// names ("node" or "node:index"); empty lists mean TF.js's defaults: every
/// Placeholder is an input, every node no other node consumes is an output.
struct ImportedGraph {
  std::vector<ImportedNode> nodes;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  /// Shapes to give inputs whose Placeholder has none, by input name.
  std::vector<std::pair<std::string, std::vector<int64_t>>> inputShapes;
  /// The model file, for the nodes' locations (`name@file` in runtime
  /// errors); empty for none.
  std::string source;
};

/// A function of an imported program: its body is a graph whose inputs are
/// its arguments (Placeholders) and whose outputs are its results.
struct ImportedFunction {
  std::string name;
  ImportedGraph body;
};

/// Turns TensorFlow v1 control flow in `graph` (loops of Enter, Merge,
/// Switch, LoopCond, NextIteration and Exit; conditionals of Switch and
/// Merge) into `While` and `If` nodes whose functions it appends to
/// `functions`, as TensorFlow's functionalize_control_flow does. Fails with
/// `error` on a construct it cannot turn into functions.
mlir::LogicalResult
functionalizeControlFlow(ImportedGraph &graph,
                         std::vector<ImportedFunction> &functions,
                         mlir::MLIRContext *context, std::string &error);

/// Builds a module whose `@main` computes `graph.outputs` from
/// `graph.inputs`. Only the nodes the outputs need are imported. TF v1
/// control flow is functionalized first (functionalizeControlFlow): its
/// functions become private functions of the module. Reports errors
/// (unknown inputs, cycles, unsupported dtypes) as diagnostics and returns
/// null.
mlir::OwningOpRef<mlir::ModuleOp> importGraph(const ImportedGraph &graph,
                                              mlir::MLIRContext *context);

/// The MLIR element type of a dtype name, as rt::parseDType reads it
/// ("DT_FLOAT", "float", "float32", "f32"), or null for a dtype DTypes.def
/// does not list.
mlir::Type getTFElementType(llvm::StringRef dtype, mlir::MLIRContext *context);

/// The MLIR element type of a TensorFlow DataType number (DT_FLOAT = 1, ...),
/// or null for a dtype DTypes.def does not list.
mlir::Type getTFElementType(int dtype, mlir::MLIRContext *context);

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_GRAPHIMPORT_H

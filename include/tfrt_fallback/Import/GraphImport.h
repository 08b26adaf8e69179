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

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringSet.h"

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
  /// For a node that comes from MLIR (a tf_executor graph): its result
  /// types, used instead of the op table's, and its location (by default
  /// the node's name).
  std::optional<llvm::SmallVector<mlir::Type>> resultTypes;
  std::optional<mlir::Location> location;
};

struct ImportedFunction;

/// A graph and the tensors it is called with. Inputs and outputs are tensor
/// names ("node" or "node:index"); empty lists mean TF.js's defaults: every
/// Placeholder is an input, every node no other node consumes is an output.
struct ImportedGraph {
  std::vector<ImportedNode> nodes;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  /// Nodes that must run although no output needs them (a FunctionDef's
  /// control outputs).
  std::vector<std::string> controlOutputs;
  /// Shapes to give inputs whose Placeholder has none, by input name.
  std::vector<std::pair<std::string, std::vector<int64_t>>> inputShapes;
  /// The functions nodes may call (a GraphDef's function library): named
  /// by function attributes (`f`, `cond`, `then_branch`, `branches`, ...).
  /// Only those the graph reaches are imported.
  std::vector<ImportedFunction> library;
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
/// New functions take names that neither `functions` nor `takenNames` (when
/// given) hold. On failure `errorNode` (when given) receives the name of the
/// node the error is about, so a caller can point at it.
mlir::LogicalResult
functionalizeControlFlow(ImportedGraph &graph,
                         std::vector<ImportedFunction> &functions,
                         mlir::MLIRContext *context, std::string &error,
                         const llvm::StringSet<> *takenNames = nullptr,
                         std::string *errorNode = nullptr);

/// Builds a module whose `@main` computes `graph.outputs` from
/// `graph.inputs`. Only the nodes the outputs need are imported. TF v1
/// control flow is functionalized first (functionalizeControlFlow), in the
/// graph and in its library's functions: the functions made, and the
/// library functions the graph calls, become private functions of the
/// module. Reports errors
/// (unknown inputs, cycles, unsupported dtypes) as diagnostics and returns
/// null.
mlir::OwningOpRef<mlir::ModuleOp> importGraph(const ImportedGraph &graph,
                                              mlir::MLIRContext *context);

/// Functionalizes `graph` (and its library) and emits it into `module` as
/// the function `name`, public with TF.js's default inputs and outputs when
/// `isMain`, else private, after the private functions it calls (library
/// functions it reaches and those functionalization made, named apart from
/// the module's symbols). Errors are diagnostics at `errorLoc`.
mlir::FailureOr<mlir::func::FuncOp>
importGraphAsFunction(ImportedGraph graph, llvm::StringRef name,
                      mlir::ModuleOp module, bool isMain,
                      mlir::Location errorLoc);

/// A tensor's name in a graph, split: "node:2" -> ("node", 2), "node" ->
/// ("node", 0), "^node" -> a control edge from "node". A suffix after the
/// last ':' that is not a number stays part of the node's name.
struct TensorName {
  std::string node;
  unsigned index = 0;
  bool control = false;
};
TensorName splitTensorName(llvm::StringRef name);

/// The MLIR element type of a dtype name, as rt::parseDType reads it
/// ("DT_FLOAT", "float", "float32", "f32"), or null for a dtype DTypes.def
/// does not list.
mlir::Type getTFElementType(llvm::StringRef dtype, mlir::MLIRContext *context);

/// The MLIR element type of a TensorFlow DataType number (DT_FLOAT = 1, ...),
/// or null for a dtype DTypes.def does not list.
mlir::Type getTFElementType(int dtype, mlir::MLIRContext *context);

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_GRAPHIMPORT_H

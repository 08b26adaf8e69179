//===- GraphDefImport.h - import TensorFlow GraphDefs -----------*- C++ -*-===//
//
// Imports a frozen TensorFlow GraphDef (binary `.pb` or text `.pbtxt`) into
// a TF-dialect module whose `@main` computes the graph's outputs.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_IMPORT_GRAPHDEFIMPORT_H
#define TFRT_FALLBACK_IMPORT_GRAPHDEFIMPORT_H

#include "tfrt_fallback/Import/GraphImport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace tfrt_fallback {

namespace graphdef {
class GraphDef;
class TensorProto;
} // namespace graphdef

/// How to read a GraphDef and which tensors `@main` takes and returns.
struct GraphDefImportOptions {
  /// "name:dtype:shape,..." (e.g. "input:f32:1x224x224x3", "?" for an
  /// unknown dimension, "*" for an unknown rank); dtype and shape may be
  /// left out ("name", "name:dtype"). Empty: every Placeholder is an input.
  std::string inputs;
  /// "node,node:1,...". Empty: every node no other node consumes.
  std::string outputs;
  /// Parse as text format only (`.pbtxt`); otherwise binary is tried first,
  /// then text.
  bool textFormat = false;
};

/// Imports the GraphDef in `bytes`; `name` names it in diagnostics. Errors
/// are reported as diagnostics; returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp>
importGraphDef(llvm::StringRef bytes, llvm::StringRef name,
               const GraphDefImportOptions &options,
               mlir::MLIRContext *context);

/// Parses a serialized NodeDef (the one a TFLite Flex operator carries) and
/// converts its op, name and attributes as the GraphDef importer converts a
/// graph's nodes; its inputs are left as the NodeDef lists them. On failure
/// `error` says why.
mlir::FailureOr<ImportedNode> importNodeDef(llvm::StringRef bytes,
                                            mlir::MLIRContext *context,
                                            std::string &error);

/// The nodes and library functions of a parsed GraphDef (graph.proto's
/// classes), no inputs or outputs chosen: the SavedModel importer's start.
/// `name` is the model file, for the nodes' locations.
mlir::FailureOr<ImportedGraph> convertGraphDef(const graphdef::GraphDef &graph,
                                               llvm::StringRef name,
                                               mlir::MLIRContext *context,
                                               std::string &error);

/// A TensorProto as the constant the importer makes of it.
mlir::FailureOr<mlir::ElementsAttr>
convertTensorProto(const graphdef::TensorProto &tensor,
                   mlir::MLIRContext *context, std::string &error);

/// Whether `path` names a GraphDef by its extension (.pb, .pbtxt, .pbtext).
bool isGraphDefPath(llvm::StringRef path);

/// Whether `path`'s extension says text format (.pbtxt, .pbtext, .txt).
bool isTextGraphDefPath(llvm::StringRef path);

/// Registers `--import-graphdef` (and its `--inputs`, `--outputs` options)
/// with fallback-translate.
void registerGraphDefImportTranslation();

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_GRAPHDEFIMPORT_H

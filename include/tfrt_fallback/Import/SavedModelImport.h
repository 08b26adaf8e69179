//===- SavedModelImport.h - TensorFlow SavedModel importer ------*- C++ -*-===//
//
// Imports a SavedModel directory (saved_model.pb and variables/): each
// SignatureDef of the chosen MetaGraphDef becomes a public function named
// by its key, whose arguments and results carry the signature's input and
// output keys (tf_saved_model.index_path), in key order. Variables come
// from the tensor bundle: those no signature writes become constants; the
// others (and TF2's resource variables) are set by the function
// `__saved_model_init_op`, which a runner calls once (--init) before the
// signatures. See docs/Import.md, "SavedModel".
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_IMPORT_SAVEDMODELIMPORT_H
#define TFRT_FALLBACK_IMPORT_SAVEDMODELIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace tfrt_fallback {

/// The initializer function of an imported SavedModel.
inline constexpr llvm::StringLiteral kSavedModelInitFunction =
    "__saved_model_init_op";

struct SavedModelImportOptions {
  /// The MetaGraphDef's tag set, comma-separated (TF's loader picks the one
  /// whose tags are exactly these).
  std::string tags = "serve";
  /// One signature's key; empty: every signature.
  std::string signature;
};

/// Imports the SavedModel whose saved_model.pb holds `bytes`; `dir` is its
/// directory (variables/, assets/). Errors are diagnostics; null on failure.
mlir::OwningOpRef<mlir::ModuleOp>
importSavedModel(llvm::StringRef bytes, llvm::StringRef dir,
                 const SavedModelImportOptions &options,
                 mlir::MLIRContext *context);

/// Whether `path` is a SavedModel: a directory holding saved_model.pb, or
/// that file.
bool isSavedModelPath(llvm::StringRef path);

/// `path` itself when it names a file, DIR/saved_model.pb for a SavedModel
/// directory.
std::string savedModelFile(llvm::StringRef path);

/// Registers `--import-saved-model` (and its `--tags`, `--signature`
/// options) with fallback-translate.
void registerSavedModelImportTranslation();

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_SAVEDMODELIMPORT_H

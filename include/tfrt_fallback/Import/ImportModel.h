//===- ImportModel.h - import a TF program of any format ------*- C++ -*-===//
//
// One entry point for the formats the compiler reads: TF.js graph models
// (model.json), TFLite models (.tflite), SavedModels (DIR/saved_model.pb),
// GraphDefs (.pb, .pbtxt) and TF-dialect MLIR text. fallback-run and the Python
// bindings compile files through it.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_IMPORT_IMPORTMODEL_H
#define TFRT_FALLBACK_IMPORT_IMPORTMODEL_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

#include <functional>

namespace tfrt_fallback {

/// Imports the main buffer of `sourceMgr`, read from `path`, as a module of
/// TF-dialect functions: a TF.js model.json (its weight files next to it),
/// a TFLite model (isTFLitePath), a GraphDef (binary or text, by
/// isGraphDefPath), else MLIR text. Errors go
/// to the context's diagnostic handlers; null on failure.
mlir::OwningOpRef<mlir::ModuleOp> importModel(llvm::SourceMgr &sourceMgr,
                                              llvm::StringRef path,
                                              mlir::MLIRContext *context);

/// Reads a model from `text`, the file at `path`, into a module of TF-dialect
/// functions (null after reporting errors as diagnostics).
using ModelImportFn = std::function<mlir::OwningOpRef<mlir::ModuleOp>(
    llvm::StringRef text, llvm::StringRef path, mlir::MLIRContext *context)>;

/// Registers `importFn` as the mlir-translate translation `--name` (each
/// importer's register*ImportTranslation), with the dialects an imported
/// module holds: TF, func and tfrt_fallback.
void registerImportTranslation(llvm::StringRef name,
                               llvm::StringRef description,
                               ModelImportFn importFn);

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_IMPORTMODEL_H

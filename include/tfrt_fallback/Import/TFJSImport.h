//===- TFJSImport.h - import TF.js graph models -----------------*- C++ -*-===//
//
// Imports a TF.js graph model (`model.json` with `"format": "graph-model"`
// and its weight shards) into a TF-dialect module.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_IMPORT_TFJSIMPORT_H
#define TFRT_FALLBACK_IMPORT_TFJSIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

namespace tfrt_fallback {

/// Imports the model whose `model.json` text is `json`; weight shards are
/// read from `directory`. `name` names the model in error messages. Errors
/// are reported as diagnostics; returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp> importTFJSModel(llvm::StringRef json,
                                                  llvm::StringRef directory,
                                                  llvm::StringRef name,
                                                  mlir::MLIRContext *context);

/// Reads `path` (a model.json) and imports it.
mlir::OwningOpRef<mlir::ModuleOp>
importTFJSModelFile(llvm::StringRef path, mlir::MLIRContext *context);

/// Registers `--import-tfjs` with fallback-translate.
void registerTFJSImportTranslation();

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_TFJSIMPORT_H

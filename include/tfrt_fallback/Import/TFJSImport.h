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
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"

#include <string>

namespace tfrt_fallback {

/// Imports the model whose `model.json` text is `json`; weight shards are
/// read from `directory`. `name` names the model in error messages. Errors
/// are reported as diagnostics; returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp> importTFJSModel(llvm::StringRef json,
                                                  llvm::StringRef directory,
                                                  llvm::StringRef name,
                                                  mlir::MLIRContext *context);

/// Reads a weight shard: the path the model's weightsManifest names, to its
/// bytes or an error.
using TFJSShardReader =
    llvm::function_ref<llvm::Expected<std::string>(llvm::StringRef path)>;

/// Imports the model whose `model.json` text is `json`, reading its weight
/// shards through `readShard`: for models held in memory (an app's assets,
/// a fuzzer).
mlir::OwningOpRef<mlir::ModuleOp> importTFJSModel(llvm::StringRef json,
                                                  llvm::StringRef name,
                                                  TFJSShardReader readShard,
                                                  mlir::MLIRContext *context);

/// Reads `path` (a model.json) and imports it.
mlir::OwningOpRef<mlir::ModuleOp>
importTFJSModelFile(llvm::StringRef path, mlir::MLIRContext *context);

/// Registers `--import-tfjs` with fallback-translate.
void registerTFJSImportTranslation();

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_TFJSIMPORT_H

//===- TFLiteImport.h - import TFLite FlatBuffer models ---------*- C++ -*-===//
//
// Imports a `.tflite` model (TFLite's FlatBuffer format, Select TF ops
// included) into a TF-dialect module: each builtin operator becomes the TF
// ops that compute it with TFLite's semantics, a Flex operator the TF op its
// NodeDef names, and subgraphs called by WHILE, IF and CALL become functions.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_IMPORT_TFLITEIMPORT_H
#define TFRT_FALLBACK_IMPORT_TFLITEIMPORT_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Support/LLVM.h"

namespace tfrt_fallback {

/// Imports the model whose FlatBuffer bytes are `bytes`. The file is
/// verified before anything is read; `name` names it in error messages and
/// in the ops' locations. `@main` computes the first SignatureDef (else
/// subgraph 0), with its argument and result names in `tf.entry_function`.
/// Errors are reported as diagnostics; returns null on failure.
mlir::OwningOpRef<mlir::ModuleOp> importTFLiteModel(llvm::StringRef bytes,
                                                    llvm::StringRef name,
                                                    mlir::MLIRContext *context);

/// True when `path` names a TFLite model (`.tflite`).
bool isTFLitePath(llvm::StringRef path);

/// Registers `--import-tflite` with fallback-translate.
void registerTFLiteImportTranslation();

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_TFLITEIMPORT_H

//===- ParseSource.h - parse MLIR text that users give us -------*- C++ -*-===//
//
// MLIR's text parser with one guard in front: inputs that MLIR 22's parser
// accepts but then aborts the process on are refused with an error first.
// Today that is one case: a `dialect_resources` blob whose alignment (its
// first four bytes) is 0, which the parser hands to llvm::allocate_buffer
// ("Buffer allocation failed", found by the MLIR pipeline fuzzer).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_TRANSFORMS_PARSESOURCE_H
#define TFRT_FALLBACK_TRANSFORMS_PARSESOURCE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <string>

namespace tfrt_fallback {

/// Where in `source` (MLIR text) the parser would abort: the opening quote
/// of the first resource blob with alignment 0. An invalid SMLoc when there
/// is none; `message` (if given) receives the error to report.
llvm::SMLoc findUnparsableResource(llvm::StringRef source,
                                   std::string *message = nullptr);

/// Checks the main buffer of `sourceMgr` (findUnparsableResource); prints
/// the error through the source manager on failure. For tools that hand
/// the file to MLIR's drivers (fallback-opt).
llvm::LogicalResult checkSourceForParser(llvm::SourceMgr &sourceMgr);

/// mlir::parseSourceFile<ModuleOp> after the check: an input the parser
/// would abort on gives an error at its location (through the context's
/// diagnostics) and a null module.
mlir::OwningOpRef<mlir::ModuleOp>
parseSourceFile(llvm::SourceMgr &sourceMgr, const mlir::ParserConfig &config);

/// The same for text in memory (`name` is the buffer's name in locations).
mlir::OwningOpRef<mlir::ModuleOp>
parseSourceString(llvm::StringRef source, const mlir::ParserConfig &config,
                  llvm::StringRef name = "");

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_TRANSFORMS_PARSESOURCE_H

//===- MlirPipelineFuzzer.cpp - libFuzzer target for the MLIR path --------===//
//
// The bytes are the text of a TF program in MLIR (tf, tf_executor,
// tf_device, tf_type, func, arith, tfrt_fallback): parsed, then verified,
// lowered with the default pipeline, written as a binary program and loaded
// back (CompilerFuzzUtils.h).
//
//===----------------------------------------------------------------------===//

#include "CompilerFuzzUtils.h"

#include "tfrt_fallback/Transforms/ParseSource.h"

#include "mlir/IR/OwningOpRef.h"

#include <string>

using namespace tfrt_fallback;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // MLIR's lexer reads up to a NUL byte, as files read by its tools end;
  // the fuzzer's bytes do not.
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::ParserConfig config(fuzz::nextContext());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      tfrt_fallback::parseSourceString(text, config);
  if (module)
    fuzz::compileAndLoad(*module);
  return 0;
}

//===- TFLiteImportFuzzer.cpp - libFuzzer target for .tflite files --------===//
//
// The input is a .tflite file. It is verified and imported as
// `--import-tflite` does; an imported module is verified, lowered, written
// and loaded back (CompilerFuzzUtils.h).
//
//===----------------------------------------------------------------------===//

#include "CompilerFuzzUtils.h"

#include "tfrt_fallback/Import/TFLiteImport.h"

#include "mlir/IR/OwningOpRef.h"

using namespace tfrt_fallback;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::OwningOpRef<mlir::ModuleOp> module = importTFLiteModel(
      llvm::StringRef(reinterpret_cast<const char *>(data), size),
      "fuzz.tflite", fuzz::nextContext());
  if (module)
    fuzz::compileAndLoad(*module);
  return 0;
}

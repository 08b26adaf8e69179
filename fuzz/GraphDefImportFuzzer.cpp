//===- GraphDefImportFuzzer.cpp - libFuzzer target for GraphDefs ----------===//
//
// The first byte picks the format: even, binary first and then text (what
// `--import-graphdef` does with a `.pb`); odd, text only (a `.pbtxt`). The
// rest is the GraphDef. An imported module is verified, lowered, written
// and loaded back (CompilerFuzzUtils.h).
//
//===----------------------------------------------------------------------===//

#include "CompilerFuzzUtils.h"

#include "tfrt_fallback/Import/GraphDefImport.h"

#include "mlir/IR/OwningOpRef.h"

using namespace tfrt_fallback;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  GraphDefImportOptions options;
  options.textFormat = data[0] & 1;
  mlir::OwningOpRef<mlir::ModuleOp> module = importGraphDef(
      llvm::StringRef(reinterpret_cast<const char *>(data + 1), size - 1),
      "fuzz.pb", options, fuzz::nextContext());
  if (module)
    fuzz::compileAndLoad(*module);
  return 0;
}

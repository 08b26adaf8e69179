//===- TFJSImportFuzzer.cpp - libFuzzer target for TF.js models -----------===//
//
// The bytes are a `model.json`, then, after the first NUL byte, the bytes of
// its weights: the first shard a weightsManifest names reads them, any other
// shard is empty. An imported module is verified, lowered, written and
// loaded back (CompilerFuzzUtils.h).
//
//===----------------------------------------------------------------------===//

#include "CompilerFuzzUtils.h"

#include "tfrt_fallback/Import/TFJSImport.h"

#include "mlir/IR/OwningOpRef.h"

#include <cstring>
#include <string>

using namespace tfrt_fallback;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  size_t nul = bytes.find('\0');
  llvm::StringRef json = bytes.take_front(nul);
  llvm::StringRef weights = nul == llvm::StringRef::npos
                                ? llvm::StringRef()
                                : bytes.drop_front(nul + 1);
  bool first = true;
  auto readShard = [&](llvm::StringRef) -> llvm::Expected<std::string> {
    std::string shard = first ? weights.str() : std::string();
    first = false;
    return shard;
  };
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importTFJSModel(json, "model.json", readShard, fuzz::nextContext());
  if (module)
    fuzz::compileAndLoad(*module);
  return 0;
}

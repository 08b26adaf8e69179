//===- fallback-translate.cpp - tfrt-fallback translations ------*- C++ -*-===//
//
// mlir-translate with the tfrt-fallback translations: --mlir-to-bef writes a
// binary program, --bef-to-mlir disassembles one, --import-* read models. A
// SavedModel is named by its directory (read as DIR/saved_model.pb).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/GraphDefImport.h"
#include "tfrt_fallback/Import/SavedModelImport.h"
#include "tfrt_fallback/Import/TFJSImport.h"
#include "tfrt_fallback/Import/TFLiteImport.h"
#include "tfrt_fallback/Target/BinaryProgram.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "llvm/Support/FileSystem.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  // A SavedModel directory as input is its saved_model.pb.
  std::vector<std::string> files;
  std::vector<char *> args(argv, argv + argc);
  files.reserve(args.size());
  for (char *&arg : args)
    if (arg[0] != '-' && llvm::sys::fs::is_directory(arg) &&
        tfrt_fallback::isSavedModelPath(arg))
      arg = files.emplace_back(tfrt_fallback::savedModelFile(arg)).data();
  argc = static_cast<int>(args.size());
  argv = args.data();
  tfrt_fallback::registerBinaryProgramTranslations();
  tfrt_fallback::registerTFJSImportTranslation();
  tfrt_fallback::registerGraphDefImportTranslation();
  tfrt_fallback::registerTFLiteImportTranslation();
  tfrt_fallback::registerSavedModelImportTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tfrt-fallback translation driver"));
}

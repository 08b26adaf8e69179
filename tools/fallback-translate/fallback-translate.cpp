//===- fallback-translate.cpp - tfrt-fallback translations ------*- C++ -*-===//
//
// mlir-translate with the tfrt-fallback translations: --mlir-to-bef writes a
// binary program, --bef-to-mlir disassembles one.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/GraphDefImport.h"
#include "tfrt_fallback/Import/TFJSImport.h"
#include "tfrt_fallback/Import/TFLiteImport.h"
#include "tfrt_fallback/Target/BinaryProgram.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  tfrt_fallback::registerBinaryProgramTranslations();
  tfrt_fallback::registerTFJSImportTranslation();
  tfrt_fallback::registerGraphDefImportTranslation();
  tfrt_fallback::registerTFLiteImportTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "tfrt-fallback translation driver"));
}

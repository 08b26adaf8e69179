//===- fallback-opt.cpp - the tfrt-fallback optimizer driver ----*- C++ -*-===//
//
// mlir-opt with the dialects and passes of tfrt-fallback, registered through
// the same public entry points a downstream compiler uses
// (InitAllDialects.h, InitAllPasses.h), plus MLIR's generic transforms. The
// input is checked first for what MLIR's parser would abort on
// (ParseSource.h).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/InitAllPasses.h"
#include "tfrt_fallback/Transforms/ParseSource.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tfrt_fallback::registerAllPasses();

  mlir::DialectRegistry registry;
  tfrt_fallback::registerAllDialects(registry);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "tfrt-fallback optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  // What MlirOptMain(argc, argv, ...) does with the files, with the check
  // between reading the input and parsing it.
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(file->getMemBufferRef(),
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    if (mlir::failed(tfrt_fallback::checkSourceForParser(sourceMgr)))
      return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}

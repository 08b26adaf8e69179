//===- fallback-opt.cpp - the tfrt-fallback optimizer driver ----*- C++ -*-===//
//
// mlir-opt with the dialects and passes of tfrt-fallback, registered through
// the same public entry points a downstream compiler uses
// (InitAllDialects.h, InitAllPasses.h), plus MLIR's generic transforms.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tfrt_fallback::registerAllPasses();

  mlir::DialectRegistry registry;
  tfrt_fallback::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tfrt-fallback optimizer driver\n", registry));
}

//===- my-opt.cpp - a downstream compiler embedding tfrt-fallback ---------===//
//
// Registers upstream MLIR's func and arith dialects and transforms next to
// tfrt-fallback's, only through the installed public entry points, so a
// pipeline may mix them: my-opt --canonicalize --tfrt-fallback-pipeline.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/InitAllPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::arith::registerArithPasses();
  tfrt_fallback::registerAllPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  tfrt_fallback::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "a downstream optimizer\n", registry));
}

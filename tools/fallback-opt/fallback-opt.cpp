//===- fallback-opt.cpp - the tfrt-fallback optimizer driver ----*- C++ -*-===//
//
// mlir-opt with the tf and tfrt_fallback dialects and the tfrt-fallback
// passes and pipelines.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorDialect.h"
#include "tfrt_fallback/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  tfrt_fallback::registerTFRTFallbackPasses();
  tfrt_fallback::registerTFRTFallbackPipelines();

  mlir::DialectRegistry registry;
  registry.insert<
      tfrt_fallback::TFRTFallbackDialect, tfrt_fallback::tf::TFDialect,
      tfrt_fallback::tf::TFTypeDialect,
      tfrt_fallback::tf_executor::TFExecutorDialect, mlir::func::FuncDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tfrt-fallback optimizer driver\n", registry));
}

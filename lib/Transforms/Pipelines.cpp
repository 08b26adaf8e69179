//===- Pipelines.cpp - the tfrt-fallback pass pipelines ---------*- C++ -*-===//
//
// Registers the `tfrt-fallback-pipeline`: inline tf_executor graphs and
// tf_device regions, canonicalize, infer shapes, fold constants, fuse,
// lower, clean up.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tfrt_fallback::buildTFRTFallbackPipeline(
    OpPassManager &pm, const TFRTFallbackPipelineOptions &options) {
  // TensorFlow's MLIR export form: graphs of islands become plain TF ops.
  pm.addPass(createTFExecutorToFunctional());
  // Device placement regions: their ops, with the device on each.
  pm.addPass(createTFDeviceInline());
  // Region control flow: functions called by tf.If, tf.Case and tf.While.
  TFRegionControlFlowToFunctionalOptions outlining;
  outlining.nativeOps.assign(options.nativeOps.begin(),
                             options.nativeOps.end());
  pm.addPass(createTFRegionControlFlowToFunctional(outlining));
  // TF1 reference variables: resource variables of the ResourceManager.
  pm.addPass(createTFRefVariablesToResources());
  // Variable reads that a loop cannot change: once, before the loop.
  pm.addPass(createTFHoistLoopInvariantReads());
  pm.addPass(createCanonicalizerPass());
  // Static shapes through imported graphs, for the executor and the fuser;
  // a tf.Shape of a static shape becomes a constant.
  pm.addPass(createTFRTFallbackInferShapes());
  // Shape arithmetic and weight transforms of constants, by the runtime's
  // kernels; before fusion, which folds batch norms only into constant
  // weights. Once: a second run after fusion folds nothing more in any of
  // the 42 real models (docs/Performance.md). What it folds (a Reshape's
  // shape, say) can make more shapes static: infer them again.
  if (options.foldConstants) {
    pm.addPass(createTFRTFallbackFoldConstants());
    pm.addPass(createTFRTFallbackInferShapes());
  }
  // Convolutions and matrix products with their bias and activation.
  if (options.fuse) {
    TFRTFallbackFuseOptions fusing;
    fusing.kernelManifest = options.kernelManifest;
    pm.addPass(createTFRTFallbackFuse(fusing));
  }
  TFToTFRTFallbackOptions lowering;
  lowering.nativeOps.assign(options.nativeOps.begin(), options.nativeOps.end());
  lowering.kernelManifest = options.kernelManifest;
  lowering.allowUnsupported = options.allowUnsupported;
  pm.addPass(createTFToTFRTFallback(lowering));
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createSymbolDCEPass());
  // Last: the plan follows the final program order.
  if (options.planMemory)
    pm.addPass(createTFRTFallbackPlanMemory());
}

void tfrt_fallback::registerTFRTFallbackPipelines() {
  PassPipelineRegistration<TFRTFallbackPipelineOptions>(
      "tfrt-fallback-pipeline",
      "Canonicalize, lower TensorFlow ops to tfrt_fallback kernel calls and "
      "clean up",
      buildTFRTFallbackPipeline);
}

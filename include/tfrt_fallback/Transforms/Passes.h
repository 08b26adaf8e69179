//===- Passes.h - tfrt-fallback compiler passes -----------------*- C++ -*-===//
//
// Declares the passes and pipelines of the tfrt-fallback compiler.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_TRANSFORMS_PASSES_H
#define TFRT_FALLBACK_TRANSFORMS_PASSES_H

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

#include <memory>
#include <string>

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace tfrt_fallback {

class KernelManifest;

#define GEN_PASS_DECL
#include "tfrt_fallback/Transforms/Passes.h.inc"

/// Adds the rewrite patterns of `tfrt-fallback-fuse` to `patterns`: the
/// folds into convolutions and the fusions of contractions with what follows
/// them, for the fused kernels `manifest` has (it must outlive the patterns).
void populateTFRTFallbackFusePatterns(mlir::RewritePatternSet &patterns,
                                      const KernelManifest &manifest);

/// Options of the `tfrt-fallback-pipeline`.
struct TFRTFallbackPipelineOptions
    : public mlir::PassPipelineOptions<TFRTFallbackPipelineOptions> {
  ListOption<std::string> nativeOps{
      *this, "native-ops",
      llvm::cl::desc("TensorFlow ops that have native kernels")};
  Option<std::string> kernelManifest{
      *this, "kernel-manifest",
      llvm::cl::desc("Kernel manifest of the target runtime")};
  Option<bool> allowUnsupported{
      *this, "allow-unsupported",
      llvm::cl::desc("Lower ops without a kernel instead of failing"),
      llvm::cl::init(false)};
  Option<bool> foldConstants{
      *this, "fold-constants",
      llvm::cl::desc("Evaluate ops whose operands are all constant "
                     "(tfrt-fallback-fold-constants)"),
      llvm::cl::init(true)};
  Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Fuse contractions with their bias and activation "
                     "(tfrt-fallback-fuse)"),
      llvm::cl::init(true)};
  Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("Plan the buffers of static kernel results "
                     "(tfrt-fallback-plan-memory)"),
      llvm::cl::init(true)};
};

/// Inline tf_executor graphs and tf_device regions, canonicalize, fold ops
/// of constants (unless `fold-constants=false`), fuse
/// contractions with their epilogues (unless `fuse=false`), lower TF to
/// tfrt_fallback, then clean up (CSE, canonicalize, remove dead private
/// functions).
void buildTFRTFallbackPipeline(mlir::OpPassManager &pm,
                               const TFRTFallbackPipelineOptions &options);

/// Registers the `tfrt-fallback-pipeline`. The passes themselves are
/// registered by `registerTFRTFallbackPasses()` below.
void registerTFRTFallbackPipelines();

#define GEN_PASS_REGISTRATION
#include "tfrt_fallback/Transforms/Passes.h.inc"

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_TRANSFORMS_PASSES_H

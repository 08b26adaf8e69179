//===- CompilerFuzzUtils.h - shared code of the compiler fuzzers -*- C++
//-*-===//
//
// What the fuzz targets of the compiler side (the TF.js and GraphDef
// importers, the MLIR path) do with a module they got: verify it, lower it
// with the default pipeline against this build's kernels, write the binary
// program and load it back with the runtime. Every step may refuse its
// input with a diagnostic; none may crash, hang, leak or run out of memory.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_FUZZ_COMPILERFUZZUTILS_H
#define TFRT_FALLBACK_FUZZ_COMPILERFUZZUTILS_H

#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Target/BinaryProgram.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tfrt_fallback::fuzz {

/// The kernels of this build, as the loader checks programs against them.
inline const rt::KernelRegistry &getRegistry() {
  static const rt::KernelRegistry *registry = [] {
    auto *r = new rt::KernelRegistry;
    rt::registerAllKernels(*r);
    return r;
  }();
  return *registry;
}

/// A context with every dialect of a tfrt-fallback program, no threads and
/// diagnostics dropped (a refused input is the normal case).
class FuzzContext {
public:
  FuzzContext()
      : context(makeRegistry(), mlir::MLIRContext::Threading::DISABLED),
        handler(&context, [](mlir::Diagnostic &) { return mlir::success(); }) {
    context.loadAllAvailableDialects();
  }
  mlir::MLIRContext *get() { return &context; }

private:
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }
  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler handler;
};

/// The context for the next input. Making one costs more than most inputs
/// do, so one serves kInputsPerContext inputs; it is then replaced, since a
/// context keeps every attribute and type it ever made and would grow
/// without bound over millions of inputs.
inline mlir::MLIRContext *nextContext() {
  constexpr int kInputsPerContext = 512;
  static std::unique_ptr<FuzzContext> context;
  static int uses = 0;
  if (!context || ++uses == kInputsPerContext) {
    context.reset();
    context = std::make_unique<FuzzContext>();
    uses = 0;
  }
  return context->get();
}

/// Verifies `module`, lowers it, writes its binary program and loads that
/// back; stops at the first step that refuses it.
inline void compileAndLoad(mlir::ModuleOp module) {
  if (mlir::failed(mlir::verify(module)))
    return;
  TFRTFallbackPipelineOptions options;
  if (mlir::failed(lowerToFallback(module, options)))
    return;
  std::vector<uint8_t> bytes;
  if (mlir::failed(writeBinaryProgram(module, bytes)))
    return;
  rt::StatusOr<std::unique_ptr<rt::Program>> program =
      rt::Program::load(absl::MakeConstSpan(bytes), getRegistry());
  (void)program;
}

} // namespace tfrt_fallback::fuzz

#endif // TFRT_FALLBACK_FUZZ_COMPILERFUZZUTILS_H

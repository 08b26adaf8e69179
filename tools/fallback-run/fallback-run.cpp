//===- fallback-run.cpp - run a TF program on the fallback runtime -*- C++
//-*-===//
//
// Runs a program on the MLIR-free runtime. PROGRAM is a TF-dialect .mlir
// file, a TF.js model.json or a GraphDef (compiled in-process), a lowered
// tfrt_fallback .mlir file, or a binary program (.bef). Everything after the
// compilation is the shared runner (Runtime/Runner.h), the same code as
// fallback-run-lite's. `--reference-f64` (TF programs only) computes the
// program's float32 values in float64 (--tf-promote-to-f64): the accuracy
// oracle for numerically sensitive models.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/GraphDefImport.h"
#include "tfrt_fallback/Import/ImportModel.h"
#include "tfrt_fallback/Import/TFLiteImport.h"
#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Runner.h"
#include "tfrt_fallback/Target/BinaryProgram.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <iostream>

using namespace tfrt_fallback;

static int fail(const llvm::Twine &message) {
  return rt::reportError(message.str());
}

/// Compiles a .mlir program, a TF.js model.json or a GraphDef into binary
/// program bytes in-process.
static bool compileProgram(const std::string &path, bool referenceF64,
                           std::vector<uint8_t> &bytes) {
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  std::string message;
  auto file = mlir::openInputFile(path, &message);
  if (!file) {
    fail(message);
    return false;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  // Diagnostics print as "file:line:col: error: ...".
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importModel(sourceMgr, path, &context);
  if (!module)
    return false;
  if (referenceF64) {
    mlir::PassManager pm(&context);
    pm.addPass(createTFPromoteToF64());
    if (mlir::failed(pm.run(*module)))
      return false;
  }
  if (mlir::failed(lowerToFallback(*module, TFRTFallbackPipelineOptions())))
    return false;
  return mlir::succeeded(writeBinaryProgram(*module, bytes));
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // This runner's own flag; the shared parser takes the rest.
  bool referenceF64 = false;
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--reference-f64") == 0)
      referenceF64 = true;
    else
      args.push_back(argv[i]);
  }
  rt::RunnerOptions options;
  if (rt::Status status = rt::parseRunnerArgs(static_cast<int>(args.size()),
                                              args.data(), options);
      !status.ok())
    return rt::reportError(status.message());
  if (options.help) {
    std::cout << rt::runnerUsage("fallback-run",
                                 "a TF program (.mlir, TF.js model.json, "
                                 "GraphDef .pb/.pbtxt, or a binary "
                                 "program .bef)")
              << "  --reference-f64        compute a TF program's float32 "
                 "values in float64\n"
                 "                         (its results are float64; inputs "
                 "stay float32)\n";
    return 0;
  }
  rt::KernelRegistry registry;
  if (rt::Status status = rt::registerRunnerKernels(options, registry);
      !status.ok())
    return rt::reportError(status.message());
  if (options.listKernels)
    return rt::listRegisteredKernels(options, registry);
  if (options.programPath.empty())
    return fail("no program given (see --help)");

  llvm::StringRef path(options.programPath);
  if (!path.ends_with(".mlir") && !path.ends_with(".json") &&
      !isGraphDefPath(path) && !isTFLitePath(path)) {
    if (referenceF64)
      return fail("--reference-f64 needs a TF program (.mlir, model.json, "
                  "GraphDef, .tflite), not a binary one");
    rt::StatusOr<rt::RCReference<rt::TensorBuffer>> bytes =
        rt::TensorBuffer::readFile(options.programPath);
    if (!bytes.ok())
      return rt::reportError(bytes.status().message());
    return rt::runBinaryProgram(options, *std::move(bytes), registry);
  }
  std::vector<uint8_t> compiled;
  if (!compileProgram(options.programPath, referenceF64, compiled))
    return 1;
  rt::StatusOr<rt::RCReference<rt::TensorBuffer>> bytes =
      rt::TensorBuffer::allocate(compiled.size());
  if (!bytes.ok())
    return rt::reportError(bytes.status().message());
  if (!compiled.empty())
    std::memcpy((*bytes)->data(), compiled.data(), compiled.size());
  return rt::runBinaryProgram(options, *std::move(bytes), registry);
}

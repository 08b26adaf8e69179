//===- fallback-run.cpp - run a TF program on the fallback runtime -*- C++
//-*-===//
//
// Runs a program on the MLIR-free runtime. PROGRAM is a TF-dialect .mlir
// file (lowered in-process), a lowered tfrt_fallback .mlir file, or a binary
// program (.bef). Prints each result and writes it as .npy.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/GraphDefImport.h"
#include "tfrt_fallback/Import/TFJSImport.h"
#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/Runtime/Executor.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Npy.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Target/BinaryProgram.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tfrt_fallback;
namespace cl = llvm::cl;

static cl::OptionCategory runCategory("fallback-run options");

static cl::opt<std::string>
    programPath(cl::cat(runCategory), cl::Positional,
                cl::desc("<program: .mlir, .bef, TF.js model.json or GraphDef "
                         ".pb/.pbtxt>"),
                cl::init(""));
static cl::opt<std::string> entry(cl::cat(runCategory), "entry",
                                  cl::desc("Function to run"),
                                  cl::init("main"));
static cl::list<std::string> inputs(cl::cat(runCategory), "input",
                                    cl::desc("Input tensor (.npy), in order"));
static cl::opt<std::string>
    outputDir(cl::cat(runCategory), "output-dir",
              cl::desc("Write results as DIR/output_<i>.npy"), cl::init(""));
// --threads=N is parsed by hand: libLLVM already registers a "threads"
// option of its own.
static int threads = -1;
static cl::opt<int> benchmark(cl::cat(runCategory), "benchmark",
                              cl::desc("Time N runs after a warm-up run"),
                              cl::init(0));
static cl::opt<bool> listKernels(cl::cat(runCategory), "list-kernels",
                                 cl::desc("Print the kernel registry"));
static cl::opt<std::string>
    manifestPath(cl::cat(runCategory), "manifest",
                 cl::desc("With --list-kernels: write the kernel manifest "
                          "that --tf-to-tfrt-fallback reads to FILE"),
                 cl::init(""));
static cl::opt<int> deadlineMs(
    cl::cat(runCategory), "deadline-ms",
    cl::desc("Stop each run after N milliseconds with DEADLINE_EXCEEDED "
             "(0: no deadline)"),
    cl::init(0));
static cl::opt<int>
    printLimit(cl::cat(runCategory), "print-limit",
               cl::desc("Print at most N elements of each result"),
               cl::init(1000));

static int fail(const llvm::Twine &message) {
  llvm::errs() << "error: " << message << "\n";
  return 1;
}

/// Compiles a .mlir program, a TF.js model.json or a GraphDef into binary
/// program bytes in-process.
static bool compileProgram(const std::string &path,
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
  mlir::OwningOpRef<mlir::ModuleOp> module;
  if (llvm::StringRef(path).ends_with(".json"))
    module = importTFJSModel(
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer(),
        llvm::sys::path::parent_path(path), path, &context);
  else if (isGraphDefPath(path)) {
    GraphDefImportOptions options;
    options.textFormat = isTextGraphDefPath(path);
    module = importGraphDef(
        sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer(), path,
        options, &context);
  } else
    module = mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return false;
  if (mlir::failed(lowerToFallback(*module, TFRTFallbackPipelineOptions())))
    return false;
  return mlir::succeeded(writeBinaryProgram(*module, bytes));
}

static bool readFileBytes(const std::string &path,
                          std::vector<uint8_t> &bytes) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer) {
    fail("cannot read '" + path + "': " + buffer.getError().message());
    return false;
  }
  bytes.assign((*buffer)->getBufferStart(), (*buffer)->getBufferEnd());
  return true;
}

static int printKernels(const rt::KernelRegistry &registry) {
  for (const rt::KernelDef *def : registry.listKernels()) {
    llvm::outs() << def->opName();
    std::string constraints = def->constraintString();
    if (!constraints.empty())
      llvm::outs() << " " << constraints;
    llvm::outs() << "\n";
  }
  if (!manifestPath.empty()) {
    std::ofstream file(manifestPath);
    if (!file)
      return fail("cannot write '" + manifestPath + "'");
    registry.writeManifest(file);
  }
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  std::vector<char *> args;
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (i > 0 &&
        (arg.consume_front("--threads=") || arg.consume_front("-threads="))) {
      if (arg.getAsInteger(10, threads) || threads < 0)
        return fail("--threads takes a number of threads, got '" + arg + "'");
      continue;
    }
    args.push_back(argv[i]);
  }
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      static_cast<int>(args.size()), args.data(),
      "tfrt-fallback runner: runs a TF program on the fallback runtime\n\n"
      "  --threads=<n>   worker threads (default: one per core; 1 runs every\n"
      "                  kernel on the calling thread)\n");

  rt::KernelRegistry registry;
  rt::registerAllKernels(registry);
  if (listKernels)
    return printKernels(registry);
  if (programPath.empty())
    return fail("no program given (see --help)");

  std::vector<uint8_t> bytes;
  llvm::StringRef path(programPath);
  if (path.ends_with(".mlir") || path.ends_with(".json") ||
      isGraphDefPath(path)) {
    if (!compileProgram(programPath, bytes))
      return 1;
  } else if (!readFileBytes(programPath, bytes)) {
    return 1;
  }

  auto program = rt::Program::load(absl::MakeConstSpan(bytes), registry);
  if (!program.ok())
    return fail(std::string(program.status().message()));
  const rt::Function *function = (*program)->lookupFunction(entry.getValue());
  if (!function)
    return fail("the program has no function '" + entry + "'");

  std::vector<rt::Tensor> inputTensors;
  for (const std::string &input : inputs) {
    absl::StatusOr<rt::Tensor> tensor = rt::readNpyFile(input);
    if (!tensor.ok())
      return fail(std::string(tensor.status().message()));
    inputTensors.push_back(*std::move(tensor));
  }

  rt::HostContext host(threads);
  rt::Executor executor(**program, host);
  if (absl::Status status = executor.checkInputs(*function, inputTensors);
      !status.ok())
    return fail(std::string(status.message()));
  if (deadlineMs < 0)
    return fail("--deadline-ms takes a number of milliseconds");
  auto runOptions = [] {
    return deadlineMs > 0 ? rt::RunOptions::withTimeout(
                                std::chrono::milliseconds(deadlineMs))
                          : rt::RunOptions();
  };

  // Benchmark runs share the inputs; the last run takes them over.
  if (benchmark > 0) {
    auto checked = executor.run(*function, inputTensors, runOptions());
    if (!checked.ok())
      return fail(std::string(checked.status().message()));
    std::vector<double> times;
    for (int i = 0; i < benchmark; ++i) {
      auto start = std::chrono::steady_clock::now();
      auto again = executor.run(*function, inputTensors, runOptions());
      auto end = std::chrono::steady_clock::now();
      times.push_back(
          std::chrono::duration<double, std::milli>(end - start).count());
      // A timed run that fails is reported, not timed on.
      for (const rt::ResultValue &result : *again)
        if (!result.ok())
          return fail("benchmark run " + llvm::Twine(i) + ": " +
                      std::string(result.status().message()));
    }
    std::sort(times.begin(), times.end());
    llvm::outs() << llvm::format(
        "benchmark: %d runs, min %.4f ms, median %.4f ms, max %.4f ms\n",
        benchmark.getValue(), times.front(), times[times.size() / 2],
        times.back());
  }

  auto results = executor.run(*function, std::move(inputTensors), runOptions());
  if (!results.ok())
    return fail(std::string(results.status().message()));

  if (!outputDir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(outputDir.getValue(), error);
    if (error)
      return fail("cannot create '" + outputDir + "': " + error.message());
  }
  bool anyError = false;
  for (size_t i = 0; i < results->size(); ++i) {
    const rt::ResultValue &result = (*results)[i];
    if (!result.ok()) {
      llvm::errs() << "error: result #" << i << ": "
                   << std::string(result.status().message()) << "\n";
      anyError = true;
      continue;
    }
    llvm::outs() << "result #" << i << ": " << rt::describeTensor(*result)
                 << "\n"
                 << result->debugString(printLimit) << "\n";
    if (!outputDir.empty()) {
      std::string file = outputDir + "/output_" + std::to_string(i) + ".npy";
      if (absl::Status status = rt::writeNpyFile(file, *result); !status.ok())
        return fail(std::string(status.message()));
    }
  }
  llvm::outs().flush();
  return anyError ? 1 : 0;
}

//===- Runner.h - the command line runner shared by both runners -*- C++
//-*-===//
//
// One implementation of what a runner does with a binary program: argument
// handling, .npy inputs and outputs, --benchmark (with peak memory), and
// --deadline-ms. fallback-run (which also compiles .mlir, TF.js and GraphDef
// inputs in-process) and fallback-run-lite (the MLIR-free runner an app
// ships) are thin mains over it. No MLIR, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_RUNNER_H
#define TFRT_FALLBACK_RUNTIME_RUNNER_H

#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Limits.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {

struct RunnerOptions {
  /// The program file (positional).
  std::string programPath;
  std::string entry = "main";
  /// A function run once, without inputs, before the entry's runs (a
  /// program's initializer: it sets up variables the runs then share);
  /// empty: none.
  std::string init;
  /// Input tensors: `file.npy` (in order) or `NAME=file.npy` (the input
  /// the program's signature names NAME; the positional ones fill the rest
  /// in order).
  std::vector<std::string> inputs;
  /// Write results as DIR/output_<i>.npy.
  std::string outputDir;
  /// --output-names: write results as DIR/<name>.npy instead.
  bool outputNames = false;
  /// --signature: print the entry's input and output names and types, and
  /// run nothing.
  bool printSignature = false;
  /// Worker threads; negative: one per core.
  int threads = -1;
  /// Time N runs after a warm-up run.
  int benchmark = 0;
  /// Stop each run after N ms (0: no deadline).
  int deadlineMs = 0;
  /// Write a Chrome trace of the profiled runs here (--profile).
  std::string profilePath;
  /// Print the ops and kernels that took the most time (--profile-summary).
  bool profileSummary = false;
  /// Print at most N elements of each result.
  int printLimit = 1000;
  bool listKernels = false;
  /// With --list-kernels: also write the kernel manifest here.
  std::string manifestPath;
  /// Kernel plugins (shared libraries) to load first.
  std::vector<std::string> kernelPlugins;
  /// --memmapped-package: a TF memmapped package for ImmutableConst.
  std::string memmappedPackage;
  /// --max-program-bytes, --max-call-depth.
  LoadOptions load;
  /// --max-tensor-bytes (inputs too), --max-run-bytes,
  /// --max-loop-iterations.
  RunLimits limits;
  bool help = false;
};

/// Parses the runner's flags (`--name=value`, `--name value`, repeatable
/// `--input`) into `options`, which holds the defaults (a default-constructed
/// RunnerOptions) or earlier flags. Errors name the flag.
Status parseRunnerArgs(int argc, char **argv, RunnerOptions &options);

/// The --help text; `tool` and `programKinds` describe the runner.
std::string runnerUsage(std::string_view tool, std::string_view programKinds);

/// Fills `registry` with the built-in kernels (`registerBuiltins`: every
/// kernel by default) and those of the plugins in `options.kernelPlugins`.
Status registerRunnerKernels(
    const RunnerOptions &options, KernelRegistry &registry,
    void (*registerBuiltins)(KernelRegistry &) = registerAllKernels);

/// The whole of fallback-run-lite, `tool`, with the built-in kernels that
/// `registerBuiltins` registers: parses the flags, loads the plugins, runs
/// the binary program; returns the exit code. (scripts/size-report.sh
/// builds runners with one kernel family this way.)
int runLiteMain(int argc, char **argv, std::string_view tool,
                void (*registerBuiltins)(KernelRegistry &));

/// Runs `options.entry` of the binary program in `bytes` (64-byte aligned)
/// with kernels from `registry`: runs `options.init` once when given, reads
/// the inputs, runs (and benchmarks),
/// prints each result and writes it as .npy. Errors go to stderr as
/// "error: ..."; returns the process exit code (0, or 1 on any error).
int runBinaryProgram(const RunnerOptions &options,
                     RCReference<TensorBuffer> bytes,
                     const KernelRegistry &registry);

/// Prints the registry (and writes the manifest when asked); exit code.
int listRegisteredKernels(const RunnerOptions &options,
                          const KernelRegistry &registry);

/// Prints "error: <message>" to stderr and returns 1.
int reportError(std::string_view message);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_RUNNER_H

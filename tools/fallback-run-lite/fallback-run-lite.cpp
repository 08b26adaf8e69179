//===- fallback-run-lite.cpp - the MLIR-free runner -------------*- C++ -*-===//
//
// Runs binary programs (.bef) with the runtime alone: no MLIR, LLVM or
// protobuf, so it is what an app ships (and what the runtime-only build,
// -DTFRT_FALLBACK_ENABLE_COMPILER=OFF, produces). The same runner code as
// fallback-run (Runtime/Runner.h); compile other inputs with
// `fallback-translate --mlir-to-bef` first.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Runner.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

#include <iostream>

using namespace tfrt_fallback::rt;

int main(int argc, char **argv) {
  StatusOr<RunnerOptions> options = parseRunnerArgs(argc, argv);
  if (!options.ok())
    return reportError(options.status().message());
  if (options->help) {
    std::cout << runnerUsage("fallback-run-lite", "a binary program (.bef)");
    return 0;
  }
  KernelRegistry registry;
  if (Status status = registerRunnerKernels(*options, registry); !status.ok())
    return reportError(status.message());
  if (options->listKernels)
    return listRegisteredKernels(*options, registry);
  if (options->programPath.empty())
    return reportError("no program given (see --help)");
  for (absl::string_view suffix : {".mlir", ".json", ".pb", ".pbtxt"})
    if (absl::EndsWith(options->programPath, suffix))
      return reportError(
          absl::StrCat("fallback-run-lite runs binary programs; compile '",
                       options->programPath,
                       "' with fallback-translate --mlir-to-bef (or "
                       "run it with fallback-run)"));
  StatusOr<RCReference<TensorBuffer>> bytes =
      readFileAligned(options->programPath);
  if (!bytes.ok())
    return reportError(bytes.status().message());
  return runBinaryProgram(*options, *std::move(bytes), registry);
}

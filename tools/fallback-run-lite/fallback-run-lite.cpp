//===- fallback-run-lite.cpp - the MLIR-free runner -------------*- C++ -*-===//
//
// Runs binary programs (.bef) with the runtime alone: no MLIR, LLVM or
// protobuf, so it is what an app ships (and what the runtime-only build,
// -DTFRT_FALLBACK_ENABLE_COMPILER=OFF, produces). The same runner code as
// fallback-run (Runtime/Runner.h); compile other inputs with
// `fallback-translate --mlir-to-bef` first.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Runner.h"

int main(int argc, char **argv) {
  return tfrt_fallback::rt::runLiteMain(argc, argv, "fallback-run-lite",
                                        tfrt_fallback::rt::registerAllKernels);
}

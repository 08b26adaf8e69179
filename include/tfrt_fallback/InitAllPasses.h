//===- InitAllPasses.h - every pass and pipeline of tfrt-fallback -*- C++
//-*-===//
//
// The entry point for compilers that embed tfrt-fallback, as MLIR's and
// CIRCT's InitAllPasses.h: registers our passes (--tf-to-tfrt-fallback,
// --tf-executor-to-functional, ...) and the --tfrt-fallback-pipeline, so a
// downstream *-opt tool parses them on its command line. To run the pipeline
// programmatically, call buildTFRTFallbackPipeline (Transforms/Passes.h).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_INITALLPASSES_H
#define TFRT_FALLBACK_INITALLPASSES_H

#include "tfrt_fallback/Transforms/Passes.h"

namespace tfrt_fallback {

/// Registers every tfrt-fallback pass and pipeline with MLIR's registry.
inline void registerAllPasses() {
  registerTFRTFallbackPasses();
  registerTFRTFallbackPipelines();
}

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_INITALLPASSES_H

//===- Features.h - What this runtime build has beyond kernels --*- C++ -*-===//
//
// A selective build (-DTFRT_FALLBACK_KERNELS=FILE) keeps what its kernel
// manifest asks for and nothing else: the kernels it names
// (Kernels/KernelSelection.h), and two parts of the framework that only some
// programs use, each kept when the manifest has its `feature` line
// (docs/KernelManifest.md):
//   - `feature control-flow`: calls, if, case and while (the loader's
//     checks of them and the control-flow kernels it makes for them,
//     Executor/ControlFlowKernels.h), as a TFLite build without the WHILE,
//     IF and CALL_ONCE kernels has none;
//   - `feature strings`: string tensors in programs (string constants,
//     string-typed values) and in .npy files and printing;
//   - `feature memory-plan`: the compiler's static memory plans
//     (docs/MemoryPlan.md). A plan is optional: a build without it skips
//     the plan section and allocates every result.
//   - `feature signatures`: the names of functions' inputs and outputs
//     (the signatures section) and the runner's use of them (--signature,
//     --input=NAME=file, --output-names). Optional: a build without it
//     names them input_<i> and output_<i>.
//   - `feature memmapped-package`: the path of a TF memmapped package whose
//     regions ImmutableConst reads (Executor::setMemmappedPackagePath, the
//     runner's --memmapped-package). Without it ImmutableConst finds no
//     package.
// lib/Runtime/CMakeLists.txt sets the macros; a build without a manifest
// has every feature. A program that needs control flow or strings when the
// build lacks them is refused at load, naming the feature.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_FEATURES_H
#define TFRT_FALLBACK_LIB_RUNTIME_FEATURES_H

#ifndef TFRT_FALLBACK_FEATURE_CONTROL_FLOW
#define TFRT_FALLBACK_FEATURE_CONTROL_FLOW 1
#endif
#ifndef TFRT_FALLBACK_FEATURE_STRINGS
#define TFRT_FALLBACK_FEATURE_STRINGS 1
#endif
#ifndef TFRT_FALLBACK_FEATURE_MEMORY_PLAN
#define TFRT_FALLBACK_FEATURE_MEMORY_PLAN 1
#endif
#ifndef TFRT_FALLBACK_FEATURE_SIGNATURES
#define TFRT_FALLBACK_FEATURE_SIGNATURES 1
#endif
#ifndef TFRT_FALLBACK_FEATURE_MEMMAPPED_PACKAGE
#define TFRT_FALLBACK_FEATURE_MEMMAPPED_PACKAGE 1
#endif
// The framework built for size (lib/Runtime/CMakeLists.txt's
// TFRT_FALLBACK_FRAMEWORK_FOR_SIZE: -Oz, one copy of what the fast build
// inlines twice).
#ifndef TFRT_FALLBACK_FRAMEWORK_FOR_SIZE
#define TFRT_FALLBACK_FRAMEWORK_FOR_SIZE 0
#endif

// Before a loop over an instruction's few operands: a vector loop (with its
// masks and remainders) costs more than the handful of iterations it
// replaces.
#if defined(__clang__)
#define TFRT_FALLBACK_SCALAR_LOOP                                              \
  _Pragma("clang loop vectorize(disable) interleave(disable)")
#else
#define TFRT_FALLBACK_SCALAR_LOOP
#endif

namespace tfrt_fallback::rt {

/// Whether this build has the control-flow kernels (calls, if, case and
/// while).
inline constexpr bool kHasControlFlow = TFRT_FALLBACK_FEATURE_CONTROL_FLOW;
/// Whether this build has string tensors in programs, .npy files and
/// printing.
inline constexpr bool kHasStrings = TFRT_FALLBACK_FEATURE_STRINGS;
/// Whether this build uses the memory plans of programs.
inline constexpr bool kHasMemoryPlan = TFRT_FALLBACK_FEATURE_MEMORY_PLAN;
/// Whether this build reads the names of functions' inputs and outputs.
inline constexpr bool kHasSignatures = TFRT_FALLBACK_FEATURE_SIGNATURES;
/// Whether this build's runner takes a memmapped package for ImmutableConst.
inline constexpr bool kHasMemmappedPackage =
    TFRT_FALLBACK_FEATURE_MEMMAPPED_PACKAGE;
/// Whether this build is the framework built for size.
inline constexpr bool kFrameworkForSize = TFRT_FALLBACK_FRAMEWORK_FOR_SIZE;

} // namespace tfrt_fallback::rt

/// Why a program is refused for a missing feature ("control-flow"), the end
/// of a message literal: "'while' at 'loc' in 'main' needs control flow, "
/// TFRT_FALLBACK_LEFT_OUT("control-flow").
#define TFRT_FALLBACK_LEFT_OUT(feature)                                        \
  "which this runtime leaves out (a selective build whose kernel manifest "    \
  "has no 'feature " feature "' line)"

#endif // TFRT_FALLBACK_LIB_RUNTIME_FEATURES_H

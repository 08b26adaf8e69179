//===- Executor.h - run the functions of a loaded program -------*- C++ -*-===//
//
// Executes a function of a loaded Program on AsyncValues, as TFRT's BEF
// executor does: every register of a running function is an AsyncValue
// (unavailable, a concrete tensor, or an error); an instruction runs once its
// operands are available; a kernel's outputs become available when it
// finishes, which for an AsyncOpKernel is later, on another thread.
//
// With a host context of one thread (or none) instructions run in program
// order on the caller's thread, the leanest path; an instruction whose
// operands are not available yet (they wait on an async kernel) is deferred
// until they are. With more threads they run in dataflow order with
// readiness counts and independent kernels run in parallel.
//
// Errors are values: a failing kernel turns its results into errors that
// name the op and its source location; instructions that depend on them are
// skipped and pass the error on, and independent work completes. A run can
// be cancelled or given a deadline (RunOptions): pending instructions are
// then skipped and their results are CANCELLED or DEADLINE_EXCEEDED errors
// naming the instruction where the run stopped.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_EXECUTOR_H
#define TFRT_FALLBACK_RUNTIME_EXECUTOR_H

#include "tfrt_fallback/Runtime/AsyncValue.h"
#include "tfrt_fallback/Runtime/Cancellation.h"
#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/Limits.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/Resource.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/types/span.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {

/// A function result: a tensor, or the error that prevented it.
using ResultValue = StatusOr<Tensor>;

/// Sees every kernel a run executes (RunOptions::observer): how a profiler
/// learns where the time goes. Called on the thread that ran the kernel (for
/// an AsyncOpKernel, the one that finished it), after the kernel and before
/// its outputs are published, so `outputs` may be read; it must be safe to
/// call from several threads at once.
class KernelObserver {
public:
  virtual ~KernelObserver();
  /// `kernel` ran from `start` to `end` and returned `status`; `outputs`
  /// are its results (set when `status` is OK).
  virtual void kernelDone(const KernelEntry &kernel,
                          absl::Span<Tensor *const> outputs,
                          const Status &status,
                          std::chrono::steady_clock::time_point start,
                          std::chrono::steady_clock::time_point end) = 0;
};

/// How a run may be stopped early, and who watches it.
struct RunOptions {
  /// The run ends with CANCELLED once this token is cancelled; it must
  /// outlive the run.
  const CancellationToken *cancellation = nullptr;
  /// The run ends with DEADLINE_EXCEEDED once this time has passed.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Told about every kernel of the run, callees included; it must outlive
  /// the run. Null (the default) costs one test per kernel.
  KernelObserver *observer = nullptr;
  /// The run's memory and loop limits (Limits.h); none by default.
  RunLimits limits;

  /// Options with a deadline `timeout` from now.
  static RunOptions withTimeout(std::chrono::steady_clock::duration timeout) {
    RunOptions options;
    options.deadline = std::chrono::steady_clock::now() + timeout;
    return options;
  }
};

/// The results of a run started with Executor::runAsync().
struct AsyncRun {
  /// One per function result, each available (a tensor or an error) as soon
  /// as it is computed, while the rest of the run goes on.
  std::vector<AsyncValueRef<Tensor>> results;
  /// Available once every instruction of the run has finished. The program
  /// and the host context must outlive it.
  AsyncValueRef<Chain> done;
};

class Executor {
public:
  /// `host` provides the thread pool and the Eigen device kernels use; it
  /// must outlive the executor. `program` likewise.
  Executor(const Program &program, HostContext &host);
  ~Executor();
  Executor(const Executor &) = delete;
  Executor &operator=(const Executor &) = delete;

  /// Starts `function` on `inputs` and returns its results as AsyncValues.
  /// Fails without running anything when the inputs do not match the
  /// function's signature. The run owns `inputs`: an input at its last use
  /// may lend its buffer to a kernel output when the caller kept no other
  /// reference to it. Thread-safe: many runs may go on at once.
  StatusOr<AsyncRun> runAsync(const Function &function,
                              std::vector<Tensor> inputs,
                              const RunOptions &options = {}) const;

  /// runAsync() and wait for the whole run; one value per function result.
  StatusOr<std::vector<ResultValue>> run(const Function &function,
                                         std::vector<Tensor> inputs,
                                         const RunOptions &options = {}) const;

  /// run() for a function's effects (an initializer of variables): OK
  /// when every result and every stateful kernel succeeded, else the first
  /// error, a result's or that of a stateful kernel whose failure reaches
  /// no result (it is on the chain that orders the effects).
  Status runForEffects(const Function &function, std::vector<Tensor> inputs,
                       const RunOptions &options = {}) const;

  /// Gives ImmutableConst the regions of the memmapped package at `path`
  /// (MemmappedPackage.h), mapped when the kernel first runs. Call before
  /// the first run.
  void setMemmappedPackagePath(std::string path) {
    resources.setMemmappedPackagePath(std::move(path));
  }

  /// Checks `inputs` against the signature of `function`.
  Status checkInputs(const Function &function,
                     absl::Span<const Tensor> inputs) const;

  /// How kernels of `function`'s finished runs fared with its memory plan
  /// (docs/MemoryPlan.md): results that took their planned buffer, and
  /// those allocated because it was taken or too small. Counts the frame
  /// kept for the next run (runs that overlapped it have frames of their
  /// own); zeros without a plan.
  struct MemoryPlanCounts {
    uint64_t hits = 0, misses = 0;
  };
  MemoryPlanCounts memoryPlanCounts(const Function &function) const;

private:
  StatusOr<std::vector<ResultValue>> runImpl(const Function &function,
                                             std::vector<Tensor> inputs,
                                             const RunOptions &options,
                                             Status *effects) const;

  class Frame;
  /// The kernels' view of a running frame (FunctionRunner.h).
  friend class FunctionRunner;

  const Program &program;
  HostContext &host;
  /// The variables and other resources of this executor's runs.
  mutable ResourceManager resources;
  /// Per function, the frame of a finished synchronous run, kept for the
  /// next run so registers are not rebuilt each time.
  std::unique_ptr<std::atomic<Frame *>[]> idleFrames;
};

/// "tensor<2x3xf32>" for a runtime tensor.
std::string describeTensor(const Tensor &tensor);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_EXECUTOR_H

//===- FunctionRunner.h - kernels that call program functions ---*- C++ -*-===//
//
// What a kernel sees of the functions of its program: the control-flow
// kernels (If, Case, While and calls; lib/Runtime/Executor/
// ControlFlowKernels.cpp) run their branches, conditions and bodies through
// it, as TFRT's tfrt.if and tfrt.while call their functions through the
// execution context (control_flow_kernels.cc). The executor implements it
// for the kernels of a running function (OpKernelContextInterface::
// functionRunner): a callee runs in a frame of its own with its caller's
// run options (cancellation, deadline, observer, memory budget, limits),
// on the caller's stack when it finishes at once.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_FUNCTIONRUNNER_H
#define TFRT_FALLBACK_RUNTIME_FUNCTIONRUNNER_H

#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/functional/any_invocable.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {

class FunctionRunner {
public:
  /// One call of a function, which the caller keeps until its `done` has
  /// run (a loop keeps one across iterations, so that an iteration
  /// allocates nothing).
  struct Call {
    /// One per argument of the callee, an empty tensor for a chain; moved
    /// from, so that the caller may refill the vector.
    std::vector<Tensor> args;
    /// The callee's results once it has finished (a chain as an empty
    /// tensor), one per result.
    std::vector<Tensor> results;
    /// Called once the call has finished: OK when `results` are in place,
    /// else the first error among them. It may destroy the Call.
    absl::AnyInvocable<void(Status) &&> done;
  };

  /// Kept by a caller that calls one function again and again (a loop's
  /// condition and body): a call may then run in the frame of the previous
  /// one when nothing else holds it, instead of a new one. Gives the frame
  /// back when destroyed.
  class Reuse {
  public:
    Reuse() = default;
    ~Reuse();
    Reuse(const Reuse &) = delete;
    Reuse &operator=(const Reuse &) = delete;

  private:
    friend class FunctionRunner;
    void *frame_ = nullptr;
  };

  /// Whether function `function` takes a chain: its argument 0 is a chain
  /// and its last result is the next one (docs/BinaryFormat.md).
  bool takesChain(uint32_t function) const;
  /// The name of function `function`, for messages.
  std::string_view functionName(uint32_t function) const;

  /// Runs function `function` on `call->args`, puts its results in
  /// `call->results` and runs `call->done`, on the thread that finishes the
  /// call: this one, before call() returns, when the callee finishes at
  /// once. An argument that does not fit the callee's declared type is an
  /// InvalidArgument error naming `op` and `location` (the calling node),
  /// as is a wrong number of arguments. `reuse` may be null.
  void call(uint32_t function, Call *call, Reuse *reuse, std::string_view op,
            std::string_view location);

  /// Why the run must stop before `op` at `location` (cancelled, or past
  /// its deadline), or OK: a loop asks before each iteration.
  Status checkStop(std::string_view op, std::string_view location) const;
  /// The most iterations a loop of this run may make (RunLimits); 0: no
  /// limit.
  uint64_t maxLoopIterations() const;

protected:
  FunctionRunner() = default;
  ~FunctionRunner() = default;

private:
  /// Gives back a frame a Reuse kept.
  static void releaseFrame(void *frame);
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_FUNCTIONRUNNER_H

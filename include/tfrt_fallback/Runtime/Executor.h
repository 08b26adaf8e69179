//===- Executor.h - run the functions of a loaded program -------*- C++ -*-===//
//
// Executes a function of a loaded Program. With a host context of one
// thread (or none) instructions run in program order on the caller's thread,
// the leanest path; with more threads they run in dataflow order with
// readiness counts and independent kernels run in parallel.
//
// Errors are values: a failing kernel turns its results into errors that
// name the op and its source location; instructions that depend on them are
// skipped and pass the error on, and independent work completes.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_EXECUTOR_H
#define TFRT_FALLBACK_RUNTIME_EXECUTOR_H

#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/Program.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/status/statusor.h"
#include "absl/types/span.h"

#include <vector>

namespace tfrt_fallback::rt {

/// A function result: a tensor, or the error that prevented it.
using ResultValue = absl::StatusOr<Tensor>;

class Executor {
public:
  /// `host` provides the thread pool and the Eigen device kernels use; it
  /// must outlive the executor. `program` likewise.
  Executor(const Program &program, HostContext &host)
      : program(program), host(host) {}

  /// Runs `function` on `inputs`. Fails without running anything when the
  /// inputs do not match the function's signature; otherwise returns one
  /// value per function result. Thread-safe: many threads may call run().
  absl::StatusOr<std::vector<ResultValue>>
  run(const Function &function, absl::Span<const Tensor> inputs) const;

  /// Checks `inputs` against the signature of `function`.
  absl::Status checkInputs(const Function &function,
                           absl::Span<const Tensor> inputs) const;

private:
  struct Slot;
  class Frame;

  void runSequential(const Function &function, Slot *slots) const;
  void runParallel(const Function &function, Slot *slots) const;
  void runInstruction(const Function &function, uint32_t index,
                      Slot *slots) const;
  void runKernel(const Function &function, const Instruction &inst,
                 Slot *slots) const;
  void runCall(const Function &function, const Instruction &inst,
               Slot *slots) const;
  void runFunction(const Function &function, Slot *slots) const;

  const Program &program;
  HostContext &host;
};

/// "tensor<2x3xf32>" for a runtime tensor.
std::string describeTensor(const Tensor &tensor);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_EXECUTOR_H

//===- Profiler.h - where a run's time goes ---------------------*- C++ -*-===//
//
// A KernelObserver that records every kernel a run executes (op, source
// location, output shapes, thread, start and duration) and reports them as
// a Chrome trace (chrome://tracing, Perfetto) or as a summary of the ops
// and kernels that took the most time. fallback-run's --profile and
// --profile-summary use it.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_PROFILER_H
#define TFRT_FALLBACK_RUNTIME_PROFILER_H

#include "tfrt_fallback/Runtime/Executor.h"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace tfrt_fallback::rt {

class KernelProfiler final : public KernelObserver {
public:
  KernelProfiler();

  void kernelDone(const KernelEntry &kernel, absl::Span<Tensor *const> outputs,
                  const Status &status,
                  std::chrono::steady_clock::time_point start,
                  std::chrono::steady_clock::time_point end) override;

  /// Marks the start of a run (a Chrome trace shows runs side by side on
  /// the same time axis) and counts it for the per-run averages.
  void beginRun();

  /// The recorded kernels as Chrome trace JSON ("traceEvents", one
  /// complete event per kernel, times in microseconds from the first run's
  /// start, args: the location and output shapes).
  std::string chromeTrace() const;

  /// The ops (by total time, with calls and milliseconds per run) and the
  /// `top` kernels (op at its location, with output shapes) that took the
  /// most time.
  std::string summary(int top = 10) const;

private:
  struct Event {
    const KernelEntry *kernel;
    int64_t startNs, durationNs;
    uint32_t thread;
    bool failed;
  };

  std::chrono::steady_clock::time_point origin_;
  mutable std::mutex mu_;
  std::vector<Event> events_;
  /// Output types of each kernel's first recorded call.
  std::unordered_map<const KernelEntry *, std::string> shapes_;
  int runs_ = 0;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_PROFILER_H

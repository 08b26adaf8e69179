//===- HostContext.h - Thread pools and intra-op device ---------*- C++ -*-===//
//
// HostContext owns the runtime's threads: an inter-op pool for non-blocking
// work (kernels, continuations), a growing pool for blocking work (I/O), and
// an Eigen ThreadPoolDevice that kernels use for intra-op parallelism.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_HOSTCONTEXT_H
#define TFRT_FALLBACK_RUNTIME_HOSTCONTEXT_H

#include "tfrt_fallback/Runtime/AsyncValue.h"

#include "absl/functional/any_invocable.h"
#include "absl/types/span.h"

#include <memory>

namespace Eigen {
class ThreadPoolInterface;
struct ThreadPoolDevice;
} // namespace Eigen

namespace tfrt_fallback::rt {

/// Tells the CPU that this thread is spinning on a flag another thread sets
/// (x86 `pause`, arm64 `yield`): a spin-wait costs the sibling hyperthread
/// less and leaves the loop sooner.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class HostContext {
public:
  /// std::thread::hardware_concurrency(), at least 1.
  static int defaultNumThreads();

  /// `numThreads` inter-op worker threads; 0 runs all work inline on the
  /// thread that enqueues it. The Eigen device gets `numThreads` threads
  /// (an inline device when 0). Negative means defaultNumThreads().
  explicit HostContext(int numThreads = -1);
  ~HostContext();
  HostContext(const HostContext &) = delete;
  HostContext &operator=(const HostContext &) = delete;

  int numThreads() const { return numThreads_; }

  /// Runs `work` on a worker thread (inline when numThreads() == 0). Work
  /// must not block on other enqueued work; use enqueueBlockingWork for that.
  void enqueueWork(absl::AnyInvocable<void()> work);

  /// Runs `work` on a separate pool that grows on demand, so blocking work
  /// never occupies a compute worker (inline when numThreads() == 0).
  void enqueueBlockingWork(absl::AnyInvocable<void()> work);

  /// Blocks until every value is available. The caller runs queued
  /// non-blocking work while it waits, so await() may be called from a
  /// worker thread without deadlocking the pool.
  void await(absl::Span<const RCReference<AsyncValue>> values);

  /// Blocks until all enqueued work, including work enqueued by running
  /// work, has finished.
  void quiesce();

  /// Intra-op parallelism for kernels (Eigen expressions `.device(d)`,
  /// parallelFor). Always valid; runs inline when numThreads() <= 1.
  const Eigen::ThreadPoolDevice &eigenDevice() const { return *eigenDevice_; }

private:
  class WorkQueue;
  struct Pending;

  int numThreads_;
  std::unique_ptr<Pending> pending_;
  std::unique_ptr<WorkQueue> queue_;
  std::unique_ptr<WorkQueue> blockingQueue_;
  std::unique_ptr<Eigen::ThreadPoolInterface> eigenPool_;
  std::unique_ptr<Eigen::ThreadPoolDevice> eigenDevice_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_HOSTCONTEXT_H

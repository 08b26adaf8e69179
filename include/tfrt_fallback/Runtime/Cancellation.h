//===- Cancellation.h - cancel runs from another thread ---------*- C++ -*-===//
//
// A CancellationToken is a flag that any thread may set once; the executor
// reads it before each instruction of the runs it was given to, skips what
// is still pending and ends those runs with CANCELLED. One token may serve
// many runs. It is a lean version of TensorFlow's CancellationManager without
// callbacks: kernels in flight finish, nothing after them starts.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_CANCELLATION_H
#define TFRT_FALLBACK_RUNTIME_CANCELLATION_H

#include <atomic>

namespace tfrt_fallback::rt {

class CancellationToken {
public:
  CancellationToken() = default;
  CancellationToken(const CancellationToken &) = delete;
  CancellationToken &operator=(const CancellationToken &) = delete;

  /// Requests cancellation; safe from any thread, idempotent.
  void cancel() { cancelled_.store(true, std::memory_order_release); }
  bool isCancelled() const {
    return cancelled_.load(std::memory_order_acquire);
  }
  /// Clears the request, so the token can serve new runs.
  void reset() { cancelled_.store(false, std::memory_order_release); }

private:
  std::atomic<bool> cancelled_{false};
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_CANCELLATION_H

//===- Limits.h - resource limits of a run ----------------------*- C++ -*-===//
//
// What a program from outside may make the runtime do is bounded by limits
// that are checked before anything is allocated or run, each failing with a
// ResourceExhausted error that names the op:
//
//  - LoadOptions (Program.h): the program's size and its call depth;
//  - RunLimits (here, RunOptions::limits): the largest tensor, the tensor
//    bytes a run may hold at once, the iterations of one loop.
//
// The memory limits are a MemoryBudget the executor makes current on the
// thread of each kernel it runs (a thread-local pointer). Every buffer that
// TensorBuffer::allocate hands out while it is current (a kernel's outputs
// and its temporary tensors) is charged to it until the buffer is freed,
// which may be after the run, when the caller keeps a result. Host memory a
// kernel sizes from its inputs outside a tensor (a vector of list elements,
// string views) is checked with checkHostAllocation() first.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_LIMITS_H
#define TFRT_FALLBACK_RUNTIME_LIMITS_H

#include "tfrt_fallback/Runtime/RefCounted.h"
#include "tfrt_fallback/Runtime/Status.h"

#include <atomic>
#include <cstdint>

namespace tfrt_fallback::rt {

/// Limits of one run (RunOptions::limits); 0 means no limit. Callees, branch
/// and loop bodies count as part of the run that calls them.
struct RunLimits {
  /// The largest tensor buffer a kernel of the run may allocate, in bytes.
  uint64_t maxTensorBytes = 0;
  /// The most bytes of tensor buffers the run's kernels may hold allocated
  /// at once (what decides whether a machine runs out of memory; a
  /// cumulative count would refuse long loops that free as they go). The
  /// run's inputs and the program's constants are not counted.
  uint64_t maxRunBytes = 0;
  /// The most iterations one While may run.
  uint64_t maxLoopIterations = 0;

  bool limitsMemory() const { return maxTensorBytes || maxRunBytes; }
};

/// The tensor memory of one run, against its RunLimits. Thread-safe.
class MemoryBudget final : public ReferenceCounted<MemoryBudget> {
public:
  MemoryBudget(uint64_t maxTensorBytes, uint64_t maxRunBytes);
  ~MemoryBudget();

  /// Charges one allocation of `bytes`, or fails with ResourceExhausted,
  /// charging nothing, when it is larger than the tensor limit or would
  /// take the bytes held past the run's limit.
  Status charge(uint64_t bytes);
  /// Gives back what charge() took.
  void refund(uint64_t bytes);
  /// The checks of charge() without charging.
  Status check(uint64_t bytes) const;

  uint64_t liveBytes() const { return live_.load(std::memory_order_relaxed); }
  uint64_t peakBytes() const { return peak_.load(std::memory_order_relaxed); }

  /// The budget allocations on this thread are charged to (the run whose
  /// kernel runs here), or null.
  static MemoryBudget *current();
  /// Whether any budget exists: while none does, allocations need not look
  /// for the current one (one relaxed load instead of a thread-local's).
  static bool anyAlive() { return alive.load(std::memory_order_relaxed) != 0; }

  /// Makes `budget` (may be null) current on this thread until the end of
  /// the scope, then restores the previous one.
  class Scope {
  public:
    explicit Scope(MemoryBudget *budget);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    MemoryBudget *previous_;
  };

private:
  static std::atomic<uint32_t> alive;
  const uint64_t maxTensorBytes_;
  const uint64_t maxRunBytes_;
  std::atomic<uint64_t> live_{0};
  std::atomic<uint64_t> peak_{0};
};

/// Checks host memory of `count` elements of `elementBytes` each that a
/// kernel is about to allocate outside a tensor, sized from its inputs:
/// an error when the product overflows, exceeds TensorBuffer::kMaxBytes, or
/// fails the current budget's check().
Status checkHostAllocation(uint64_t count, uint64_t elementBytes);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_LIMITS_H

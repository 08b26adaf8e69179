//===- MemoryPlan.h - a function's static memory plan -----------*- C++ -*-===//
//
// The compiler's static memory plan of one function (docs/MemoryPlan.md):
// buffers at byte offsets of one arena, and the kernel results placed in
// them. A frame of the function keeps a PlannedArena across its runs; a
// kernel's allocateOutput takes the planned buffer of its result instead of
// allocating.
//
// The plan is never trusted: a buffer is taken only when no buffer whose
// bytes overlap it is in use, and a result whose buffer is busy, or too
// small for the actual shape, is allocated as usual. The buffers in use never
// overlap, so "does anything in use overlap [offset, end)" is a count of two
// prefix sums (Fenwick trees over the plan's distinct starts and ends): time
// logarithmic in the number of buffers, memory linear, whatever the plan.
// So a plan made for program order is also safe on two threads, with async
// kernels, and when a kernel keeps a buffer longer than the plan assumed
// (an alias, a forwarded input); a wrong plan costs allocations, not data.
// Plain C++: no MLIR, no LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_MEMORYPLAN_H
#define TFRT_FALLBACK_RUNTIME_MEMORYPLAN_H

#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/RefCounted.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace tfrt_fallback::rt {

/// A function's plan, as loaded from the binary program's memory-plan
/// section (format 1.3).
struct MemoryPlan {
  struct Buffer {
    uint64_t offset = 0, bytes = 0;
    /// Filled by index(): the rank of `offset` among the plan's distinct
    /// buffer starts and of `offset + bytes` among its distinct ends, and
    /// how many distinct starts lie below this buffer's end and how many
    /// distinct ends at or below its start. A buffer in use overlaps this
    /// one exactly when it starts below this one's end and does not end at
    /// or below its start.
    uint32_t startRank = 0, endRank = 0;
    uint32_t startsBelowEnd = 0, endsUpToStart = 0;
  };

  uint64_t arenaBytes = 0;
  std::vector<Buffer> buffers;
  /// The number of distinct starts and ends (the Fenwick trees' sizes).
  uint32_t numStarts = 0, numEnds = 0;

  bool empty() const { return buffers.empty(); }
  /// Fills the ranks above from the buffers' offsets and sizes: two sorts,
  /// O(n log n).
  void index();
};

/// The memory of one frame's plan: the arena and one in-place TensorBuffer
/// per planned buffer. Refcounted: a frame holds it, and so does every
/// buffer in use, so a result that aliases planned memory stays valid after
/// its frame (and program) are gone. Thread-safe.
class PlannedArena final : public ReferenceCounted<PlannedArena>,
                           public PlannedMemory {
public:
  /// An arena for `plan`, which must outlive every allocate() call (not the
  /// arena); null when its memory cannot be allocated.
  static RCReference<PlannedArena> create(const MemoryPlan &plan);

  /// Sets `*out` to a tensor of `dtype` and `shape` in planned buffer
  /// `buffer` and returns true; false when the buffer or one that overlaps
  /// it is in use, or the tensor does not fit. O(log n) in the plan's
  /// buffers.
  bool allocate(uint32_t buffer, DType dtype, const TensorShape &shape,
                Tensor *out);

  /// The index of planned buffer `buffer` in this arena, or kNone when it
  /// is not one of this arena's.
  static constexpr uint32_t kNone = 0xFFFFFFFFu;
  uint32_t indexOf(const TensorBuffer *buffer) const;

  /// Allocations that took their planned buffer, and those that found it
  /// taken or too small (and were allocated as usual), since the arena was
  /// made.
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
  uint64_t arenaBytes() const { return arenaBytes_; }

private:
  friend class ReferenceCounted<PlannedArena>;
  struct Slot;
  PlannedArena(const MemoryPlan &plan, char *memory);
  ~PlannedArena();
  void giveBack(TensorBuffer *buffer) override;
  /// Adds `delta` to the counts of the buffers in use at a slot's start and
  /// end ranks; under lock_.
  void mark(const Slot &slot, uint32_t delta);

  const MemoryPlan &plan_;
  const uint64_t arenaBytes_;
  const size_t numSlots_;
  char *memory_;
  std::unique_ptr<Slot[]> slots_;
  /// Two Fenwick trees (1-based) counting the buffers in use by start rank
  /// (entries [0, numStarts_]) and by end rank (the numEnds_ + 1 after).
  std::unique_ptr<uint32_t[]> inUse_;
  const uint32_t numStarts_, numEnds_;
  /// Guards the two trees: held for a few dozen instructions.
  std::atomic_flag lock_ = ATOMIC_FLAG_INIT;
  std::atomic<uint64_t> hits_{0}, misses_{0};
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_MEMORYPLAN_H

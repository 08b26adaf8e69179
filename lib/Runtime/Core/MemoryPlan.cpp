//===- MemoryPlan.cpp - a function's static memory plan -------------------===//
//
// PlannedArena: the arena of one frame's plan, its buffers made in place and
// taken under a check that nothing overlapping them is in use, counted by
// two Fenwick trees (MemoryPlan.h).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/MemoryPlan.h"

#include "tfrt_fallback/Runtime/HostContext.h"

#include <algorithm>
#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TFRT_FALLBACK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TFRT_FALLBACK_ASAN 1
#endif
#if TFRT_FALLBACK_ASAN
#include <sanitizer/asan_interface.h>
// The arena's bytes are poisoned while no buffer holds them, so a kernel
// that reads or writes past its planned output, or a value read after its
// buffer went back, is reported as it would be on the heap.
#define TFRT_FALLBACK_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define TFRT_FALLBACK_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define TFRT_FALLBACK_POISON(p, n) ((void)(p), (void)(n))
#define TFRT_FALLBACK_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace tfrt_fallback::rt {

void MemoryPlan::index() {
  // The rank of a coordinate among the distinct values of a sorted list,
  // and how many of them lie below (or at) another coordinate.
  std::vector<uint64_t> starts, ends;
  starts.reserve(buffers.size());
  ends.reserve(buffers.size());
  for (const Buffer &buffer : buffers) {
    starts.push_back(buffer.offset);
    ends.push_back(buffer.offset + buffer.bytes);
  }
  auto distinct = [](std::vector<uint64_t> &values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
  };
  distinct(starts);
  distinct(ends);
  auto below = [](const std::vector<uint64_t> &values, uint64_t bound) {
    return static_cast<uint32_t>(
        std::lower_bound(values.begin(), values.end(), bound) - values.begin());
  };
  auto upTo = [](const std::vector<uint64_t> &values, uint64_t bound) {
    return static_cast<uint32_t>(
        std::upper_bound(values.begin(), values.end(), bound) - values.begin());
  };
  for (Buffer &buffer : buffers) {
    const uint64_t end = buffer.offset + buffer.bytes;
    buffer.startRank = below(starts, buffer.offset);
    buffer.endRank = below(ends, end);
    buffer.startsBelowEnd = below(starts, end);
    buffer.endsUpToStart = upTo(ends, buffer.offset);
  }
  numStarts = static_cast<uint32_t>(starts.size());
  numEnds = static_cast<uint32_t>(ends.size());
}

namespace {

/// The sum of the first `count` entries of a 1-based Fenwick tree.
uint32_t prefixSum(const uint32_t *tree, uint32_t count) {
  uint32_t sum = 0;
  for (; count; count &= count - 1)
    sum += tree[count];
  return sum;
}

/// Adds `delta` (modulo 2^32, so -1 too) to entry `rank` of a 1-based
/// Fenwick tree of `size` entries.
void add(uint32_t *tree, uint32_t size, uint32_t rank, uint32_t delta) {
  for (uint32_t i = rank + 1; i <= size; i += i & (0u - i))
    tree[i] += delta;
}

} // namespace

/// A planned buffer: the storage of its TensorBuffer while it is in use
/// (first, so that the buffer's address is the slot's), its place and its
/// ranks in the two trees (copied from the plan: a buffer may come back
/// after the program is gone).
struct PlannedArena::Slot {
  alignas(TensorBuffer) unsigned char storage[sizeof(TensorBuffer)];
  uint64_t offset = 0, bytes = 0;
  uint32_t startRank = 0, endRank = 0;
};

RCReference<PlannedArena> PlannedArena::create(const MemoryPlan &plan) {
  if (plan.empty() || plan.arenaBytes > TensorBuffer::kMaxBytes)
    return nullptr;
  const size_t bytes =
      std::max<size_t>((plan.arenaBytes + TensorBuffer::kAlignment - 1) &
                           ~(TensorBuffer::kAlignment - 1),
                       TensorBuffer::kAlignment);
  auto *memory =
      static_cast<char *>(std::aligned_alloc(TensorBuffer::kAlignment, bytes));
  if (!memory)
    return nullptr;
  TFRT_FALLBACK_POISON(memory, plan.arenaBytes);
  return takeRef(new PlannedArena(plan, memory));
}

PlannedArena::PlannedArena(const MemoryPlan &plan, char *memory)
    : plan_(plan), arenaBytes_(plan.arenaBytes), numSlots_(plan.buffers.size()),
      memory_(memory), slots_(new Slot[plan.buffers.size()]),
      inUse_(new uint32_t[plan.numStarts + plan.numEnds + 2]()),
      numStarts_(plan.numStarts), numEnds_(plan.numEnds) {
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    const MemoryPlan::Buffer &buffer = plan.buffers[i];
    slots_[i].offset = buffer.offset;
    slots_[i].bytes = buffer.bytes;
    slots_[i].startRank = buffer.startRank;
    slots_[i].endRank = buffer.endRank;
  }
}

PlannedArena::~PlannedArena() {
  TFRT_FALLBACK_UNPOISON(memory_, arenaBytes_);
  std::free(memory_);
}

void PlannedArena::mark(const Slot &slot, uint32_t delta) {
  add(inUse_.get(), numStarts_, slot.startRank, delta);
  add(inUse_.get() + numStarts_ + 1, numEnds_, slot.endRank, delta);
}

bool PlannedArena::allocate(uint32_t buffer, DType dtype,
                            const TensorShape &shape, Tensor *out) {
  const MemoryPlan::Buffer &planned = plan_.buffers[buffer];
  const uint64_t bytes =
      static_cast<uint64_t>(shape.numElements()) * dtypeSize(dtype);
  Slot &slot = slots_[buffer];
  if (bytes > planned.bytes || dtypeSize(dtype) == 0) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  // The buffers in use that overlap this one (itself included, if in use):
  // those that start below its end, less those that end at or below its
  // start.
  while (lock_.test_and_set(std::memory_order_acquire))
    cpuRelax();
  const bool taken =
      prefixSum(inUse_.get(), planned.startsBelowEnd) !=
      prefixSum(inUse_.get() + numStarts_ + 1, planned.endsUpToStart);
  if (!taken)
    mark(slot, 1);
  lock_.clear(std::memory_order_release);
  if (taken) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  char *data = memory_ + planned.offset;
  TFRT_FALLBACK_UNPOISON(data, bytes);
  // The buffer holds the arena until it is given back.
  addRef();
  hits_.fetch_add(1, std::memory_order_relaxed);
  *out = Tensor(dtype, shape,
                TensorBuffer::placeIn(slot.storage, data, planned.bytes, this));
  return true;
}

uint32_t PlannedArena::indexOf(const TensorBuffer *buffer) const {
  const auto *slot = reinterpret_cast<const Slot *>(buffer);
  if (slot < slots_.get() || slot >= slots_.get() + numSlots_)
    return kNone;
  return static_cast<uint32_t>(slot - slots_.get());
}

void PlannedArena::giveBack(TensorBuffer *buffer) {
  auto *slot = reinterpret_cast<Slot *>(buffer);
  TFRT_FALLBACK_POISON(memory_ + slot->offset, slot->bytes);
  while (lock_.test_and_set(std::memory_order_acquire))
    cpuRelax();
  mark(*slot, ~0u);
  lock_.clear(std::memory_order_release);
  dropRef();
}

} // namespace tfrt_fallback::rt

//===- MemoryPlan.cpp - a function's static memory plan -------------------===//
//
// PlannedArena: the arena of one frame's plan, its buffers made in place and
// taken under a check of the buffers that overlap them (MemoryPlan.h).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/MemoryPlan.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <numeric>

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

Status MemoryPlan::computeConflicts() {
  // Sweep the buffers in order of offset: those that start before one ends
  // overlap it.
  const uint32_t n = static_cast<uint32_t>(buffers.size());
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return buffers[a].offset < buffers[b].offset;
  });
  std::vector<std::vector<uint32_t>> lists(n);
  size_t total = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const Buffer &a = buffers[order[i]];
    for (uint32_t j = i + 1; j < n; ++j) {
      const Buffer &b = buffers[order[j]];
      if (b.offset >= a.offset + a.bytes)
        break;
      if (b.bytes == 0 || a.bytes == 0)
        continue;
      total += 2;
      if (total > kMaxConflicts)
        return makeError(StatusCode::kResourceExhausted,
                         "the memory plan has more than %zu overlaps",
                         kMaxConflicts);
      lists[order[i]].push_back(order[j]);
      lists[order[j]].push_back(order[i]);
    }
  }
  conflicts.clear();
  conflicts.reserve(total);
  for (uint32_t i = 0; i < n; ++i) {
    buffers[i].conflictBegin = static_cast<uint32_t>(conflicts.size());
    conflicts.insert(conflicts.end(), lists[i].begin(), lists[i].end());
    buffers[i].conflictEnd = static_cast<uint32_t>(conflicts.size());
  }
  return OkStatus();
}

/// A planned buffer: the storage of its TensorBuffer while it is in use
/// (first, so that the buffer's address is the slot's), whether it is, and
/// its place (copied from the plan: a buffer may come back after the
/// program is gone).
struct PlannedArena::Slot {
  alignas(TensorBuffer) unsigned char storage[sizeof(TensorBuffer)];
  std::atomic<bool> busy{false};
  uint64_t offset = 0, bytes = 0;
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
      memory_(memory), slots_(new Slot[plan.buffers.size()]) {
  for (size_t i = 0; i < plan.buffers.size(); ++i) {
    slots_[i].offset = plan.buffers[i].offset;
    slots_[i].bytes = plan.buffers[i].bytes;
  }
}

PlannedArena::~PlannedArena() {
  TFRT_FALLBACK_UNPOISON(memory_, arenaBytes_);
  std::free(memory_);
}

bool PlannedArena::allocate(uint32_t buffer, DType dtype,
                            const TensorShape &shape, Tensor *out) {
  const MemoryPlan::Buffer &planned = plan_.buffers[buffer];
  const uint64_t bytes =
      static_cast<uint64_t>(shape.numElements()) * dtypeSize(dtype);
  Slot &slot = slots_[buffer];
  // Take the buffer, then check the ones that overlap it: of two threads
  // taking overlapping buffers at once, at least one sees the other's flag
  // (both sequentially consistent) and backs off.
  if (bytes > planned.bytes || dtypeSize(dtype) == 0 ||
      slot.busy.exchange(true, std::memory_order_seq_cst)) {
    misses_.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  for (uint32_t i = planned.conflictBegin; i < planned.conflictEnd; ++i) {
    if (slots_[plan_.conflicts[i]].busy.load(std::memory_order_seq_cst)) {
      slot.busy.store(false, std::memory_order_release);
      misses_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
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
  slot->busy.store(false, std::memory_order_release);
  dropRef();
}

} // namespace tfrt_fallback::rt

//===- Limits.cpp - resource limits of a run --------------------*- C++ -*-===//
//
// The run's memory budget and the thread's current budget.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Limits.h"

#include "tfrt_fallback/Runtime/StrFormat.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <cinttypes>

namespace tfrt_fallback::rt {

namespace {
thread_local MemoryBudget *currentBudget = nullptr;

Status tensorTooLarge(uint64_t bytes, uint64_t limit) {
  return makeError(StatusCode::kResourceExhausted,
                   "allocating %" PRIu64 " bytes exceeds the run's limit of "
                   "%" PRIu64 " bytes per tensor",
                   bytes, limit);
}

Status runOverBudget(uint64_t bytes, uint64_t live, uint64_t limit) {
  return makeError(StatusCode::kResourceExhausted,
                   "allocating %" PRIu64 " bytes while the run holds %" PRIu64
                   " exceeds the run's limit of %" PRIu64 " bytes",
                   bytes, live, limit);
}
} // namespace

std::atomic<uint32_t> MemoryBudget::alive{0};

MemoryBudget::MemoryBudget(uint64_t maxTensorBytes, uint64_t maxRunBytes)
    : maxTensorBytes_(maxTensorBytes), maxRunBytes_(maxRunBytes) {
  alive.fetch_add(1, std::memory_order_relaxed);
}

MemoryBudget::~MemoryBudget() { alive.fetch_sub(1, std::memory_order_relaxed); }

Status MemoryBudget::check(uint64_t bytes) const {
  if (maxTensorBytes_ && bytes > maxTensorBytes_)
    return tensorTooLarge(bytes, maxTensorBytes_);
  if (maxRunBytes_) {
    uint64_t live = live_.load(std::memory_order_relaxed);
    if (bytes > maxRunBytes_ || live > maxRunBytes_ - bytes)
      return runOverBudget(bytes, live, maxRunBytes_);
  }
  return OkStatus();
}

Status MemoryBudget::charge(uint64_t bytes) {
  if (maxTensorBytes_ && bytes > maxTensorBytes_)
    return tensorTooLarge(bytes, maxTensorBytes_);
  uint64_t live = live_.load(std::memory_order_relaxed);
  uint64_t next;
  do {
    if (maxRunBytes_ && (bytes > maxRunBytes_ || live > maxRunBytes_ - bytes))
      return runOverBudget(bytes, live, maxRunBytes_);
    next = live + bytes;
  } while (!live_.compare_exchange_weak(live, next, std::memory_order_relaxed));
  uint64_t peak = peak_.load(std::memory_order_relaxed);
  while (next > peak &&
         !peak_.compare_exchange_weak(peak, next, std::memory_order_relaxed))
    ;
  return OkStatus();
}

void MemoryBudget::refund(uint64_t bytes) {
  live_.fetch_sub(bytes, std::memory_order_relaxed);
}

MemoryBudget *MemoryBudget::current() { return currentBudget; }

MemoryBudget::Scope::Scope(MemoryBudget *budget) : previous_(currentBudget) {
  currentBudget = budget;
}

MemoryBudget::Scope::~Scope() { currentBudget = previous_; }

Status checkHostAllocation(uint64_t count, uint64_t elementBytes) {
  uint64_t bytes;
  if (!bytesOf(count, elementBytes, &bytes) || bytes > TensorBuffer::kMaxBytes)
    return makeError(StatusCode::kResourceExhausted,
                     "allocating %" PRIu64 " elements of %" PRIu64
                     " bytes exceeds the limit of %" PRIu64 " bytes",
                     count, elementBytes,
                     static_cast<uint64_t>(TensorBuffer::kMaxBytes));
  if (MemoryBudget *budget = currentBudget)
    return budget->check(bytes);
  return OkStatus();
}

} // namespace tfrt_fallback::rt

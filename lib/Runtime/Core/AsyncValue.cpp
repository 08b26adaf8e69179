//===- AsyncValue.cpp - Refcounted future values ----------------*- C++ -*-===//
//
// The waiter list and state transitions of AsyncValue, and runWhenReady.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/AsyncValue.h"

#include "absl/container/inlined_vector.h"

namespace tfrt_fallback::rt {

// Node addresses are at least 8-byte aligned, leaving the two state bits free.
struct AsyncValue::WaiterNode {
  absl::AnyInvocable<void()> fn;
  WaiterNode *next = nullptr;
};
static_assert(alignof(std::max_align_t) >= 4, "need two free pointer bits");

AsyncValue::~AsyncValue() {
  assert((waitersAndState_.load(std::memory_order_relaxed) & ~kStateMask) ==
             0 &&
         "AsyncValue destroyed with pending waiters");
  delete error_;
}

void AsyncValue::enqueueWaiter(absl::AnyInvocable<void()> waiter) {
  auto *node = new WaiterNode{std::move(waiter), nullptr};
  uintptr_t old = waitersAndState_.load(std::memory_order_acquire);
  while (true) {
    if ((old & kStateMask) >= static_cast<uintptr_t>(State::Concrete)) {
      // Became available meanwhile: run it here.
      absl::AnyInvocable<void()> fn = std::move(node->fn);
      delete node;
      std::move(fn)();
      return;
    }
    node->next = reinterpret_cast<WaiterNode *>(old & ~kStateMask);
    uintptr_t desired = reinterpret_cast<uintptr_t>(node) | (old & kStateMask);
    if (waitersAndState_.compare_exchange_weak(
            old, desired, std::memory_order_acq_rel, std::memory_order_acquire))
      return;
  }
}

void AsyncValue::setStateConstructed() {
  uintptr_t old = waitersAndState_.load(std::memory_order_acquire);
  while (true) {
    assert((old & kStateMask) == static_cast<uintptr_t>(State::Unconstructed));
    uintptr_t desired =
        (old & ~kStateMask) | static_cast<uintptr_t>(State::Constructed);
    if (waitersAndState_.compare_exchange_weak(
            old, desired, std::memory_order_acq_rel, std::memory_order_acquire))
      return;
  }
}

void AsyncValue::runWaiters(uintptr_t old) {
  auto *list = reinterpret_cast<WaiterNode *>(old & ~kStateMask);
  // The list is LIFO; run the waiters in the order they were added.
  WaiterNode *reversed = nullptr;
  while (list) {
    WaiterNode *next = list->next;
    list->next = reversed;
    reversed = list;
    list = next;
  }
  // Keep the value alive while the waiters run: a waiter may drop the last
  // external reference.
  addRef();
  while (reversed) {
    WaiterNode *next = reversed->next;
    std::move(reversed->fn)();
    delete reversed;
    reversed = next;
  }
  dropRef();
}

void AsyncValue::setError(Status status) {
  assert(!isAvailable() && "setError() on an available value");
  if (status.ok())
    status = InternalError("setError() called with an ok status");
  if (isConstructed())
    destroyPayload();
  error_ = new Status(std::move(status));
  setAvailable(State::Error);
}

ErrorAsyncValue::ErrorAsyncValue(Status status)
    : AsyncValue(State::Unconstructed, nullptr) {
  setError(std::move(status));
}

RCReference<ErrorAsyncValue> makeErrorAsyncValueRef(Status status) {
  return takeRef(new ErrorAsyncValue(std::move(status)));
}

namespace {
/// Shared countdown of runWhenReady.
struct ReadyCounter {
  explicit ReadyCounter(size_t n, absl::AnyInvocable<void()> fn)
      : pending(n), callback(std::move(fn)) {}
  std::atomic<size_t> pending;
  absl::AnyInvocable<void()> callback;
  void decrement() {
    if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::move(callback)();
      delete this;
    }
  }
};
} // namespace

void runWhenReady(absl::Span<AsyncValue *const> values,
                  absl::AnyInvocable<void()> callback) {
  size_t unavailable = 0;
  for (AsyncValue *value : values)
    if (!value->isAvailable())
      ++unavailable;
  if (unavailable == 0) {
    std::move(callback)();
    return;
  }
  if (unavailable == 1) {
    for (AsyncValue *value : values)
      if (!value->isAvailable()) {
        value->andThen(std::move(callback));
        return;
      }
    // It became available after counting.
    std::move(callback)();
    return;
  }
  // One extra count held while registering, so the callback cannot run (and
  // free the counter) before the loop is done.
  auto *counter = new ReadyCounter(unavailable + 1, std::move(callback));
  size_t registered = 0;
  for (AsyncValue *value : values) {
    if (registered == unavailable)
      break;
    if (!value->isAvailable()) {
      ++registered;
      value->andThen([counter] { counter->decrement(); });
    }
  }
  // Values that became available between counting and registering.
  for (; registered < unavailable; ++registered)
    counter->decrement();
  counter->decrement();
}

void runWhenReady(absl::Span<const RCReference<AsyncValue>> values,
                  absl::AnyInvocable<void()> callback) {
  // Only the values that are not available yet need to be kept alive.
  absl::InlinedVector<RCReference<AsyncValue>, 4> pending;
  for (const RCReference<AsyncValue> &value : values)
    if (!value->isAvailable())
      pending.push_back(value);
  if (pending.empty()) {
    std::move(callback)();
    return;
  }
  absl::InlinedVector<AsyncValue *, 4> raw;
  raw.reserve(pending.size());
  for (const RCReference<AsyncValue> &value : pending)
    raw.push_back(value.get());
  runWhenReady(raw, [keep = std::move(pending),
                     cb = std::move(callback)]() mutable { std::move(cb)(); });
}

} // namespace tfrt_fallback::rt

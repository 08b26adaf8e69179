//===- AsyncValue.h - Refcounted future values ------------------*- C++ -*-===//
//
// A lean take on TFRT's AsyncValue: a type-erased, intrusively refcounted
// future. Consumers attach continuations with andThen(); the producer makes
// the value available exactly once, either as a concrete payload or as an
// error, which runs the continuations.
//
// The state and the waiter list share one atomic word: the low two bits hold
// the State, the rest a pointer to a singly linked list of waiter nodes that
// is pushed lock-free and taken with one exchange when the value becomes
// available.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_ASYNCVALUE_H
#define TFRT_FALLBACK_RUNTIME_ASYNCVALUE_H

#include "tfrt_fallback/Runtime/RefCounted.h"
#include "tfrt_fallback/Runtime/Status.h"

#include "absl/functional/any_invocable.h"
#include "absl/types/span.h"

#include <atomic>
#include <cassert>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace tfrt_fallback::rt {

/// An empty value used to sequence side effects.
struct Chain {};

namespace detail {
template <typename T> inline constexpr char kTypeIdTag = 0;
/// A unique address per payload type, used to check get<T>() in debug
/// builds without RTTI.
template <typename T> constexpr const void *typeIdOf() {
  return &kTypeIdTag<std::remove_cv_t<T>>;
}
} // namespace detail

template <typename T> class ConcreteAsyncValue;

class AsyncValue {
public:
  enum class State : uint8_t {
    Unconstructed = 0, ///< no payload yet, not available
    Constructed = 1,   ///< payload constructed, not yet available
    Concrete = 2,      ///< payload available
    Error = 3,         ///< error available, no payload
  };

  AsyncValue(const AsyncValue &) = delete;
  AsyncValue &operator=(const AsyncValue &) = delete;

  //===--------------------------------------------------------------------===//
  // Reference counting. A new AsyncValue has one reference.
  //===--------------------------------------------------------------------===//
  void addRef() { refCount_.fetch_add(1, std::memory_order_relaxed); }
  void dropRef() {
    if (refCount_.load(std::memory_order_acquire) == 1 ||
        refCount_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      delete this;
  }
  uint32_t refCount() const {
    return refCount_.load(std::memory_order_acquire);
  }
  bool isUnique() const { return refCount() == 1; }

  //===--------------------------------------------------------------------===//
  // State.
  //===--------------------------------------------------------------------===//
  State state() const {
    return static_cast<State>(waitersAndState_.load(std::memory_order_acquire) &
                              kStateMask);
  }
  bool isAvailable() const {
    return static_cast<uint8_t>(state()) >=
           static_cast<uint8_t>(State::Concrete);
  }
  bool isConcrete() const { return state() == State::Concrete; }
  bool isError() const { return state() == State::Error; }
  bool isUnconstructed() const { return state() == State::Unconstructed; }
  bool isConstructed() const { return state() == State::Constructed; }

  /// The error of a value in the Error state.
  const Status &getError() const {
    assert(isError() && "getError() on a value that is not an error");
    return *error_;
  }
  /// The error if isError(), nullptr otherwise.
  const Status *getErrorIfPresent() const {
    return isError() ? error_ : nullptr;
  }

  /// Makes the value available as an error; runs the waiters. The value must
  /// not be available yet. A constructed payload is destroyed first. A
  /// non-error status is turned into an internal error.
  void setError(Status status);

  /// Makes a Constructed value Concrete; runs the waiters.
  void setStateConcrete() {
    assert(isConstructed() && "setStateConcrete() needs a constructed value");
    setAvailable(State::Concrete);
  }

  //===--------------------------------------------------------------------===//
  // Continuations.
  //===--------------------------------------------------------------------===//

  /// Runs `waiter` when the value is available: right away on this thread if
  /// it already is, otherwise on the thread that makes it available. Safe
  /// to call concurrently with the producer and with other andThen() calls.
  template <typename F> void andThen(F &&waiter) {
    if (isAvailable()) {
      std::forward<F>(waiter)();
      return;
    }
    enqueueWaiter(absl::AnyInvocable<void()>(std::forward<F>(waiter)));
  }

  //===--------------------------------------------------------------------===//
  // Typed payload access.
  //===--------------------------------------------------------------------===//

  /// The payload of a Constructed or Concrete value of type T. Checked with
  /// assert() only: a wrong T is undefined behaviour in release builds.
  template <typename T> T &get();
  template <typename T> const T &get() const {
    return const_cast<AsyncValue *>(this)->get<T>();
  }

  /// Constructs the payload of an Unconstructed ConcreteAsyncValue<T> and
  /// makes it Concrete.
  template <typename T, typename... Args> void emplace(Args &&...args);

  /// True if the payload type is T (always false for ErrorAsyncValue).
  template <typename T> bool isType() const {
    return typeId_ == detail::typeIdOf<T>();
  }

protected:
  AsyncValue(State state, const void *typeId)
      : waitersAndState_(static_cast<uintptr_t>(state)), typeId_(typeId) {}
  virtual ~AsyncValue();

  /// Destroys a constructed payload (Constructed -> Error transition).
  virtual void destroyPayload() {}

  /// Transitions a not-yet-available value to Constructed, keeping waiters.
  void setStateConstructed();
  /// Back to Constructed for storage that is reused (see
  /// ConcreteAsyncValue::reuse): drops an error. Returns whether the value
  /// still has its payload (it was Constructed or Concrete).
  bool resetStateForReuse() {
    uintptr_t state = waitersAndState_.load(std::memory_order_relaxed);
    assert((state & ~kStateMask) == 0 && "reuse with pending waiters");
    bool hasPayload = state == static_cast<uintptr_t>(State::Concrete) ||
                      state == static_cast<uintptr_t>(State::Constructed);
    if (!hasPayload) {
      delete error_;
      error_ = nullptr;
    }
    waitersAndState_.store(static_cast<uintptr_t>(State::Constructed),
                           std::memory_order_relaxed);
    return hasPayload;
  }
  /// Publishes `state` (Concrete or Error) and runs the waiters.
  void setAvailable(State state) {
    uintptr_t old = waitersAndState_.exchange(static_cast<uintptr_t>(state),
                                              std::memory_order_acq_rel);
    assert((old & kStateMask) < static_cast<uintptr_t>(State::Concrete) &&
           "AsyncValue made available twice");
    if (old & ~kStateMask)
      runWaiters(old);
  }

private:
  struct WaiterNode;
  static constexpr uintptr_t kStateMask = 3;

  void enqueueWaiter(absl::AnyInvocable<void()> waiter);
  /// Runs the waiter list held in `waitersAndState` (the old word).
  void runWaiters(uintptr_t waitersAndState);

  std::atomic<uint32_t> refCount_{1};
  /// State in bits 0-1, WaiterNode* in the rest.
  std::atomic<uintptr_t> waitersAndState_;
  /// Owned; written before the Error state is published.
  Status *error_ = nullptr;
  const void *typeId_;
};

/// An AsyncValue with inline storage for a T.
template <typename T> class ConcreteAsyncValue final : public AsyncValue {
public:
  /// Unconstructed, to be filled with emplace() or setError().
  ConcreteAsyncValue()
      : AsyncValue(State::Unconstructed, detail::typeIdOf<T>()) {}

  struct ConstructedTag {};
  struct ConcreteTag {};
  template <typename... Args>
  explicit ConcreteAsyncValue(ConstructedTag, Args &&...args)
      : AsyncValue(State::Constructed, detail::typeIdOf<T>()) {
    new (&storage_) T(std::forward<Args>(args)...);
  }
  template <typename... Args>
  explicit ConcreteAsyncValue(ConcreteTag, Args &&...args)
      : AsyncValue(State::Concrete, detail::typeIdOf<T>()) {
    new (&storage_) T(std::forward<Args>(args)...);
  }

  T &payload() { return *std::launder(reinterpret_cast<T *>(&storage_)); }

  /// Makes the value Constructed again, with its payload (a default T after
  /// an error) kept for the caller to reset, for storage that is reused (the
  /// executor's frames). Only when no waiter is pending and nothing else
  /// refers to the value.
  void reuse() {
    if (!resetStateForReuse())
      new (&storage_) T();
  }

  template <typename... Args> void emplace(Args &&...args) {
    assert(isUnconstructed() && "emplace() on a value that has a payload or "
                                "is available");
    new (&storage_) T(std::forward<Args>(args)...);
    setAvailable(State::Concrete);
  }

  /// Public for values that live inside another object (the executor's
  /// registers), which never drop their one reference and destroy them
  /// directly. A value on the heap is destroyed by its last dropRef().
  ~ConcreteAsyncValue() override {
    State s = state();
    if (s == State::Constructed || s == State::Concrete)
      payload().~T();
  }

private:
  void destroyPayload() override { payload().~T(); }

  alignas(T) unsigned char storage_[sizeof(T)];
};

/// A payload-less AsyncValue that is created in the Error state.
class ErrorAsyncValue final : public AsyncValue {
public:
  explicit ErrorAsyncValue(Status status);

private:
  ~ErrorAsyncValue() override = default;
};

template <typename T> T &AsyncValue::get() {
  assert(isType<T>() && "AsyncValue::get<T>() with the wrong payload type");
  assert((isConcrete() || isConstructed()) &&
         "AsyncValue::get<T>() on a value without a payload");
  return static_cast<ConcreteAsyncValue<T> *>(this)->payload();
}

template <typename T, typename... Args>
void AsyncValue::emplace(Args &&...args) {
  assert(isType<T>() && "AsyncValue::emplace<T>() with the wrong payload type");
  static_cast<ConcreteAsyncValue<T> *>(this)->emplace(
      std::forward<Args>(args)...);
}

//===----------------------------------------------------------------------===//
// AsyncValueRef<T>: a typed RCReference<AsyncValue>.
//===----------------------------------------------------------------------===//

template <typename T> class AsyncValueRef {
public:
  AsyncValueRef() = default;
  AsyncValueRef(std::nullptr_t) {}
  /// Adopts a type-erased reference; its payload type must be T (or it must
  /// be an error).
  explicit AsyncValueRef(RCReference<AsyncValue> value)
      : value_(std::move(value)) {
    assert((!value_ || value_->isError() || value_->isType<T>()) &&
           "AsyncValueRef<T> from a value of another type");
  }
  /// Any error value converts to any AsyncValueRef<T>.
  AsyncValueRef(RCReference<ErrorAsyncValue> error)
      : value_(std::move(error)) {}

  bool isAvailable() const { return value_->isAvailable(); }
  bool isConcrete() const { return value_->isConcrete(); }
  bool isError() const { return value_->isError(); }
  bool isUnconstructed() const { return value_->isUnconstructed(); }
  const Status &getError() const { return value_->getError(); }

  T &get() const { return value_->template get<T>(); }
  T *operator->() const { return &get(); }
  T &operator*() const { return get(); }

  template <typename... Args> void emplace(Args &&...args) const {
    value_->template emplace<T>(std::forward<Args>(args)...);
  }
  void setError(Status status) const { value_->setError(std::move(status)); }
  void setStateConcrete() const { value_->setStateConcrete(); }
  template <typename F> void andThen(F &&waiter) const {
    value_->andThen(std::forward<F>(waiter));
  }

  AsyncValue *getAsyncValue() const { return value_.get(); }
  explicit operator bool() const { return static_cast<bool>(value_); }
  AsyncValueRef copy() const { return *this; }
  /// Type-erased copy / move.
  RCReference<AsyncValue> copyRef() const { return value_; }
  RCReference<AsyncValue> releaseRCRef() { return std::move(value_); }
  operator RCReference<AsyncValue>() const & { return value_; }
  operator RCReference<AsyncValue>() && { return std::move(value_); }

private:
  RCReference<AsyncValue> value_;
};

//===----------------------------------------------------------------------===//
// Factories.
//===----------------------------------------------------------------------===//

/// An available (Concrete) value holding T(args...).
template <typename T, typename... Args>
AsyncValueRef<T> makeAvailableAsyncValueRef(Args &&...args) {
  return AsyncValueRef<T>(takeRef<AsyncValue>(
      new ConcreteAsyncValue<T>(typename ConcreteAsyncValue<T>::ConcreteTag{},
                                std::forward<Args>(args)...)));
}

/// A value with no payload yet; fill it with emplace() or setError().
template <typename T> AsyncValueRef<T> makeUnconstructedAsyncValueRef() {
  return AsyncValueRef<T>(takeRef<AsyncValue>(new ConcreteAsyncValue<T>()));
}

/// A value whose payload T(args...) exists but is not available until
/// setStateConcrete() (or setError()).
template <typename T, typename... Args>
AsyncValueRef<T> makeConstructedAsyncValueRef(Args &&...args) {
  return AsyncValueRef<T>(takeRef<AsyncValue>(new ConcreteAsyncValue<T>(
      typename ConcreteAsyncValue<T>::ConstructedTag{},
      std::forward<Args>(args)...)));
}

/// An available error; converts to AsyncValueRef<T> of any T.
RCReference<ErrorAsyncValue> makeErrorAsyncValueRef(Status status);

/// An available Chain.
inline AsyncValueRef<Chain> makeReadyChain() {
  return makeAvailableAsyncValueRef<Chain>();
}

/// Runs `callback` once every value in `values` is available (right away if
/// they all are). The values must stay alive until then.
void runWhenReady(absl::Span<AsyncValue *const> values,
                  absl::AnyInvocable<void()> callback);
/// Same, keeping the values alive by itself.
void runWhenReady(absl::Span<const RCReference<AsyncValue>> values,
                  absl::AnyInvocable<void()> callback);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_ASYNCVALUE_H

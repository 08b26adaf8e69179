//===- RefCounted.h - Intrusive reference counting --------------*- C++ -*-===//
//
// RCReference<T>, an intrusive smart pointer for any type with addRef() and
// dropRef(), and ReferenceCounted<Derived>, a CRTP base providing an atomic
// count that deletes the object when the last reference is dropped.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_REFCOUNTED_H
#define TFRT_FALLBACK_RUNTIME_REFCOUNTED_H

#include <atomic>
#include <cassert>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tfrt_fallback::rt {

/// CRTP base: starts with one reference; `Derived::destroy()` (default:
/// `delete`) runs when the count reaches zero.
template <typename Derived> class ReferenceCounted {
public:
  ReferenceCounted() = default;
  ReferenceCounted(const ReferenceCounted &) = delete;
  ReferenceCounted &operator=(const ReferenceCounted &) = delete;

  void addRef() const { refCount_.fetch_add(1, std::memory_order_relaxed); }
  void dropRef() const {
    // Skip the atomic RMW when we hold the only reference.
    if (refCount_.load(std::memory_order_acquire) == 1 ||
        refCount_.fetch_sub(1, std::memory_order_acq_rel) == 1)
      static_cast<const Derived *>(this)->destroy();
  }
  uint32_t refCount() const {
    return refCount_.load(std::memory_order_acquire);
  }
  bool isUnique() const { return refCount() == 1; }

protected:
  ~ReferenceCounted() = default;
  void destroy() const { delete static_cast<const Derived *>(this); }

private:
  mutable std::atomic<uint32_t> refCount_{1};
};

/// Owning intrusive pointer. Moves are free; copies add a reference.
template <typename T> class RCReference {
public:
  RCReference() = default;
  RCReference(std::nullptr_t) {}
  RCReference(const RCReference &other) : ptr_(other.ptr_) {
    if (ptr_)
      ptr_->addRef();
  }
  RCReference(RCReference &&other) noexcept : ptr_(other.ptr_) {
    other.ptr_ = nullptr;
  }
  template <typename U,
            typename = std::enable_if_t<std::is_convertible_v<U *, T *>>>
  RCReference(RCReference<U> &&other) noexcept : ptr_(other.release()) {}
  template <typename U,
            typename = std::enable_if_t<std::is_convertible_v<U *, T *>>>
  RCReference(const RCReference<U> &other) : ptr_(other.get()) {
    if (ptr_)
      ptr_->addRef();
  }
  ~RCReference() {
    if (ptr_)
      ptr_->dropRef();
  }
  RCReference &operator=(RCReference other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }

  T *get() const { return ptr_; }
  T *operator->() const {
    assert(ptr_ && "dereferencing a null RCReference");
    return ptr_;
  }
  T &operator*() const {
    assert(ptr_ && "dereferencing a null RCReference");
    return *ptr_;
  }
  explicit operator bool() const { return ptr_ != nullptr; }

  /// Gives up ownership without dropping the reference.
  [[nodiscard]] T *release() {
    T *p = ptr_;
    ptr_ = nullptr;
    return p;
  }
  void reset() { RCReference().swap(*this); }
  void swap(RCReference &other) noexcept { std::swap(ptr_, other.ptr_); }
  RCReference copy() const { return *this; }

  friend bool operator==(const RCReference &a, const RCReference &b) {
    return a.ptr_ == b.ptr_;
  }
  friend bool operator!=(const RCReference &a, const RCReference &b) {
    return a.ptr_ != b.ptr_;
  }

private:
  template <typename U> friend RCReference<U> takeRef(U *);
  T *ptr_ = nullptr;
};

/// Adopts an existing (+1) reference.
template <typename T> RCReference<T> takeRef(T *ptr) {
  RCReference<T> ref;
  ref.ptr_ = ptr;
  return ref;
}

/// Adds a new reference to `ptr`.
template <typename T> RCReference<T> formRef(T *ptr) {
  if (ptr)
    ptr->addRef();
  return takeRef(ptr);
}

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_REFCOUNTED_H

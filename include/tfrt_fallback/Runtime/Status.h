//===- Status.h - The runtime's error values --------------------*- C++ -*-===//
//
// Status and StatusOr<T>: an error code (absl::StatusCode's, which are
// TensorFlow's error::Code numbers) and a message, or OK. The runtime's
// own, with absl::Status's names and meanings, because absl::Status costs
// a phone-sized runtime about 400 KB: its payloads are Cords, which pull in
// Abseil's Mutex, time zones, stack traces and symbolizer
// (docs/BinarySize.md). An OK Status is a null pointer; an error owns one
// small heap block.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_STATUS_H
#define TFRT_FALLBACK_RUNTIME_STATUS_H

#include <cstdlib>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tfrt_fallback::rt {

/// absl::StatusCode's values (TensorFlow's error codes).
enum class StatusCode : int {
  kOk = 0,
  kCancelled = 1,
  kUnknown = 2,
  kInvalidArgument = 3,
  kDeadlineExceeded = 4,
  kNotFound = 5,
  kAlreadyExists = 6,
  kPermissionDenied = 7,
  kResourceExhausted = 8,
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,
  kDataLoss = 15,
  kUnauthenticated = 16,
};

/// "INVALID_ARGUMENT" (absl::StatusCodeToString's spelling).
const char *statusCodeName(StatusCode code);

class [[nodiscard]] Status {
public:
  /// OK.
  Status() = default;
  /// `code` with `message`; kOk makes an OK status (the message is dropped).
  Status(StatusCode code, std::string_view message);
  // Copying and destroying an error are out of line: every error path of
  // every kernel destroys a Status; only the OK test is inline.
  Status(const Status &other)
      : rep_(other.rep_ ? copyRep(other.rep_) : nullptr) {}
  Status(Status &&other) noexcept : rep_(std::exchange(other.rep_, nullptr)) {}
  Status &operator=(const Status &other) {
    if (this != &other)
      reset(other.rep_ ? copyRep(other.rep_) : nullptr);
    return *this;
  }
  Status &operator=(Status &&other) noexcept {
    if (this != &other)
      reset(std::exchange(other.rep_, nullptr));
    return *this;
  }
  ~Status() {
    if (rep_)
      deleteRep(rep_);
  }

  bool ok() const { return rep_ == nullptr; }
  StatusCode code() const { return rep_ ? rep_->code : StatusCode::kOk; }
  std::string_view message() const {
    return rep_ ? std::string_view(rep_->message) : std::string_view();
  }
  /// "OK", or "NOT_FOUND: message".
  std::string ToString() const;

  friend bool operator==(const Status &a, const Status &b) {
    return a.code() == b.code() && a.message() == b.message();
  }
  friend bool operator!=(const Status &a, const Status &b) { return !(a == b); }

private:
  struct Rep {
    StatusCode code;
    std::string message;
  };
  static Rep *copyRep(const Rep *rep);
  static void deleteRep(Rep *rep);
  void reset(Rep *rep) {
    if (rep_)
      deleteRep(rep_);
    rep_ = rep;
  }

  /// Owned; null when OK.
  Rep *rep_ = nullptr;
};

/// Prints ToString().
std::ostream &operator<<(std::ostream &os, const Status &status);

inline Status OkStatus() { return Status(); }

#define TFRT_FALLBACK_STATUS_FACTORY(Name)                                     \
  inline Status Name##Error(std::string_view message) {                        \
    return Status(StatusCode::k##Name, message);                               \
  }                                                                            \
  inline bool Is##Name(const Status &status) {                                 \
    return status.code() == StatusCode::k##Name;                               \
  }
TFRT_FALLBACK_STATUS_FACTORY(Cancelled)
TFRT_FALLBACK_STATUS_FACTORY(Unknown)
TFRT_FALLBACK_STATUS_FACTORY(InvalidArgument)
TFRT_FALLBACK_STATUS_FACTORY(DeadlineExceeded)
TFRT_FALLBACK_STATUS_FACTORY(NotFound)
TFRT_FALLBACK_STATUS_FACTORY(AlreadyExists)
TFRT_FALLBACK_STATUS_FACTORY(PermissionDenied)
TFRT_FALLBACK_STATUS_FACTORY(ResourceExhausted)
TFRT_FALLBACK_STATUS_FACTORY(FailedPrecondition)
TFRT_FALLBACK_STATUS_FACTORY(Aborted)
TFRT_FALLBACK_STATUS_FACTORY(OutOfRange)
TFRT_FALLBACK_STATUS_FACTORY(Unimplemented)
TFRT_FALLBACK_STATUS_FACTORY(Internal)
TFRT_FALLBACK_STATUS_FACTORY(Unavailable)
TFRT_FALLBACK_STATUS_FACTORY(DataLoss)
TFRT_FALLBACK_STATUS_FACTORY(Unauthenticated)
#undef TFRT_FALLBACK_STATUS_FACTORY

/// A T or an error Status, as StatusOr<T>.
namespace detail {
/// `status`, or an Internal error if it is OK (out of line: every StatusOr
/// type has this constructor).
Status notOk(Status status);
} // namespace detail

template <typename T> class [[nodiscard]] StatusOr {
public:
  /// An OK `status` is a programming error: it becomes an Internal error.
  StatusOr(Status status) : status_(detail::notOk(std::move(status))) {}
  template <typename U = T, typename = std::enable_if_t<
                                std::is_constructible_v<T, U &&> &&
                                !std::is_same_v<std::decay_t<U>, Status> &&
                                !std::is_same_v<std::decay_t<U>, StatusOr<T>>>>
  StatusOr(U &&value) : value_(std::forward<U>(value)) {}
  template <typename U,
            typename = std::enable_if_t<!std::is_same_v<U, T> &&
                                        std::is_constructible_v<T, U &&>>>
  StatusOr(StatusOr<U> &&other)
      : status_(other.status()),
        value_(other.ok() ? std::optional<T>(*std::move(other))
                          : std::nullopt) {}

  bool ok() const { return value_.has_value(); }
  const Status &status() const & { return status_; }
  Status status() && { return std::move(status_); }

  /// The value; calling these on an error aborts (StatusOr does the
  /// same without exceptions): check ok() first.
  const T &value() const & { return check(), *value_; }
  T &value() & { return check(), *value_; }
  T &&value() && { return check(), *std::move(value_); }
  const T &operator*() const & { return value(); }
  T &operator*() & { return value(); }
  T &&operator*() && { return std::move(value()); }
  const T *operator->() const { return &value(); }
  T *operator->() { return &value(); }

private:
  void check() const {
    if (!value_)
      std::abort();
  }
  Status status_;
  std::optional<T> value_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_STATUS_H

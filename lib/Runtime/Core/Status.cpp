//===- Status.cpp - The runtime's error values ----------------------------===//

#include "tfrt_fallback/Runtime/Status.h"

#include <ostream>

namespace tfrt_fallback::rt {

const char *statusCodeName(StatusCode code) {
  switch (code) {
  case StatusCode::kOk:
    return "OK";
  case StatusCode::kCancelled:
    return "CANCELLED";
  case StatusCode::kUnknown:
    return "UNKNOWN";
  case StatusCode::kInvalidArgument:
    return "INVALID_ARGUMENT";
  case StatusCode::kDeadlineExceeded:
    return "DEADLINE_EXCEEDED";
  case StatusCode::kNotFound:
    return "NOT_FOUND";
  case StatusCode::kAlreadyExists:
    return "ALREADY_EXISTS";
  case StatusCode::kPermissionDenied:
    return "PERMISSION_DENIED";
  case StatusCode::kResourceExhausted:
    return "RESOURCE_EXHAUSTED";
  case StatusCode::kFailedPrecondition:
    return "FAILED_PRECONDITION";
  case StatusCode::kAborted:
    return "ABORTED";
  case StatusCode::kOutOfRange:
    return "OUT_OF_RANGE";
  case StatusCode::kUnimplemented:
    return "UNIMPLEMENTED";
  case StatusCode::kInternal:
    return "INTERNAL";
  case StatusCode::kUnavailable:
    return "UNAVAILABLE";
  case StatusCode::kDataLoss:
    return "DATA_LOSS";
  case StatusCode::kUnauthenticated:
    return "UNAUTHENTICATED";
  }
  return "UNKNOWN";
}

Status::Status(StatusCode code, std::string_view message) {
  if (code != StatusCode::kOk)
    rep_ = new Rep{code, std::string(message)};
}

Status::Rep *Status::copyRep(const Rep *rep) { return new Rep(*rep); }

void Status::deleteRep(Rep *rep) { delete rep; }

std::string Status::ToString() const {
  if (ok())
    return "OK";
  return std::string(statusCodeName(code())) + ": " + rep_->message;
}

Status detail::notOk(Status status) {
  if (status.ok())
    return InternalError("StatusOr constructed from an OK status");
  return status;
}

std::ostream &operator<<(std::ostream &os, const Status &status) {
  return os << status.ToString();
}

} // namespace tfrt_fallback::rt

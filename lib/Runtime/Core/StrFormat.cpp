//===- StrFormat.cpp - printf-style messages for the runtime --------------===//

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <cstdio>

namespace tfrt_fallback::rt {

void strAppendFormatV(std::string *out, const char *format, va_list args) {
  // Most messages fit the stack buffer: one vsnprintf. A longer one is
  // measured by it, then written in place.
  char buffer[256];
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(buffer, sizeof(buffer), format, copy);
  va_end(copy);
  if (n <= 0)
    return;
  const size_t size = static_cast<size_t>(n);
  if (size < sizeof(buffer)) {
    out->append(buffer, size);
    return;
  }
  const size_t old = out->size();
  out->append(size + 1, '\0');
  std::vsnprintf(&(*out)[old], size + 1, format, args);
  out->resize(old + size);
}

void strAppendFormat(std::string *out, const char *format, ...) {
  va_list args;
  va_start(args, format);
  strAppendFormatV(out, format, args);
  va_end(args);
}

std::string strFormat(const char *format, ...) {
  std::string out;
  va_list args;
  va_start(args, format);
  strAppendFormatV(&out, format, args);
  va_end(args);
  return out;
}

Status makeErrorV(StatusCode code, std::string prefix, const char *format,
                  va_list args) {
  strAppendFormatV(&prefix, format, args);
  return Status(code, prefix);
}

Status makeError(StatusCode code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  Status status = makeErrorV(code, std::string(), format, args);
  va_end(args);
  return status;
}

} // namespace tfrt_fallback::rt

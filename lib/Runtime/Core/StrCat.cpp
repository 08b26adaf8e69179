//===- StrCat.cpp - String concatenation for the runtime --------*- C++ -*-===//
//
// The out-of-line parts of StrCat.h.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/StrCat.h"

#include <charconv>
#include <cstdio>
#include <cstring>

namespace tfrt_fallback::rt {

namespace detail {

/// `arg` as text, a number formatted into `buffer`.
static std::string_view argText(const StrArg &arg, char (&buffer)[32]) {
  char *end = buffer;
  switch (arg.size) {
  case StrArg::kCString:
    return arg.text ? std::string_view(arg.text) : std::string_view();
  case StrArg::kSigned:
    end = std::to_chars(buffer, buffer + sizeof(buffer), arg.i).ptr;
    break;
  case StrArg::kUnsigned:
    end = std::to_chars(buffer, buffer + sizeof(buffer), arg.u).ptr;
    break;
  case StrArg::kDouble: {
    int n = std::snprintf(buffer, sizeof(buffer), "%g", arg.d);
    end = buffer + (n > 0 ? n : 0);
    break;
  }
  default:
    return std::string_view(arg.text, arg.size);
  }
  return std::string_view(buffer, end - buffer);
}

void strAppendArgs(std::string *out, const StrArg *args, size_t count) {
  // Text is measured first so that the result is allocated once; a number
  // is at most 24 characters.
  size_t size = out->size();
  for (size_t i = 0; i < count; ++i) {
    if (args[i].size == StrArg::kCString)
      size += args[i].text ? std::strlen(args[i].text) : 0;
    else if (args[i].size >= StrArg::kDouble)
      size += 24;
    else
      size += args[i].size;
  }
  out->reserve(size);
  char buffer[32];
  for (size_t i = 0; i < count; ++i) {
    std::string_view text = argText(args[i], buffer);
    out->append(text.data(), text.size());
  }
}

std::string strCatArgs(const StrArg *args, size_t count) {
  std::string out;
  strAppendArgs(&out, args, count);
  return out;
}

std::string substituteArgs(std::string_view format, const StrArg *args,
                           size_t count) {
  std::string out;
  out.reserve(format.size());
  char buffer[32];
  size_t next = 0;
  for (size_t i = 0; i < format.size(); ++i) {
    char c = format[i];
    if (c == '%' && i + 1 < format.size()) {
      char conversion = format[i + 1];
      if (conversion == '%') {
        out += '%';
        ++i;
        continue;
      }
      if ((conversion == 'd' || conversion == 's') && next < count) {
        std::string_view text = argText(args[next++], buffer);
        out.append(text.data(), text.size());
        ++i;
        continue;
      }
    }
    out += c;
  }
  for (; next < count; ++next) {
    std::string_view text = argText(args[next], buffer);
    out += ' ';
    out.append(text.data(), text.size());
  }
  return out;
}

} // namespace detail

} // namespace tfrt_fallback::rt

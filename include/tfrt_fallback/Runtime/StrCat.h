//===- StrCat.h - String concatenation for the runtime ----------*- C++ -*-===//
//
// strCat / strAppend / strJoin with absl::StrCat's behaviour (strings as
// they are, integers in decimal, floating point with six significant
// digits) but none of its object files: absl::StrCat's integer formatting
// lives in numbers.cc, which Debian's Abseil builds without function
// sections, so one call linked that whole file and Abseil's float parser
// with it (~37 KB of every shipped runtime). Integers go through
// std::to_chars, floating point through snprintf.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_STRCAT_H
#define TFRT_FALLBACK_RUNTIME_STRCAT_H

#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

namespace tfrt_fallback::rt {

namespace detail {
/// One strCat argument, not yet formatted: text (a pointer and its length)
/// or a number, with its kind in place of a length. 16 bytes, so that each
/// strCat or strSubstitute instantiation is a few short stores and one
/// call: a shipped runtime has a hundred or more of them, one per message
/// shape (docs/BinarySize.md).
struct StrArg {
  enum Kind : size_t {
    kCString = ~size_t(0),
    kSigned = ~size_t(1),
    kUnsigned = ~size_t(2),
    kDouble = ~size_t(3),
  };
  union {
    const char *text;
    long long i;
    unsigned long long u;
    double d;
  };
  size_t size; // the text's length, or a Kind
};

inline StrArg strArg(std::string_view text) {
  StrArg arg;
  arg.text = text.data();
  arg.size = text.size();
  return arg;
}
inline StrArg strArg(const std::string &text) {
  return strArg(std::string_view(text));
}
template <size_t N> StrArg strArg(const char (&text)[N]) {
  return strArg(std::string_view(text, N - 1));
}
/// A C string (may be null, printed as "").
template <typename T,
          typename = std::enable_if_t<std::is_same_v<T, const char *> ||
                                      std::is_same_v<T, char *>>>
StrArg strArg(T text) {
  StrArg arg;
  arg.text = text;
  arg.size = StrArg::kCString;
  return arg;
}
inline StrArg strArg(long long value) {
  StrArg arg;
  arg.i = value;
  arg.size = StrArg::kSigned;
  return arg;
}
inline StrArg strArg(unsigned long long value) {
  StrArg arg;
  arg.u = value;
  arg.size = StrArg::kUnsigned;
  return arg;
}
inline StrArg strArg(int value) {
  return strArg(static_cast<long long>(value));
}
inline StrArg strArg(unsigned value) {
  return strArg(static_cast<unsigned long long>(value));
}
inline StrArg strArg(long value) {
  return strArg(static_cast<long long>(value));
}
inline StrArg strArg(unsigned long value) {
  return strArg(static_cast<unsigned long long>(value));
}
inline StrArg strArg(double value) {
  StrArg arg;
  arg.d = value;
  arg.size = StrArg::kDouble;
  return arg;
}
inline StrArg strArg(float value) { return strArg(static_cast<double>(value)); }
// A char or bool is most likely a mistake (absl::AlphaNum refuses them).
StrArg strArg(char) = delete;
StrArg strArg(bool) = delete;

std::string strCatArgs(const StrArg *args, size_t count);
void strAppendArgs(std::string *out, const StrArg *args, size_t count);
std::string substituteArgs(std::string_view format, const StrArg *args,
                           size_t count);
} // namespace detail

/// The arguments' text, concatenated.
template <typename... Args> std::string strCat(const Args &...args) {
  if constexpr (sizeof...(Args) == 0) {
    return std::string();
  } else {
    const detail::StrArg pieces[] = {detail::strArg(args)...};
    return detail::strCatArgs(pieces, sizeof...(Args));
  }
}

/// Appends the arguments' text to `*out`.
template <typename... Args>
void strAppend(std::string *out, const Args &...args) {
  if constexpr (sizeof...(Args) > 0) {
    const detail::StrArg pieces[] = {detail::strArg(args)...};
    detail::strAppendArgs(out, pieces, sizeof...(Args));
  }
}

/// `format` with each `%d` or `%s` replaced by the next argument's text (as
/// strCat prints it) and `%%` by `%`: the messages of kernels' errorf, a
/// printf subset on strCat's arguments. A conversion without an argument
/// prints as itself; surplus arguments are appended, each after a space.
template <typename... Args>
std::string strSubstitute(std::string_view format, const Args &...args) {
  if constexpr (sizeof...(Args) == 0) {
    return detail::substituteArgs(format, nullptr, 0);
  } else {
    const detail::StrArg pieces[] = {detail::strArg(args)...};
    return detail::substituteArgs(format, pieces, sizeof...(Args));
  }
}

/// Whether `text` begins with `prefix`.
inline bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

/// Whether `text` ends with `suffix`.
inline bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() &&
         text.substr(text.size() - suffix.size()) == suffix;
}

/// `text` without leading and trailing ASCII whitespace (absl's
/// StripAsciiWhitespace, without its tables).
inline std::string_view stripAsciiWhitespace(std::string_view text) {
  auto isSpace = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
  };
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

/// The elements of `range` as strCat prints them, `separator` between.
template <typename Range>
std::string strJoin(const Range &range, std::string_view separator) {
  std::string out;
  bool first = true;
  for (const auto &element : range) {
    if (!first)
      out.append(separator.data(), separator.size());
    first = false;
    strAppend(&out, element);
  }
  return out;
}

/// The elements of `range`, each appended by `formatter(&out, element)`,
/// `separator` between (absl::StrJoin's formatter form).
template <typename Range, typename Formatter>
std::string strJoin(const Range &range, std::string_view separator,
                    Formatter &&formatter) {
  std::string out;
  bool first = true;
  for (const auto &element : range) {
    if (!first)
      out.append(separator.data(), separator.size());
    first = false;
    formatter(&out, element);
  }
  return out;
}

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_STRCAT_H

//===- StrFormat.h - printf-style messages for the runtime ------*- C++ -*-===//
//
// strFormat / strAppendFormat / makeError: printf's formats, for the error
// messages of the code every shipped runtime carries (the program loader,
// the executor, the registry, the runner). A strCat call site builds an
// array of pieces, two stores per piece (~20 bytes each); a strFormat call
// passes one format string and its arguments in registers, and a message's
// literal text is one string. TFLite's error reporting is printf-style for
// the same reason. The compiler checks the arguments against the format
// (-Wformat). Kernels keep strCat (StrCat.h), whose pieces need no format.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_STRFORMAT_H
#define TFRT_FALLBACK_RUNTIME_STRFORMAT_H

#include "tfrt_fallback/Runtime/Status.h"

#include <cstdarg>
#include <string>

#if defined(__GNUC__) || defined(__clang__)
#define TFRT_FALLBACK_PRINTF(formatIndex, firstArg)                            \
  __attribute__((format(printf, formatIndex, firstArg)))
#else
#define TFRT_FALLBACK_PRINTF(formatIndex, firstArg)
#endif

/// The two arguments of a `%.*s` conversion for the std::string_view (or
/// std::string) `view`: strFormat("op '%.*s'", TFRT_FALLBACK_SV(name)).
#define TFRT_FALLBACK_SV(view) static_cast<int>((view).size()), (view).data()

namespace tfrt_fallback::rt {

/// `format` with the arguments as printf formats them (a std::string_view is
/// `%.*s` with TFRT_FALLBACK_SV). `%s` and `%.*s` stop at a NUL: text that
/// may hold any byte (a kernel's message, a status passed on) is appended,
/// not formatted.
std::string strFormat(const char *format, ...) TFRT_FALLBACK_PRINTF(1, 2);
void strAppendFormat(std::string *out, const char *format, ...)
    TFRT_FALLBACK_PRINTF(2, 3);
void strAppendFormatV(std::string *out, const char *format, va_list args);

/// An error status with a strFormat message.
Status makeError(StatusCode code, const char *format, ...)
    TFRT_FALLBACK_PRINTF(2, 3);
/// An error status whose message is `prefix` and then the strFormat text:
/// the body of error helpers that name their subject first ("invalid .npy
/// file 'x.npy': ...").
Status makeErrorV(StatusCode code, std::string prefix, const char *format,
                  va_list args);

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_STRFORMAT_H

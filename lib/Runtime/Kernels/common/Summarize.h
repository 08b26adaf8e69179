//===- Summarize.h - TF's Tensor::SummarizeValue ----------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: a tensor's values as TensorFlow's
// Tensor::SummarizeValue prints them (without print_v2), for the messages
// that quote them (Assert, TensorMapLookup, LookupTableFindV2, ...).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_SUMMARIZE_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_SUMMARIZE_H

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/strings/escaping.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

namespace tfrt_fallback::rt::kernels {

/// Appends element `i` of `t` as TF's SummarizeValue prints it: integers in
/// decimal, floats with six significant digits, bool as 1 or 0, complex
/// numbers "(re,im)", strings C-escaped.
inline void appendElement(std::string *out, const Tensor &t, int64_t i) {
  if (t.dtype() == DType::String) {
    const std::string_view bytes = stringElements(t)[i];
    out->append(absl::CEscape(absl::string_view(bytes.data(), bytes.size())));
    return;
  }
  (void)dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::Type;
    const T v = t.data<T>()[i];
    if constexpr (std::is_same_v<T, bool>)
      strAppend(out, v ? 1 : 0);
    else if constexpr (kIsQuantized<T>)
      strAppend(out, static_cast<int64_t>(v.value));
    else if constexpr (kIsComplex<T>)
      // std::complex's operator<<: "(re,im)".
      strAppend(out, "(", v.real(), ",", v.imag(), ")");
    else if constexpr (std::is_unsigned_v<T>)
      strAppend(out, static_cast<uint64_t>(v));
    else if constexpr (std::is_integral_v<T>)
      strAppend(out, static_cast<int64_t>(v));
    else if constexpr (std::is_same_v<T, double>)
      strAppend(out, v);
    else
      strAppend(out, static_cast<float>(v));
  });
}

/// TF's PrintOneDim: nested brackets for every dim but the last, at most
/// `limit` elements, "..." where an inner dim is cut short.
inline void printOneDim(const Tensor &t, int dim, int64_t limit, int64_t *next,
                        std::string *out) {
  if (*next >= limit)
    return;
  const int64_t count = t.dim(dim);
  if (dim == t.rank() - 1) {
    for (int64_t i = 0; i < count; ++i) {
      if (*next >= limit) {
        if (dim != 0)
          out->append("...");
        return;
      }
      if (i > 0)
        out->push_back(' ');
      appendElement(out, t, (*next)++);
    }
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    const bool open = *next < limit;
    if (open)
      out->push_back('[');
    printOneDim(t, dim + 1, limit, next, out);
    if (*next < limit || open)
      out->push_back(']');
  }
}

/// Tensor::SummarizeValue(summarize) without print_v2: the first
/// `summarize` elements (all when negative), "..." after them when cut.
inline std::string summarizeValue(const Tensor &t, int64_t summarize) {
  const int64_t n = t.numElements();
  const int64_t limit = summarize < 0 ? n : std::min(summarize, n);
  std::string out;
  if (t.rank() == 0) {
    for (int64_t i = 0; i < limit; ++i) {
      if (i > 0)
        out.push_back(' ');
      appendElement(&out, t, i);
    }
  } else {
    int64_t next = 0;
    printOneDim(t, 0, limit, &next, &out);
  }
  if (n > limit)
    out.append("...");
  return out;
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_SUMMARIZE_H

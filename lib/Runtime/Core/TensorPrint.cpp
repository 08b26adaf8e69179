//===- TensorPrint.cpp - NumPy-style printing of tensors --------*- C++ -*-===//
//
// Tensor::debugString, apart from Tensor.cpp so that it is compiled for size
// (tfrt_fallback_cold_sources): it runs when a tool prints a result, never
// on the per-op path.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Tensor.h"

#include "../Features.h"

#include "tfrt_fallback/Runtime/StrFormat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <cmath>
#include <cstdio>

namespace tfrt_fallback::rt {

namespace {
constexpr int64_t kEdgeItems = 3;

std::string formatFloat(double v) {
  if (std::isnan(v))
    return "nan";
  if (std::isinf(v))
    return v < 0 ? "-inf" : "inf";
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.6g", v);
  std::string s = buffer;
  // NumPy marks integral floats with a trailing dot: "1." not "1".
  if (s.find_first_of(".e") == std::string::npos)
    s += '.';
  return s;
}

template <typename T> std::string formatValue(T v) {
  if constexpr (std::is_same_v<T, bool>)
    return v ? "True" : "False";
  else if constexpr (kIsQuantized<T>)
    return formatValue(v.value);
  else if constexpr (kIsComplex<T>) {
    // NumPy's "1.+2.j", "0.5-1.j".
    std::string text = formatFloat(v.real());
    if (!std::signbit(v.imag()))
      text += '+';
    text += formatFloat(v.imag());
    text += 'j';
    return text;
  } else if constexpr (std::is_signed_v<T> && std::is_integral_v<T>)
    return strFormat("%lld", static_cast<long long>(v));
  else if constexpr (std::is_integral_v<T>)
    return strFormat("%llu", static_cast<unsigned long long>(v));
  else
    return formatFloat(static_cast<double>(v));
}

/// Element `i` of a tensor of `dtype` whose elements start at `data`. One
/// switch per element rather than a std::function per dtype: this is
/// printing, and each dtype's std::function cost a manager and an invoker.
std::string formatElement(DType dtype, const void *data, int64_t i) {
  if (kHasStrings && dtype == DType::String)
    return quoteBytes(static_cast<const std::string_view *>(data)[i]);
  std::string text;
  (void)dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    text = formatValue<T>(static_cast<const T *>(data)[i]);
  });
  return text;
}

struct Printer {
  absl::Span<const int64_t> dims;
  absl::Span<const int64_t> strides;
  bool summarize;
  DType dtype;
  const void *data;
  std::string out;

  void print(int axis, int64_t offset) {
    const int rank = static_cast<int>(dims.size());
    if (axis == rank) {
      out += formatElement(dtype, data, offset);
      return;
    }
    out += '[';
    int64_t n = dims[axis];
    // Separator between entries of this axis: ", " on the last axis,
    // otherwise ",", one newline per remaining axis and indentation.
    std::string sep = ",";
    if (axis == rank - 1) {
      sep += ' ';
    } else {
      sep.append(rank - 1 - axis, '\n');
      sep.append(axis + 1, ' ');
    }
    bool elide = summarize && n > 2 * kEdgeItems;
    for (int64_t i = 0; i < n; ++i) {
      if (elide && i == kEdgeItems) {
        out += "...";
        out += sep;
        i = n - kEdgeItems;
      }
      print(axis + 1, offset + i * strides[axis]);
      if (i + 1 < n)
        out += sep;
    }
    out += ']';
  }
};
} // namespace

std::string Tensor::debugString(int64_t maxElements) const {
  if (!isValid())
    return "<invalid tensor>";
  if ((!kHasStrings || dtype_ != DType::String) &&
      !dispatchDType(dtype_, [](auto) {}).ok())
    return strFormat("<tensor of dtype %s>",
                     std::string(dtypeName(dtype_)).c_str());
  absl::InlinedVector<int64_t, 6> strides(shape_.rank());
  int64_t stride = 1;
  for (int i = shape_.rank() - 1; i >= 0; --i) {
    strides[i] = stride;
    stride *= shape_.dim(i);
  }
  const bool summarize = numElements() > maxElements;
  Printer printer{shape_.dims(), strides, summarize, dtype_, rawData(), {}};
  printer.print(0, 0);
  return std::move(printer.out);
}

} // namespace tfrt_fallback::rt

//===- StringConvertKernels.cpp - AsString, StringToNumber ------*- C++ -*-===//
//
// Numbers to strings and back (tensorflow/core/kernels/as_string_op.cc,
// string_to_number_op.cc). AsString formats with printf as TF does (its
// format string built from the attributes); StringToNumber parses as
// TF's safe_strto* (tsl/platform/numbers.cc): integers in decimal between
// optional whitespace, floats through std::from_chars with the
// double-conversion rules TF configures (surrounding whitespace, a sign,
// "inf"/"nan" in any case, hexadecimal integers "0x1A", out-of-range
// magnitudes to +-inf or 0, at most 31 characters).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"
#include "common/TFDTypeName.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// AsString
//===----------------------------------------------------------------------===//

/// AsString(input: T; precision = -1, scientific = false, shortest = false,
/// width = -1, fill = "") -> string. Integers "%<fill><width>d" (u for
/// unsigned), floats "%<fill><width>.<precision>f" (e when scientific, g
/// when shortest; f16/bf16 as float), bool "true"/"false", strings
/// "%<fill><width>s" (unchanged without a width). TF's checks: "Fill string
/// must be one or fewer characters", "Fill argument not supported: \"x\""
/// (fill is one of ' ', '+', '-', '0', '#'), "Cannot select both scientific
/// and shortest notation", "scientific and shortest format not supported
/// for datatype int32", "precision not supported for datatype int32".
template <typename T> class AsStringKernel final : public OpKernel {
  static constexpr bool kFloat =
      !std::is_integral_v<T> && !std::is_same_v<T, std::string_view>;

public:
  explicit AsStringKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    int64_t precision = -1, width = -1;
    bool scientific = false, shortest = false;
    std::string fill;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "precision", &precision));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "scientific", &scientific));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "shortest", &shortest));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "width", &width));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "fill", &fill));
    const std::string_view typeName = tfDTypeName(dtypeOfT());
    if (!kFloat) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, !(scientific || shortest),
          errorf("scientific and shortest format not supported for "
                 "datatype %s",
                 typeName));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, precision < 0,
          errorf("precision not supported for datatype %s", typeName));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, fill.size() <= 1,
        errorf("Fill string must be one or fewer characters"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, !(scientific && shortest),
        errorf("Cannot select both scientific and shortest notation"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        fill.empty() ||
            std::string_view(" +-0#").find(fill[0]) != std::string_view::npos,
        errorf("Fill argument not supported: \"%s\"", fill));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, width < 4096 && precision < 4096,
        errorf("width and precision must be below 4096, got %d and %d", width,
               precision));
    passThrough_ = std::is_same_v<T, std::string_view> && width <= 0;
    format_ = "%" + fill;
    if (width > -1)
      format_ += std::to_string(width);
    if (precision > -1)
      format_ += "." + std::to_string(precision);
    if constexpr (std::is_same_v<T, std::string_view>)
      format_ += ".*s";
    else if constexpr (kFloat)
      format_ += shortest ? "g" : scientific ? "e" : "f";
    else if constexpr (std::is_unsigned_v<T>)
      format_ += "llu";
    else
      format_ += "lld";
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    std::vector<std::string> out;
    out.reserve(in.numElements());
    const T *p = in.data<T>();
    for (int64_t i = 0; i < in.numElements(); ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        out.emplace_back(p[i] ? "true" : "false");
      } else if constexpr (std::is_same_v<T, std::string_view>) {
        if (passThrough_)
          out.emplace_back(p[i]);
        else
          out.push_back(format(static_cast<int>(p[i].size()), p[i].data()));
      } else if constexpr (std::is_same_v<T, double>) {
        out.push_back(format(p[i]));
      } else if constexpr (kFloat) {
        out.push_back(format(static_cast<double>(static_cast<float>(p[i]))));
      } else if constexpr (std::is_unsigned_v<T>) {
        out.push_back(format(static_cast<unsigned long long>(p[i])));
      } else {
        out.push_back(format(static_cast<long long>(p[i])));
      }
    }
    std::vector<std::string_view> views(out.begin(), out.end());
    StatusOr<Tensor> t = makeStringTensor(in.shape(), views);
    if (!t.ok())
      return ctx->ctxFailure(t.status());
    ctx->setOutput(0, *std::move(t));
  }

private:
  static DType dtypeOfT() {
    if constexpr (std::is_same_v<T, std::string_view>)
      return DType::String;
    else
      return dtypeOf<T>();
  }

  template <typename... Args> std::string format(Args... args) const {
    const int n = std::snprintf(nullptr, 0, format_.c_str(), args...);
    std::string s(n > 0 ? n : 0, '\0');
    if (n > 0)
      std::snprintf(s.data(), s.size() + 1, format_.c_str(), args...);
    return s;
  }

  std::string format_;
  bool passThrough_ = false;
};

//===----------------------------------------------------------------------===//
// StringToNumber
//===----------------------------------------------------------------------===//

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
         c == '\r';
}

void trimSpaces(std::string_view *s) {
  while (!s->empty() && isSpace(s->front()))
    s->remove_prefix(1);
  while (!s->empty() && isSpace(s->back()))
    s->remove_suffix(1);
}

/// TF's safe_strto32 / safe_strto64: whitespace, an optional '-', decimal
/// digits, whitespace; false on anything else or overflow.
template <typename T> bool parseInt(std::string_view s, T *out) {
  trimSpaces(&s);
  bool negative = false;
  if (!s.empty() && s.front() == '-') {
    negative = true;
    s.remove_prefix(1);
  }
  if (s.empty() || s.front() < '0' || s.front() > '9')
    return false;
  using U = std::make_unsigned_t<T>;
  const U limit = negative ? U(std::numeric_limits<T>::max()) + 1
                           : U(std::numeric_limits<T>::max());
  U v = 0;
  for (char c : s) {
    if (c < '0' || c > '9')
      return false;
    const U digit = static_cast<U>(c - '0');
    if (v > (limit - digit) / 10)
      return false;
    v = v * 10 + digit;
  }
  *out = negative ? static_cast<T>(U(0) - v) : static_cast<T>(v);
  return true;
}

/// TF's safe_strtof / safe_strtod (double-conversion with leading and
/// trailing spaces, hexadecimal integers, case-insensitive "inf"/"nan").
template <typename T> bool parseFloat(std::string_view s, T *out) {
  if (s.size() >= 32) // TF's kFastToBufferSize.
    return false;
  trimSpaces(&s);
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty())
    return false;
  auto lowerIs = [&](std::string_view word) {
    if (s.size() != word.size())
      return false;
    for (size_t i = 0; i < s.size(); ++i)
      if ((s[i] | 0x20) != word[i])
        return false;
    return true;
  };
  if (lowerIs("inf")) {
    *out = negative ? -std::numeric_limits<T>::infinity()
                    : std::numeric_limits<T>::infinity();
    return true;
  }
  if (lowerIs("nan")) {
    *out = std::numeric_limits<T>::quiet_NaN();
    return true;
  }
  if (s.size() > 2 && s[0] == '0' && (s[1] | 0x20) == 'x') {
    double v = 0;
    for (char c : s.substr(2)) {
      const char l = static_cast<char>(c | 0x20);
      int d = c >= '0' && c <= '9'   ? c - '0'
              : l >= 'a' && l <= 'f' ? l - 'a' + 10
                                     : -1;
      if (d < 0)
        return false;
      v = v * 16 + d;
    }
    *out = static_cast<T>(negative ? -v : v);
    return true;
  }
  // Digits or a point from here: from_chars would also take a second
  // sign, "infinity" and "nan(...)", which double-conversion does not.
  if (!(s.front() >= '0' && s.front() <= '9') && s.front() != '.')
    return false;
  T v;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (end != s.data() + s.size())
    return false;
  if (ec == std::errc::result_out_of_range) {
    // Overflow to infinity, underflow to zero, as double-conversion rounds.
    long double wide = 0;
    auto parsed = std::from_chars(s.data(), s.data() + s.size(), wide);
    bool big;
    if (parsed.ec == std::errc()) {
      big = std::fabs(wide) > 1;
    } else {
      const size_t e = s.find_first_of("eE");
      big = e == std::string_view::npos || e + 1 >= s.size() || s[e + 1] != '-';
    }
    v = big ? std::numeric_limits<T>::infinity() : T(0);
  } else if (ec != std::errc()) {
    return false;
  }
  *out = negative ? -v : v;
  return true;
}

/// StringToNumber(string_tensor: string; out_type = float) -> out_type
/// (f32, f64, i32, i64): "StringToNumberOp could not correctly convert
/// string: x".
template <typename T> class StringToNumberKernel final : public OpKernel {
public:
  explicit StringToNumberKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    T *po = out->data<T>();
    for (std::string_view s : stringElements(in)) {
      bool ok;
      if constexpr (std::is_integral_v<T>)
        ok = parseInt(s, po);
      else
        ok = parseFloat(s, po);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ok,
          errorf("StringToNumberOp could not correctly convert string: %s", s));
      ++po;
    }
  }
};

/// Registers `Kernel<T>` for op `Op` with type attribute `attr` equal to
/// T's dtype, one def per T.
template <OpId Op, template <typename> class Kernel, typename... Ts>
void registerByAttr(KernelRegistry &registry, const char *attr) {
  auto one = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (isKernelSelected(Op, dtypeOf<T>()))
      rt::registerKernel<Kernel<T>>(
          registry, KernelDefBuilder(kOpRow<Op>).typeConstraint<T>(attr));
  };
  (one(TypeTag<Ts>{}), ...);
}

} // namespace

void registerStringConvertKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  registerKernel<OpId::kAsString, AsStringKernel, float, double, half, bf16,
                 int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                 uint64_t, bool>(registry);
  registerStringKernel<OpId::kAsString, AsStringKernel<std::string_view>>(
      registry);
  registerByAttr<OpId::kStringToNumber, StringToNumberKernel, float, double,
                 int32_t, int64_t>(registry, "out_type");
}

} // namespace tfrt_fallback::rt

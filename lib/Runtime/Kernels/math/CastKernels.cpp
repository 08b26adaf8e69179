//===- CastKernels.cpp - Cast between dtypes --------------------*- C++ -*-===//
//
// Cast(x; SrcT, DstT, Truncate = false) for every pair of f32, f64, f16,
// bf16, i8, u8, i16, u16, i32, u32, i64, u64, bool, complex64 and
// complex128, with TensorFlow's
// rules (TF's CPU kernel is Eigen's `cast<DstT>()`, i.e. static_cast):
//
//   - SrcT == DstT: the output is the input (shared buffer).
//   - anything -> bool: x != 0 (so NaN -> true).
//   - bool -> number: 0 or 1.
//   - complex -> anything: its real part, converted (NumPy's rule, as TF);
//     anything -> complex: (x, 0); complex -> complex: both parts.
//   - int -> int: two's complement wrap-around (static_cast).
//   - int -> float: round to nearest even (static_cast; for f16/bf16 via
//     float, as Eigen's conversions).
//   - float -> float: round to nearest even with Eigen's f16/bf16
//     conversions (f64 -> f16/bf16 rounds to f32 first, as Eigen and TF).
//     With Truncate = true, f32 -> f16, f32 -> bf16, f64 -> f32 and
//     f64 -> f16 truncate the mantissa instead (TF's LSBZeroSetter: the
//     source's extra mantissa bits are zeroed before the conversion; NaN is
//     left alone). Truncate is ignored for every other pair, as in TF.
//   - float -> int: truncation toward zero. Where C++ leaves the result
//     undefined (NaN, or a truncated value outside DstT's range) we define
//     it: NaN -> 0 (as TF.js), values below the range saturate to DstT's
//     minimum and values above to its maximum (TF's x86 build gives
//     0x80...0 there, TF.js wraps modulo 2^32; neither is specified).
//
// One plain conversion loop per (SrcT, DstT) pair, selected once when the
// kernel is built, and run in contiguous chunks over the Eigen device.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

template <typename T>
constexpr bool isReducedFloat =
    std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;
template <typename T>
constexpr bool isFloatType = std::is_floating_point_v<T> || isReducedFloat<T>;

/// f16 and bf16 widened to float (exactly); other types unchanged.
template <typename T> auto widen(T x) {
  if constexpr (isReducedFloat<T>)
    return static_cast<float>(x);
  else
    return x;
}

/// Converts one value with the rules in the file header.
template <typename D, typename S> D castValue(S x) {
  if constexpr (kIsComplex<S> && kIsComplex<D>) {
    using R = typename D::value_type;
    return D(static_cast<R>(x.real()), static_cast<R>(x.imag()));
  } else if constexpr (kIsComplex<S>) {
    return castValue<D>(x.real());
  } else if constexpr (kIsComplex<D>) {
    using R = typename D::value_type;
    return D(castValue<R>(x), R(0));
  } else if constexpr (std::is_same_v<D, bool>) {
    return widen(x) != 0;
  } else if constexpr (std::is_same_v<S, bool>) {
    return static_cast<D>(x ? 1 : 0);
  } else if constexpr (isFloatType<S> && std::is_integral_v<D>) {
    using W = decltype(widen(x));
    const W w = widen(x);
    // 2^digits and its negation (0 for unsigned): exact in every float type.
    constexpr int kBits = std::numeric_limits<D>::digits; // Excluding sign.
    constexpr W hi = W(2) * static_cast<W>(uint64_t(1) << (kBits - 1));
    constexpr W lo = std::is_signed_v<D> ? -hi : W(0);
    // Branch-free so the loop vectorizes. NaN becomes 0 before the
    // conversion: converting NaN (or anything out of range) is undefined.
    const W finite = w == w ? w : W(0);
    const W clamped = finite < lo ? lo : finite;
    return clamped >= hi ? std::numeric_limits<D>::max()
                         : static_cast<D>(clamped);
  } else if constexpr (isReducedFloat<S>) {
    return static_cast<D>(static_cast<float>(x));
  } else {
    return static_cast<D>(x);
  }
}

using CastFn = void (*)(const void *src, void *dst, int64_t n);

template <typename S, typename D>
void castLoop(const void *src, void *dst, int64_t n) {
  const S *s = static_cast<const S *>(src);
  D *d = static_cast<D *>(dst);
  for (int64_t i = 0; i < n; ++i)
    d[i] = castValue<D>(s[i]);
}

/// Mantissa bits including the hidden one.
template <typename T> constexpr int mantissaWidth() {
  if constexpr (std::is_same_v<T, Eigen::half>)
    return 11;
  else if constexpr (std::is_same_v<T, Eigen::bfloat16>)
    return 8;
  else
    return std::numeric_limits<T>::digits;
}

/// Truncate = true: zero the source mantissa bits DstT lacks (not for NaN),
/// so the rounding conversion after it truncates.
template <typename S, typename D>
void castTruncateLoop(const void *src, void *dst, int64_t n) {
  using Bits = std::conditional_t<sizeof(S) == 8, uint64_t, uint32_t>;
  static_assert(sizeof(S) == sizeof(Bits), "f32 or f64 source");
  constexpr int kDrop = mantissaWidth<S>() - mantissaWidth<D>();
  static_assert(kDrop > 0, "the destination must be narrower");
  constexpr Bits kMask = ~((Bits(1) << kDrop) - 1);
  const S *s = static_cast<const S *>(src);
  D *d = static_cast<D *>(dst);
  for (int64_t i = 0; i < n; ++i) {
    S v = s[i];
    if (!std::isnan(v)) {
      Bits bits;
      std::memcpy(&bits, &v, sizeof(v));
      bits &= kMask;
      std::memcpy(&v, &bits, sizeof(v));
    }
    d[i] = static_cast<D>(v);
  }
}

/// The conversion loop for (src, dst); nullptr for an unsupported dtype.
CastFn selectCast(DType src, DType dst, bool truncate) {
  if (truncate) {
    if (src == DType::F32 && dst == DType::F16)
      return castTruncateLoop<float, Eigen::half>;
    if (src == DType::F32 && dst == DType::BF16)
      return castTruncateLoop<float, Eigen::bfloat16>;
    if (src == DType::F64 && dst == DType::F32)
      return castTruncateLoop<double, float>;
    if (src == DType::F64 && dst == DType::F16)
      return castTruncateLoop<double, Eigen::half>;
  }
  CastFn fn = nullptr;
  (void)dispatchDType(src, [&](auto srcTag) {
    return dispatchDType(dst, [&](auto dstTag) {
      using S = typename decltype(srcTag)::Type;
      using D = typename decltype(dstTag)::Type;
      // TF has no Cast from or to the quantized dtypes.
      if constexpr (!kIsQuantized<S> && !kIsQuantized<D>)
        fn = castLoop<S, D>;
    });
  });
  return fn;
}

class CastKernel final : public OpKernel {
public:
  explicit CastKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("SrcT", &src_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("DstT", &dst_));
    bool truncate = false;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "Truncate", &truncate));
    fn_ = selectCast(src_, dst_, truncate);
    TFRT_FALLBACK_OP_REQUIRES(ctx, fn_ != nullptr,
                              errorf("Unsupported cast from %s to %s",
                                     dtypeName(src_), dtypeName(dst_)));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, in.dtype() == src_,
                              errorf("Input has dtype %s but SrcT is %s",
                                     dtypeName(in.dtype()), dtypeName(src_)));
    if (src_ == dst_) {
      ctx->setOutput(0, in);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    const size_t srcSize = dtypeSize(src_), dstSize = dtypeSize(dst_);
    const char *src = static_cast<const char *>(in.rawData());
    char *dst = static_cast<char *>(out->rawData());
    const CastFn fn = fn_;
    kernels::parallelFor(ctx->eigenDevice(), in.numElements(),
                         Eigen::TensorOpCost(srcSize, dstSize, 2),
                         [=](Eigen::Index first, Eigen::Index last) {
                           fn(src + first * srcSize, dst + first * dstSize,
                              last - first);
                         });
  }

private:
  DType src_ = DType::Invalid;
  DType dst_ = DType::Invalid;
  CastFn fn_ = nullptr;
};

/// Every dtype and the complex ones.
constexpr DType kCastDTypes[] = {
    DType::F32, DType::F64, DType::F16,  DType::BF16, DType::I8,
    DType::U8,  DType::I16, DType::U16,  DType::I32,  DType::U32,
    DType::I64, DType::U64, DType::Bool, DType::C64,  DType::C128};
static_assert(std::size(kCastDTypes) == std::size(kAllDTypes) + 2,
              "kCastDTypes is kAllDTypes and the complex dtypes");

} // namespace

void registerCastKernels(KernelRegistry &registry) {
  registerKernel<OpId::kCast, CastKernel>(
      registry, {{"SrcT", kCastDTypes}, {"DstT", kCastDTypes}});
  // _HostCast: TF's Cast placed on the host by its placer.
  registerKernel<OpId::k_HostCast, CastKernel>(
      registry, {{"SrcT", kCastDTypes}, {"DstT", kCastDTypes}});
}

} // namespace tfrt_fallback::rt

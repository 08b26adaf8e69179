//===- ArithmeticKernels.cpp - TruncateDiv, Xdivy, clip, search -*- C++ -*-===//
//
// Elementwise arithmetic beyond the elementwise family
// (tensorflow/core/kernels/cwise_op_div.cc, cwise_op_xdivy.cc,
// cwise_op_clip.cc, searchsorted_op.cc): the broadcasting TruncateDiv and
// Xdivy (through BinaryOpKernel.h), ClipByValue, and the batched binary
// searches LowerBound and UpperBound.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "math/BinaryOpKernel.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

//===----------------------------------------------------------------------===//
// TruncateDiv, Xdivy
//===----------------------------------------------------------------------===//

/// TruncateDiv on integers: the quotient rounded toward zero (C++ `/`);
/// a zero divisor fails the op ("Integer division by zero"), MIN / -1
/// wraps to MIN (TF's safe_div returns -MIN).
template <typename T> struct IntTruncateDivFunctor {
  static constexpr const char *kRhsError = "Integer division by zero";
  static bool badRhs(T b) { return b == T(0); }
  T operator()(const T &a, const T &b) const {
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1))
        return static_cast<T>(std::make_unsigned_t<T>(0) -
                              static_cast<std::make_unsigned_t<T>>(a));
    }
    return static_cast<T>(a / b);
  }
};

/// TruncateDiv on floats: trunc(x / y) (IEEE division, so x / 0 is +-inf
/// or NaN).
template <typename T> struct FloatTruncateDivFunctor {
  T operator()(const T &a, const T &b) const {
    return static_cast<T>(std::trunc(static_cast<float>(a / b)));
  }
};
template <> struct FloatTruncateDivFunctor<double> {
  double operator()(const double &a, const double &b) const {
    return std::trunc(a / b);
  }
};

template <typename T>
using TruncateDivFunctor =
    std::conditional_t<std::is_integral_v<T>, IntTruncateDivFunctor<T>,
                       FloatTruncateDivFunctor<T>>;

/// Xdivy(x, y): 0 if x == 0 (even for y = 0 or NaN), else x / y. A zero x
/// is returned as it is (-0.0 stays -0.0), as TF's vectorized path does.
template <typename T> struct XdivyFunctor {
  T operator()(const T &x, const T &y) const {
    return x == T(0) ? x : static_cast<T>(x / y);
  }
};

//===----------------------------------------------------------------------===//
// ClipByValue
//===----------------------------------------------------------------------===//

/// ClipByValue(t, clip_value_min, clip_value_max): max(min(t, max), min)
/// elementwise (std::min/max order, so a NaN in t stays NaN). Each bound
/// is a scalar or has t's shape, else TF's "clip_value_min and
/// clip_value_max must be either of the same shape as input, or a scalar.
/// input shape: [2]clip_value_min shape: [3]clip_value_max shape: []". The
/// output forwards t when allowed.
template <typename T> class ClipByValueKernel final : public OpKernel {
public:
  explicit ClipByValueKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &t = ctx->input(0);
    const Tensor &lo = ctx->input(1);
    const Tensor &hi = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        (lo.shape() == t.shape() || lo.rank() == 0) &&
            (hi.shape() == t.shape() || hi.rank() == 0),
        errorf("clip_value_min and clip_value_max must be either of the same "
               "shape as input, or a scalar. input shape: %sclip_value_min "
               "shape: %sclip_value_max shape: %s",
               t.shape().toString(), lo.shape().toString(),
               hi.shape().toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, t.shape(), &out));
    const T *x = t.data<T>();
    const T *pl = lo.data<T>();
    const T *ph = hi.data<T>();
    const int64_t sl = lo.rank() == 0 ? 0 : 1, sh = hi.rank() == 0 ? 0 : 1;
    T *y = out->data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), t.numElements(), elementCost<T>(3, 1, 2),
        [=](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index i = first; i < last; ++i)
            y[i] = std::max(std::min(x[i], ph[i * sh]), pl[i * sl]);
        });
  }
};

//===----------------------------------------------------------------------===//
// LowerBound, UpperBound
//===----------------------------------------------------------------------===//

/// LowerBound / UpperBound(sorted_inputs [N, M], values [N, K]; out_type
/// int32 default or int64): for each values[b, k], the first position in
/// row b of sorted_inputs whose element is >= (LowerBound) or > (UpperBound)
/// it (std::lower_bound / std::upper_bound; rows must be sorted). TF's
/// errors: "Shape must be rank 2 but is rank 1 for `sorted_inputs`
/// argument", "... for `values` argument", "Leading dim_size of both
/// tensors must match.".
template <typename T, bool Upper> class BoundKernel final : public OpKernel {
public:
  explicit BoundKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    const DType out = ctx->outputDType(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, out == DType::I32 || out == DType::I64,
        errorf("out_type must be int32 or int64, got %s", dtypeName(out)));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &sorted = ctx->input(0);
    const Tensor &values = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, sorted.rank() == 2,
        errorf("Shape must be rank 2 but is rank %d for `sorted_inputs` "
               "argument",
               sorted.rank()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values.rank() == 2,
        errorf("Shape must be rank 2 but is rank %d for `values` argument",
               values.rank()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, sorted.dim(0) == values.dim(0),
        errorf("Leading dim_size of both tensors must match."));
    const bool out64 = ctx->expectedOutputDType(0) == DType::I64;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, out64 || sorted.dim(1) < std::numeric_limits<int32_t>::max(),
        errorf("trailing dim_size must less than INT_MAX for int32 output "
               "type, was %d",
               sorted.dim(1)));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, values.shape(), &out));
    const int64_t m = sorted.dim(1), k = values.dim(1);
    for (int64_t b = 0; b < sorted.dim(0); ++b) {
      const T *row = sorted.data<T>() + b * m;
      for (int64_t j = 0; j < k; ++j) {
        const T v = values.data<T>()[b * k + j];
        const int64_t pos = (Upper ? std::upper_bound(row, row + m, v)
                                   : std::lower_bound(row, row + m, v)) -
                            row;
        if (out64)
          out->data<int64_t>()[b * k + j] = pos;
        else
          out->data<int32_t>()[b * k + j] = static_cast<int32_t>(pos);
      }
    }
  }
};

template <typename T> using LowerBoundKernel = BoundKernel<T, false>;
template <typename T> using UpperBoundKernel = BoundKernel<T, true>;

} // namespace

void registerArithmeticKernels(KernelRegistry &registry) {
  registerKernel<OpId::kTruncateDiv, BinaryFamily<TruncateDivFunctor>::Kernel,
                 float, double, half, bf16, int32_t, int64_t, int8_t, int16_t,
                 uint8_t, uint16_t, uint32_t, uint64_t>(registry);
  registerKernel<OpId::kXdivy, BinaryFamily<XdivyFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kClipByValue, ClipByValueKernel, float, double, half,
                 bf16, int32_t, int64_t, int8_t, int16_t, uint8_t, uint16_t>(
      registry);
  registerKernel<OpId::kLowerBound, LowerBoundKernel, float, double, half, bf16,
                 int32_t, int64_t, int8_t, int16_t, uint8_t, uint16_t>(
      registry);
  registerKernel<OpId::kUpperBound, UpperBoundKernel, float, double, half, bf16,
                 int32_t, int64_t, int8_t, int16_t, uint8_t, uint16_t>(
      registry);
}

} // namespace tfrt_fallback::rt

//===- NNKernels.cpp - Activations, BiasAdd and Softmax ---------*- C++ -*-===//
//
// Neural-network kernels: the activations Relu, Relu6, Sigmoid and Tanh
// (elementwise, forwarding their input), BiasAdd (NHWC and NCHW) and
// Softmax over the last axis.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

/// Relu: max(x, 0), as TF's `features.cwiseMax(0)` (NaN stays NaN).
template <typename T> struct ReluFunctor {
  static constexpr double kCost = 1;
  template <typename X> static auto apply(const X &x) { return x.max(T(0)); }
};

/// Relu6: min(max(x, 0), 6).
template <typename T> struct Relu6Functor {
  static constexpr double kCost = 2;
  template <typename X> static auto apply(const X &x) {
    return x.max(T(0)).min(T(6));
  }
};

/// Sigmoid: 1 / (1 + e^-x), Eigen's logistic function as in TF.
template <typename T> struct SigmoidFunctor {
  static constexpr double kCost = 25;
  template <typename X> static auto apply(const X &x) { return x.logistic(); }
};

/// Tanh: hyperbolic tangent (Eigen's vectorized tanh as in TF).
template <typename T> struct TanhFunctor {
  static constexpr double kCost = 25;
  template <typename X> static auto apply(const X &x) { return x.tanh(); }
};

template <template <typename> class F> struct UnaryFamily {
  template <typename T> using Kernel = UnaryOpKernel<T, F<T>>;
};

//===----------------------------------------------------------------------===//
// BiasAdd
//===----------------------------------------------------------------------===//

/// BiasAdd(value, bias): adds the 1-D `bias` along the channel dim of
/// `value`: the last dim for data_format "NHWC" (the default; "NDHWC" is
/// the same), dim 1 for "NCHW" (or "NCDHW"). value must have rank >= 2 and
/// bias as many elements as the channel dim. The output has value's shape
/// and forwards value's buffer when allowed.
template <typename T> class BiasAddKernel final : public OpKernel {
public:
  explicit BiasAddKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    std::string format = "NHWC";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "data_format", &format));
    if (format == "NCHW" || format == "NCDHW")
      channelFirst_ = true;
    else
      TFRT_FALLBACK_OP_REQUIRES(ctx, format == "NHWC" || format == "NDHWC",
                                errorf("Invalid data format '%s'", format));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &value = ctx->input(0);
    const Tensor &bias = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, value.rank() >= 2,
                              errorf("Input tensor must be at least 2D: %s",
                                     value.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, bias.rank() == 1,
        errorf("Biases must be 1D: %s", bias.shape().toString()));
    const int channelDim = channelFirst_ ? 1 : value.rank() - 1;
    const int64_t channels = value.dim(channelDim);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, bias.dim(0) == channels,
        errorf("Must provide as many biases as the last dimension of the "
               "input tensor: %s vs. %s",
               bias.shape().toString(), value.shape().toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, value.shape(), &out));
    const int64_t n = value.numElements();
    if (n == 0)
      return;

    const T *in = value.data<T>();
    const T *pb = bias.data<T>();
    T *po = out->data<T>();
    const Eigen::TensorOpCost cost = elementCost<T>(2, 1, 1);
    if (!channelFirst_) {
      // Rows of `channels` elements, each plus the whole bias vector.
      ctx->eigenDevice().parallelFor(
          n / channels, cost * static_cast<double>(channels),
          [=](Eigen::Index first, Eigen::Index last) {
            ConstArrayMap<T> b(pb, channels);
            for (Eigen::Index r = first; r < last; ++r)
              ArrayMap<T>(po + r * channels, channels) =
                  ConstArrayMap<T>(in + r * channels, channels) + b;
          });
      return;
    }
    // Rows of the trailing (spatial) elements of one (batch, channel) pair,
    // each plus one bias value.
    const int64_t inner = n / (value.dim(0) * channels);
    ctx->eigenDevice().parallelFor(
        n / inner, cost * static_cast<double>(inner),
        [=](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index r = first; r < last; ++r)
            ArrayMap<T>(po + r * inner, inner) =
                ConstArrayMap<T>(in + r * inner, inner) + pb[r % channels];
        });
  }

private:
  bool channelFirst_ = false;
};

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

/// One row: out = exp(x - max(x)) * (1 / sum(exp(x - max(x)))). `out` may
/// alias `in`. f16 and bf16 accumulate in float.
template <typename T> void softmaxRow(const T *in, T *out, int64_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    ConstArrayMap<T> x(in, n);
    ArrayMap<T> o(out, n);
    const T max = x.maxCoeff();
    o = (x - max).exp();
    o *= T(1) / o.sum();
  } else {
    float max = -std::numeric_limits<float>::infinity();
    for (int64_t i = 0; i < n; ++i)
      max = std::max(max, static_cast<float>(in[i]));
    float sum = 0;
    for (int64_t i = 0; i < n; ++i)
      sum += std::exp(static_cast<float>(in[i]) - max);
    const float inv = 1.0f / sum;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(std::exp(static_cast<float>(in[i]) - max) * inv);
  }
}

/// Softmax(logits): softmax along the last axis, numerically stable
/// (the row maximum is subtracted before exponentiating, which does not
/// change the result). logits must have rank >= 1. The output has logits'
/// shape and forwards its buffer when allowed.
template <typename T> class SoftmaxKernel final : public OpKernel {
public:
  explicit SoftmaxKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &logits = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, logits.rank() >= 1,
                              errorf("logits must have >= 1 dimension, got %s",
                                     logits.shape().toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, logits.shape(), &out));
    const int64_t n = logits.numElements();
    if (n == 0)
      return;
    const int64_t classes = logits.dim(logits.rank() - 1);
    const T *in = logits.data<T>();
    T *po = out->data<T>();
    ctx->eigenDevice().parallelFor(
        n / classes, elementCost<T>(1, 1, 30) * static_cast<double>(classes),
        [=](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index r = first; r < last; ++r)
            softmaxRow<T>(in + r * classes, po + r * classes, classes);
        });
  }
};

} // namespace

void registerNNKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  registerForTypes<UnaryFamily<ReluFunctor>::Kernel, float, double, half, bf16,
                   int32_t, int64_t, int8_t>(registry, "Relu");
  registerForTypes<UnaryFamily<Relu6Functor>::Kernel, float, double, half,
                   bf16>(registry, "Relu6");
  registerForTypes<UnaryFamily<SigmoidFunctor>::Kernel, float, double, half,
                   bf16>(registry, "Sigmoid");
  registerForTypes<UnaryFamily<TanhFunctor>::Kernel, float, double, half, bf16>(
      registry, "Tanh");
  registerForTypes<BiasAddKernel, float, double, half, bf16, int32_t>(
      registry, "BiasAdd");
  registerForTypes<SoftmaxKernel, float, double, half, bf16>(registry,
                                                             "Softmax");
}

} // namespace tfrt_fallback::rt

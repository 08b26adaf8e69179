//===- NNKernels.cpp - Activations, normalization, softmax ------*- C++ -*-===//
//
// Neural-network kernels: the activations Relu, Relu6, Sigmoid and Tanh
// (elementwise, forwarding their input), Prelu (TF.js), BiasAdd (NHWC and
// NCHW), Softmax and LogSoftmax over the last axis, FusedBatchNorm /
// V2 / V3, BatchNormWithGlobalNormalization, Softsign and LRN.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "math/UnaryOpKernel.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

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

/// Softsign: x / (|x| + 1), as TF's `features / (features.abs() + 1)`.
template <typename T> struct SoftsignFunctor {
  static constexpr double kCost = 3;
  template <typename X> static auto apply(const X &x) {
    return x / (x.abs() + T(1));
  }
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
      kernels::parallelFor(
          ctx->eigenDevice(), n / channels,
          cost * static_cast<double>(channels),
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
    kernels::parallelFor(
        ctx->eigenDevice(), n / inner, cost * static_cast<double>(inner),
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

/// max(x) and sum(exp(x - max(x))) over one row of `n` values, computed in
/// float (for f16 and bf16 rows).
template <typename T>
std::pair<float, float> maxAndExpSum(const T *in, int64_t n) {
  float max = -std::numeric_limits<float>::infinity();
  for (int64_t i = 0; i < n; ++i)
    max = std::max(max, static_cast<float>(in[i]));
  float sum = 0;
  for (int64_t i = 0; i < n; ++i)
    sum += std::exp(static_cast<float>(in[i]) - max);
  return {max, sum};
}

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
    const auto [max, sum] = maxAndExpSum(in, n);
    const float inv = 1.0f / sum;
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(std::exp(static_cast<float>(in[i]) - max) * inv);
  }
}

//===----------------------------------------------------------------------===//
// LogSoftmax
//===----------------------------------------------------------------------===//

/// One row: out = (x - max) - log(sum(exp(x - max))), as TF computes it.
/// `out` may alias `in`; f16 and bf16 compute in float.
template <typename T> void logSoftmaxRow(const T *in, T *out, int64_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    ConstArrayMap<T> x(in, n);
    ArrayMap<T> o(out, n);
    const T max = x.maxCoeff();
    o = x - max;
    const T logSum = std::log(o.exp().sum());
    o -= logSum;
  } else {
    const auto [max, sum] = maxAndExpSum(in, n);
    const float logSum = std::log(sum);
    for (int64_t i = 0; i < n; ++i)
      out[i] = static_cast<T>(static_cast<float>(in[i]) - max - logSum);
  }
}

/// Softmax(logits) (`Log` false): softmax along the last axis, numerically
/// stable (the row maximum is subtracted before exponentiating, which does
/// not change the result). LogSoftmax(logits) (`Log` true): log of the
/// softmax along the last axis, computed as (x - max) - log(sum(exp(x -
/// max))). logits must have rank >= 1. The output has logits' shape and
/// forwards its buffer when allowed.
template <typename T, bool Log> class SoftmaxKernel final : public OpKernel {
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
    kernels::parallelFor(
        ctx->eigenDevice(), n / classes,
        elementCost<T>(1, 1, 30) * static_cast<double>(classes),
        [=](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index r = first; r < last; ++r) {
            if constexpr (Log)
              logSoftmaxRow<T>(in + r * classes, po + r * classes, classes);
            else
              softmaxRow<T>(in + r * classes, po + r * classes, classes);
          }
        });
  }
};

template <typename T> using Softmax = SoftmaxKernel<T, false>;
template <typename T> using LogSoftmax = SoftmaxKernel<T, true>;

//===----------------------------------------------------------------------===//
// Prelu
//===----------------------------------------------------------------------===//

/// Prelu(x, alpha) (TF.js): x > 0 ? x : alpha * x, with alpha broadcast to
/// x NumPy-style (alpha's rank <= x's, each of its right-aligned dims 1 or
/// equal to x's). The output has x's shape and forwards x when allowed.
/// The common per-channel alpha (one non-1 dim, the last) and scalar alpha
/// run as vectorized rows.
template <typename T> class PreluKernel final : public OpKernel {
public:
  explicit PreluKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    const Tensor &alpha = ctx->input(1);
    const int rank = x.rank(), offset = x.rank() - alpha.rank();
    bool ok = offset >= 0;
    for (int i = 0; ok && i < alpha.rank(); ++i)
      ok = alpha.dim(i) == 1 || alpha.dim(i) == x.dim(offset + i);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ok,
        errorf("alpha of shape %s does not broadcast to x of shape %s",
               alpha.shape().toString(), x.shape().toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, x.shape(), &out));
    const int64_t n = x.numElements();
    if (n == 0)
      return;
    const T *px = x.data<T>();
    const T *pa = alpha.data<T>();
    T *po = out->data<T>();
    // Row length: the trailing x dims alpha covers with equal sizes.
    const int64_t row = rank ? x.dim(rank - 1) : 1;
    const bool scalar = alpha.numElements() == 1;
    const bool perChannel = alpha.numElements() == row && alpha.rank() >= 1 &&
                            alpha.dim(alpha.rank() - 1) == row;
    if (scalar || perChannel) {
      const int64_t len = scalar ? std::min<int64_t>(n, 4096) : row;
      kernels::parallelFor(ctx->eigenDevice(), (n + len - 1) / len,
                           elementCost<T>(2, 1, 2) * static_cast<double>(len),
                           [=](Eigen::Index first, Eigen::Index last) {
                             for (Eigen::Index r = first; r < last; ++r) {
                               const int64_t m = std::min(len, n - r * len);
                               ConstArrayMap<T> v(px + r * len, m);
                               ArrayMap<T> o(po + r * len, m);
                               if (scalar)
                                 o = (v > T(0)).select(v, v * pa[0]);
                               else
                                 o = (v > T(0)).select(
                                     v, v * ConstArrayMap<T>(pa, m));
                             }
                           });
      return;
    }
    // General broadcast: alpha strides (0 for broadcast dims) per x dim.
    std::vector<int64_t> strides(rank, 0);
    int64_t s = 1;
    for (int i = alpha.rank() - 1; i >= 0; --i) {
      strides[offset + i] = alpha.dim(i) == 1 ? 0 : s;
      s *= alpha.dim(i);
    }
    std::vector<int64_t> index(rank, 0);
    int64_t a = 0;
    for (int64_t i = 0; i < n; ++i) {
      po[i] = px[i] > T(0) ? px[i] : px[i] * pa[a];
      for (int d = rank - 1; d >= 0; --d) {
        a += strides[d];
        if (++index[d] < x.dim(d))
          break;
        a -= strides[d] * index[d];
        index[d] = 0;
      }
    }
  }
};

//===----------------------------------------------------------------------===//
// FusedBatchNorm, FusedBatchNormV2, FusedBatchNormV3
//===----------------------------------------------------------------------===//

/// FusedBatchNorm{,V2,V3}(x, scale, offset, mean, variance): x is 4-D
/// (NHWC or NCHW per data_format), the others 1-D with one value per
/// channel (type U = float for V2/V3, T for V1). Inference
/// (is_training=false): y = (x - mean) * (rsqrt(variance + epsilon) *
/// scale) + offset; batch_mean / batch_variance / reserve_space_1 /
/// reserve_space_2 are mean and variance, reserve_space_3 (V3) is empty.
/// Training (is_training=true, the TF default): mean and the biased
/// variance over N, H, W normalize x; batch_variance is the unbiased
/// variance (n / max(n - 1, 1)) and, with exponential_avg_factor != 1, both
/// batch statistics are (1 - f) * input + f * batch; reserve_space_1/2 are
/// the batch mean and biased variance. epsilon defaults to 0.0001.
template <typename T, typename U>
class FusedBatchNormKernel final : public OpKernel {
public:
  explicit FusedBatchNormKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string format = "NHWC";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "data_format", &format));
    TFRT_FALLBACK_OP_REQUIRES(ctx, format == "NHWC" || format == "NCHW",
                              errorf("Invalid data format '%s'", format));
    nchw_ = format == "NCHW";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "epsilon", &epsilon_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "is_training", &isTraining_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "exponential_avg_factor", &avgFactor_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.rank() == 4,
        errorf("input must be 4-dimensional: %s", x.shape().toString()));
    const int64_t channels = x.dim(nchw_ ? 1 : 3);
    const char *names[] = {"scale", "offset", "mean", "variance"};
    const U *params[4];
    for (int i = 0; i < 4; ++i) {
      const Tensor &t = ctx->input(1 + i);
      const bool needed = i < 2 || !isTraining_;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          t.dtype() == dtypeOf<U>() && t.rank() == 1 &&
              (t.numElements() == channels ||
               (!needed && t.numElements() == 0)),
          errorf("%s must be a 1-D tensor of %d elements, got %s", names[i],
                 channels, t.shape().toString()));
      params[i] = t.numElements() ? t.data<U>() : nullptr;
    }
    Tensor *y = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &y));
    const int64_t n = x.numElements();
    const int64_t inner = nchw_ ? x.dim(2) * x.dim(3) : 1;
    const int64_t outer = channels ? n / (channels * inner) : 0;
    const int64_t count = outer * inner;
    std::vector<U> mean(channels), var(channels), factor(channels);
    if (isTraining_) {
      std::vector<double> sum(channels, 0.0), sq(channels, 0.0);
      forEach(x.data<T>(), outer, channels, inner,
              [&](int64_t c, T v) { sum[c] += static_cast<double>(v); });
      for (int64_t c = 0; c < channels; ++c)
        mean[c] = static_cast<U>(count ? sum[c] / count : 0.0);
      forEach(x.data<T>(), outer, channels, inner, [&](int64_t c, T v) {
        const double d = static_cast<double>(v) - mean[c];
        sq[c] += d * d;
      });
      for (int64_t c = 0; c < channels; ++c)
        var[c] = static_cast<U>(count ? sq[c] / count : 0.0);
    } else {
      mean.assign(params[2], params[2] + channels);
      var.assign(params[3], params[3] + channels);
    }
    for (int64_t c = 0; c < channels; ++c)
      factor[c] =
          U(1) / std::sqrt(var[c] + static_cast<U>(epsilon_)) * params[0][c];
    const T *px = x.data<T>();
    T *py = y->data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), outer * channels,
        elementCost<T>(1, 1, 3) * static_cast<double>(inner),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index r = first; r < last; ++r) {
            const int64_t c = r % channels;
            const U m = mean[c], f = factor[c], o = params[1][c];
            for (int64_t i = r * inner; i < (r + 1) * inner; ++i)
              py[i] = static_cast<T>((static_cast<U>(px[i]) - m) * f + o);
          }
        });
    // Statistics outputs.
    std::vector<U> batchMean = mean, batchVar = var;
    if (isTraining_) {
      const double adjust =
          static_cast<double>(count) / std::max<int64_t>(count - 1, 1);
      for (int64_t c = 0; c < channels; ++c) {
        batchVar[c] = static_cast<U>(var[c] * adjust);
        if (avgFactor_ != 1.0f && params[2] && params[3]) {
          const U f = static_cast<U>(avgFactor_);
          batchMean[c] = (U(1) - f) * params[2][c] + f * batchMean[c];
          batchVar[c] = (U(1) - f) * params[3][c] + f * batchVar[c];
        }
      }
    }
    const std::vector<U> *stats[4] = {&batchMean, &batchVar, &mean, &var};
    for (int i = 0; i < 4 && 1 + i < ctx->numOutputs(); ++i) {
      Tensor *t = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(1 + i, TensorShape{channels}, &t));
      std::copy(stats[i]->begin(), stats[i]->end(), t->data<U>());
    }
    if (ctx->numOutputs() > 5) {
      Tensor *t = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   ctx->allocateOutput(5, TensorShape{0}, &t));
    }
  }

private:
  template <typename F>
  static void forEach(const T *x, int64_t outer, int64_t channels,
                      int64_t inner, F &&f) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t i = 0; i < inner; ++i)
          f(c, x[(o * channels + c) * inner + i]);
  }

  bool nchw_ = false;
  bool isTraining_ = true;
  float epsilon_ = 1e-4f;
  float avgFactor_ = 1.0f;
};

template <typename T> using FusedBatchNormV1 = FusedBatchNormKernel<T, T>;
template <typename T> using FusedBatchNormV2 = FusedBatchNormKernel<T, float>;

//===----------------------------------------------------------------------===//
// BatchNormWithGlobalNormalization, LRN
//===----------------------------------------------------------------------===//

/// BatchNormWithGlobalNormalization(t, m, v, beta, gamma) (deprecated TF op):
/// t is 4-D NHWC, the others 1-D per channel; attributes variance_epsilon
/// (float) and scale_after_normalization (bool). Output = (t - m) *
/// (rsqrt(v + variance_epsilon) * gamma) + beta, without gamma when
/// scale_after_normalization is false (TF's order: the per-channel factor
/// first). TF's checks: "input must be 4-dimensional[2,3]", "mean must be
/// 1-dimensional[2,1]" (likewise var, beta, gamma); a channel count
/// mismatch fails with "mean must have 3 elements, got [2]".
template <typename T>
class BatchNormWithGlobalNormalizationKernel final : public OpKernel {
public:
  explicit BatchNormWithGlobalNormalizationKernel(
      OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("variance_epsilon", &epsilon_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("scale_after_normalization",
                                                   &scaleAfterNormalization_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.rank() == 4,
        errorf("input must be 4-dimensional%s", x.shape().toString()));
    static const char *const kNames[] = {"mean", "var", "beta", "gamma"};
    for (int i = 0; i < 4; ++i)
      TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(1 + i).rank() == 1,
                                errorf("%s must be 1-dimensional%s", kNames[i],
                                       ctx->input(1 + i).shape().toString()));
    const int64_t channels = x.dim(3);
    for (int i = 0; i < 4; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ctx->input(1 + i).numElements() == channels,
          errorf("%s must have %d elements, got %s", kNames[i], channels,
                 ctx->input(1 + i).shape().toString()));
    const T *mean = ctx->input(1).data<T>();
    const T *var = ctx->input(2).data<T>();
    const T *beta = ctx->input(3).data<T>();
    const T *gamma = ctx->input(4).data<T>();
    std::vector<T> factor(channels);
    for (int64_t c = 0; c < channels; ++c) {
      factor[c] = T(1) / Eigen::numext::sqrt(var[c] + static_cast<T>(epsilon_));
      if (scaleAfterNormalization_)
        factor[c] = factor[c] * gamma[c];
    }
    Tensor *y = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, x.shape(), &y));
    if (x.numElements() == 0)
      return;
    const T *px = x.data<T>();
    T *py = y->data<T>();
    kernels::parallelFor(ctx->eigenDevice(), x.numElements() / channels,
                         elementCost<T>(1, 1, 3) *
                             static_cast<double>(channels),
                         [&](Eigen::Index first, Eigen::Index last) {
                           for (Eigen::Index r = first; r < last; ++r)
                             for (int64_t c = 0; c < channels; ++c) {
                               const int64_t i = r * channels + c;
                               py[i] = (px[i] - mean[c]) * factor[c] + beta[c];
                             }
                         });
  }

private:
  float epsilon_ = 0;
  bool scaleAfterNormalization_ = false;
};

/// LRN(input: T[batch, rows, cols, depth]) -> T: local response
/// normalization across the depth: sqr_sum[.., d] = sum of input[.., d']^2
/// for d' in [d - depth_radius, d + depth_radius] (clipped), output =
/// input / (bias + alpha * sqr_sum)^beta, with TF's forms for beta = 1
/// (a reciprocal), 0.5 (rsqrt) and otherwise exp(log(.) * -beta).
/// Attributes depth_radius (default 5), bias (1), alpha (1), beta (0.5).
/// f16 computes in f32. TF's checks: "in must be 4-dimensional",
/// "depth_radius = -1 larger than int max" (also for negative values).
template <typename T> class LRNKernel final : public OpKernel {
public:
  explicit LRNKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "depth_radius", &depthRadius_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "bias", &bias_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "alpha", &alpha_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "beta", &beta_));
    // TF's FastBoundsCheck: negative values fail with the same message.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        depthRadius_ >= 0 && depthRadius_ < std::numeric_limits<int>::max(),
        errorf("depth_radius = %d larger than int max", depthRadius_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, in.rank() == 4,
                              errorf("in must be 4-dimensional"));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    const int64_t depth = in.dim(3);
    if (in.numElements() == 0)
      return;
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    const int64_t radius = depthRadius_;
    const float bias = bias_, alpha = alpha_, beta = beta_;
    kernels::parallelFor(
        ctx->eigenDevice(), in.numElements() / depth,
        elementCost<T>(1, 1, 2 * radius + 10) * static_cast<double>(depth),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index r = first; r < last; ++r) {
            const T *s = src + r * depth;
            T *d = dst + r * depth;
            for (int64_t c = 0; c < depth; ++c) {
              float sum = 0;
              const int64_t lo = std::max<int64_t>(0, c - radius);
              const int64_t hi = std::min<int64_t>(depth - 1, c + radius);
              for (int64_t k = lo; k <= hi; ++k) {
                const float v = static_cast<float>(s[k]);
                sum += v * v;
              }
              const float tmp = sum * alpha + bias;
              const float x = static_cast<float>(s[c]);
              float y;
              if (beta == 1.0f)
                y = x * (1.0f / tmp);
              else if (beta == 0.5f)
                y = x * (1.0f / std::sqrt(tmp));
              else
                y = x * std::exp(std::log(tmp) * -beta);
              d[c] = static_cast<T>(y);
            }
          }
        });
  }

private:
  int64_t depthRadius_ = 5;
  float bias_ = 1, alpha_ = 1, beta_ = 0.5f;
};

} // namespace

void registerNNKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  registerKernel<OpId::kRelu, UnaryFamily<ReluFunctor>::Kernel, float, double,
                 half, bf16, int32_t, int64_t, int8_t>(registry);
  registerKernel<OpId::kRelu6, UnaryFamily<Relu6Functor>::Kernel>(registry,
                                                                  FloatTypes{});
  registerKernel<OpId::kSigmoid, UnaryFamily<SigmoidFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kTanh, UnaryFamily<TanhFunctor>::Kernel>(registry,
                                                                FloatTypes{});
  registerKernel<OpId::kBiasAdd, BiasAddKernel, float, double, half, bf16,
                 int32_t>(registry);
  // BiasAddV1: BiasAdd without data_format (always NHWC).
  registerKernel<OpId::kBiasAddV1, BiasAddKernel, float, double, half, bf16,
                 int32_t>(registry);
  registerKernel<OpId::kSoftmax, Softmax>(registry, FloatTypes{});
  registerKernel<OpId::kLogSoftmax, LogSoftmax>(registry, FloatTypes{});
  registerKernel<OpId::kPrelu, PreluKernel, float, double>(registry);
  registerKernel<OpId::kFusedBatchNorm, FusedBatchNormV1, float, double>(
      registry);
  registerKernel<OpId::kFusedBatchNormV2, FusedBatchNormV2, float, half, bf16>(
      registry);
  registerKernel<OpId::kFusedBatchNormV3, FusedBatchNormV2, float, half, bf16>(
      registry);
  registerKernel<OpId::kBatchNormWithGlobalNormalization,
                 BatchNormWithGlobalNormalizationKernel, float, double, half>(
      registry);
  registerKernel<OpId::kSoftsign, UnaryFamily<SoftsignFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kLRN, LRNKernel, float, half>(registry);
}

} // namespace tfrt_fallback::rt

//===- XentKernels.cpp - Softmax cross-entropy losses -----------*- C++ -*-===//
//
// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits
// (tensorflow/core/kernels/xent_op.cc, sparse_xent_op.cc): per batch row,
// the loss -sum(labels * log_softmax(logits)) and its gradient
// softmax(logits) - labels, computed as TF does from the max-shifted
// logits. f16/bf16 compute in f32.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/Registration.h"
#include "math/BinaryOpKernel.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

template <typename T>
using AccOf = std::conditional_t<std::is_same_v<T, double>, double, float>;

/// One row: shifted = logits - max, sum = sum(exp(shifted)); calls
/// emit(c, shifted[c], exp(shifted[c]) / sum, log(sum)).
template <typename T, typename Emit>
void softmaxRow(const T *logits, int64_t stride, int64_t classes,
                std::vector<AccOf<T>> *shifted, Emit emit) {
  using A = AccOf<T>;
  A mx = static_cast<A>(logits[0]);
  for (int64_t c = 1; c < classes; ++c)
    mx = std::max(mx, static_cast<A>(logits[c * stride]));
  A sum = 0;
  for (int64_t c = 0; c < classes; ++c) {
    (*shifted)[c] = static_cast<A>(logits[c * stride]) - mx;
    sum += std::exp((*shifted)[c]);
  }
  const A logSum = std::log(sum);
  for (int64_t c = 0; c < classes; ++c)
    emit(c, (*shifted)[c], std::exp((*shifted)[c]) / sum, logSum);
}

/// SoftmaxCrossEntropyWithLogits(features, labels) -> (loss [batch],
/// backprop [batch, classes]): features and labels have the same shape or
/// broadcast (TF's BCast) to a matrix. loss[b] = sum_c labels[b, c] *
/// (log(sum_c exp(shifted)) - shifted[b, c]); backprop = softmax -
/// labels. TF's errors: "logits and labels must be broadcastable:
/// logits_size=[2,3] labels_size=[4,3]", "logits and labels must be either
/// 2-dimensional, or broadcasted to be 2-dimensional".
template <typename T> class SoftmaxXentKernel final : public OpKernel {
public:
  explicit SoftmaxXentKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &logits = ctx->input(0);
    const Tensor &labels = ctx->input(1);
    TensorShape::Dims dims;
    if (logits.shape() == labels.shape()) {
      dims.assign(logits.shape().dims().begin(), logits.shape().dims().end());
    } else {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, broadcastShapes(logits.shape(), labels.shape(), &dims),
          errorf("logits and labels must be broadcastable: logits_size=%s "
                 "labels_size=%s",
                 logits.shape().toString(), labels.shape().toString()));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dims.size() == 2,
        errorf("logits and labels must be either 2-dimensional, or "
               "broadcasted to be 2-dimensional"));
    const int64_t batch = dims[0], classes = dims[1];
    Tensor *loss = nullptr, *backprop = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{batch}, &loss));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape(dims), &backprop));
    if (batch == 0)
      return;
    // Element strides of the (right-aligned, rank <= 2) operands.
    auto strides = [&](const Tensor &t, int64_t *rowStride,
                       int64_t *colStride) {
      const int64_t r = t.rank() == 2 ? t.dim(0) : 1;
      const int64_t c = t.rank() >= 1 ? t.dim(t.rank() - 1) : 1;
      *colStride = c == 1 ? 0 : 1;
      *rowStride = r == 1 ? 0 : c;
    };
    int64_t lr, lc, br, bc;
    strides(logits, &lr, &lc);
    strides(labels, &br, &bc);
    const T *pl = logits.data<T>();
    const T *py = labels.data<T>();
    T *pLoss = loss->data<T>();
    T *pBack = backprop->data<T>();
    std::vector<AccOf<T>> shifted(classes);
    std::vector<T> row(classes);
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t c = 0; c < classes; ++c)
        row[c] = pl[b * lr + c * lc];
      AccOf<T> total = 0;
      softmaxRow(row.data(), 1, classes, &shifted,
                 [&](int64_t c, AccOf<T> s, AccOf<T> p, AccOf<T> logSum) {
                   const AccOf<T> y =
                       static_cast<AccOf<T>>(py[b * br + c * bc]);
                   total += y * (logSum - s);
                   pBack[b * classes + c] = static_cast<T>(p - y);
                 });
      pLoss[b] = static_cast<T>(total);
    }
  }
};

/// SparseSoftmaxCrossEntropyWithLogits(features [batch, classes], labels
/// [batch] int32/int64): loss[b] = log(sum exp(shifted)) -
/// shifted[b, labels[b]], backprop = softmax - one_hot(labels). TF's
/// errors: "logits must be 2-D, but got shape [3]", "labels must be 1-D,
/// but got shape [..]", "logits and labels must have the same first
/// dimension, got logits shape [2,3] and labels shape [3]", "Must have at
/// least one class, but got logits shape [2,0]", "Received a label value of
/// 5 which is outside the valid range of [0, 3).  Label values: 0 5".
template <typename T> class SparseSoftmaxXentKernel final : public OpKernel {
public:
  explicit SparseSoftmaxXentKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &logits = ctx->input(0);
    const Tensor &labels = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, logits.rank() == 2,
                              errorf("logits must be 2-D, but got shape %s",
                                     logits.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, labels.rank() == 1 && isIndexTensor(labels),
                              errorf("labels must be 1-D, but got shape %s",
                                     labels.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, logits.dim(0) == labels.dim(0),
        errorf("logits and labels must have the same first dimension, got "
               "logits shape %s and labels shape %s",
               logits.shape().toString(), labels.shape().toString()));
    const int64_t batch = logits.dim(0), classes = logits.dim(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, classes > 0,
        errorf("Must have at least one class, but got logits shape %s",
               logits.shape().toString()));
    int64_t lo = 0, hi = 0;
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t y = indexAt(labels, b);
      lo = b == 0 ? y : std::min(lo, y);
      hi = b == 0 ? y : std::max(hi, y);
    }
    if (batch > 0 && (lo < 0 || hi >= classes)) {
      std::vector<int64_t> values(batch);
      for (int64_t b = 0; b < batch; ++b)
        values[b] = indexAt(labels, b);
      ctx->ctxFailure(errorf("Received a label value of %d which is outside "
                             "the valid range of [0, %d).  Label values: %s",
                             lo < 0 ? lo : hi, classes, strJoin(values, " ")));
      return;
    }
    Tensor *loss = nullptr, *backprop = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{batch}, &loss));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, logits.shape(), &backprop));
    const T *pl = logits.data<T>();
    T *pLoss = loss->data<T>();
    T *pBack = backprop->data<T>();
    std::vector<AccOf<T>> shifted(classes);
    for (int64_t b = 0; b < batch; ++b) {
      const int64_t y = indexAt(labels, b);
      softmaxRow(pl + b * classes, 1, classes, &shifted,
                 [&](int64_t c, AccOf<T> s, AccOf<T> p, AccOf<T> logSum) {
                   if (c == y)
                     pLoss[b] = static_cast<T>(logSum - s);
                   pBack[b * classes + c] =
                       static_cast<T>(p - (c == y ? 1 : 0));
                 });
    }
  }
};

} // namespace

void registerXentKernels(KernelRegistry &registry) {
  registerKernel<OpId::kSoftmaxCrossEntropyWithLogits, SoftmaxXentKernel>(
      registry, FloatTypes{});
  // Tlabels is read from the operand.
  registerKernel<OpId::kSparseSoftmaxCrossEntropyWithLogits,
                 SparseSoftmaxXentKernel>(registry, FloatTypes{});
}

} // namespace tfrt_fallback::rt

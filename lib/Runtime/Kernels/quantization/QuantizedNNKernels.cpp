//===- QuantizedNNKernels.cpp - QuantizedConv2D, QuantizedMatMul, ... ----===//
//
// TensorFlow's quantized neural-network ops with TF's reference semantics
// and messages: QuantizedConv2D (quantized_conv_ops.cc), QuantizedMatMul
// (quantized_matmul_op.cc), QuantizedBiasAdd (quantized_bias_add_op.cc),
// QuantizedRelu / QuantizedRelu6 (quantized_activation_ops.cc),
// QuantizedMaxPool / QuantizedAvgPool (quantized_pooling_ops.cc),
// QuantizedBatchNormWithGlobalNormalization (quantized_batch_norm_op.cc),
// QuantizedInstanceNorm (quantized_instance_norm.cc) and
// QuantizedResizeBilinear (quantized_resize_bilinear_op.cc), for the dtype
// combinations TF registers on CPU. The products (Conv2D, MatMul) are
// (a - zero_a) * (b - zero_b) summed in int32, zero_* the code of 0.0 in
// each operand's range, as TF's reference loops: plain int32 loops here,
// no gemmlowp. The arithmetic shared with QuantizationKernels.cpp is in
// QuantizationUtils.h.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/ParallelFor.h"
#include "common/Window.h"
#include "quantization/QuantizationUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;
using namespace kernels::quant;

/// Output tensors 1 and 2: scalar floats `min` and `max`.
void setRangeOutputs(OpKernelContextInterface *ctx, float min, float max,
                     int first = 1) {
  Tensor *minT = nullptr, *maxT = nullptr;
  TFRT_FALLBACK_OP_REQUIRES_OK(
      ctx, ctx->allocateOutput(first, TensorShape{}, &minT));
  TFRT_FALLBACK_OP_REQUIRES_OK(
      ctx, ctx->allocateOutput(first + 1, TensorShape{}, &maxT));
  *minT->data<float>() = min;
  *maxT->data<float>() = max;
}

/// Fails with "`<name>` must be rank 0 but is rank N" (TF's form) unless
/// `t` is a scalar.
Status requireScalar(const OpKernel &op, const Tensor &t, std::string_view name,
                     bool backticks = true) {
  if (t.rank() != 0)
    return backticks
               ? op.errorf("`%s` must be rank 0 but is rank %d", name, t.rank())
               : op.errorf("%s must be rank 0 but is rank %d", name, t.rank());
  return OkStatus();
}

/// int32 a * b + acc wrapping (TF's int32 accumulation, defined here).
inline uint32_t mulAdd(uint32_t acc, int32_t a, int32_t b) {
  return acc + static_cast<uint32_t>(a) * static_cast<uint32_t>(b);
}

/// (v - offset) as TF's int32 arithmetic, wrapping.
inline int32_t minusOffset(int64_t v, int64_t offset) {
  return static_cast<int32_t>(static_cast<uint32_t>(
      static_cast<uint64_t>(v) - static_cast<uint64_t>(offset)));
}

//===----------------------------------------------------------------------===//
// QuantizedConv2D
//===----------------------------------------------------------------------===//

/// QuantizedConv2D(input: quint8 [batch, rows, cols, depth], filter:
/// quint8 [rows, cols, depth, out_depth], min_input, max_input,
/// min_filter, max_filter; strides, padding, dilations) -> (output: qint32,
/// min_output, max_output): TF's ReferenceConvFunctor. Strides must be
/// [1, s, s, 1], dilations all 1. The filter's origin for output (y, x) is
/// (y * s - top, x * s - left) with TF's offsets ((out - 1) * s + k - in
/// (+ 1 for VALID)) / 2 (truncated), positions outside the input count as
/// 0.0. The output range is the product of the ranges.
class QuantizedConv2DKernel final : public OpKernel {
public:
  explicit QuantizedConv2DKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::vector<int64_t> strides;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("strides", &strides));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, strides.size() == 4,
        errorf("Sliding window strides field must specify 4 dimensions"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, strides[1] == strides[2],
        errorf("Current implementation only supports equal length strides in "
               "the row and column dimensions."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, strides[0] == 1 && strides[3] == 1,
        errorf("Current implementation does not yet support strides in the "
               "batch and depth dimensions."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, strides[1] > 0,
        errorf("Sliding window strides must be positive, got %d", strides[1]));
    stride_ = strides[1];
    std::vector<int64_t> dilations = {1, 1, 1, 1};
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "dilations", &dilations));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dilations.size() == 4,
        errorf("Dilations field must specify 4 dimensions"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dilations[1] == 1 && dilations[2] == 1,
        errorf("Current implementation only supports dilated rate as 1 in the "
               "row and column dimensions."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dilations[0] == 1 && dilations[3] == 1,
        errorf("Current implementation does not yet support dilations in the "
               "batch and depth dimensions."));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPadding(*this, ctx, /*allowExplicit=*/false, &padding_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 2, 5));
    const Tensor &input = ctx->input(0);
    const Tensor &filter = ctx->input(1);
    for (int64_t d : input.shape().dims())
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, d != 0, errorf("Invalid input: Shapes dimension cannot be 0."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() == 4,
        errorf("input must be rank 4 but is rank %d", input.rank()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filter.rank() == 4,
        errorf("filter must be rank 4 but is rank %d", filter.rank()));
    static constexpr const char *kNames[] = {
        "", "", "min_input", "max_input", "min_filter", "max_filter"};
    for (int i = 2; i < 6; ++i)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, requireScalar(*this, ctx->input(i), kNames[i], false));
    const float minIn = scalarOf(ctx->input(2)),
                maxIn = scalarOf(ctx->input(3));
    const float minF = scalarOf(ctx->input(4)), maxF = scalarOf(ctx->input(5));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", minIn, maxIn));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "filter", minF, maxF));
    const int64_t offsetIn =
        floatToQuantizedUnclamped<quint8>(0.0f, minIn, maxIn);
    const int64_t offsetF = floatToQuantizedUnclamped<quint8>(0.0f, minF, maxF);
    const int64_t depth = input.dim(3);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, depth == filter.dim(2),
        errorf("input and filter must have the same depth: %d vs %d", depth,
               filter.dim(2)));
    const int64_t outDepth = filter.dim(3);
    const int64_t inRows = input.dim(1), inCols = input.dim(2);
    const int64_t fRows = filter.dim(0), fCols = filter.dim(1);
    const int64_t batch = input.dim(0);
    WindowDim rows, cols;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        computeWindow(*this, inRows, fRows, 1, stride_, padding_, 0, 0, &rows));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        computeWindow(*this, inCols, fCols, 1, stride_, padding_, 0, 0, &cols));
    // TF CHECK-fails on these.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rows.out > 0 && cols.out > 0 && outDepth > 0,
        errorf("output shape [%d,%d,%d,%d] must have positive dims", batch,
               rows.out, cols.out, outDepth));
    const int64_t outDims[] = {batch, rows.out, cols.out, outDepth};
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outDims, &output));

    const int64_t extra = padding_ == WindowPadding::Valid ? 1 : 0;
    const int64_t top = ((rows.out - 1) * stride_ + fRows - inRows + extra) / 2;
    const int64_t left =
        ((cols.out - 1) * stride_ + fCols - inCols + extra) / 2;
    // The filter minus its zero, [fRows, fCols, depth, outDepth].
    std::vector<int32_t> f(filter.numElements());
    const quint8 *fd = filter.data<quint8>();
    for (size_t i = 0; i < f.size(); ++i)
      f[i] = minusOffset(fd[i].value, offsetF);
    const quint8 *in = input.data<quint8>();
    int32_t *out = &output->data<qint32>()->value;
    const int64_t stride = stride_;
    const int64_t outRows = rows.out, outCols = cols.out;
    parallelFor(
        ctx->eigenDevice(), batch * outRows,
        Eigen::TensorOpCost(
            0, 0,
            static_cast<double>(outCols * fRows * fCols * depth * outDepth)),
        [&](Eigen::Index first, Eigen::Index last) {
          std::vector<uint32_t> acc(outDepth);
          for (Eigen::Index row = first; row < last; ++row) {
            const int64_t b = row / outRows, oy = row % outRows;
            for (int64_t ox = 0; ox < outCols; ++ox) {
              std::fill(acc.begin(), acc.end(), 0u);
              const int64_t y0 = oy * stride - top, x0 = ox * stride - left;
              for (int64_t fy = 0; fy < fRows; ++fy) {
                const int64_t y = y0 + fy;
                if (y < 0 || y >= inRows)
                  continue;
                for (int64_t fx = 0; fx < fCols; ++fx) {
                  const int64_t x = x0 + fx;
                  if (x < 0 || x >= inCols)
                    continue;
                  const quint8 *pixel =
                      in + ((b * inRows + y) * inCols + x) * depth;
                  const int32_t *taps =
                      f.data() + (fy * fCols + fx) * depth * outDepth;
                  for (int64_t ic = 0; ic < depth; ++ic) {
                    const int32_t v = minusOffset(pixel[ic].value, offsetIn);
                    const int32_t *t = taps + ic * outDepth;
                    for (int64_t oc = 0; oc < outDepth; ++oc)
                      acc[oc] = mulAdd(acc[oc], v, t[oc]);
                  }
                }
              }
              int32_t *o = out + (row * outCols + ox) * outDepth;
              for (int64_t oc = 0; oc < outDepth; ++oc)
                o[oc] = static_cast<int32_t>(acc[oc]);
            }
          }
        });
    float minOut, maxOut;
    quantizationRangeForMultiplication<quint8, quint8, qint32>(
        minIn, maxIn, minF, maxF, &minOut, &maxOut);
    setRangeOutputs(ctx, minOut, maxOut);
  }

private:
  int64_t stride_ = 1;
  WindowPadding padding_ = WindowPadding::Same;
};

//===----------------------------------------------------------------------===//
// QuantizedMatMul
//===----------------------------------------------------------------------===//

/// QuantizedMatMul(a: quint8, b: quint8, min_a, max_a, min_b, max_b;
/// transpose_a, transpose_b, Toutput = qint32, Tactivation) -> (out,
/// min_out, max_out): sum_k (a - zero_a) * (b - zero_b) in int32, in the
/// product of the ranges.
class QuantizedMatMulKernel final : public OpKernel {
public:
  explicit QuantizedMatMulKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "transpose_a", &transposeA_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "transpose_b", &transposeB_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 2, 5));
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(2).rank() == 0,
                              errorf("min_a must be a scalar, but got shape%s",
                                     ctx->input(2).shape().toString()));
    static constexpr const char *kNames[] = {"",      "",      "",
                                             "max_a", "min_b", "max_b"};
    for (int i = 3; i < 6; ++i)
      TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(i).numElements() == 1,
                                errorf("%s must be a scalar, but got shape%s",
                                       kNames[i],
                                       ctx->input(i).shape().toString()));
    const float minA = scalarOf(ctx->input(2)), maxA = scalarOf(ctx->input(3));
    const float minB = scalarOf(ctx->input(4)), maxB = scalarOf(ctx->input(5));
    TFRT_FALLBACK_OP_REQUIRES(ctx, maxA > minA,
                              errorf("max_a must be larger than min_a."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, maxB > minB,
                              errorf("max_b must be larger than min_b."));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "a", minA, maxA));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "b", minB, maxB));
    const int64_t offsetA = floatToQuantizedUnclamped<quint8>(0.0f, minA, maxA);
    const int64_t offsetB = floatToQuantizedUnclamped<quint8>(0.0f, minB, maxB);
    TFRT_FALLBACK_OP_REQUIRES(ctx, a.rank() == 2,
                              errorf("In[0] is not a matrix"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, b.rank() == 2,
                              errorf("In[1] is not a matrix"));
    const int64_t k = a.dim(transposeA_ ? 0 : 1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, k == b.dim(transposeB_ ? 1 : 0),
        errorf("Matrix size-incompatible: In[0]: %s, In[1]: %s",
               a.shape().toString(), b.shape().toString()));
    const int64_t m = a.dim(transposeA_ ? 1 : 0);
    const int64_t n = b.dim(transposeB_ ? 0 : 1);
    const int64_t outDims[] = {m, n};
    Tensor *c = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outDims, &c));
    // B minus its zero as [k, n] rows.
    std::vector<int32_t> bk(k * n);
    const quint8 *bd = b.data<quint8>();
    for (int64_t kk = 0; kk < k; ++kk)
      for (int64_t j = 0; j < n; ++j)
        bk[kk * n + j] = minusOffset(
            bd[transposeB_ ? j * k + kk : kk * n + j].value, offsetB);
    const quint8 *ad = a.data<quint8>();
    int32_t *cd = &c->data<qint32>()->value;
    parallelFor(ctx->eigenDevice(), m,
                Eigen::TensorOpCost(0, 0, static_cast<double>(k * n)),
                [&](Eigen::Index first, Eigen::Index last) {
                  std::vector<uint32_t> acc(n);
                  for (Eigen::Index i = first; i < last; ++i) {
                    std::fill(acc.begin(), acc.end(), 0u);
                    for (int64_t kk = 0; kk < k; ++kk) {
                      const int32_t av = minusOffset(
                          ad[transposeA_ ? kk * m + i : i * k + kk].value,
                          offsetA);
                      const int32_t *row = bk.data() + kk * n;
                      for (int64_t j = 0; j < n; ++j)
                        acc[j] = mulAdd(acc[j], av, row[j]);
                    }
                    for (int64_t j = 0; j < n; ++j)
                      cd[i * n + j] = static_cast<int32_t>(acc[j]);
                  }
                });
    float minC, maxC;
    quantizationRangeForMultiplication<quint8, quint8, qint32>(
        minA, maxA, minB, maxB, &minC, &maxC);
    setRangeOutputs(ctx, minC, maxC);
  }

private:
  bool transposeA_ = false, transposeB_ = false;
};

//===----------------------------------------------------------------------===//
// QuantizedBiasAdd
//===----------------------------------------------------------------------===//

/// QuantizedBiasAdd(input: T, bias: T, min_input, max_input, min_bias,
/// max_bias; out_type = qint32) -> (output, min_out, max_out), T quint8 or
/// qint8: TF's QuantizedAddUsingEigen: both operands dequantized and
/// requantized into the symmetric range +-(the largest |min| or |max|) *
/// 2^17 (float arithmetic), added, plus the code of 0.0 in that range.
template <typename T> class QuantizedBiasAddKernel final : public OpKernel {
public:
  explicit QuantizedBiasAddKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 2, 5));
    const Tensor &input = ctx->input(0);
    const Tensor &bias = ctx->input(1);
    static constexpr const char *kNames[] = {
        "", "", "min_input", "max_input", "min_bias", "max_bias"};
    for (int i = 2; i < 6; ++i)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, requireScalar(*this, ctx->input(i), kNames[i]));
    const float inMin = scalarOf(ctx->input(2)),
                inMax = scalarOf(ctx->input(3));
    const float bMin = scalarOf(ctx->input(4)), bMax = scalarOf(ctx->input(5));
    TFRT_FALLBACK_OP_REQUIRES(ctx, input.rank() >= 2,
                              errorf("Input tensor must be at least 2D: %s",
                                     input.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, bias.rank() == 1,
        errorf("Biases must be 1D: %s", bias.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, bias.dim(0) == input.dim(input.rank() - 1),
        errorf("Must provide as many biases as the last dimension of the "
               "input tensor: %s vs. %s",
               bias.shape().toString(), input.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, bias.numElements() > 0,
                              errorf("Must provide at least 1 bias"));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", inMin, inMax));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "bias", bMin, bMax));
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, input.shape(), &output));
    float outMin, outMax;
    outputRangeForQuantizedAdd(inMin, inMax, bMin, bMax, &outMin, &outMax);
    const int32_t zero = floatToQuantized<qint32>(0.0f, outMin, outMax).value;
    const Dequantizer<T> inQ2f(inMin, inMax), biasQ2f(bMin, bMax);
    const Quantizer<qint32> f2q(outMin, outMax);
    const int64_t channels = bias.numElements();
    std::vector<uint32_t> biasTotal(channels);
    const T *bd = bias.data<T>();
    for (int64_t c = 0; c < channels; ++c)
      biasTotal[c] = static_cast<uint32_t>(f2q(biasQ2f(bd[c].value)).value) +
                     static_cast<uint32_t>(zero);
    const T *in = input.data<T>();
    int32_t *out = &output->data<qint32>()->value;
    for (int64_t i = 0, n = input.numElements(); i < n; ++i)
      out[i] = static_cast<int32_t>(
          static_cast<uint32_t>(f2q(inQ2f(in[i].value)).value) +
          biasTotal[i % channels]);
    setRangeOutputs(ctx, outMin, outMax);
  }
};

//===----------------------------------------------------------------------===//
// QuantizedRelu, QuantizedRelu6
//===----------------------------------------------------------------------===//

/// QuantizedRelu / QuantizedRelu6(features: T, min_features, max_features;
/// out_type = T) -> (activations, min, max), T quint8 or qint32: clamps
/// below at the code of 0.0 (and above at the code of 6.0), range passed
/// through.
template <typename T, bool Six>
class QuantizedReluKernel final : public OpKernel {
public:
  explicit QuantizedReluKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 1, 2));
    const Tensor &input = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, requireScalar(*this, ctx->input(1), "min_input"));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, requireScalar(*this, ctx->input(2), "max_input"));
    const float minIn = scalarOf(ctx->input(1)),
                maxIn = scalarOf(ctx->input(2));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", minIn, maxIn));
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, input.shape(), &output));
    using S = typename StorageOf<T>::type;
    const S lo = floatToQuantized<T>(0.0f, minIn, maxIn).value;
    const S hi = Six ? floatToQuantized<T>(6.0f, minIn, maxIn).value
                     : std::numeric_limits<S>::max();
    const S *in = &input.data<T>()->value;
    S *out = &output->data<T>()->value;
    for (int64_t i = 0, n = input.numElements(); i < n; ++i)
      out[i] = std::min(std::max(in[i], lo), hi);
    setRangeOutputs(ctx, minIn, maxIn);
  }
};

//===----------------------------------------------------------------------===//
// QuantizedMaxPool, QuantizedAvgPool
//===----------------------------------------------------------------------===//

/// QuantizedMaxPool / QuantizedAvgPool(input: quint8 NHWC, min_input,
/// max_input; ksize, strides, padding) -> (output, min_output,
/// max_output): MaxPool / AvgPool on the codes (the average of the valid
/// window elements, an integer division truncating as TF's int32
/// SpatialAvgPool), range passed through.
template <bool Max> class QuantizedPoolKernel final : public OpKernel {
public:
  explicit QuantizedPoolKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("ksize", &ksize_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ksize_.size() == 4,
        errorf("Sliding window ksize field must specify 4 dimensions"));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("strides", &strides_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, strides_.size() == 4,
        errorf(Max ? "Sliding window stride field must specify 4 dimensions"
                   : "Sliding window strides field must specify 4 "
                     "dimensions"));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPadding(*this, ctx, /*allowExplicit=*/false, &padding_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ksize_[0] == 1 && strides_[0] == 1,
        unimplemented(*this,
                      "Pooling is not yet supported on the batch dimension."));
    for (int i = 0; i < 4; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ksize_[i] > 0 && strides_[i] > 0,
          errorf("Sliding window ksize and strides must be positive"));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 1, 2));
    const Tensor &input = ctx->input(0);
    for (int i = 1; i < 3; ++i) {
      const Tensor &t = ctx->input(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, t.rank() == 0,
          errorf("%s shape must be rank 0 but is rank %d, received shape: %s",
                 i == 1 ? "min_input" : "max_input", t.rank(),
                 t.shape().toString()));
    }
    const float minIn = scalarOf(ctx->input(1)),
                maxIn = scalarOf(ctx->input(2));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", minIn, maxIn));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ksize_[3] == 1 && strides_[3] == 1,
        unimplemented(*this, "Non-spatial pooling is not yet supported. "
                             "Volunteers? :)"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, input.rank() == 4,
                              errorf("tensor_in must be 4-dimensional"));
    const int64_t n = input.dim(0), inH = input.dim(1), inW = input.dim(2),
                  c = input.dim(3);
    WindowDim rows, cols;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, computeWindow(*this, inH, ksize_[1], 1,
                                                    strides_[1], padding_, 0, 0,
                                                    &rows));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, computeWindow(*this, inW, ksize_[2], 1,
                                                    strides_[2], padding_, 0, 0,
                                                    &cols));
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(0, TensorShape{n, rows.out, cols.out, c}, &output));
    const uint8_t *in = &input.data<quint8>()->value;
    uint8_t *out = &output->data<quint8>()->value;
    const int64_t kH = ksize_[1], kW = ksize_[2];
    const int64_t sH = strides_[1], sW = strides_[2];
    std::vector<int32_t> acc(c);
    for (int64_t b = 0; b < n; ++b)
      for (int64_t oy = 0; oy < rows.out; ++oy) {
        const int64_t y0 = oy * sH - rows.padBefore;
        const int64_t ys = std::max<int64_t>(y0, 0);
        const int64_t ye = std::min(y0 + kH, inH);
        for (int64_t ox = 0; ox < cols.out; ++ox) {
          const int64_t x0 = ox * sW - cols.padBefore;
          const int64_t xs = std::max<int64_t>(x0, 0);
          const int64_t xe = std::min(x0 + kW, inW);
          std::fill(acc.begin(), acc.end(), 0);
          for (int64_t y = ys; y < ye; ++y)
            for (int64_t x = xs; x < xe; ++x) {
              const uint8_t *p = in + ((b * inH + y) * inW + x) * c;
              for (int64_t ch = 0; ch < c; ++ch)
                acc[ch] =
                    Max ? std::max<int32_t>(acc[ch], p[ch]) : acc[ch] + p[ch];
            }
          const int64_t count =
              std::max<int64_t>(0, ye - ys) * std::max<int64_t>(0, xe - xs);
          uint8_t *o = out + ((b * rows.out + oy) * cols.out + ox) * c;
          for (int64_t ch = 0; ch < c; ++ch)
            o[ch] = static_cast<uint8_t>(
                Max ? acc[ch] : (count > 0 ? acc[ch] / count : 0));
        }
      }
    setRangeOutputs(ctx, minIn, maxIn);
  }

private:
  std::vector<int64_t> ksize_, strides_;
  WindowPadding padding_ = WindowPadding::Valid;
};

//===----------------------------------------------------------------------===//
// QuantizedBatchNormWithGlobalNormalization
//===----------------------------------------------------------------------===//

/// QuantizedBatchNormWithGlobalNormalization(t, t_min, t_max, m, m_min,
/// m_max, v, v_min, v_max, beta, beta_min, beta_max, gamma, gamma_min,
/// gamma_max: quint8 tensors and their ranges; out_type = qint32,
/// variance_epsilon, scale_after_normalization) -> (result, result_min,
/// result_max): TF's FixedPointBatchNorm in the range [-2^20, 2^20]: per
/// channel scale = 1 / sqrt(v + epsilon) (* gamma) and offset = -m * scale +
/// beta quantized, then x * scale / one + offset in qint32.
class QuantizedBatchNormKernel final : public OpKernel {
public:
  explicit QuantizedBatchNormKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("variance_epsilon", &epsilon_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("scale_after_normalization", &scaleAfter_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    for (int i = 0; i < 5; ++i)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, requireFloatInputs(*this, ctx, 3 * i + 1, 3 * i + 2));
    static constexpr const char *kNames[] = {"input", "mean", "var", "beta",
                                             "gamma"};
    float mins[5], maxs[5];
    for (int i = 0; i < 5; ++i) {
      for (int j = 1; j <= 2; ++j)
        TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(3 * i + j).numElements() == 1,
                                  errorf("%s_%s must have 1 element", kNames[i],
                                         j == 1 ? "min" : "max"));
      mins[i] = scalarOf(ctx->input(3 * i + 1));
      maxs[i] = scalarOf(ctx->input(3 * i + 2));
    }
    const Tensor &input = ctx->input(0);
    const Tensor *params[4] = {&ctx->input(3), &ctx->input(6), &ctx->input(9),
                               &ctx->input(12)};
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() == 4,
        errorf("input must be 4-dimensional%s", input.shape().toString()));
    for (int i = 0; i < 4; ++i)
      TFRT_FALLBACK_OP_REQUIRES(ctx, params[i]->rank() == 1,
                                errorf("%s must be 1-dimensional%s",
                                       kNames[i + 1],
                                       params[i]->shape().toString()));
    const Tensor &mean = *params[0];
    // TF's check (it rejects a single channel too).
    TFRT_FALLBACK_OP_REQUIRES(ctx, mean.numElements() > 1,
                              errorf("Must have at least a mean value%s",
                                     params[3]->shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, mean.dim(0) == input.dim(3),
        errorf("Must provide as many means as the last dimension of the input "
               "tensor: %s vs. %s",
               mean.shape().toString(), input.shape().toString()));
    static constexpr const char *kOther[] = {"", "variance", "beta", "gamma"};
    for (int i = 1; i < 4; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, mean.dim(0) == params[i]->dim(0),
          errorf("Mean and %s tensors must have the same shape: %s vs. %s",
                 kOther[i], mean.shape().toString(),
                 params[i]->shape().toString()));
    for (int i = 0; i < 5; ++i)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkRange(*this, kNames[i], mins[i], maxs[i]));
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, input.shape(), &output));
    const float outMin = -(1 << 20), outMax = (1 << 20);
    const int64_t depth = mean.dim(0);
    std::vector<int32_t> scale(depth), offset(depth);
    for (int64_t ch = 0; ch < depth; ++ch) {
      float v[4];
      for (int i = 0; i < 4; ++i)
        v[i] = quantizedToFloat<quint8>(params[i]->data<quint8>()[ch].value,
                                        mins[i + 1], maxs[i + 1]);
      const float root = std::sqrt(v[1] + epsilon_);
      float s = 1.0f / root;
      if (scaleAfter_)
        s = s * v[3];
      const float negMeanScale = -v[0] * s;
      const float o = negMeanScale + v[2];
      scale[ch] = floatToQuantized<qint32>(s, outMin, outMax).value;
      offset[ch] = floatToQuantized<qint32>(o, outMin, outMax).value;
    }
    const int64_t one = floatToQuantized<qint32>(1.0f, outMin, outMax).value;
    const quint8 *in = input.data<quint8>();
    int32_t *out = &output->data<qint32>()->value;
    for (int64_t i = 0, n = input.numElements(); i < n; ++i) {
      const int64_t ch = i % depth;
      const int64_t x = requantizeInNewRange<quint8, qint32>(
                            in[i].value, mins[0], maxs[0], outMin, outMax)
                            .value;
      // In int64 (TF's int32 product overflows for |x * scale| > 512).
      int64_t q = one == 0 ? 0 : (x * scale[ch]) / one;
      q = std::min<int64_t>(std::max<int64_t>(q, INT32_MIN), INT32_MAX);
      out[i] = static_cast<int32_t>(static_cast<uint32_t>(q) +
                                    static_cast<uint32_t>(offset[ch]));
    }
    setRangeOutputs(ctx, outMin, outMax);
  }

private:
  float epsilon_ = 0;
  bool scaleAfter_ = false;
};

//===----------------------------------------------------------------------===//
// QuantizedInstanceNorm
//===----------------------------------------------------------------------===//

/// QuantizedInstanceNorm(x: quint8 NHWC, x_min, x_max; output_range_given,
/// given_y_min, given_y_max, variance_epsilon, min_separation) -> (y, y_min,
/// y_max): per image and channel, in float, s * (x - mean) / sqrt(var +
/// epsilon) with s = (x_max - x_min) / 255 and var the mean of (s * (x -
/// mean))^2; y quantized (QUANTIZE_WITH_EIGEN) into the given range or the
/// normalized values' [min, max], widened to min_separation.
class QuantizedInstanceNormKernel final : public OpKernel {
public:
  explicit QuantizedInstanceNormKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "variance_epsilon", &epsilon_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "min_separation", &minSeparation_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "output_range_given", &rangeGiven_));
    if (rangeGiven_) {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "given_y_min", &givenMin_));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "given_y_max", &givenMax_));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, givenMin_ < givenMax_,
          errorf("given_y_min must be less than given_y_max : %s >= %s",
                 givenMin_, givenMax_));
    }
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 1, 2));
    const Tensor &input = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 requireScalar(*this, ctx->input(1), "x_min"));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 requireScalar(*this, ctx->input(2), "x_max"));
    const float inMin = scalarOf(ctx->input(1)),
                inMax = scalarOf(ctx->input(2));
    const float inputScale = (inMax - inMin) / 255.0f;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, inMin < inMax,
        errorf("input_min must be less than input_max : %s >= %s", inMin,
               inMax));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "x", inMin, inMax));
    TFRT_FALLBACK_OP_REQUIRES(ctx, input.rank() == 4,
                              errorf("input must be 4-dimensional, got %s",
                                     input.shape().toString()));
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, input.shape(), &output));
    const int64_t n = input.dim(0), hw = input.dim(1) * input.dim(2),
                  c = input.dim(3);
    const uint8_t *in = &input.data<quint8>()->value;
    std::vector<float> normed(input.numElements());
    for (int64_t b = 0; b < n; ++b) {
      const uint8_t *img = in + b * hw * c;
      float *dst = normed.data() + b * hw * c;
      for (int64_t ch = 0; ch < c; ++ch) {
        float sum = 0;
        for (int64_t p = 0; p < hw; ++p)
          sum += static_cast<float>(img[p * c + ch]);
        const float mean = sum / static_cast<float>(hw);
        float sq = 0;
        for (int64_t p = 0; p < hw; ++p) {
          const float d =
              inputScale * (static_cast<float>(img[p * c + ch]) - mean);
          sq += d * d;
        }
        const float variance = sq / static_cast<float>(hw);
        const float rsqrt = 1.0f / std::sqrt(variance + epsilon_);
        for (int64_t p = 0; p < hw; ++p) {
          const float centred =
              inputScale * (static_cast<float>(img[p * c + ch]) - mean);
          dst[p * c + ch] = centred * rsqrt;
        }
      }
    }
    float lo = givenMin_, hi = givenMax_;
    if (!rangeGiven_) {
      if (normed.empty()) {
        lo = hi = 0;
      } else {
        lo = *std::min_element(normed.begin(), normed.end());
        hi = *std::max_element(normed.begin(), normed.end());
      }
    }
    if (hi - lo < minSeparation_)
      hi = lo + minSeparation_;
    const Quantizer<quint8> f2q(lo, hi);
    quint8 *out = output->data<quint8>();
    for (size_t i = 0; i < normed.size(); ++i)
      out[i] = f2q(normed[i]);
    setRangeOutputs(ctx, lo, hi);
  }

private:
  float epsilon_ = 1e-5f;
  float minSeparation_ = 1e-3f;
  bool rangeGiven_ = false;
  float givenMin_ = 0, givenMax_ = 0;
};

//===----------------------------------------------------------------------===//
// QuantizedResizeBilinear
//===----------------------------------------------------------------------===//

/// TF's interpolation cache: per output index the lower / upper source
/// index (times `step`) and the fraction, also as an integer with
/// `resolution` bits.
struct LerpCache {
  std::vector<int64_t> lower, upper;
  std::vector<float> lerp;
  std::vector<int64_t> ilerp;
};

LerpCache buildLerpCache(int64_t outSize, int64_t inSize, float scale,
                         int64_t step, int resolution, bool halfPixel) {
  LerpCache cache;
  cache.lower.resize(outSize);
  cache.upper.resize(outSize);
  cache.lerp.resize(outSize);
  cache.ilerp.resize(outSize);
  for (int64_t i = 0; i < outSize; ++i) {
    const float in = halfPixel ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                               : static_cast<float>(i) * scale;
    const float inF = std::floor(in);
    const int64_t upper =
        std::min(static_cast<int64_t>(std::ceil(in)), inSize - 1);
    const int64_t lower =
        std::min(std::max(static_cast<int64_t>(inF), int64_t{0}), upper);
    cache.lower[i] = lower * step;
    cache.upper[i] = upper * step;
    cache.lerp[i] = in - inF;
    const float frac = in - inF;
    cache.ilerp[i] =
        static_cast<int64_t>(frac * static_cast<float>(1 << resolution));
  }
  return cache;
}

/// QuantizedResizeBilinear(images: T, size: int32, min, max;
/// align_corners, half_pixel_centers) -> (resized_images, out_min,
/// out_max), T quint8, qint32 or float: TF's CPU paths. quint8: fixed point
/// with 7 fractional bits (int16, (bottom - top) / 128 truncated before
/// the y weight); qint32: 30 fractional bits in int64, the codes read
/// through float as TF's QInt32 -> int64 conversion does; float: float
/// interpolation. The same size copies the input. As TF, align_corners
/// with half_pixel_centers is not rejected.
template <typename T>
class QuantizedResizeBilinearKernel final : public OpKernel {
public:
  explicit QuantizedResizeBilinearKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "align_corners", &alignCorners_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "half_pixel_centers", &halfPixel_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 2, 3));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, requireInputDType(*this, ctx, {1}, DType::I32));
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(2).rank() == 0,
                              errorf("min must be a scalar"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(3).rank() == 0,
                              errorf("max must be a scalar"));
    const float minIn = scalarOf(ctx->input(2)),
                maxIn = scalarOf(ctx->input(3));
    const Tensor &input = ctx->input(0);
    const Tensor &size = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() == 4,
        errorf("input must be 4-dimensional%s", input.shape().toString()));
    const int64_t batch = input.dim(0), inH = input.dim(1), inW = input.dim(2),
                  channels = input.dim(3);
    TFRT_FALLBACK_OP_REQUIRES(ctx, channels > 0,
                              errorf("image must have at least one channel"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, inH > 0 && inW > 0,
                              errorf("input image must be of non-zero size"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, inH < INT32_MAX && inW < INT32_MAX,
        errorf("input sizes must be between 0 and max int32"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, size.rank() == 1,
        errorf("shape_t must be 1-dimensional%s", size.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, size.numElements() == 2,
        errorf("shape_t must have two elements%s", size.shape().toString()));
    const int64_t outH = size.data<int32_t>()[0],
                  outW = size.data<int32_t>()[1];
    TFRT_FALLBACK_OP_REQUIRES(ctx, outH > 0 && outW > 0,
                              errorf("output dimensions must be positive"));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", minIn, maxIn));
    const float hScale = resizeScale(inH, outH),
                wScale = resizeScale(inW, outW);
    const int64_t outDims[] = {batch, outH, outW, channels};
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outDims, &output));
    const T *in = input.data<T>();
    T *out = output->data<T>();
    if (outH == inH && outW == inW) {
      std::copy_n(in, input.numElements(), out);
    } else if (output->numElements() > 0) {
      constexpr int kResolution = std::is_same_v<T, quint8>   ? 7
                                  : std::is_same_v<T, qint32> ? 30
                                                              : 0;
      const LerpCache xs =
          buildLerpCache(outW, inW, wScale, channels, kResolution, halfPixel_);
      const LerpCache ys =
          buildLerpCache(outH, inH, hScale, 1, kResolution, halfPixel_);
      const int64_t inRow = inW * channels, outRow = outW * channels;
      for (int64_t b = 0; b < batch; ++b) {
        const T *image = in + b * inH * inRow;
        T *dst = out + b * outH * outRow;
        for (int64_t y = 0; y < outH; ++y) {
          const T *lowerRow = image + ys.lower[y] * inRow;
          const T *upperRow = image + ys.upper[y] * inRow;
          for (int64_t x = 0; x < outW; ++x)
            for (int64_t ch = 0; ch < channels; ++ch) {
              const int64_t l = xs.lower[x] + ch, u = xs.upper[x] + ch;
              dst[y * outRow + x * channels + ch] =
                  lerp(lowerRow[l], lowerRow[u], upperRow[l], upperRow[u], xs,
                       ys, x, y);
            }
        }
      }
    }
    setRangeOutputs(ctx, minIn, maxIn);
  }

private:
  float resizeScale(int64_t in, int64_t out) const {
    return (alignCorners_ && in > 1 && out > 1)
               ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
               : static_cast<float>(in) / static_cast<float>(out);
  }

  static T lerp(T tl, T tr, T bl, T br, const LerpCache &xs,
                const LerpCache &ys, int64_t x, int64_t y) {
    if constexpr (std::is_same_v<T, float>) {
      const float xl = xs.lerp[x], yl = ys.lerp[y];
      const float top = tl + (tr - tl) * xl;
      const float bottom = bl + (br - bl) * xl;
      return top + (bottom - top) * yl;
    } else if constexpr (std::is_same_v<T, quint8>) {
      // TF's ComputeLerp<7, quint8, int16, int16>.
      const int32_t mult = 1 << 7;
      const int32_t xl = static_cast<int16_t>(xs.ilerp[x]);
      const int32_t yl = static_cast<int16_t>(ys.ilerp[y]);
      const int16_t top =
          static_cast<int16_t>(tl.value * mult + (tr.value - tl.value) * xl);
      const int16_t bottom =
          static_cast<int16_t>(bl.value * mult + (br.value - bl.value) * xl);
      const int16_t outV =
          static_cast<int16_t>(top + (bottom - top) / mult * yl);
      return quint8(static_cast<uint8_t>((outV + mult / 2) / mult));
    } else {
      // TF's ComputeLerp<30, qint32, int32, int64>: QInt32 converts to
      // int64 through its float conversion.
      const int64_t mult = int64_t{1} << 30;
      auto wide = [](qint32 v) {
        return static_cast<int64_t>(static_cast<float>(v.value));
      };
      const int64_t xl = static_cast<int32_t>(xs.ilerp[x]);
      const int64_t yl = static_cast<int32_t>(ys.ilerp[y]);
      const int64_t top = wide(tl) * mult + (wide(tr) - wide(tl)) * xl;
      const int64_t bottom = wide(bl) * mult + (wide(br) - wide(bl)) * xl;
      const int64_t outV = top + (bottom - top) / mult * yl;
      return qint32(static_cast<int32_t>((outV + mult / 2) / mult));
    }
  }

  bool alignCorners_ = false, halfPixel_ = false;
};

} // namespace

void registerQuantizedNNKernels(KernelRegistry &registry) {
  registerWith<OpId::kQuantizedConv2D, QuantizedConv2DKernel, quint8>(
      registry, {{"Tinput", DType::QU8},
                 {"Tfilter", DType::QU8},
                 {"out_type", DType::QI32}});
  registerWith<OpId::kQuantizedMatMul, QuantizedMatMulKernel, quint8>(
      registry,
      {{"T1", DType::QU8}, {"T2", DType::QU8}, {"Toutput", DType::QI32}});
  registerWith<OpId::kQuantizedBiasAdd, QuantizedBiasAddKernel<quint8>, quint8>(
      registry,
      {{"T1", DType::QU8}, {"T2", DType::QU8}, {"out_type", DType::QI32}});
  registerWith<OpId::kQuantizedBiasAdd, QuantizedBiasAddKernel<qint8>, qint8>(
      registry,
      {{"T1", DType::QI8}, {"T2", DType::QI8}, {"out_type", DType::QI32}});
  registerWith<OpId::kQuantizedRelu, QuantizedReluKernel<qint32, false>,
               qint32>(registry,
                       {{"Tinput", DType::QI32}, {"out_type", DType::QI32}});
  registerWith<OpId::kQuantizedRelu, QuantizedReluKernel<quint8, false>,
               quint8>(registry,
                       {{"Tinput", DType::QU8}, {"out_type", DType::QU8}});
  registerWith<OpId::kQuantizedRelu6, QuantizedReluKernel<qint32, true>,
               qint32>(registry,
                       {{"Tinput", DType::QI32}, {"out_type", DType::QI32}});
  registerWith<OpId::kQuantizedRelu6, QuantizedReluKernel<quint8, true>,
               quint8>(registry,
                       {{"Tinput", DType::QU8}, {"out_type", DType::QU8}});
  registerWith<OpId::kQuantizedMaxPool, QuantizedPoolKernel<true>, quint8>(
      registry, {{"T", DType::QU8}});
  registerWith<OpId::kQuantizedAvgPool, QuantizedPoolKernel<false>, quint8>(
      registry, {{"T", DType::QU8}});
  registerWith<OpId::kQuantizedBatchNormWithGlobalNormalization,
               QuantizedBatchNormKernel, quint8>(
      registry, {{"Tinput", DType::QU8}, {"out_type", DType::QI32}});
  registerWith<OpId::kQuantizedInstanceNorm, QuantizedInstanceNormKernel,
               quint8>(registry, {{"T", DType::QU8}});
  registerWith<OpId::kQuantizedResizeBilinear,
               QuantizedResizeBilinearKernel<quint8>, quint8>(
      registry, {{"T", DType::QU8}});
  registerWith<OpId::kQuantizedResizeBilinear,
               QuantizedResizeBilinearKernel<qint32>, qint32>(
      registry, {{"T", DType::QI32}});
  registerWith<OpId::kQuantizedResizeBilinear,
               QuantizedResizeBilinearKernel<float>, float>(
      registry, {{"T", DType::F32}});
}

} // namespace tfrt_fallback::rt

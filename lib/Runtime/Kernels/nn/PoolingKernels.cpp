//===- PoolingKernels.cpp - Max and average pooling -------------*- C++ -*-===//
//
// MaxPool, MaxPoolV2 and AvgPool over the spatial dims of 4-D tensors: a
// direct loop per output pixel, vectorized over the channels (NHWC; NCHW
// goes through transposed temporaries).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/Window.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Window parameters of a pooling op in NHWC terms.
struct PoolParams {
  int64_t kH = 1, kW = 1, strideH = 1, strideW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  WindowPadding padding = WindowPadding::Valid;
  bool nchw = false;
};

/// Validates `kernel`'s ksize / strides (4 values each, in data_format
/// order) and fills the spatial entries of `p`.
Status setWindow(const OpKernel &kernel, const std::vector<int64_t> &ksize,
                 const std::vector<int64_t> &strides, PoolParams *p) {
  if (ksize.size() != 4)
    return kernel.errorf(
        "Sliding window ksize field must specify 4 dimensions");
  if (strides.size() != 4)
    return kernel.errorf(
        "Sliding window stride field must specify 4 dimensions");
  if (ksize[0] != 1 || strides[0] != 1)
    return kernel.errorf(
        "Pooling is not yet supported on the batch dimension.");
  const int h = p->nchw ? 2 : 1, w = p->nchw ? 3 : 2, c = p->nchw ? 1 : 3;
  if (ksize[c] != 1 || strides[c] != 1)
    return kernel.errorf("Pooling across depth is not supported");
  for (int64_t v : ksize)
    if (v <= 0)
      return kernel.errorf(
          "Sliding window ksize for dimension must be positive");
  for (int64_t v : strides)
    if (v <= 0)
      return kernel.errorf(
          "Sliding window stride for dimension must be positive");
  p->kH = ksize[h];
  p->kW = ksize[w];
  p->strideH = strides[h];
  p->strideW = strides[w];
  return OkStatus();
}

/// Reads data_format, padding, explicit_paddings (MaxPool only) and, when
/// `windowAttrs`, ksize and strides of `kernel` from `ctx`, its
/// construction context.
Status readPoolAttrs(const OpKernel &kernel, OpKernelConstructionInterface *ctx,
                     bool windowAttrs, bool allowExplicit, PoolParams *p) {
  std::string format = "NHWC";
  Status status = getOptionalAttr(ctx, "data_format", &format);
  if (!status.ok())
    return status;
  StatusOr<shape::DataFormat> dataFormat = shape::parseDataFormat(format);
  if (!dataFormat.ok())
    return opError(kernel, dataFormat.status());
  p->nchw = dataFormat->channelsFirst;
  status = readPadding(kernel, ctx, allowExplicit, &p->padding);
  if (!status.ok())
    return status;
  std::vector<int64_t> explicitPaddings;
  status = getOptionalAttr(ctx, "explicit_paddings", &explicitPaddings);
  if (!status.ok())
    return status;
  if (p->padding == WindowPadding::Explicit) {
    if (explicitPaddings.size() != 8)
      return kernel.errorf(
          "explicit_paddings attribute must contain 8 values, but got: %d",
          explicitPaddings.size());
    const int h = p->nchw ? 2 : 1, w = p->nchw ? 3 : 2, c = p->nchw ? 1 : 3;
    for (int64_t v : explicitPaddings)
      if (v < 0)
        return kernel.errorf(
            "All elements of explicit_paddings must be nonnegative");
    if (explicitPaddings[0] || explicitPaddings[1] || explicitPaddings[2 * c] ||
        explicitPaddings[2 * c + 1])
      return kernel.errorf(
          "Nonzero explicit padding in the batch or depth dimensions is "
          "not supported");
    p->padTop = explicitPaddings[2 * h];
    p->padBottom = explicitPaddings[2 * h + 1];
    p->padLeft = explicitPaddings[2 * w];
    p->padRight = explicitPaddings[2 * w + 1];
  } else if (!explicitPaddings.empty()) {
    return kernel.errorf(
        "explicit_paddings attribute must be empty if the padding "
        "attribute is not EXPLICIT");
  }
  if (!windowAttrs)
    return OkStatus();
  std::vector<int64_t> ksize, strides;
  status = ctx->getAttr("ksize", &ksize);
  if (status.ok())
    status = ctx->getAttr("strides", &strides);
  if (!status.ok())
    return status;
  return setWindow(kernel, ksize, strides, p);
}

/// Accumulator type: float for the 16-bit floats, T otherwise.
template <typename T>
using AccOf = std::conditional_t<std::is_same_v<T, Eigen::half> ||
                                     std::is_same_v<T, Eigen::bfloat16>,
                                 float, T>;

/// Pools NHWC `in` [n, inH, inW, c] into `out` [n, outH, outW, c]. Max:
/// the maximum of the window's valid elements (padding is ignored; a
/// window entirely in padding gives the lowest value). Avg: the sum of the
/// valid elements divided by their count.
template <typename T, bool Max>
void poolNhwc(const Eigen::ThreadPoolDevice &device, const T *in, T *out,
              int64_t n, int64_t inH, int64_t inW, int64_t c, int64_t outH,
              int64_t outW, const PoolParams &p) {
  using Acc = AccOf<T>;
  kernels::parallelFor(
      device, n * outH,
      Eigen::TensorOpCost(0, 0, static_cast<double>(outW * c * p.kH * p.kW)),
      [&](Eigen::Index first, Eigen::Index last) {
        std::vector<Acc> acc(Max ? 0 : c);
        for (Eigen::Index row = first; row < last; ++row) {
          const int64_t b = row / outH, oh = row % outH;
          const int64_t h0 = oh * p.strideH - p.padTop;
          const int64_t hs = std::max<int64_t>(h0, 0);
          const int64_t he = std::min(h0 + p.kH, inH);
          T *o = out + row * outW * c;
          for (int64_t ow = 0; ow < outW; ++ow, o += c) {
            const int64_t w0 = ow * p.strideW - p.padLeft;
            const int64_t ws = std::max<int64_t>(w0, 0);
            const int64_t we = std::min(w0 + p.kW, inW);
            ArrayMap<T> dst(o, c);
            if constexpr (Max) {
              dst.setConstant(Eigen::NumTraits<T>::lowest());
              for (int64_t h = hs; h < he; ++h)
                for (int64_t w = ws; w < we; ++w)
                  dst = dst.max(
                      ConstArrayMap<T>(in + ((b * inH + h) * inW + w) * c, c));
            } else {
              ArrayMap<Acc> sum(acc.data(), c);
              sum.setZero();
              for (int64_t h = hs; h < he; ++h)
                for (int64_t w = ws; w < we; ++w)
                  sum += ConstArrayMap<T>(in + ((b * inH + h) * inW + w) * c, c)
                             .template cast<Acc>();
              const int64_t count =
                  std::max<int64_t>(0, he - hs) * std::max<int64_t>(0, we - ws);
              dst = (sum / static_cast<Acc>(count)).template cast<T>();
            }
          }
        }
      });
}

/// MaxPool / MaxPoolV2 / AvgPool(value): value [batch, rows, cols, depth]
/// (NHWC, or NCHW through data_format); `ksize` and `strides` have 4
/// entries in data_format order with 1 for batch and depth (MaxPoolV2 takes
/// them as int32 inputs 1 and 2). Output rows/cols follow the padding rule
/// of computeWindow (MaxPool also accepts EXPLICIT with
/// explicit_paddings). MaxPool ignores padded positions; AvgPool divides
/// by the number of valid (non-padding) elements in each window.
template <typename T, bool Max, bool V2>
class PoolKernel final : public OpKernel {
public:
  explicit PoolKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPoolAttrs(*this, ctx, !V2, Max && !V2, &params_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    PoolParams p = params_;
    if constexpr (V2) {
      std::vector<int64_t> window[2];
      for (int i = 0; i < 2; ++i) {
        const Tensor &t = ctx->input(1 + i);
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t.dtype() == DType::I32 && t.rank() == 1,
            errorf("%s must be a 1-D int32 tensor, got %s",
                   i ? "strides" : "ksize", t.shape().toString()));
        for (int64_t j = 0; j < t.numElements(); ++j)
          window[i].push_back(t.data<int32_t>()[j]);
      }
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   setWindow(*this, window[0], window[1], &p));
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, input.rank() == 4,
                              errorf("tensor_in must be 4-dimensional: %s",
                                     input.shape().toString()));
    const int64_t n = input.dim(0);
    const int64_t c = input.dim(p.nchw ? 1 : 3);
    const int64_t inH = input.dim(p.nchw ? 2 : 1);
    const int64_t inW = input.dim(p.nchw ? 3 : 2);
    WindowDim rows, cols;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeWindow(*this, inH, p.kH, 1, p.strideH, p.padding, p.padTop,
                           p.padBottom, &rows));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeWindow(*this, inW, p.kW, 1, p.strideW, p.padding, p.padLeft,
                           p.padRight, &cols));
    p.padTop = rows.padBefore;
    p.padLeft = cols.padBefore;
    const TensorShape outShape = p.nchw ? TensorShape{n, c, rows.out, cols.out}
                                        : TensorShape{n, rows.out, cols.out, c};
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
    if (out->numElements() == 0)
      return;
    const Eigen::ThreadPoolDevice &device = ctx->eigenDevice();
    if (!p.nchw) {
      poolNhwc<T, Max>(device, input.data<T>(), out->data<T>(), n, inH, inW, c,
                       rows.out, cols.out, p);
      return;
    }
    std::vector<T> inT(input.numElements()), outT(out->numElements());
    transposeChannels(input.data<T>(), inT.data(), n, c, inH * inW, true);
    poolNhwc<T, Max>(device, inT.data(), outT.data(), n, inH, inW, c, rows.out,
                     cols.out, p);
    transposeChannels(outT.data(), out->data<T>(), n, c, rows.out * cols.out,
                      false);
  }

private:
  PoolParams params_;
};

template <typename T> using MaxPool = PoolKernel<T, true, false>;
template <typename T> using MaxPoolV2 = PoolKernel<T, true, true>;
template <typename T> using AvgPool = PoolKernel<T, false, false>;

} // namespace

void registerPoolingKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  registerKernel<OpId::kMaxPool, MaxPool, float, double, half, bf16, int32_t,
                 int64_t, uint8_t, int8_t>(registry);
  registerKernel<OpId::kMaxPoolV2, MaxPoolV2, float, double, half, bf16,
                 int32_t, int64_t, uint8_t, int8_t>(registry);
  registerKernel<OpId::kAvgPool, AvgPool>(registry, FloatTypes{});
}

} // namespace tfrt_fallback::rt

//===- FusedPadConvKernels.cpp - Mirror pad (+ resize) + Conv2D -*- C++ -*-===//
//
// FusedPadConv2D and FusedResizeAndPadConv2D as TF's CPU kernel computes
// them (tensorflow/core/kernels/conv_ops_fused_image_transform.cc):
//
//   FusedResizeAndPadConv2D(input, size, paddings, filter; T,
//       resize_align_corners = false, mode, strides, padding)
//     = Conv2D(MirrorPad(ResizeBilinear(input, size, align_corners),
//                        paddings, mode), filter, strides, padding)
//   FusedPadConv2D(input, paddings, filter; T, mode, strides, padding)
//     = Conv2D(MirrorPad(input, paddings, mode), filter, strides, padding)
//
// input NHWC, filter [rows, cols, in_depth, out_depth], paddings int32
// [4, 2] (spatial only: the batch and depth rows must be zero), mode
// REFLECT (padding < dim) or SYMMETRIC (padding <= dim), padding SAME or
// VALID (the output size is Conv2D's for the padded image).
//
// The resize is TF's legacy bilinear one (no half-pixel centers): scale =
// in / out, or (in - 1) / (out - 1) with align_corners when both sizes are
// > 1; output pixel y samples at y * scale, between rows floor and
// min(ceil, in - 1), blended in T (top + (bottom - top) * lerp of the two
// column blends). The padded image is materialized once and convolved by
// Conv2D's code (FusedPadConv.h: im2col + GEMM). As TF's fused kernel the
// windows start at ((out - 1) * stride + filter - padded) / 2 for SAME and
// ((out - 1) * stride + filter - padded + 1) / 2 for VALID (C division):
// the same as Conv2D except with strides larger than the filter, where a
// negative start shifts every window (Conv2D clamps it at 0).
//
// f16, f32, f64 (both ops) and bf16 (FusedPadConv2D), as TF registers
// them; f16 and bf16 resize, pad and convolve in f32 (TF: in the dtype)
// and round the result once.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/Window.h"
#include "nn/FusedPadConv.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// FusedPadConv2D (Resize = false) and FusedResizeAndPadConv2D (file
/// header).
template <typename T, bool Resize>
class FusedPadConvKernel final : public OpKernel {
  /// The type the padded image and the convolution use: T, or f32 for f16
  /// and bf16.
  using C = std::conditional_t<std::is_same_v<T, double>, double, float>;

public:
  explicit FusedPadConvKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    if constexpr (Resize)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "resize_align_corners", &alignCorners_));
    std::string mode;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("mode", &mode));
    if (mode == "SYMMETRIC") {
      offset_ = 0;
    } else if (mode == "REFLECT") {
      offset_ = 1;
    } else {
      ctx->ctxFailure(errorf("mode must be either REFLECT or SYMMETRIC."));
      return;
    }
    std::vector<int64_t> strides;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("strides", &strides));
    if (strides.size() != 4) {
      ctx->ctxFailure(
          errorf("Sliding window strides field must specify 4 dimensions"));
      return;
    }
    if (strides[0] != 1 || strides[3] != 1) {
      ctx->ctxFailure(errorf("Current implementation does not yet support "
                             "strides in the batch and depth dimensions."));
      return;
    }
    strideH_ = strides[1];
    strideW_ = strides[2];
    if (strideH_ <= 0 || strideW_ <= 0) {
      ctx->ctxFailure(errorf("Stride must be > 0, but got %d",
                             std::min(strideH_, strideW_)));
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPadding(*this, ctx, /*allowExplicit=*/false, &padding_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &paddings = ctx->input(Resize ? 2 : 1);
    const Tensor &filter = ctx->input(Resize ? 3 : 2);
    TFRT_FALLBACK_OP_REQUIRES(ctx, input.numElements() > 0,
                              errorf("Input tensor can't be empty"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() == 4,
        errorf("input must be 4-dimensional%s", input.shape().toString()));
    const int64_t batch = input.dim(0), inH = input.dim(1), inW = input.dim(2),
                  depth = input.dim(3);
    int64_t resizedH = inH, resizedW = inW;
    float scaleH = 1.0f, scaleW = 1.0f;
    if constexpr (Resize) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          inH <= std::numeric_limits<int32_t>::max() &&
              inW <= std::numeric_limits<int32_t>::max(),
          errorf("input sizes must be between 0 and max int32"));
      const Tensor &size = ctx->input(1);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, size.rank() == 1,
          errorf("shape_t must be 1-dimensional%s", size.shape().toString()));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, size.numElements() == 2,
          errorf("shape_t must have two elements%s", size.shape().toString()));
      resizedH = size.data<int32_t>()[0];
      resizedW = size.data<int32_t>()[1];
      TFRT_FALLBACK_OP_REQUIRES(ctx, resizedH > 0 && resizedW > 0,
                                errorf("output dimensions must be positive"));
      scaleH = resizeScale(inH, resizedH);
      scaleW = resizeScale(inW, resizedW);
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, paddings.rank() == 2 && paddings.dim(1) == 2,
        errorf("paddings must be a matrix with 2 columns: %s",
               paddings.shape().toString()));
    const int64_t resizedDims[4] = {batch, resizedH, resizedW, depth};
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, paddings.dim(0) == 4,
        errorf("The first dimension of paddings must be the rank of inputs: "
               "4 %s [%s]",
               paddings.shape().toString(),
               strJoin(absl::MakeConstSpan(resizedDims), ",")));
    const int32_t *p = paddings.data<int32_t>();
    int64_t paddedDims[4];
    for (int d = 0; d < 4; ++d) {
      const int64_t before = p[2 * d], after = p[2 * d + 1];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, before >= 0 && after >= 0,
          errorf("paddings must be non-negative: %d %d", before, after));
      if (offset_ == 0)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, before <= resizedDims[d] && after <= resizedDims[d],
            errorf("paddings must be no greater than the dimension size: %d, "
                   "%d greater than %d",
                   before, after, resizedDims[d]));
      else
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, before < resizedDims[d] && after < resizedDims[d],
            errorf("paddings must be less than the dimension size: %d, %d "
                   "not less than %d",
                   before, after, resizedDims[d]));
      paddedDims[d] = before + resizedDims[d] + after;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, p[0] == 0 && p[1] == 0,
        errorf("Fused mirror padding only support spatial padding, not "
               "batches: %s",
               strJoin(absl::MakeConstSpan(p, 8), ",")));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, p[6] == 0 && p[7] == 0,
        errorf("Fused mirror padding only support spatial padding, not "
               "channels: %s",
               strJoin(absl::MakeConstSpan(p, 8), ",")));
    const int64_t top = p[2], left = p[4];
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filter.rank() == 4,
        errorf("filter must be 4-dimensional: %s", filter.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, depth == filter.dim(2),
        errorf("input and filter must have the same depth: %d vs %d", depth,
               filter.dim(2)));
    const int64_t kH = filter.dim(0), kW = filter.dim(1), outC = filter.dim(3);
    const int64_t paddedH = paddedDims[1], paddedW = paddedDims[2];
    WindowDim rows, cols;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        computeWindow(*this, paddedH, kH, 1, strideH_, padding_, 0, 0, &rows));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        computeWindow(*this, paddedW, kW, 1, strideW_, padding_, 0, 0, &cols));
    const int64_t outDims[4] = {batch, rows.out, cols.out, outC};
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    TFRT_FALLBACK_OP_REQUIRES(ctx, outShape->numElements() > 0,
                              errorf("Output tensor can't be empty"));
    // TF's window starts (file header), in C's truncating division.
    const int64_t extra = padding_ == WindowPadding::Valid ? 1 : 0;
    const int64_t padTop =
        ((rows.out - 1) * strideH_ + kH - paddedH + extra) / 2;
    const int64_t padLeft =
        ((cols.out - 1) * strideW_ + kW - paddedW + extra) / 2;

    StatusOr<TensorShape> paddedShape = TensorShape::create(paddedDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, paddedShape.status());
    StatusOr<Tensor> padded = Tensor::allocate(dtypeOf<C>(), *paddedShape);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, padded.status());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));

    // The padded (resized) image, one row per work item.
    const T *in = input.data<T>();
    C *dst = padded->data<C>();
    const int offset = offset_;
    // TF's mirror: padded coordinate -> coordinate in the resized image.
    auto mirror = [offset](int64_t c, int64_t before, int64_t size) {
      float v = static_cast<float>(c - before);
      if (v < 0)
        v = -(v + 1.0f - offset);
      else if (v >= size)
        v = size * 2.0f - (v + 1.0f + offset);
      return v;
    };
    // Source columns and blend weights, the same for every row.
    std::vector<int64_t> xLeft(paddedW), xRight(paddedW);
    std::vector<C> xLerp(paddedW);
    for (int64_t x = 0; x < paddedW; ++x) {
      const float inX = mirror(x, left, resizedW) * scaleW;
      xLeft[x] = std::clamp<int64_t>(static_cast<int64_t>(std::floor(inX)), 0,
                                     inW - 1);
      xRight[x] =
          std::clamp<int64_t>(static_cast<int64_t>(std::ceil(inX)), 0, inW - 1);
      xLerp[x] = static_cast<C>(inX - static_cast<float>(xLeft[x]));
    }
    parallelFor(ctx->eigenDevice(), batch * paddedH,
                elementCost<T>(4, 1, 8.0 * paddedW * depth),
                [&](Eigen::Index first, Eigen::Index last) {
                  for (Eigen::Index item = first; item < last; ++item) {
                    const int64_t b = item / paddedH, y = item % paddedH;
                    const float inY = mirror(y, top, resizedH) * scaleH;
                    const int64_t yTop = std::clamp<int64_t>(
                        static_cast<int64_t>(std::floor(inY)), 0, inH - 1);
                    const int64_t yBottom = std::clamp<int64_t>(
                        static_cast<int64_t>(std::ceil(inY)), 0, inH - 1);
                    const C yLerp =
                        static_cast<C>(inY - static_cast<float>(yTop));
                    const T *topRow = in + (b * inH + yTop) * inW * depth;
                    const T *bottomRow = in + (b * inH + yBottom) * inW * depth;
                    C *row = dst + item * paddedW * depth;
                    for (int64_t x = 0; x < paddedW; ++x) {
                      C *px = row + x * depth;
                      if constexpr (!Resize) {
                        const T *src = topRow + xLeft[x] * depth;
                        for (int64_t c = 0; c < depth; ++c)
                          px[c] = static_cast<C>(src[c]);
                      } else {
                        const T *tl = topRow + xLeft[x] * depth;
                        const T *tr = topRow + xRight[x] * depth;
                        const T *bl = bottomRow + xLeft[x] * depth;
                        const T *br = bottomRow + xRight[x] * depth;
                        const C xl = xLerp[x];
                        auto v = [](T e) { return static_cast<C>(e); };
                        for (int64_t c = 0; c < depth; ++c) {
                          const C t = v(tl[c]) + (v(tr[c]) - v(tl[c])) * xl;
                          const C u = v(bl[c]) + (v(br[c]) - v(bl[c])) * xl;
                          px[c] = t + (u - t) * yLerp;
                        }
                      }
                    }
                  }
                });
    if constexpr (std::is_same_v<T, C>) {
      conv2dNhwcNoEpilogue<C>(ctx->eigenDevice(), padded->data<C>(),
                              filter.data<T>(), out->data<T>(), batch, paddedH,
                              paddedW, depth, kH, kW, outC, rows.out, cols.out,
                              strideH_, strideW_, padTop, padLeft);
    } else {
      // f16 / bf16: filter and result in f32.
      StatusOr<Tensor> f32Filter = Tensor::allocate(DType::F32, filter.shape());
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, f32Filter.status());
      StatusOr<Tensor> f32Out = Tensor::allocate(DType::F32, *outShape);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, f32Out.status());
      const T *f = filter.data<T>();
      float *ff = f32Filter->data<float>();
      for (int64_t i = 0; i < filter.numElements(); ++i)
        ff[i] = static_cast<float>(f[i]);
      conv2dNhwcNoEpilogue<float>(
          ctx->eigenDevice(), padded->data<float>(), ff, f32Out->data<float>(),
          batch, paddedH, paddedW, depth, kH, kW, outC, rows.out, cols.out,
          strideH_, strideW_, padTop, padLeft);
      const float *o = f32Out->data<float>();
      T *dstOut = out->data<T>();
      for (int64_t i = 0; i < out->numElements(); ++i)
        dstOut[i] = static_cast<T>(o[i]);
    }
  }

private:
  /// TF's CalculateResizeScale.
  float resizeScale(int64_t in, int64_t out) const {
    return alignCorners_ && in > 1 && out > 1
               ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
               : static_cast<float>(in) / static_cast<float>(out);
  }

  bool alignCorners_ = false;
  int offset_ = 1;
  int64_t strideH_ = 1, strideW_ = 1;
  WindowPadding padding_ = WindowPadding::Valid;
};

template <typename T> using FusedPadConv = FusedPadConvKernel<T, false>;
template <typename T> using FusedResizePadConv = FusedPadConvKernel<T, true>;

} // namespace

void registerFusedPadConvKernels(KernelRegistry &registry) {
  registerKernel<OpId::kFusedPadConv2D, FusedPadConv, Eigen::half, float,
                 double, Eigen::bfloat16>(registry);
  registerKernel<OpId::kFusedResizeAndPadConv2D, FusedResizePadConv,
                 Eigen::half, float, double>(registry);
}

} // namespace tfrt_fallback::rt

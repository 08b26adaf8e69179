//===- ImageKernels.cpp - Image resizing ------------------------*- C++ -*-===//
//
// ResizeBilinear and ResizeNearestNeighbor on NHWC images with TF's exact
// coordinate transforms (align_corners, half_pixel_centers, and the legacy
// transform when neither is set). Rows of channels are processed as
// vectors; the work is split over output rows.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// TF's CalculateResizeScale: (in - 1) / (out - 1) with align_corners and
/// out > 1, else in / out.
float resizeScale(int64_t in, int64_t out, bool alignCorners) {
  return (alignCorners && out > 1)
             ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
             : static_cast<float>(in) / static_cast<float>(out);
}

/// Validates images [batch, height, width, channels] and size (int32 [2]:
/// new_height, new_width, both > 0) and allocates the output. Returns
/// false after recording an error.
bool prepareResize(const OpKernel &op, OpKernelContextInterface *ctx,
                   bool alignCorners, bool halfPixel, int64_t *outH,
                   int64_t *outW, Tensor **out) {
  const Tensor &images = ctx->input(0);
  const Tensor &size = ctx->input(1);
  auto fail = [&](Status status) {
    ctx->ctxFailure(std::move(status));
    return false;
  };
  if (alignCorners && halfPixel)
    return fail(op.errorf(
        "If half_pixel_centers is True, align_corners must be False."));
  if (images.rank() != 4)
    return fail(
        op.errorf("input must be 4-dimensional%s", images.shape().toString()));
  if (size.rank() != 1 || size.dtype() != DType::I32)
    return fail(op.errorf("shape_t must be 1-dimensional int32 %s",
                          size.shape().toString()));
  if (size.numElements() != 2)
    return fail(op.errorf("shape_t must have two elements %s",
                          size.shape().toString()));
  *outH = size.data<int32_t>()[0];
  *outW = size.data<int32_t>()[1];
  if (*outH <= 0 || *outW <= 0)
    return fail(op.errorf("output dimensions must be positive"));
  if (images.numElements() > 0 && (images.dim(1) <= 0 || images.dim(2) <= 0))
    return fail(op.errorf("input image must be of non-zero size"));
  Status status = ctx->allocateOutput(
      0, TensorShape{images.dim(0), *outH, *outW, images.dim(3)}, out);
  if (!status.ok())
    return fail(std::move(status));
  return true;
}

/// ResizeBilinear(images, size): images [batch, height, width, channels]
/// of any real type, size int32 [new_height, new_width]; float output.
/// For output coordinate y the source is in = (y + 0.5) * scale - 0.5 with
/// half_pixel_centers, else y * scale (scale from resizeScale); lower =
/// max(floor(in), 0), upper = min(ceil(in), size - 1), lerp = in -
/// floor(in); top = tl + (tr - tl) * x_lerp, bottom likewise, out = top +
/// (bottom - top) * y_lerp, in float.
template <typename T> class ResizeBilinearKernel final : public OpKernel {
public:
  explicit ResizeBilinearKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "align_corners", &alignCorners_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "half_pixel_centers", &halfPixel_));
  }

  struct Interp {
    int64_t lower, upper;
    float lerp;
  };

  std::vector<Interp> weights(int64_t in, int64_t out) const {
    const float scale = resizeScale(in, out, alignCorners_);
    std::vector<Interp> w(out);
    for (int64_t i = 0; i < out; ++i) {
      const float src = halfPixel_
                            ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                            : static_cast<float>(i) * scale;
      const float srcFloor = std::floor(src);
      w[i].lower = std::max(static_cast<int64_t>(srcFloor), int64_t(0));
      w[i].upper = std::min(static_cast<int64_t>(std::ceil(src)), in - 1);
      w[i].lerp = src - srcFloor;
    }
    return w;
  }

  void compute(OpKernelContextInterface *ctx) override {
    int64_t outH, outW;
    Tensor *out = nullptr;
    if (!prepareResize(*this, ctx, alignCorners_, halfPixel_, &outH, &outW,
                       &out))
      return;
    if (out->numElements() == 0)
      return;
    const Tensor &images = ctx->input(0);
    const int64_t inH = images.dim(1), inW = images.dim(2);
    const int64_t c = images.dim(3);
    const std::vector<Interp> ys = weights(inH, outH), xs = weights(inW, outW);
    const T *in = images.data<T>();
    float *po = out->data<float>();
    kernels::parallelFor(
        ctx->eigenDevice(), images.dim(0) * outH,
        Eigen::TensorOpCost(0, 0, static_cast<double>(outW * c * 8)),
        [&](Eigen::Index first, Eigen::Index last) {
          std::vector<float> top(c), bottom(c), tmp(c);
          for (Eigen::Index row = first; row < last; ++row) {
            const int64_t b = row / outH;
            const Interp &y = ys[row % outH];
            const T *rowT = in + (b * inH + y.lower) * inW * c;
            const T *rowB = in + (b * inH + y.upper) * inW * c;
            float *o = po + row * outW * c;
            for (int64_t ox = 0; ox < outW; ++ox, o += c) {
              const Interp &x = xs[ox];
              auto load = [&](const T *p) {
                return ConstArrayMap<T>(p, c).template cast<float>();
              };
              ArrayMap<float> t(top.data(), c), bt(bottom.data(), c);
              t = load(rowT + x.lower * c);
              t += (load(rowT + x.upper * c) - t) * x.lerp;
              bt = load(rowB + x.lower * c);
              bt += (load(rowB + x.upper * c) - bt) * x.lerp;
              ArrayMap<float>(o, c) = t + (bt - t) * y.lerp;
            }
          }
        });
  }

private:
  bool alignCorners_ = false;
  bool halfPixel_ = false;
};

/// ResizeNearestNeighbor(images, size): output of the input's type. For
/// output coordinate y: with half_pixel_centers src = (y + 0.5) * scale
/// (TF's HalfPixelScalerForNN, no -0.5), else y * scale; the index is
/// round(src) with align_corners, else floor(src), then min(size - 1) and,
/// with half_pixel_centers, max(0).
template <typename T> class ResizeNearestKernel final : public OpKernel {
public:
  explicit ResizeNearestKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "align_corners", &alignCorners_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "half_pixel_centers", &halfPixel_));
  }

  std::vector<int64_t> indices(int64_t in, int64_t out) const {
    const float scale = resizeScale(in, out, alignCorners_);
    std::vector<int64_t> idx(out);
    for (int64_t i = 0; i < out; ++i) {
      const float src = halfPixel_ ? (static_cast<float>(i) + 0.5f) * scale
                                   : static_cast<float>(i) * scale;
      int64_t v =
          std::min(alignCorners_ ? static_cast<int64_t>(std::round(src))
                                 : static_cast<int64_t>(std::floor(src)),
                   in - 1);
      if (halfPixel_)
        v = std::max<int64_t>(0, v);
      idx[i] = v;
    }
    return idx;
  }

  void compute(OpKernelContextInterface *ctx) override {
    int64_t outH, outW;
    Tensor *out = nullptr;
    if (!prepareResize(*this, ctx, alignCorners_, halfPixel_, &outH, &outW,
                       &out))
      return;
    if (out->numElements() == 0)
      return;
    const Tensor &images = ctx->input(0);
    const int64_t inH = images.dim(1), inW = images.dim(2);
    const int64_t c = images.dim(3);
    const std::vector<int64_t> ys = indices(inH, outH), xs = indices(inW, outW);
    const T *in = images.data<T>();
    T *po = out->data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), images.dim(0) * outH,
        elementCost<T>(1, 1, 0) * (outW * c),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index row = first; row < last; ++row) {
            const int64_t b = row / outH;
            const T *src = in + (b * inH + ys[row % outH]) * inW * c;
            T *o = po + row * outW * c;
            for (int64_t ox = 0; ox < outW; ++ox, o += c)
              std::copy(src + xs[ox] * c, src + xs[ox] * c + c, o);
          }
        });
  }

private:
  bool alignCorners_ = false;
  bool halfPixel_ = false;
};

} // namespace

void registerImageKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  registerKernel<OpId::kResizeBilinear, ResizeBilinearKernel, float, double,
                 half, bf16, int32_t, int64_t, uint8_t, int8_t, int16_t,
                 uint16_t>(registry);
  registerKernel<OpId::kResizeNearestNeighbor, ResizeNearestKernel, float,
                 double, half, bf16, int32_t, int64_t, uint8_t, int8_t, int16_t,
                 uint16_t>(registry);
}

} // namespace tfrt_fallback::rt

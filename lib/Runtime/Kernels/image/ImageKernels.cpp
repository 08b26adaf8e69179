//===- ImageKernels.cpp - Image resizing ------------------------*- C++ -*-===//
//
// ResizeBilinear, ResizeNearestNeighbor and ResizeBicubic on NHWC images
// with TF's exact coordinate transforms (align_corners, half_pixel_centers,
// and the legacy transform when neither is set), and CropAndResize. Rows of
// channels are processed as vectors; the work is split over output rows.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
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
          for (Eigen::Index row = first; row < last; ++row) {
            const int64_t b = row / outH;
            const Interp &y = ys[row % outH];
            const T *rowT = in + (b * inH + y.lower) * inW * c;
            const T *rowB = in + (b * inH + y.upper) * inW * c;
            float *o = po + row * outW * c;
            const float yLerp = y.lerp;
            for (int64_t ox = 0; ox < outW; ++ox, o += c) {
              const Interp &x = xs[ox];
              const T *tl = rowT + x.lower * c, *tr = rowT + x.upper * c;
              const T *bl = rowB + x.lower * c, *br = rowB + x.upper * c;
              const float xLerp = x.lerp;
              // TF's compute_lerp, one pass over the channels (the
              // compiler vectorizes it).
              for (int64_t i = 0; i < c; ++i) {
                const float topLeft = static_cast<float>(tl[i]);
                const float bottomLeft = static_cast<float>(bl[i]);
                const float top =
                    topLeft + (static_cast<float>(tr[i]) - topLeft) * xLerp;
                const float bottom =
                    bottomLeft +
                    (static_cast<float>(br[i]) - bottomLeft) * xLerp;
                o[i] = top + (bottom - top) * yLerp;
              }
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

//===----------------------------------------------------------------------===//
// ResizeBicubic
//===----------------------------------------------------------------------===//

/// TF's cubic convolution table: 1025 samples of the kernel with parameter
/// a (-0.5, Keys, with half_pixel_centers; -0.75 otherwise) on [0, 1] and
/// [1, 2], computed in double and stored as float.
const float *cubicTable(bool keys) {
  auto make = [](double a) {
    static constexpr int kSize = 1 << 10;
    float *table = new float[(kSize + 1) * 2];
    for (int i = 0; i <= kSize; ++i) {
      float x = static_cast<float>(i * 1.0 / kSize);
      table[i * 2] = static_cast<float>(((a + 2) * x - (a + 3)) * x * x + 1);
      x += 1.0f;
      table[i * 2 + 1] =
          static_cast<float>(((a * x - 5 * a) * x + 8 * a) * x - 4 * a);
    }
    return table;
  };
  static const float *keysTable = make(-0.5f);
  static const float *legacyTable = make(-0.75f);
  return keys ? keysTable : legacyTable;
}

/// ResizeBicubic(images, size): float output. Source coordinate as
/// ResizeBilinear's; the 4 taps around floor(in) are clamped into the
/// image; weights from TF's table at round((in - floor(in)) * 1024). With
/// half_pixel_centers (Keys' kernel, a = -0.5) taps outside the image get
/// weight 0 and the rest are renormalized; without it the legacy kernel
/// (a = -0.75) keeps its weights on the clamped taps. Each output is the
/// x-weighted sum (left to right) of the y-interpolations of its 4
/// columns, in float, as TF's CPU kernel.
template <typename T> class ResizeBicubicKernel final : public OpKernel {
public:
  explicit ResizeBicubicKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "align_corners", &alignCorners_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "half_pixel_centers", &halfPixel_));
  }

  struct Taps {
    float w[4];
    int64_t index[4];
  };

  std::vector<Taps> taps(int64_t in, int64_t out) const {
    const float scale = resizeScale(in, out, alignCorners_);
    const float *table = cubicTable(halfPixel_);
    constexpr int64_t kSize = 1 << 10;
    std::vector<Taps> result(out);
    for (int64_t i = 0; i < out; ++i) {
      const float src = halfPixel_
                            ? (static_cast<float>(i) + 0.5f) * scale - 0.5f
                            : static_cast<float>(i) * scale;
      const int64_t loc = static_cast<int64_t>(std::floor(src));
      const float delta = src - static_cast<float>(loc);
      const int64_t offset = std::lrint(delta * kSize);
      Taps &t = result[i];
      const float w[4] = {table[offset * 2 + 1], table[offset * 2],
                          table[(kSize - offset) * 2],
                          table[(kSize - offset) * 2 + 1]};
      for (int k = 0; k < 4; ++k) {
        const int64_t want = loc - 1 + k;
        t.index[k] = std::min(in - 1, std::max<int64_t>(0, want));
        t.w[k] = !halfPixel_ || t.index[k] == want ? w[k] : 0.0f;
      }
      if (halfPixel_) {
        const float sum = t.w[0] + t.w[1] + t.w[2] + t.w[3];
        if (std::abs(sum) >= 1000.0f * std::numeric_limits<float>::min()) {
          const float inv = 1.0f / sum;
          for (float &x : t.w)
            x *= inv;
        }
      }
    }
    return result;
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
    const std::vector<Taps> ys = taps(inH, outH), xs = taps(inW, outW);
    const T *in = images.data<T>();
    float *po = out->data<float>();
    kernels::parallelFor(
        ctx->eigenDevice(), images.dim(0) * outH,
        Eigen::TensorOpCost(0, 0, static_cast<double>(outW * c * 32)),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index row = first; row < last; ++row) {
            const int64_t b = row / outH;
            const Taps &y = ys[row % outH];
            const T *rows[4];
            for (int k = 0; k < 4; ++k)
              rows[k] = in + (b * inH + y.index[k]) * inW * c;
            float *o = po + row * outW * c;
            for (int64_t ox = 0; ox < outW; ++ox)
              for (int64_t ch = 0; ch < c; ++ch) {
                float v[4];
                for (int k = 0; k < 4; ++k) {
                  const int64_t at = xs[ox].index[k] * c + ch;
                  v[k] = static_cast<float>(rows[0][at]) * y.w[0] +
                         static_cast<float>(rows[1][at]) * y.w[1] +
                         static_cast<float>(rows[2][at]) * y.w[2] +
                         static_cast<float>(rows[3][at]) * y.w[3];
                }
                const float *w = xs[ox].w;
                o[ox * c + ch] =
                    v[0] * w[0] + v[1] * w[1] + v[2] * w[2] + v[3] * w[3];
              }
          }
        });
  }

private:
  bool alignCorners_ = false;
  bool halfPixel_ = false;
};

//===----------------------------------------------------------------------===//
// CropAndResize
//===----------------------------------------------------------------------===//

/// CropAndResize(image [batch, h, w, depth], boxes [n, 4] float (y1, x1,
/// y2, x2, normalized), box_ind [n] int32, crop_size [2] int32; method
/// "bilinear" or "nearest", extrapolation_value 0): float crops [n,
/// crop_h, crop_w, depth]. Sample y of a box is at y1 * (h - 1) + y *
/// (y2 - y1) * (h - 1) / (crop_h - 1) (the box's centre when crop_h is 1);
/// samples outside the image take extrapolation_value; bilinear lerps the
/// 4 neighbours as ResizeBilinear, nearest rounds half away from zero. TF's
/// errors: "input image must be 4-D[..]", "image dimensions must be
/// positive", "boxes must be 2-D, got: [..]", "box_indices must be rank 1
/// but is shape [..]", "box_index has incompatible shape", "crop_size must
/// be 1-D[..]", "crop dimensions must be positive", "Boxes contains at
/// least one element that is not finite", and (OutOfRange) "box_index has
/// values outside [0, batch_size)".
template <typename T> class CropAndResizeKernel final : public OpKernel {
public:
  explicit CropAndResizeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string method = "bilinear";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "method", &method));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, method == "bilinear" || method == "nearest",
        errorf("method must be 'bilinear' or 'nearest'%s", method));
    nearest_ = method == "nearest";
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "extrapolation_value", &extrapolation_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &image = ctx->input(0);
    const Tensor &boxes = ctx->input(1);
    const Tensor &boxInd = ctx->input(2);
    const Tensor &cropSize = ctx->input(3);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, image.rank() == 4,
        errorf("input image must be 4-D%s", image.shape().toString()));
    const int64_t batch = image.dim(0), h = image.dim(1), w = image.dim(2);
    const int64_t depth = image.dim(3);
    TFRT_FALLBACK_OP_REQUIRES(ctx, h > 0 && w > 0,
                              errorf("image dimensions must be positive"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, boxes.rank() == 2,
        errorf("boxes must be 2-D, got: %s", boxes.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, boxInd.rank() == 1,
                              errorf("box_indices must be rank 1 but is shape "
                                     "%s",
                                     boxInd.shape().toString()));
    const int64_t n = boxes.dim(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, boxes.dim(1) == 4,
                              errorf("boxes must have 4 columns"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, boxInd.dim(0) == n,
                              errorf("box_index has incompatible shape"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, cropSize.rank() == 1,
        errorf("crop_size must be 1-D%s", cropSize.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, cropSize.numElements() == 2,
                              errorf("crop_size must have two elements%s",
                                     cropSize.shape().toString()));
    const int64_t cropH = cropSize.data<int32_t>()[0];
    const int64_t cropW = cropSize.data<int32_t>()[1];
    TFRT_FALLBACK_OP_REQUIRES(ctx, cropH > 0 && cropW > 0,
                              errorf("crop dimensions must be positive"));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{n, cropH, cropW, depth}, &out));
    const int32_t *ind = boxInd.data<int32_t>();
    for (int64_t b = 0; b < n; ++b)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ind[b] >= 0 && ind[b] < batch,
          makeOpError(StatusCode::kOutOfRange, opName(), nodeName(),
                      "box_index has values outside [0, batch_size)"));
    const float *bx = boxes.data<float>();
    for (int64_t i = 0; i < boxes.numElements(); ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, std::isfinite(bx[i]),
          errorf("Boxes contains at least one element that is not finite"));
    const T *img = image.data<T>();
    float *po = out->data<float>();
    auto pixel = [&](int64_t bin, int64_t y, int64_t x, int64_t d) {
      return static_cast<float>(img[((bin * h + y) * w + x) * depth + d]);
    };
    for (int64_t b = 0; b < n; ++b) {
      const float y1 = bx[4 * b], x1 = bx[4 * b + 1];
      const float y2 = bx[4 * b + 2], x2 = bx[4 * b + 3];
      const int64_t bin = ind[b];
      const int ih = static_cast<int>(h - 1), iw = static_cast<int>(w - 1);
      const float hScale =
          cropH > 1 ? (y2 - y1) * ih / static_cast<int>(cropH - 1) : 0;
      const float wScale =
          cropW > 1 ? (x2 - x1) * iw / static_cast<int>(cropW - 1) : 0;
      for (int64_t y = 0; y < cropH; ++y) {
        float *row = po + ((b * cropH + y) * cropW) * depth;
        const float inY = cropH > 1 ? y1 * ih + static_cast<int>(y) * hScale
                                    : static_cast<float>(0.5 * (y1 + y2) * ih);
        if (inY < 0 || inY > ih) {
          std::fill(row, row + cropW * depth, extrapolation_);
          continue;
        }
        const int top = static_cast<int>(std::floor(inY));
        const int bottom = static_cast<int>(std::ceil(inY));
        const float yLerp = inY - top;
        for (int64_t x = 0; x < cropW; ++x) {
          float *o = row + x * depth;
          const float inX = cropW > 1
                                ? x1 * iw + static_cast<int>(x) * wScale
                                : static_cast<float>(0.5 * (x1 + x2) * iw);
          if (inX < 0 || inX > iw) {
            std::fill(o, o + depth, extrapolation_);
            continue;
          }
          if (nearest_) {
            const int cx = static_cast<int>(std::round(inX));
            const int cy = static_cast<int>(std::round(inY));
            for (int64_t d = 0; d < depth; ++d)
              o[d] = pixel(bin, cy, cx, d);
            continue;
          }
          const int left = static_cast<int>(std::floor(inX));
          const int right = static_cast<int>(std::ceil(inX));
          const float xLerp = inX - left;
          for (int64_t d = 0; d < depth; ++d) {
            const float tl = pixel(bin, top, left, d);
            const float tr = pixel(bin, top, right, d);
            const float bl = pixel(bin, bottom, left, d);
            const float br = pixel(bin, bottom, right, d);
            const float t = tl + (tr - tl) * xLerp;
            const float bo = bl + (br - bl) * xLerp;
            o[d] = t + (bo - t) * yLerp;
          }
        }
      }
    }
  }

private:
  bool nearest_ = false;
  float extrapolation_ = 0.0f;
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
  registerKernel<OpId::kResizeBicubic, ResizeBicubicKernel, float, double, half,
                 bf16, int32_t, int64_t, uint8_t, int8_t, int16_t, uint16_t>(
      registry);
  registerKernel<OpId::kCropAndResize, CropAndResizeKernel, float, double, half,
                 int32_t, int64_t, uint8_t, int8_t, int16_t, uint16_t>(
      registry);
}

} // namespace tfrt_fallback::rt

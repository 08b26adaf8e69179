//===- ColorKernels.cpp - Color space and adjustments -----------*- C++ -*-===//
//
// Per-pixel color ops on [..., 3] (or [..., H, W, C]) images
// (tensorflow/core/kernels/image/colorspace_op.h, adjust_hue_op.cc,
// adjust_saturation_op.cc, adjust_contrast_op.cc): RGBToHSV, HSVToRGB,
// AdjustHue, AdjustSaturation, AdjustContrastv2 and AdjustContrast, with
// TF's formulas step by step so results round as TF's CPU kernels do.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// TF's checks of a [..., 3] image: "input must be at least 1D[]" and, as
/// a FailedPrecondition, "input must have 3 channels but input only has 4
/// channels.".
Status checkRgb(const OpKernel &op, const Tensor &in) {
  if (in.rank() < 1)
    return op.errorf("input must be at least 1D%s", in.shape().toString());
  const int64_t channels = in.dim(in.rank() - 1);
  if (channels != 3)
    return makeOpError(StatusCode::kFailedPrecondition, op.opName(),
                       op.nodeName(),
                       strCat("input must have 3 channels but input only has ",
                              channels, " channels."));
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// RGBToHSV, HSVToRGB
//===----------------------------------------------------------------------===//

/// RGBToHSV(images: [..., 3]): V = max, S = (V - min) / V (0 when V is 0),
/// H in [0, 1) from the channel holding the max (0 for grey), as TF's
/// colorspace functor. HSVToRGB inverts it: each channel is V * (1 - S +
/// S * clamp(f(6H), 0, 1)). Computed in T (f16/bf16 in f32).
template <typename T, bool ToHsv>
class ColorSpaceKernel final : public OpKernel {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;

public:
  explicit ColorSpaceKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRgb(*this, in));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    kernels::parallelFor(ctx->eigenDevice(), in.numElements() / 3,
                         elementCost<T>(3, 3, 20),
                         [=](Eigen::Index first, Eigen::Index last) {
                           for (Eigen::Index i = first; i < last; ++i) {
                             const A a = static_cast<A>(src[3 * i]);
                             const A b = static_cast<A>(src[3 * i + 1]);
                             const A c = static_cast<A>(src[3 * i + 2]);
                             A x, y, z;
                             if (ToHsv)
                               rgbToHsv(a, b, c, &x, &y, &z);
                             else
                               hsvToRgb(a, b, c, &x, &y, &z);
                             dst[3 * i] = static_cast<T>(x);
                             dst[3 * i + 1] = static_cast<T>(y);
                             dst[3 * i + 2] = static_cast<T>(z);
                           }
                         });
  }

private:
  static void rgbToHsv(A r, A g, A b, A *h, A *s, A *v) {
    const A vv = std::max(std::max(r, g), b);
    const A range = vv - std::min(std::min(r, g), b);
    *s = vv > A(0) ? range / vv : A(0);
    const A norm = (A(1) / range) * (A(1) / A(6));
    A hh;
    if (r == vv)
      hh = norm * (g - b);
    else if (g == vv)
      hh = norm * (b - r) + A(2) / A(6);
    else
      hh = norm * (r - g) + A(4) / A(6);
    if (!(range > A(0)))
      hh = A(0);
    if (hh < A(0))
      hh = hh + A(1);
    *h = hh;
    *v = vv;
  }

  static void hsvToRgb(A h, A s, A v, A *r, A *g, A *b) {
    const A dh = h * A(6);
    auto clamp01 = [](A x) { return std::min(std::max(x, A(0)), A(1)); };
    const A dr = clamp01(std::abs(dh - A(3)) - A(1));
    const A dg = clamp01(-std::abs(dh - A(2)) + A(2));
    const A db = clamp01(-std::abs(dh - A(4)) + A(2));
    const A oneS = -s + A(1);
    *r = (oneS + s * dr) * v;
    *g = (oneS + s * dg) * v;
    *b = (oneS + s * db) * v;
  }
};

template <typename T> using RgbToHsv = ColorSpaceKernel<T, true>;
template <typename T> using HsvToRgb = ColorSpaceKernel<T, false>;

//===----------------------------------------------------------------------===//
// AdjustHue, AdjustSaturation
//===----------------------------------------------------------------------===//

/// TF's rgb_to_hv_range: the hue in [0, 6) and the min and max channel.
void rgbToHvRange(float r, float g, float b, float *h, float *vMin,
                  float *vMax) {
  float vMid;
  int category;
  if (r < g) {
    if (b < r) {
      *vMax = g, vMid = r, *vMin = b, category = 1;
    } else if (b > g) {
      *vMax = b, vMid = g, *vMin = r, category = 3;
    } else {
      *vMax = g, vMid = b, *vMin = r, category = 2;
    }
  } else {
    if (b < g) {
      *vMax = r, vMid = g, *vMin = b, category = 0;
    } else if (b > r) {
      *vMax = b, vMid = r, *vMin = g, category = 4;
    } else {
      *vMax = r, vMid = b, *vMin = g, category = 5;
    }
  }
  if (*vMax == *vMin) {
    *h = 0;
    return;
  }
  const float ratio = (vMid - *vMin) / (*vMax - *vMin);
  const bool increase = (category & 1) == 0;
  *h = category + (increase ? ratio : 1 - ratio);
}

/// TF's hv_range_to_rgb.
void hvRangeToRgb(float h, float vMin, float vMax, float *r, float *g,
                  float *b) {
  const int category = static_cast<int>(h);
  float ratio = h - category;
  if (category & 1)
    ratio = 1 - ratio;
  const float vMid = vMin + ratio * (vMax - vMin);
  switch (category) {
  case 0:
    *r = vMax, *g = vMid, *b = vMin;
    break;
  case 1:
    *r = vMid, *g = vMax, *b = vMin;
    break;
  case 2:
    *r = vMin, *g = vMax, *b = vMid;
    break;
  case 3:
    *r = vMin, *g = vMid, *b = vMax;
    break;
  case 4:
    *r = vMid, *g = vMin, *b = vMax;
    break;
  default:
    *r = vMax, *g = vMin, *b = vMid;
  }
}

/// TF's adjust_saturation rgb_to_hsv / hsv_to_rgb (float).
void rgbToHsvF(float r, float g, float b, float *h, float *s, float *v) {
  const float vv = std::max(r, std::max(g, b));
  const float range = vv - std::min(r, std::min(g, b));
  *s = vv > 0 ? range / vv : 0;
  const float norm = 1.0f / (6.0f * range);
  float hh;
  if (r == vv)
    hh = norm * (g - b);
  else if (g == vv)
    hh = norm * (b - r) + static_cast<float>(2.0 / 6.0);
  else
    hh = norm * (r - g) + static_cast<float>(4.0 / 6.0);
  if (range <= 0.0f)
    hh = 0;
  if (hh < 0.0f)
    hh = hh + 1;
  *v = vv;
  *h = hh;
}
void hsvToRgbF(float h, float s, float v, float *r, float *g, float *b) {
  const float c = s * v;
  const float m = v - c;
  const float dh = h * 6;
  const int category = static_cast<int>(dh);
  // TF's loops bring dh into (0, 2); fmod first so a huge value cannot
  // spin (same result within the loops' range).
  float fmodu = dh;
  if (!(std::abs(fmodu) < 1e6f))
    fmodu = std::fmod(fmodu, 2.0f);
  while (fmodu <= 0)
    fmodu += 2.0f;
  while (fmodu >= 2.0f)
    fmodu -= 2.0f;
  const float x = c * (1 - std::abs(fmodu - 1));
  float rr = 0, gg = 0, bb = 0;
  switch (category) {
  case 0:
    rr = c, gg = x;
    break;
  case 1:
    rr = x, gg = c;
    break;
  case 2:
    gg = c, bb = x;
    break;
  case 3:
    gg = x, bb = c;
    break;
  case 4:
    rr = x, bb = c;
    break;
  case 5:
    rr = c, bb = x;
    break;
  default:
    break;
  }
  *r = rr + m;
  *g = gg + m;
  *b = bb + m;
}

/// AdjustHue(images, delta) / AdjustSaturation(images, scale): images
/// [..., H, W, 3] float (at least 3-D: "input must be at least 3-D, got
/// shape[3]"), a scalar float ("delta must be scalar: [2]", "scale must be
/// scalar: [2]"), 3 channels ("input must have 3 channels but instead has
/// 4 channels."). Hue: h += 6 * delta on TF's [0, 6) hue, wrapped; the min
/// and max channel stay. Saturation: s = clamp(s * scale, 0, 1) in HSV.
template <bool Hue> class AdjustHsvKernel final : public OpKernel {
public:
  explicit AdjustHsvKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &amount = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, in.rank() >= 3,
                              errorf("input must be at least 3-D, got shape%s",
                                     in.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, amount.rank() == 0,
                              errorf("%s must be scalar: %s",
                                     Hue ? "delta" : "scale",
                                     amount.shape().toString()));
    const int64_t channels = in.dim(in.rank() - 1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, channels == 3,
        errorf("input must have 3 channels but instead has %d channels.",
               channels));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, Hue ? ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out)
                 : ctx->allocateOutput(0, in.shape(), &out));
    const float value = amount.data<float>()[0];
    const float *src = in.data<float>();
    float *dst = out->data<float>();
    kernels::parallelFor(ctx->eigenDevice(), in.numElements() / 3,
                         elementCost<float>(3, 3, 30),
                         [=](Eigen::Index first, Eigen::Index last) {
                           for (Eigen::Index i = first; i < last; ++i) {
                             const float *p = src + 3 * i;
                             float *q = dst + 3 * i;
                             if (Hue) {
                               float h, vMin, vMax;
                               rgbToHvRange(p[0], p[1], p[2], &h, &vMin, &vMax);
                               h += value * 6;
                               // TF wraps with loops; fmod first keeps a huge
                               // or infinite delta from spinning.
                               if (!(std::abs(h) < 1e6f))
                                 h = std::fmod(h, 6.0f);
                               while (h < 0)
                                 h += 6;
                               while (h >= 6)
                                 h -= 6;
                               hvRangeToRgb(h, vMin, vMax, q, q + 1, q + 2);
                             } else {
                               float h, s, v;
                               rgbToHsvF(p[0], p[1], p[2], &h, &s, &v);
                               s = std::min(1.0f, std::max(0.0f, s * value));
                               hsvToRgbF(h, s, v, q, q + 1, q + 2);
                             }
                           }
                         });
  }
};

//===----------------------------------------------------------------------===//
// AdjustContrastv2, AdjustContrast
//===----------------------------------------------------------------------===//

/// AdjustContrastv2(images: float [..., H, W, C], contrast_factor): per
/// image and channel, mean + factor * (x - mean), the mean summed pairwise
/// over the H * W pixels (TF's halving reduction) and scaled by
/// 1 / (H * W). AdjustContrast (v1; uint8, int8, int16, int32, int64,
/// float, double in, float out): the same with the mean a plain float sum
/// divided by H * W, then clamped to [min_value, max_value]. TF's errors:
/// "input must be at least 3-D, got shape[..]", "contrast_factor must be
/// scalar: [..]", "min_value must be scalar: [..]".
template <typename T, bool V2>
class AdjustContrastKernel final : public OpKernel {
public:
  explicit AdjustContrastKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &factorT = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, in.rank() >= 3,
                              errorf("input must be at least 3-D, got shape%s",
                                     in.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, factorT.rank() == 0,
                              errorf("contrast_factor must be scalar: %s",
                                     factorT.shape().toString()));
    float lo = 0, hi = 0;
    if (!V2) {
      for (int i : {2, 3}) {
        const Tensor &t = ctx->input(i);
        TFRT_FALLBACK_OP_REQUIRES(ctx, t.rank() == 0,
                                  errorf("%s must be scalar: %s",
                                         i == 2 ? "min_value" : "max_value",
                                         t.shape().toString()));
      }
      lo = ctx->input(2).data<float>()[0];
      hi = ctx->input(3).data<float>()[0];
    }
    const int64_t h = in.dim(in.rank() - 3), w = in.dim(in.rank() - 2);
    const int64_t c = in.dim(in.rank() - 1);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    if (in.numElements() == 0)
      return;
    const int64_t pixels = h * w;
    const int64_t batch = in.numElements() / (pixels * c);
    const float factor = factorT.data<float>()[0];
    const T *src = in.data<T>();
    float *dst = out->data<float>();
    std::vector<float> scratch(V2 ? pixels * c : 0), mean(c);
    for (int64_t b = 0; b < batch; ++b) {
      const T *x = src + b * pixels * c;
      float *y = dst + b * pixels * c;
      if (V2) {
        pairwiseMean(reinterpret_cast<const float *>(x), pixels, c,
                     scratch.data(), mean.data());
      } else {
        for (int64_t k = 0; k < c; ++k) {
          float sum = 0;
          for (int64_t p = 0; p < pixels; ++p)
            sum += static_cast<float>(x[p * c + k]);
          mean[k] = sum / static_cast<float>(pixels);
        }
      }
      for (int64_t p = 0; p < pixels; ++p)
        for (int64_t k = 0; k < c; ++k) {
          const float v = static_cast<float>(x[p * c + k]);
          if (V2)
            y[p * c + k] = mean[k] + factor * (v - mean[k]);
          else
            y[p * c + k] =
                std::max(std::min((v - mean[k]) * factor + mean[k], hi), lo);
        }
    }
  }

private:
  /// TF's ReduceMeanAcrossImage: the pixel rows are halved repeatedly
  /// (left half plus right half, the odd middle row carried), then scaled
  /// by 1 / pixels.
  static void pairwiseMean(const float *x, int64_t pixels, int64_t c,
                           float *scratch, float *mean) {
    int64_t remaining = pixels;
    bool first = true;
    do {
      const int64_t right = remaining / 2, left = remaining - right;
      const float *from = first ? x : scratch;
      for (int64_t i = 0; i < right * c; ++i)
        scratch[i] = from[left * c + i] + from[i];
      if (first && left > right)
        for (int64_t i = 0; i < c; ++i)
          scratch[right * c + i] = x[right * c + i];
      remaining = left;
      first = false;
    } while (remaining > 1);
    if (pixels == 1)
      for (int64_t i = 0; i < c; ++i)
        scratch[i] = x[i];
    const float scale = 1.0f / static_cast<float>(pixels);
    for (int64_t i = 0; i < c; ++i)
      mean[i] = scratch[i] * scale;
  }
};

template <typename T> using AdjustContrastV1 = AdjustContrastKernel<T, false>;

} // namespace

void registerColorKernels(KernelRegistry &registry) {
  registerKernel<OpId::kRGBToHSV, RgbToHsv>(registry, FloatTypes{});
  registerKernel<OpId::kHSVToRGB, HsvToRgb>(registry, FloatTypes{});
  // TF's CPU kernels of these three are float only.
  registerKernel<OpId::kAdjustHue, AdjustHsvKernel<true>>(
      registry, {{"T", {DType::F32}}});
  registerKernel<OpId::kAdjustSaturation, AdjustHsvKernel<false>>(
      registry, {{"T", {DType::F32}}});
  registerKernel<OpId::kAdjustContrastv2, AdjustContrastKernel<float, true>>(
      registry, {{"T", {DType::F32}}});
  registerKernel<OpId::kAdjustContrast, AdjustContrastV1, uint8_t, int8_t,
                 int16_t, int32_t, int64_t, float, double>(registry);
}

} // namespace tfrt_fallback::rt

//===- ImageTransformKernels.cpp - Projective image transforms --*- C++ -*-===//
//
// ImageProjectiveTransformV2 and ImageProjectiveTransformV3 with TF's CPU
// kernel (tensorflow/core/kernels/image/image_ops.cc, image_ops.h), for the
// dtypes TF registers: uint8, int32, int64, half, bfloat16, float, double.
//
// images [batch, height, width, channels], transforms float [batch or 1,
// 8], output_shape int32 [2] = {out_height, out_width} (both > 0), and for
// V3 fill_value (float scalar; V2 fills with 0). Output pixel (y, x) of
// image b, with transform [a0 a1 a2 b0 b1 b2 c0 c1] (row b, or the only
// row), reads the input at
//   k = c0 * x + c1 * y + 1;  in_x = (a0 * x + a1 * y + a2) / k,
//                             in_y = (b0 * x + b1 * y + b2) / k
// (k == 0 gives fill_value), all in float. fill_mode maps a coordinate
// outside [0, len - 1]: REFLECT (d c b a | a b c d | d c b a), WRAP
// (a b c d | a b c d), NEAREST (clamp), CONSTANT (unchanged: the pixels
// outside read fill_value); REFLECT and WRAP then clamp to [0, len - 1].
// interpolation NEAREST reads the pixel at the rounded coordinates (half
// away from zero), BILINEAR blends the four neighbours in float (those
// outside the image read fill_value), converted back to the dtype.
//
// Defined where TF's is not: an output pixel whose (mapped) coordinates
// are NaN or beyond +-2^62 (TF casts them to int64, undefined) is
// fill_value; a float result converted to an integer dtype saturates at
// the dtype's range (NaN: 0) where TF's static_cast is undefined (e.g.
// fill_value -1 for uint8); an unknown interpolation or fill_mode is an
// error at construction (TF logs it and goes on with an indeterminate
// mode).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

enum class Interpolation { Nearest, Bilinear };
enum class FillMode { Reflect, Wrap, Constant, Nearest };

/// 2^62: coordinates at least this large (or NaN) read fill_value.
constexpr float kIndexLimit = 4611686018427387904.0f;

/// `v` as int64 when |v| < 2^62, else `outside` (NaN too).
inline int64_t toIndex(float v, int64_t outside) {
  return v > -kIndexLimit && v < kIndexLimit ? static_cast<int64_t>(v)
                                             : outside;
}

/// TF's int64 product n * (toIndex(q) + plus) as float; in double, so a
/// product beyond int64 (TF: overflow) stays defined.
inline float times(int64_t n, float q, int plus = 0) {
  return static_cast<float>(static_cast<double>(n) *
                            (static_cast<double>(toIndex(q, 0)) + plus));
}

/// float -> T as TF's T(float), saturating for integer T (NaN: 0).
template <typename T> T fromFloat(float v) {
  if constexpr (std::is_integral_v<T>) {
    if (std::isnan(v))
      return T(0);
    if (v <= static_cast<float>(std::numeric_limits<T>::lowest()))
      return std::numeric_limits<T>::lowest();
    // 2^31 and 2^63 round up in float: >= catches them.
    if (v >= static_cast<float>(std::numeric_limits<T>::max()))
      return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  } else {
    return static_cast<T>(v);
  }
}

/// TF's MapCoordinate for `mode` over a dimension of `len` pixels.
inline float mapCoordinate(FillMode mode, float in, int64_t len) {
  auto clampTo = [len](float v) {
    const float hi = static_cast<float>(len - 1);
    return v < 0.0f ? 0.0f : (v > hi ? hi : v);
  };
  switch (mode) {
  case FillMode::Reflect:
    if (in < 0) {
      if (len <= 1) {
        in = 0;
      } else {
        const int64_t sz2 = 2 * len;
        if (in < sz2)
          in = times(sz2, -in / sz2) + in;
        in = in < -len ? in + sz2 : -in - 1;
      }
    } else if (in > len - 1) {
      if (len <= 1) {
        in = 0;
      } else {
        const int64_t sz2 = 2 * len;
        in -= times(sz2, in / sz2);
        if (in >= len)
          in = sz2 - in - 1;
      }
    }
    return std::isnan(in) ? in : clampTo(in);
  case FillMode::Wrap:
    if (in < 0) {
      if (len <= 1) {
        in = 0;
      } else {
        const int64_t sz = len - 1;
        in += times(len, -in / sz, 1);
      }
    } else if (in > len - 1) {
      if (len <= 1) {
        in = 0;
      } else {
        const int64_t sz = len - 1;
        in -= times(len, in / sz);
      }
    }
    return std::isnan(in) ? in : clampTo(in);
  case FillMode::Constant:
    return in;
  case FillMode::Nearest:
    return std::isnan(in) ? in : clampTo(in);
  }
  return in;
}

/// ImageProjectiveTransformV2 / V3 (file header); V3 takes fill_value.
template <typename T, bool V3>
class ImageProjectiveTransformKernel final : public OpKernel {
public:
  explicit ImageProjectiveTransformKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string interpolation, mode = "CONSTANT";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("interpolation", &interpolation));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "fill_mode", &mode));
    if (interpolation == "NEAREST") {
      interpolation_ = Interpolation::Nearest;
    } else if (interpolation == "BILINEAR") {
      interpolation_ = Interpolation::Bilinear;
    } else {
      ctx->ctxFailure(errorf("Invalid interpolation %s. Supported types: "
                             "NEAREST, BILINEAR",
                             interpolation));
      return;
    }
    if (mode == "REFLECT")
      mode_ = FillMode::Reflect;
    else if (mode == "WRAP")
      mode_ = FillMode::Wrap;
    else if (mode == "CONSTANT")
      mode_ = FillMode::Constant;
    else if (mode == "NEAREST")
      mode_ = FillMode::Nearest;
    else
      ctx->ctxFailure(errorf("Invalid mode %s. Supported types: REFLECT, "
                             "WRAP, CONSTANT, NEAREST",
                             mode));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &images = ctx->input(0);
    const Tensor &transforms = ctx->input(1);
    const Tensor &shapeT = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(ctx, images.rank() == 4,
                              errorf("Input images must have rank 4"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        transforms.rank() == 2 &&
            (transforms.dim(0) == images.dim(0) || transforms.dim(0) == 1) &&
            transforms.dim(1) == 8,
        errorf("Input transform should be num_images x 8 or 1 x 8"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, shapeT.rank() == 1,
                              errorf("output shape must be 1-dimensional%s",
                                     shapeT.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, shapeT.numElements() == 2,
                              errorf("output shape must have two elements%s",
                                     shapeT.shape().toString()));
    const int64_t outH = shapeT.data<int32_t>()[0];
    const int64_t outW = shapeT.data<int32_t>()[1];
    TFRT_FALLBACK_OP_REQUIRES(ctx, outH > 0 && outW > 0,
                              errorf("output dimensions must be positive"));
    T fill = T(0);
    if constexpr (V3) {
      const Tensor &fillT = ctx->input(3);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, fillT.rank() == 0,
          errorf("fill_value must be a scalar%s", fillT.shape().toString()));
      fill = fromFloat<T>(fillT.data<float>()[0]);
    }
    const int64_t batch = images.dim(0), inH = images.dim(1),
                  inW = images.dim(2), channels = images.dim(3);
    const int64_t outDims[] = {batch, outH, outW, channels};
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outDims, &out));
    if (out->numElements() == 0)
      return;
    const T *in = images.data<T>();
    const float *tf = transforms.data<float>();
    const bool shared = transforms.dim(0) == 1;
    T *dst = out->data<T>();
    const Interpolation interpolation = interpolation_;
    const FillMode mode = mode_;

    auto read = [&](int64_t b, int64_t y, int64_t x, int64_t c) -> T {
      return y >= 0 && y < inH && x >= 0 && x < inW
                 ? in[((b * inH + y) * inW + x) * channels + c]
                 : fill;
    };
    // One work item per output row (image b, row y).
    parallelFor(
        ctx->eigenDevice(), batch * outH,
        elementCost<T>(4, 1, 30.0 * outW * channels),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index item = first; item < last; ++item) {
            const int64_t b = item / outH, y = item % outH;
            const float *t = shared ? tf : tf + 8 * b;
            T *row = dst + item * outW * channels;
            for (int64_t x = 0; x < outW; ++x) {
              T *px = row + x * channels;
              const float fx = static_cast<float>(x),
                          fy = static_cast<float>(y);
              const float k = t[6] * fx + t[7] * fy + 1.f;
              if (k == 0) {
                std::fill(px, px + channels, fill);
                continue;
              }
              const float inX = (t[0] * fx + t[1] * fy + t[2]) / k;
              const float inY = (t[3] * fx + t[4] * fy + t[5]) / k;
              const float mx = mapCoordinate(mode, inX, inW);
              const float my = mapCoordinate(mode, inY, inH);
              if (!(std::fabs(mx) < kIndexLimit &&
                    std::fabs(my) < kIndexLimit)) {
                std::fill(px, px + channels, fill);
                continue;
              }
              if (interpolation == Interpolation::Nearest) {
                const int64_t iy = toIndex(std::round(my), -1);
                const int64_t ix = toIndex(std::round(mx), -1);
                for (int64_t c = 0; c < channels; ++c)
                  px[c] = read(b, iy, ix, c);
                continue;
              }
              const float y0 = std::floor(my), x0 = std::floor(mx);
              const float y1 = y0 + 1, x1 = x0 + 1;
              const int64_t iy0 = toIndex(y0, -1), ix0 = toIndex(x0, -1);
              const int64_t iy1 = toIndex(y1, -1), ix1 = toIndex(x1, -1);
              for (int64_t c = 0; c < channels; ++c) {
                auto f = [&](int64_t yy, int64_t xx) {
                  return static_cast<float>(read(b, yy, xx, c));
                };
                const float top =
                    (x1 - mx) * f(iy0, ix0) + (mx - x0) * f(iy0, ix1);
                const float bottom =
                    (x1 - mx) * f(iy1, ix0) + (mx - x0) * f(iy1, ix1);
                px[c] = fromFloat<T>((y1 - my) * top + (my - y0) * bottom);
              }
            }
          }
        });
  }

private:
  Interpolation interpolation_ = Interpolation::Nearest;
  FillMode mode_ = FillMode::Constant;
};

template <typename T>
using TransformV2 = ImageProjectiveTransformKernel<T, false>;
template <typename T>
using TransformV3 = ImageProjectiveTransformKernel<T, true>;

/// Registers `Kernel<T>` for `Op` under attribute "dtype" = T, one def per
/// T, subject to the build's kernel selection.
template <OpId Op, template <typename> class Kernel, typename... Ts>
void registerByDType(KernelRegistry &registry) {
  auto one = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (isKernelSelected(Op, dtypeOf<T>()))
      rt::registerKernel<Kernel<T>>(
          registry, KernelDefBuilder(kOpRow<Op>).typeConstraint<T>("dtype"));
  };
  (one(TypeTag<Ts>{}), ...);
}

} // namespace

void registerImageTransformKernels(KernelRegistry &registry) {
  registerByDType<OpId::kImageProjectiveTransformV2, TransformV2, uint8_t,
                  int32_t, int64_t, Eigen::half, Eigen::bfloat16, float,
                  double>(registry);
  registerByDType<OpId::kImageProjectiveTransformV3, TransformV3, uint8_t,
                  int32_t, int64_t, Eigen::half, Eigen::bfloat16, float,
                  double>(registry);
}

} // namespace tfrt_fallback::rt

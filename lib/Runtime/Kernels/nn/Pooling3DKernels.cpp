//===- Pooling3DKernels.cpp - 3-D pooling, argmax pooling, dilation -*- C++
//-*-//
//
// Window reductions beyond the pooling family (tensorflow/core/kernels/
// pooling_ops_3d.cc, maxpooling_op.cc, dilation_ops.cc): AvgPool3D and
// MaxPool3D on NDHWC volumes, MaxPoolWithArgmax (the max and its flat
// index) and Dilation2D (grayscale morphological dilation: the max of
// input + filter over a dilated window). Windows take in-bounds elements
// only; output sizes and SAME padding as convolutions.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/Window.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Reads a 4- or 5-entry window attribute whose batch and channel entries
/// must be 1.
Status readWindowAttr(const OpKernel &op, OpKernelConstructionInterface *ctx,
                      const char *name, const char *what, size_t size,
                      std::vector<int64_t> *value) {
  if (Status s = ctx->getAttr(name, value); !s.ok())
    return s;
  if (value->size() != size)
    return op.errorf("Sliding window %s field must specify %d dimensions", what,
                     size);
  if ((*value)[0] != 1 || value->back() != 1)
    return makeOpError(StatusCode::kUnimplemented, op.opName(), op.nodeName(),
                       "Pooling is not yet supported on the batch or depth "
                       "dimension.");
  for (size_t i = 1; i + 1 < size; ++i)
    if ((*value)[i] <= 0)
      return op.errorf("Sliding window %s must be positive", what);
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// AvgPool3D, MaxPool3D
//===----------------------------------------------------------------------===//

/// AvgPool3D / MaxPool3D(input [n, d, h, w, c]; ksize, strides (5 values,
/// batch and channel 1), padding, data_format NDHWC): the average (over
/// the in-bounds elements, in f32 for f16/bf16) or max of each window (a
/// NaN never wins, as in the Eigen reduction TF uses).
/// "Default Pooling3dOp only supports NDHWC on device type CPU".
template <typename T, bool Max> class Pool3DKernel final : public OpKernel {
  using A = std::conditional_t<std::is_same_v<T, double>, double, float>;

public:
  explicit Pool3DKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    std::string format = "NDHWC";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "data_format", &format));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, format == "NDHWC",
        errorf("Default Pooling3dOp only supports NDHWC on device type CPU"));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readWindowAttr(*this, ctx, "ksize", "ksize", 5, &ksize_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readWindowAttr(*this, ctx, "strides", "stride", 5, &strides_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPadding(*this, ctx, /*allowExplicit=*/false, &padding_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, in.rank() == 5,
                              errorf("tensor_in must be 5-dimensional"));
    std::array<WindowDim, 3> win;
    for (int i = 0; i < 3; ++i)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, computeWindow(*this, in.dim(1 + i), ksize_[1 + i], 1,
                             strides_[1 + i], padding_, 0, 0, &win[i]));
    const int64_t n = in.dim(0), c = in.dim(4);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(
            0, TensorShape{n, win[0].out, win[1].out, win[2].out, c}, &out));
    if (out->numElements() == 0)
      return;
    const T *x = in.data<T>();
    T *y = out->data<T>();
    const int64_t D = in.dim(1), H = in.dim(2), W = in.dim(3);
    const int64_t pixels = n * win[0].out * win[1].out * win[2].out;
    kernels::parallelFor(
        ctx->eigenDevice(), pixels,
        Eigen::TensorOpCost(0, 0,
                            double(ksize_[1] * ksize_[2] * ksize_[3] * c)),
        [&](Eigen::Index first, Eigen::Index last) {
          std::vector<A> acc(c);
          for (Eigen::Index p = first; p < last; ++p) {
            int64_t rest = p;
            const int64_t ox = rest % win[2].out;
            rest /= win[2].out;
            const int64_t oy = rest % win[1].out;
            rest /= win[1].out;
            const int64_t oz = rest % win[0].out;
            const int64_t b = rest / win[0].out;
            std::fill(acc.begin(), acc.end(),
                      Max ? A(-std::numeric_limits<A>::infinity()) : A(0));
            int64_t count = 0;
            for (int64_t kz = 0; kz < ksize_[1]; ++kz) {
              const int64_t z = oz * strides_[1] - win[0].padBefore + kz;
              if (z < 0 || z >= D)
                continue;
              for (int64_t ky = 0; ky < ksize_[2]; ++ky) {
                const int64_t yy = oy * strides_[2] - win[1].padBefore + ky;
                if (yy < 0 || yy >= H)
                  continue;
                for (int64_t kx = 0; kx < ksize_[3]; ++kx) {
                  const int64_t xx = ox * strides_[3] - win[2].padBefore + kx;
                  if (xx < 0 || xx >= W)
                    continue;
                  const T *src = x + (((b * D + z) * H + yy) * W + xx) * c;
                  ++count;
                  for (int64_t ch = 0; ch < c; ++ch) {
                    const A v = static_cast<A>(src[ch]);
                    if (Max)
                      acc[ch] = v > acc[ch] ? v : acc[ch];
                    else
                      acc[ch] += v;
                  }
                }
              }
            }
            T *dst = y + p * c;
            for (int64_t ch = 0; ch < c; ++ch)
              dst[ch] = static_cast<T>(Max || count == 0 ? acc[ch]
                                                         : acc[ch] / A(count));
          }
        });
  }

private:
  std::vector<int64_t> ksize_, strides_;
  WindowPadding padding_ = WindowPadding::Valid;
};

//===----------------------------------------------------------------------===//
// MaxPoolWithArgmax
//===----------------------------------------------------------------------===//

/// MaxPoolWithArgmax(input [n, h, w, c]; ksize, strides, padding,
/// Targmax = int64, include_batch_in_index = false) -> (output, argmax):
/// the max of each window and the flat index of its first occurrence in
/// row-major window order, (y * w + x) * c + ch, plus b * h * w * c with
/// include_batch_in_index (TF's SpatialMaxPoolWithArgMaxHelper: a later
/// element replaces the max only if greater).
template <typename T> class MaxPoolWithArgmaxKernel final : public OpKernel {
public:
  explicit MaxPoolWithArgmaxKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readWindowAttr(*this, ctx, "ksize", "ksize", 4, &ksize_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readWindowAttr(*this, ctx, "strides", "stride", 4, &strides_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPadding(*this, ctx, /*allowExplicit=*/false, &padding_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "include_batch_in_index", &withBatch_));
    const DType argmax = ctx->outputDType(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, argmax == DType::I32 || argmax == DType::I64,
        errorf("Targmax must be int32 or int64, got %s", dtypeName(argmax)));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, in.rank() == 4,
                              errorf("tensor_in must be 4-dimensional"));
    const int64_t n = in.dim(0), H = in.dim(1), W = in.dim(2), c = in.dim(3);
    WindowDim rows, cols;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, computeWindow(*this, H, ksize_[1], 1,
                                                    strides_[1], padding_, 0, 0,
                                                    &rows));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, computeWindow(*this, W, ksize_[2], 1,
                                                    strides_[2], padding_, 0, 0,
                                                    &cols));
    const TensorShape shape{n, rows.out, cols.out, c};
    Tensor *out = nullptr, *arg = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(1, shape, &arg));
    const bool wide = arg->dtype() == DType::I64;
    const T *x = in.data<T>();
    for (int64_t b = 0; b < n; ++b)
      for (int64_t oy = 0; oy < rows.out; ++oy)
        for (int64_t ox = 0; ox < cols.out; ++ox)
          for (int64_t ch = 0; ch < c; ++ch) {
            bool any = false;
            T best = T(0);
            int64_t at = -1;
            for (int64_t ky = 0; ky < ksize_[1]; ++ky) {
              const int64_t y = oy * strides_[1] - rows.padBefore + ky;
              if (y < 0 || y >= H)
                continue;
              for (int64_t kx = 0; kx < ksize_[2]; ++kx) {
                const int64_t xx = ox * strides_[2] - cols.padBefore + kx;
                if (xx < 0 || xx >= W)
                  continue;
                const int64_t index = (y * W + xx) * c + ch;
                const T v = x[b * H * W * c + index];
                if (!any || best < v) {
                  best = v;
                  at = index + (withBatch_ ? b * H * W * c : 0);
                  any = true;
                }
              }
            }
            const int64_t o = ((b * rows.out + oy) * cols.out + ox) * c + ch;
            out->data<T>()[o] = any ? best : std::numeric_limits<T>::lowest();
            if (wide)
              arg->data<int64_t>()[o] = at;
            else
              arg->data<int32_t>()[o] = static_cast<int32_t>(at);
          }
  }

private:
  std::vector<int64_t> ksize_, strides_;
  WindowPadding padding_ = WindowPadding::Valid;
  bool withBatch_ = false;
};

//===----------------------------------------------------------------------===//
// Dilation2D
//===----------------------------------------------------------------------===//

/// Dilation2D(input [n, h, w, c], filter [fh, fw, c]; strides, rates (4
/// values, batch and channel 1), padding): output[b, y, x, ch] = max over
/// the in-bounds (i, j) of input[b, y * sr - pad_top + i * rr, x * sc -
/// pad_left + j * rc, ch] + filter[i, j, ch] (the lowest value when none
/// is in bounds). Output sizes and padding use the dilated filter size (f -
/// 1) * rate + 1. TF's errors: "input must be 4-dimensional[..]", "filter
/// must be 3-dimensional: [..]", "input and filter must have the same
/// depth: 3 vs 2".
template <typename T> class Dilation2DKernel final : public OpKernel {
public:
  explicit Dilation2DKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readWindowAttr(*this, ctx, "strides", "stride", 4, &strides_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readWindowAttr(*this, ctx, "rates", "rate", 4, &rates_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPadding(*this, ctx, /*allowExplicit=*/false, &padding_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &filter = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.rank() == 4,
        errorf("input must be 4-dimensional%s", in.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filter.rank() == 3,
        errorf("filter must be 3-dimensional: %s", filter.shape().toString()));
    const int64_t n = in.dim(0), H = in.dim(1), W = in.dim(2), c = in.dim(3);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filter.dim(2) == c,
        errorf("input and filter must have the same depth: %d vs %d", c,
               filter.dim(2)));
    const int64_t fh = filter.dim(0), fw = filter.dim(1);
    WindowDim rows, cols;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeWindow(*this, H, fh + (fh - 1) * (rates_[1] - 1), 1,
                           strides_[1], padding_, 0, 0, &rows));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeWindow(*this, W, fw + (fw - 1) * (rates_[2] - 1), 1,
                           strides_[2], padding_, 0, 0, &cols));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(0, TensorShape{n, rows.out, cols.out, c}, &out));
    const T *x = in.data<T>(), *f = filter.data<T>();
    T *y = out->data<T>();
    for (int64_t b = 0; b < n; ++b)
      for (int64_t oy = 0; oy < rows.out; ++oy)
        for (int64_t ox = 0; ox < cols.out; ++ox)
          for (int64_t ch = 0; ch < c; ++ch) {
            T best = std::numeric_limits<T>::lowest();
            for (int64_t i = 0; i < fh; ++i) {
              const int64_t yy =
                  oy * strides_[1] - rows.padBefore + i * rates_[1];
              if (yy < 0 || yy >= H)
                continue;
              for (int64_t j = 0; j < fw; ++j) {
                const int64_t xx =
                    ox * strides_[2] - cols.padBefore + j * rates_[2];
                if (xx < 0 || xx >= W)
                  continue;
                const T v = static_cast<T>(x[((b * H + yy) * W + xx) * c + ch] +
                                           f[(i * fw + j) * c + ch]);
                if (v > best)
                  best = v;
              }
            }
            y[((b * rows.out + oy) * cols.out + ox) * c + ch] = best;
          }
  }

private:
  std::vector<int64_t> strides_, rates_;
  WindowPadding padding_ = WindowPadding::Valid;
};

template <typename T> using AvgPool3D = Pool3DKernel<T, false>;
template <typename T> using MaxPool3D = Pool3DKernel<T, true>;

} // namespace

void registerPooling3DKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  registerKernel<OpId::kAvgPool3D, AvgPool3D>(registry, FloatTypes{});
  registerKernel<OpId::kMaxPool3D, MaxPool3D, float, half, bf16>(registry);
  // Targmax (int64 default) is checked on the output.
  registerKernel<OpId::kMaxPoolWithArgmax, MaxPoolWithArgmaxKernel, float,
                 double, half, bf16, int32_t, int64_t, uint8_t, int8_t, int16_t,
                 uint16_t>(registry);
  registerKernel<OpId::kDilation2D, Dilation2DKernel, float, double, half, bf16,
                 int32_t, int64_t, uint8_t, int8_t, int16_t, uint16_t>(
      registry);
}

} // namespace tfrt_fallback::rt

//===- Conv3DKernels.cpp - 3-D and transposed convolutions ------*- C++ -*-===//
//
// Conv3D and its input gradients (the transposed 3-D convolution)
// Conv3DBackpropInput / Conv3DBackpropInputV2 (tensorflow/core/kernels/
// conv_ops_3d.cc, conv_grad_input_ops_3d.cc), and the transposed depthwise
// convolution DepthwiseConv2dNativeBackpropInput (depthwise_conv_grad_op.cc)
// with TF's CPU limits: NDHWC / NHWC only, no dilation. The 3-D ops
// gather each output row's windows (im2col) and multiply them with the
// filter as an Eigen matrix product; the gradient multiplies with the
// filter's transpose and scatters the columns back (col2im).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/Window.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

template <typename T>
using RowMatrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T> using MatrixMap = Eigen::Map<RowMatrix<T>>;
template <typename T> using ConstMatrixMap = Eigen::Map<const RowMatrix<T>>;

/// The attributes of the 3-D ops: strides (5, batch and depth 1), dilations
/// (5, all 1 on CPU), padding SAME or VALID, data_format NDHWC.
struct Conv3DAttrs {
  std::array<int64_t, 3> strides{};
  WindowPadding padding = WindowPadding::Valid;

  Status read(const OpKernel &op, OpKernelConstructionInterface *ctx,
              bool hasFormat) {
    std::string format = "NDHWC";
    if (hasFormat)
      if (Status s = getOptionalAttr(ctx, "data_format", &format); !s.ok())
        return s;
    if (format != "NDHWC" && format != "NCDHW")
      return op.errorf("Invalid data format");
    if (format != "NDHWC")
      return op.errorf(op.opName() == "Conv3D"
                           ? "CPU implementation of Conv3D currently only "
                             "supports the NHWC tensor format."
                           : "Conv3DBackpropInputOpV2 only supports NDHWC on "
                             "the CPU.");
    std::vector<int64_t> s, d = {1, 1, 1, 1, 1};
    if (Status st = ctx->getAttr("strides", &s); !st.ok())
      return st;
    if (s.size() != 5)
      return op.errorf("Sliding window strides field must specify 5 "
                       "dimensions");
    if (s[0] != 1 || s[4] != 1)
      return op.errorf("Current implementation does not yet support strides "
                       "in the batch and depth dimensions.");
    if (s[1] <= 0 || s[2] <= 0 || s[3] <= 0)
      return op.errorf("Spatial strides should be larger than 0.");
    if (Status st = getOptionalAttr(ctx, "dilations", &d); !st.ok())
      return st;
    if (d.size() != 5)
      return op.errorf("Dilation rates field must specify 5 dimensions");
    if (d[0] != 1 || d[4] != 1)
      return op.errorf("Current implementation does not yet support dilation "
                       "rates in the batch and depth dimensions.");
    if (d[1] != 1 || d[2] != 1 || d[3] != 1)
      return op.errorf("Current CPU implementation does not yet support "
                       "dilation rates larger than 1.");
    strides = {s[1], s[2], s[3]};
    return readPadding(op, ctx, /*allowExplicit=*/false, &padding);
  }
};

/// The geometry of a 3-D convolution of input [n, d, h, w, c] with filter
/// [kd, kh, kw, c, o].
struct Conv3DGeometry {
  int64_t n = 0, c = 0, o = 0;
  std::array<int64_t, 3> in{}, k{}, stride{};
  std::array<WindowDim, 3> out{};

  int64_t window() const { return k[0] * k[1] * k[2] * c; }
};

Status conv3DGeometry(const OpKernel &op, const Conv3DAttrs &attrs,
                      absl::Span<const int64_t> input,
                      const TensorShape &filter, Conv3DGeometry *g) {
  if (input.size() != 5)
    return op.errorf("input must be 5-dimensional");
  if (filter.rank() != 5)
    return op.errorf("filter must be 5-dimensional");
  if (filter.dim(3) != input[4])
    return op.errorf("Number of channels in filter (%d) must match last "
                     "dimension of input (%d)",
                     filter.dim(3), input[4]);
  if (filter.numElements() == 0)
    return op.errorf("filter must not have zero elements (i.e. all "
                     "dimensions must be non-zero)");
  g->n = input[0];
  g->c = input[4];
  g->o = filter.dim(4);
  for (int i = 0; i < 3; ++i) {
    g->in[i] = input[1 + i];
    g->k[i] = filter.dim(i);
    g->stride[i] = attrs.strides[i];
    if (Status s = computeWindow(op, g->in[i], g->k[i], 1, g->stride[i],
                                 attrs.padding, 0, 0, &g->out[i]);
        !s.ok())
      return s;
  }
  return OkStatus();
}

/// Visits the window of output (od, oh, ow): f(column, input offset or -1
/// for padding), columns ordered (kd, kh, kw) with c innermost, as the
/// filter's rows.
template <typename F>
void forWindow(const Conv3DGeometry &g, int64_t od, int64_t oh, int64_t ow,
               F f) {
  int64_t col = 0;
  for (int64_t a = 0; a < g.k[0]; ++a) {
    const int64_t z = od * g.stride[0] - g.out[0].padBefore + a;
    for (int64_t b = 0; b < g.k[1]; ++b) {
      const int64_t y = oh * g.stride[1] - g.out[1].padBefore + b;
      for (int64_t e = 0; e < g.k[2]; ++e, col += g.c) {
        const int64_t x = ow * g.stride[2] - g.out[2].padBefore + e;
        const bool inside = z >= 0 && z < g.in[0] && y >= 0 && y < g.in[1] &&
                            x >= 0 && x < g.in[2];
        f(col, inside ? ((z * g.in[1] + y) * g.in[2] + x) * g.c : -1);
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Conv3D
//===----------------------------------------------------------------------===//

/// Conv3D(input [n, d, h, w, c], filter [kd, kh, kw, c, o]; strides,
/// padding, dilations, data_format): output [n, od, oh, ow, o], output
/// sizes and SAME padding as Conv2D's per spatial dim. TF's CPU limits and
/// messages: NDHWC only ("CPU implementation of Conv3D currently only
/// supports the NHWC tensor format."), dilation 1, the filter's channels
/// equal to the input's ("Number of channels in filter (2) must match last
/// dimension of input (3)").
template <typename T> class Conv3DKernel final : public OpKernel {
public:
  explicit Conv3DKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, attrs_.read(*this, ctx, true));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &filter = ctx->input(1);
    Conv3DGeometry g;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, conv3DGeometry(*this, attrs_,
                                                     input.shape().dims(),
                                                     filter.shape(), &g));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(
            0, TensorShape{g.n, g.out[0].out, g.out[1].out, g.out[2].out, g.o},
            &out));
    if (out->numElements() == 0)
      return;
    const T *x = input.data<T>();
    const int64_t win = g.window(), ow = g.out[2].out;
    ConstMatrixMap<T> w(filter.data<T>(), win, g.o);
    const int64_t rows = g.n * g.out[0].out * g.out[1].out;
    const int64_t inVolume = g.in[0] * g.in[1] * g.in[2] * g.c;
    T *y = out->data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), rows,
        Eigen::TensorOpCost(0, 0, double(ow) * win * g.o * 2),
        [&](Eigen::Index first, Eigen::Index last) {
          RowMatrix<T> cols(ow, win);
          for (Eigen::Index r = first; r < last; ++r) {
            const int64_t oh = r % g.out[1].out;
            const int64_t od = r / g.out[1].out % g.out[0].out;
            const int64_t b = r / (g.out[1].out * g.out[0].out);
            const T *xb = x + b * inVolume;
            for (int64_t p = 0; p < ow; ++p)
              forWindow(g, od, oh, p, [&](int64_t col, int64_t at) {
                T *dst = cols.data() + p * win + col;
                if (at < 0)
                  std::fill(dst, dst + g.c, T(0));
                else
                  std::copy(xb + at, xb + at + g.c, dst);
              });
            MatrixMap<T>(y + r * ow * g.o, ow, g.o).noalias() = cols * w;
          }
        });
  }

private:
  Conv3DAttrs attrs_;
};

//===----------------------------------------------------------------------===//
// Conv3DBackpropInput, Conv3DBackpropInputV2
//===----------------------------------------------------------------------===//

/// Conv3DBackpropInput(input, filter, out_backprop) and
/// Conv3DBackpropInputV2(input_sizes: Tshape [5], filter, out_backprop):
/// the gradient of Conv3D with respect to its input of that shape, i.e. a
/// transposed convolution: each out_backprop pixel times filter^T is added
/// into the window it was computed from. out_backprop must have Conv3D's
/// output shape ("out_backprop has shape [..] but Conv3D would give [..]").
template <typename T, bool V2>
class Conv3DBackpropInputKernel final : public OpKernel {
public:
  explicit Conv3DBackpropInputKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, attrs_.read(*this, ctx, V2));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &filter = ctx->input(1);
    const Tensor &dy = ctx->input(2);
    TensorShape::Dims inDims;
    if (V2) {
      const Tensor &sizes = ctx->input(0);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, sizes.rank() == 1 && isIndexTensor(sizes),
          errorf("input_sizes must be a 1-D int32/int64 tensor, got shape %s",
                 sizes.shape().toString()));
      for (int64_t i = 0; i < sizes.numElements(); ++i) {
        inDims.push_back(indexAt(sizes, i));
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, inDims.back() >= 0,
            errorf("Dimension %d of input_sizes must be >= 0", i));
      }
    } else {
      inDims.assign(ctx->input(0).shape().dims().begin(),
                    ctx->input(0).shape().dims().end());
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, inDims.size() == 5,
                              errorf("input tensor must have 5 dimensions"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dy.rank() == 5,
        errorf("out_backprop tensor must have 5 dimensions"));
    Conv3DGeometry g;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, conv3DGeometry(*this, attrs_, inDims, filter.shape(), &g));
    const TensorShape expected{g.n, g.out[0].out, g.out[1].out, g.out[2].out,
                               g.o};
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dy.shape() == expected,
        errorf("out_backprop has shape %s but Conv3D would give %s",
               dy.shape().toString(), expected.toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(inDims), &out));
    T *dx = out->data<T>();
    std::fill(dx, dx + out->numElements(), T(0));
    if (dy.numElements() == 0 || out->numElements() == 0)
      return;
    const int64_t win = g.window(), ow = g.out[2].out;
    ConstMatrixMap<T> w(filter.data<T>(), win, g.o);
    const int64_t inVolume = g.in[0] * g.in[1] * g.in[2] * g.c;
    // Batches in parallel: windows of one image overlap.
    kernels::parallelFor(
        ctx->eigenDevice(), g.n,
        Eigen::TensorOpCost(
            0, 0, double(g.out[0].out * g.out[1].out) * ow * win * g.o * 2),
        [&](Eigen::Index first, Eigen::Index last) {
          RowMatrix<T> cols(ow, win);
          for (Eigen::Index b = first; b < last; ++b)
            for (int64_t od = 0; od < g.out[0].out; ++od)
              for (int64_t oh = 0; oh < g.out[1].out; ++oh) {
                const int64_t r = (b * g.out[0].out + od) * g.out[1].out + oh;
                cols.noalias() =
                    ConstMatrixMap<T>(dy.data<T>() + r * ow * g.o, ow, g.o) *
                    w.transpose();
                T *dxb = dx + b * inVolume;
                for (int64_t p = 0; p < ow; ++p)
                  forWindow(g, od, oh, p, [&](int64_t col, int64_t at) {
                    if (at < 0)
                      return;
                    const T *src = cols.data() + p * win + col;
                    for (int64_t ch = 0; ch < g.c; ++ch)
                      dxb[at + ch] += src[ch];
                  });
              }
        });
  }

private:
  Conv3DAttrs attrs_;
};

//===----------------------------------------------------------------------===//
// DepthwiseConv2dNativeBackpropInput
//===----------------------------------------------------------------------===//

/// DepthwiseConv2dNativeBackpropInput(input_sizes: int32 [4], filter [kh,
/// kw, c, m], out_backprop [n, oh, ow, c * m]; strides, padding (SAME,
/// VALID, EXPLICIT with explicit_paddings), data_format NHWC, dilations
/// 1): the transposed depthwise convolution: dx[n, y, x, ch] sums
/// dy[n, oy, ox, ch * m + k] * filter[ky, kx, ch, k] over the windows
/// covering (y, x). TF's errors: "Current implementation only supports
/// equal length strides in the row and column dimensions.", "Current
/// implementation does not yet support strides in the batch and depth
/// dimensions.", "Conv2DBackpropInput: input_sizes input must be 1-dim,
/// not 2", "Dimension 1 of input_sizes must be >= 0"; NCHW is rejected
/// ("Generic conv implementation only supports NHWC tensor format for
/// now.").
template <typename T>
class DepthwiseBackpropInputKernel final : public OpKernel {
public:
  explicit DepthwiseBackpropInputKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::vector<int64_t> s;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("strides", &s));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, s.size() == 4,
        errorf("Sliding window strides field must specify 4 dimensions"));
    std::string format = "NHWC";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "data_format", &format));
    TFRT_FALLBACK_OP_REQUIRES(ctx, format == "NHWC" || format == "NCHW",
                              errorf("Invalid data format"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, format == "NHWC",
        errorf("Generic conv implementation only supports NHWC tensor "
               "format for now."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, s[1] == s[2],
        errorf("Current implementation only supports equal length strides "
               "in the row and column dimensions."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, s[0] == 1 && s[3] == 1,
        errorf("Current implementation does not yet support strides in the "
               "batch and depth dimensions."));
    stride_ = s[1];
    TFRT_FALLBACK_OP_REQUIRES(ctx, stride_ > 0,
                              errorf("Spatial strides should be larger than "
                                     "0."));
    std::vector<int64_t> d = {1, 1, 1, 1};
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "dilations", &d));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, d.size() == 4 && d[0] == 1 && d[1] == 1 && d[2] == 1 && d[3] == 1,
        errorf("Current libxsmm and customized CPU implementations do not yet "
               "support dilation rates larger than 1."));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPadding(*this, ctx, /*allowExplicit=*/true, &padding_));
    if (padding_ == WindowPadding::Explicit) {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("explicit_paddings", &explicit_));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, explicit_.size() == 8,
          errorf("explicit_paddings attribute must contain 8 values, but got: "
                 "%d",
                 explicit_.size()));
    }
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &sizes = ctx->input(0);
    const Tensor &filter = ctx->input(1);
    const Tensor &dy = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, sizes.rank() == 1,
        errorf("Conv2DBackpropInput: input_sizes input must be 1-dim, not %d",
               sizes.rank()));
    TensorShape::Dims in;
    for (int64_t i = 0; i < sizes.numElements(); ++i) {
      in.push_back(sizes.data<int32_t>()[i]);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, in.back() >= 0,
          errorf("Dimension %d of input_sizes must be >= 0", i));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.size() == 4,
        errorf("input must be 4-dimensional, got %d", in.size()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filter.rank() == 4,
        errorf("filter must be 4-dimensional: %s", filter.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, dy.rank() == 4,
                              errorf("out_backprop must be 4-dimensional: %s",
                                     dy.shape().toString()));
    const int64_t n = in[0], h = in[1], w = in[2], c = in[3];
    const int64_t kh = filter.dim(0), kw = filter.dim(1);
    const int64_t m = filter.dim(3);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filter.dim(2) == c,
        errorf("input and filter must have the same depth: %d vs %d", c,
               filter.dim(2)));
    WindowDim rows, cols;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeWindow(*this, h, kh, 1, stride_, padding_,
                           explicit_.size() == 8 ? explicit_[2] : 0,
                           explicit_.size() == 8 ? explicit_[3] : 0, &rows));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeWindow(*this, w, kw, 1, stride_, padding_,
                           explicit_.size() == 8 ? explicit_[4] : 0,
                           explicit_.size() == 8 ? explicit_[5] : 0, &cols));
    const TensorShape expected{n, rows.out, cols.out, c * m};
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dy.shape() == expected,
        errorf("out_backprop has shape %s but the convolution would give %s",
               dy.shape().toString(), expected.toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape(in), &out));
    T *dx = out->data<T>();
    std::fill(dx, dx + out->numElements(), T(0));
    const T *g = dy.data<T>();
    const T *f = filter.data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), n,
        Eigen::TensorOpCost(0, 0,
                            double(rows.out) * cols.out * kh * kw * c * m),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index b = first; b < last; ++b)
            for (int64_t oy = 0; oy < rows.out; ++oy)
              for (int64_t ox = 0; ox < cols.out; ++ox) {
                const T *gp = g + ((b * rows.out + oy) * cols.out + ox) * c * m;
                for (int64_t ky = 0; ky < kh; ++ky) {
                  const int64_t y = oy * stride_ - rows.padBefore + ky;
                  if (y < 0 || y >= h)
                    continue;
                  for (int64_t kx = 0; kx < kw; ++kx) {
                    const int64_t x = ox * stride_ - cols.padBefore + kx;
                    if (x < 0 || x >= w)
                      continue;
                    T *dp = dx + ((b * h + y) * w + x) * c;
                    const T *fp = f + (ky * kw + kx) * c * m;
                    for (int64_t ch = 0; ch < c; ++ch) {
                      T acc = dp[ch];
                      for (int64_t k = 0; k < m; ++k)
                        acc += gp[ch * m + k] * fp[ch * m + k];
                      dp[ch] = acc;
                    }
                  }
                }
              }
        });
  }

private:
  int64_t stride_ = 1;
  WindowPadding padding_ = WindowPadding::Valid;
  std::vector<int64_t> explicit_;
};

template <typename T>
using Conv3DBackpropInputV1 = Conv3DBackpropInputKernel<T, false>;
template <typename T>
using Conv3DBackpropInputV2 = Conv3DBackpropInputKernel<T, true>;

} // namespace

void registerConv3DKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  registerKernel<OpId::kConv3D, Conv3DKernel>(registry, FloatTypes{});
  registerKernel<OpId::kConv3DBackpropInput, Conv3DBackpropInputV1, float,
                 double, half>(registry);
  registerKernel<OpId::kConv3DBackpropInputV2, Conv3DBackpropInputV2>(
      registry, FloatTypes{});
  registerKernel<OpId::kDepthwiseConv2dNativeBackpropInput,
                 DepthwiseBackpropInputKernel>(registry, FloatTypes{});
}

} // namespace tfrt_fallback::rt

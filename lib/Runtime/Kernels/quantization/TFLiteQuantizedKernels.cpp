//===- TFLiteQuantizedKernels.cpp - TFLite's full-integer kernels
//----------===//
//
// The builtin operators of TFLite's full-integer (int8 / uint8) models that
// no TF op computes, with TFLite's integer semantics (tensorflow/lite/
// kernels/*.cc and internal/reference/integer_ops/*.h are the definition):
// int32 accumulation, the fixed-point requantization of
// MultiplyByQuantizedMultiplier (a rounding doubling high multiply, then a
// rounding right shift), the output zero point and the clamp to the fused
// activation's range. The TFLite importer computes every multiplier and
// shift (TFLite's QuantizeMultiplier of the real scale ratios) and the
// activation range, and passes them as attributes, so these kernels do
// integer arithmetic only. Filters keep TFLite's layouts: CONV_2D [O, KH,
// KW, I], DEPTHWISE_CONV_2D [1, KH, KW, C * M], FULLY_CONNECTED [O, I].
//
//===----------------------------------------------------------------------===//

#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/QuantizeMultiplier.h"
#include "tfrt_fallback/Runtime/Shape/Window.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#define RETURN_IF_ERROR(expr)                                                  \
  do {                                                                         \
    Status status_ = (expr);                                                   \
    if (!status_.ok())                                                         \
      return status_;                                                          \
  } while (false)

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

// ---- TFLite's fixed-point arithmetic (internal/common.h, gemmlowp) ------

/// gemmlowp's SaturatingRoundingDoublingHighMul: round(a * b / 2^31), ties
/// away from zero, INT32_MIN * INT32_MIN saturating.
inline int32_t doublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min())
    return std::numeric_limits<int32_t>::max();
  int64_t ab = int64_t(a) * int64_t(b);
  int64_t nudge = ab >= 0 ? (int64_t(1) << 30) : (1 - (int64_t(1) << 30));
  // C++ division truncates toward zero, as gemmlowp's does.
  return int32_t((ab + nudge) / (int64_t(1) << 31));
}

/// gemmlowp's RoundingDivideByPOT: x / 2^exponent, ties away from zero.
inline int32_t roundingShiftRight(int32_t x, int exponent) {
  if (exponent == 0)
    return x;
  int32_t mask = int32_t((int64_t(1) << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

/// TFLite's MultiplyByQuantizedMultiplier: x * multiplier * 2^(shift - 31).
inline int32_t multiplyByQuantized(int32_t x, int32_t multiplier, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return roundingShiftRight(
      doublingHighMul(int32_t(uint32_t(x) << left), multiplier), right);
}

/// ruy's MultiplyByQuantizedMultiplier, which TFLite's GEMM-based kernels
/// (CONV_2D's im2col path) apply: one rounding of the 64-bit product, ties
/// toward +infinity.
inline int32_t multiplyByQuantizedSingle(int32_t x, int32_t multiplier,
                                         int shift) {
  int total = 31 - shift;
  int64_t product = int64_t(x) * int64_t(multiplier);
  return int32_t((product + (int64_t(1) << (total - 1))) >> total);
}

bool isQuantizedDType(DType d) { return d == DType::I8 || d == DType::U8; }

/// Reads a list attribute of integers.
Status intList(OpKernelConstructionInterface *ctx, std::string_view name,
               std::vector<int64_t> *out) {
  return ctx->getAttr(name, out);
}

/// The shared attributes of the requantizing kernels: output zero point,
/// activation range, one multiplier and shift (or one per channel).
struct Requant {
  std::vector<int64_t> multipliers, shifts;
  int32_t outputZeroPoint = 0, actMin = 0, actMax = 0;
  /// ruy's single rounding instead of gemmlowp's two.
  bool singleRounding = false;

  Status read(OpKernelConstructionInterface *ctx) {
    if (ctx->hasAttr("single_rounding"))
      RETURN_IF_ERROR(ctx->getAttr("single_rounding", &singleRounding));
    RETURN_IF_ERROR(intList(ctx, "output_multiplier", &multipliers));
    RETURN_IF_ERROR(intList(ctx, "output_shift", &shifts));
    RETURN_IF_ERROR(ctx->getAttr("output_zero_point", &outputZeroPoint));
    RETURN_IF_ERROR(ctx->getAttr("activation_min", &actMin));
    RETURN_IF_ERROR(ctx->getAttr("activation_max", &actMax));
    if (multipliers.empty() || multipliers.size() != shifts.size())
      return Status(StatusCode::kInvalidArgument,
                    "output_multiplier and output_shift must be non-empty "
                    "lists of one length");
    for (size_t i = 0; i < multipliers.size(); ++i)
      if (multipliers[i] < 0 || multipliers[i] > INT32_MAX || shifts[i] < -31 ||
          shifts[i] > 30)
        return Status(StatusCode::kInvalidArgument,
                      "a multiplier or shift is out of range");
    if (actMin > actMax)
      return Status(StatusCode::kInvalidArgument,
                    "activation_min exceeds activation_max");
    return OkStatus();
  }
  /// Checks the count against `channels` (one value is broadcast).
  bool fits(int64_t channels) const {
    return multipliers.size() == 1 || int64_t(multipliers.size()) == channels;
  }
  int32_t apply(int32_t acc, int64_t channel) const {
    size_t c = multipliers.size() == 1 ? 0 : size_t(channel);
    int32_t v =
        (singleRounding ? multiplyByQuantizedSingle : multiplyByQuantized)(
            acc, int32_t(multipliers[c]), int(shifts[c])) +
        outputZeroPoint;
    return std::min(std::max(v, actMin), actMax);
  }
};

/// TFLite's ComputePaddingHeightWidth for one dimension: the output size
/// and the leading padding.
void outputAndPadding(int64_t in, int64_t filter, int64_t stride,
                      int64_t dilation, bool same, int64_t *out, int64_t *pad) {
  int64_t effective = (filter - 1) * dilation + 1;
  *out = same ? (in + stride - 1) / stride : (in - effective + stride) / stride;
  if (*out < 0)
    *out = 0;
  int64_t total = (*out - 1) * stride + effective - in;
  *pad = total > 0 ? total / 2 : 0;
}

Status readWindow(OpKernelConstructionInterface *ctx,
                  std::vector<int64_t> *strides,
                  std::vector<int64_t> *dilations, bool *same) {
  RETURN_IF_ERROR(intList(ctx, "strides", strides));
  if (ctx->hasAttr("dilations"))
    RETURN_IF_ERROR(intList(ctx, "dilations", dilations));
  else
    *dilations = {1, 1};
  std::string padding;
  RETURN_IF_ERROR(ctx->getAttr("padding", &padding));
  if (strides->size() != 2 || dilations->size() != 2 || (*strides)[0] < 1 ||
      (*strides)[1] < 1 || (*dilations)[0] < 1 || (*dilations)[1] < 1)
    return Status(StatusCode::kInvalidArgument,
                  "strides and dilations must be 2 values of at least 1");
  StatusOr<shape::Padding> parsed =
      shape::parsePadding(padding, /*allowExplicit=*/false);
  if (!parsed.ok())
    return parsed.status();
  *same = *parsed == shape::Padding::Same;
  return OkStatus();
}

/// Loads element i of an int8 or uint8 buffer as int32.
inline int32_t load(const void *data, bool isSigned, int64_t i) {
  return isSigned ? int32_t(static_cast<const int8_t *>(data)[i])
                  : int32_t(static_cast<const uint8_t *>(data)[i]);
}
inline void store(void *data, bool isSigned, int64_t i, int32_t v) {
  if (isSigned)
    static_cast<int8_t *>(data)[i] = int8_t(v);
  else
    static_cast<uint8_t *>(data)[i] = uint8_t(v);
}

/// A filter as (filter + filter_offset) in int32: widened once when the
/// kernel is built if the filter is a program constant (TFLite's Prepare),
/// else at each run.
class WidenedFilter {
public:
  void prepare(OpKernelConstructionInterface *ctx, int index, int32_t offset) {
    offset_ = offset;
    if (const Tensor *w = ctx->constantInput(index);
        w && isQuantizedDType(w->dtype()))
      widen(*w, constant_);
  }
  /// The widened values of `w`: the constant's, or `scratch` filled.
  const int32_t *get(const Tensor &w, std::vector<int32_t> &scratch) const {
    if (!constant_.empty() && int64_t(constant_.size()) == w.numElements())
      return constant_.data();
    widen(w, scratch);
    return scratch.data();
  }

private:
  void widen(const Tensor &w, std::vector<int32_t> &out) const {
    const bool isSigned = w.dtype() == DType::I8;
    out.resize(w.numElements());
    for (int64_t i = 0; i < w.numElements(); ++i)
      out[i] = load(w.rawData(), isSigned, i) + offset_;
  }
  std::vector<int32_t> constant_;
  int32_t offset_ = 0;
};

// ---- CONV_2D, DEPTHWISE_CONV_2D -----------------------------------------

/// input [N, H, W, C] (int8 / uint8), filter [O, KH, KW, I] (CONV_2D; C a
/// multiple of I: groups) or [1, KH, KW, C * M] (depthwise), bias [O] int32
/// -> [N, OH, OW, O]: acc = bias + sum (filter + filter_offset) * (input +
/// input_offset) over the in-bounds taps, requantized per output channel.
template <bool Depthwise> class QuantizedConvKernel final : public OpKernel {
public:
  explicit QuantizedConvKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readWindow(ctx, &strides_, &dilations_, &same_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("input_offset", &inputOffset_));
    int32_t filterOffset = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("filter_offset", &filterOffset));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requant_.read(ctx));
    filter_.prepare(ctx, 1, filterOffset);
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0), &w = ctx->input(1), &b = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.rank() == 4 && w.rank() == 4 && b.rank() == 1,
        errorf("input and filter must be 4-D and bias 1-D: %s, %s, %s",
               x.shape().toString(), w.shape().toString(),
               b.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        isQuantizedDType(x.dtype()) && isQuantizedDType(w.dtype()) &&
            b.dtype() == DType::I32,
        errorf("input and filter must be int8 or uint8, bias int32"));
    const int64_t n = x.dim(0), h = x.dim(1), wd = x.dim(2), c = x.dim(3);
    const int64_t kh = w.dim(1), kw = w.dim(2);
    int64_t outC, filterDepth, perGroup, multiplier = 1;
    if (Depthwise) {
      outC = w.dim(3);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, w.dim(0) == 1 && c > 0 && outC % c == 0,
          errorf("the depthwise filter %s does not fit the input depth %d",
                 w.shape().toString(), c));
      multiplier = outC / c;
      filterDepth = 1;
      perGroup = 1;
    } else {
      outC = w.dim(0);
      filterDepth = w.dim(3);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          filterDepth > 0 && c % filterDepth == 0 &&
              outC % (c / filterDepth) == 0,
          errorf("the filter %s does not fit the input depth %d",
                 w.shape().toString(), c));
      perGroup = outC / (c / filterDepth);
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, b.dim(0) == outC && requant_.fits(outC),
        errorf("bias and multipliers must have %d values", outC));
    int64_t oh, ow, padH, padW;
    outputAndPadding(h, kh, strides_[0], dilations_[0], same_, &oh, &padH);
    outputAndPadding(wd, kw, strides_[1], dilations_[1], same_, &ow, &padW);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape({n, oh, ow, outC}), &out));
    TFRT_FALLBACK_OP_REQUIRES(ctx, out->dtype() == x.dtype(),
                              errorf("the output must be the input's type"));
    const bool xs = x.dtype() == DType::I8;
    const void *xd = x.rawData();
    const int32_t *bias = b.data<int32_t>();
    void *od = out->rawData();
    std::vector<int32_t> scratch;
    const int32_t *filter = filter_.get(w, scratch);
    // acc per output channel; the input pixel of a tap widened once.
    std::vector<int32_t> acc(outC), pixel(c);
    for (int64_t bi = 0; bi < n; ++bi)
      for (int64_t oy = 0; oy < oh; ++oy)
        for (int64_t ox = 0; ox < ow; ++ox) {
          std::copy(bias, bias + outC, acc.begin());
          for (int64_t fy = 0; fy < kh; ++fy) {
            int64_t iy = oy * strides_[0] - padH + fy * dilations_[0];
            if (iy < 0 || iy >= h)
              continue;
            for (int64_t fx = 0; fx < kw; ++fx) {
              int64_t ix = ox * strides_[1] - padW + fx * dilations_[1];
              if (ix < 0 || ix >= wd)
                continue;
              int64_t base = ((bi * h + iy) * wd + ix) * c;
              for (int64_t ic = 0; ic < c; ++ic)
                pixel[ic] = load(xd, xs, base + ic) + inputOffset_;
              if (Depthwise) {
                const int32_t *f = &filter[(fy * kw + fx) * outC];
                for (int64_t ic = 0; ic < c; ++ic)
                  for (int64_t m = 0; m < multiplier; ++m)
                    acc[ic * multiplier + m] +=
                        f[ic * multiplier + m] * pixel[ic];
              } else {
                for (int64_t oc = 0; oc < outC; ++oc) {
                  const int32_t *f =
                      &filter[((oc * kh + fy) * kw + fx) * filterDepth];
                  const int32_t *in = &pixel[(oc / perGroup) * filterDepth];
                  int32_t sum = 0;
                  for (int64_t ic = 0; ic < filterDepth; ++ic)
                    sum += f[ic] * in[ic];
                  acc[oc] += sum;
                }
              }
            }
          }
          int64_t o = ((bi * oh + oy) * ow + ox) * outC;
          for (int64_t oc = 0; oc < outC; ++oc)
            store(od, xs, o + oc, requant_.apply(acc[oc], oc));
        }
  }

private:
  std::vector<int64_t> strides_, dilations_;
  bool same_ = false;
  int32_t inputOffset_ = 0;
  WidenedFilter filter_;
  Requant requant_;
};

// ---- FULLY_CONNECTED ----------------------------------------------------

/// input [B, I], filter [O, I], bias [O] int32 -> [B, O].
class QuantizedFullyConnectedKernel final : public OpKernel {
public:
  explicit QuantizedFullyConnectedKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("input_offset", &inputOffset_));
    int32_t filterOffset = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("filter_offset", &filterOffset));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requant_.read(ctx));
    filter_.prepare(ctx, 1, filterOffset);
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0), &w = ctx->input(1), &b = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        x.rank() == 2 && w.rank() == 2 && b.rank() == 1 &&
            x.dim(1) == w.dim(1) && b.dim(0) == w.dim(0) &&
            requant_.fits(w.dim(0)),
        errorf("input [B, I], filter [O, I], bias [O] and O multipliers "
               "expected: %s, %s, %s",
               x.shape().toString(), w.shape().toString(),
               b.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        isQuantizedDType(x.dtype()) && isQuantizedDType(w.dtype()) &&
            b.dtype() == DType::I32,
        errorf("input and filter must be int8 or uint8, bias int32"));
    const int64_t batch = x.dim(0), depth = x.dim(1), outC = w.dim(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape({batch, outC}), &out));
    const bool xs = x.dtype() == DType::I8;
    std::vector<int32_t> scratch, row(depth);
    const int32_t *filter = filter_.get(w, scratch);
    const int32_t *bias = b.data<int32_t>();
    for (int64_t bi = 0; bi < batch; ++bi) {
      for (int64_t i = 0; i < depth; ++i)
        row[i] = load(x.rawData(), xs, bi * depth + i) + inputOffset_;
      for (int64_t oc = 0; oc < outC; ++oc) {
        const int32_t *f = &filter[oc * depth];
        int32_t acc = 0;
        for (int64_t i = 0; i < depth; ++i)
          acc += f[i] * row[i];
        acc += bias[oc];
        store(out->rawData(), xs, bi * outC + oc, requant_.apply(acc, oc));
      }
    }
  }

private:
  int32_t inputOffset_ = 0;
  WidenedFilter filter_;
  Requant requant_;
};

// ---- ADD / SUB, MUL (broadcasting) --------------------------------------

/// Calls f(out_index, a_index, b_index) over the broadcast of a and b.
template <typename F>
Status broadcast(const OpKernel &k, const TensorShape &a, const TensorShape &b,
                 std::vector<int64_t> *outDims, F f) {
  int rank = std::max(a.rank(), b.rank());
  std::vector<int64_t> ad(rank, 1), bd(rank, 1);
  for (int i = 0; i < a.rank(); ++i)
    ad[rank - a.rank() + i] = a.dim(i);
  for (int i = 0; i < b.rank(); ++i)
    bd[rank - b.rank() + i] = b.dim(i);
  outDims->assign(rank, 1);
  for (int i = 0; i < rank; ++i) {
    if (ad[i] != bd[i] && ad[i] != 1 && bd[i] != 1)
      return k.errorf("Incompatible shapes: %s vs. %s", a.toString(),
                      b.toString());
    (*outDims)[i] = ad[i] == 1 ? bd[i] : ad[i];
  }
  if (!f)
    return OkStatus();
  std::vector<int64_t> as(rank), bs(rank), idx(rank, 0);
  int64_t sa = 1, sb = 1, total = 1;
  for (int i = rank - 1; i >= 0; --i) {
    as[i] = ad[i] == 1 ? 0 : sa;
    bs[i] = bd[i] == 1 ? 0 : sb;
    sa *= ad[i];
    sb *= bd[i];
    total *= (*outDims)[i];
  }
  int64_t ia = 0, ib = 0;
  for (int64_t o = 0; o < total; ++o) {
    (*f)(o, ia, ib);
    for (int i = rank - 1; i >= 0; --i) {
      ia += as[i];
      ib += bs[i];
      if (++idx[i] < (*outDims)[i])
        break;
      ia -= as[i] * idx[i];
      ib -= bs[i] * idx[i];
      idx[i] = 0;
    }
  }
  return OkStatus();
}

/// ADD (and SUB: input2_multiplier negated), TFLite's 8-bit add: each input
/// shifted left by left_shift and rescaled to twice the larger input scale,
/// the sum rescaled to the output.
/// MUL: (a + offset1) * (b + offset2) rescaled to the output.
template <bool Mul> class QuantizedBinaryKernel final : public OpKernel {
public:
  explicit QuantizedBinaryKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("input1_offset", &offset1_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("input2_offset", &offset2_));
    if (!Mul) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("left_shift", &left_));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   ctx->getAttr("input1_multiplier", &m1_));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("input1_shift", &s1_));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   ctx->getAttr("input2_multiplier", &m2_));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("input2_shift", &s2_));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          left_ >= 0 && left_ <= 24 && s1_ <= 0 && s1_ >= -31 && s2_ <= 0 &&
              s2_ >= -31,
          errorf("left_shift or an input shift is out of range"));
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requant_.read(ctx));
    TFRT_FALLBACK_OP_REQUIRES(ctx, requant_.multipliers.size() == 1,
                              errorf("one output multiplier expected"));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0), &b = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, isQuantizedDType(a.dtype()) && a.dtype() == b.dtype(),
        errorf("inputs must be both int8 or both uint8"));
    std::vector<int64_t> dims;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        broadcast(*this, a.shape(), b.shape(), &dims,
                  static_cast<void (*)(int64_t, int64_t, int64_t)>(nullptr)));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(0, TensorShape(absl::MakeConstSpan(dims)), &out));
    const bool s = a.dtype() == DType::I8;
    const void *ad = a.rawData(), *bd = b.rawData();
    void *od = out->rawData();
    auto body = [&](int64_t o, int64_t ia, int64_t ib) {
      int32_t x = load(ad, s, ia) + offset1_, y = load(bd, s, ib) + offset2_;
      int32_t acc;
      if (Mul) {
        acc = x * y;
      } else {
        int32_t sx = multiplyByQuantized(x * (1 << left_), m1_, s1_);
        int32_t sy = multiplyByQuantized(y * (1 << left_), m2_, s2_);
        acc = sx + sy;
      }
      store(od, s, o, requant_.apply(acc, 0));
    };
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, broadcast(*this, a.shape(), b.shape(), &dims, &body));
  }

private:
  int32_t offset1_ = 0, offset2_ = 0, left_ = 0, m1_ = 0, s1_ = 0, m2_ = 0,
          s2_ = 0;
  Requant requant_;
};

// ---- AVERAGE_POOL_2D, MAX_POOL_2D ---------------------------------------

/// NHWC pooling on int8 / uint8 with one scale and zero point in and out:
/// the average of the window's in-bounds values rounded half away from zero
/// (TFLite's (sum +- count / 2) / count), or their maximum; then the clamp.
template <bool Max> class QuantizedPoolKernel final : public OpKernel {
public:
  explicit QuantizedPoolKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readWindow(ctx, &strides_, &dilations_, &same_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, intList(ctx, "ksize", &ksize_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ksize_.size() == 2 && ksize_[0] >= 1 && ksize_[1] >= 1,
        errorf("ksize must be 2 values of at least 1"));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("activation_min", &actMin_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("activation_max", &actMax_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, x.rank() == 4 && isQuantizedDType(x.dtype()),
                              errorf("the input must be 4-D int8 or uint8: %s",
                                     x.shape().toString()));
    const int64_t n = x.dim(0), h = x.dim(1), w = x.dim(2), c = x.dim(3);
    int64_t oh, ow, padH, padW;
    outputAndPadding(h, ksize_[0], strides_[0], 1, same_, &oh, &padH);
    outputAndPadding(w, ksize_[1], strides_[1], 1, same_, &ow, &padW);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape({n, oh, ow, c}), &out));
    const bool s = x.dtype() == DType::I8;
    for (int64_t b = 0; b < n; ++b)
      for (int64_t oy = 0; oy < oh; ++oy)
        for (int64_t ox = 0; ox < ow; ++ox) {
          int64_t y0 = std::max<int64_t>(0, oy * strides_[0] - padH);
          int64_t y1 =
              std::min<int64_t>(h, oy * strides_[0] - padH + ksize_[0]);
          int64_t x0 = std::max<int64_t>(0, ox * strides_[1] - padW);
          int64_t x1 =
              std::min<int64_t>(w, ox * strides_[1] - padW + ksize_[1]);
          int32_t count = int32_t((y1 - y0) * (x1 - x0));
          for (int64_t ch = 0; ch < c; ++ch) {
            int32_t acc = Max ? (s ? -128 : 0) : 0;
            for (int64_t y = y0; y < y1; ++y)
              for (int64_t xx = x0; xx < x1; ++xx) {
                int32_t v =
                    load(x.rawData(), s, ((b * h + y) * w + xx) * c + ch);
                acc = Max ? std::max(acc, v) : acc + v;
              }
            if (!Max && count > 0)
              acc = acc > 0 ? (acc + count / 2) / count
                            : (acc - count / 2) / count;
            acc = std::min(std::max(acc, actMin_), actMax_);
            store(out->rawData(), s, ((b * oh + oy) * ow + ox) * c + ch, acc);
          }
        }
  }

private:
  std::vector<int64_t> strides_, dilations_, ksize_;
  bool same_ = false;
  int32_t actMin_ = 0, actMax_ = 0;
};

// ---- QUANTIZE -----------------------------------------------------------

/// float -> int8 / uint8: round(x / scale) + zero_point, clamped (TFLite's
/// AffineQuantize divides in double); int8 / uint8 -> int8 / uint8:
/// (x - input_zero_point) requantized by output_multiplier / output_shift,
/// plus output_zero_point, clamped.
class QuantizeKernel final : public OpKernel {
public:
  explicit QuantizeKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("scale", &scale_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("output_zero_point", &zeroPoint_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("input_zero_point", &inputZeroPoint_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("output_multiplier", &multiplier_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_shift", &shift_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, shift_ >= -31 && shift_ <= 30,
                              errorf("output_shift is out of range"));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &out));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isQuantizedDType(out->dtype()),
                              errorf("the output must be int8 or uint8"));
    const bool os = out->dtype() == DType::I8;
    const int32_t lo = os ? -128 : 0, hi = os ? 127 : 255;
    const int64_t count = x.numElements();
    void *od = out->rawData();
    if (x.dtype() == DType::F32) {
      const float *in = x.data<float>();
      const double scale = scale_;
      for (int64_t i = 0; i < count; ++i) {
        int32_t v = int32_t(std::round(double(in[i]) / scale)) + zeroPoint_;
        store(od, os, i, std::min(std::max(v, lo), hi));
      }
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, isQuantizedDType(x.dtype()),
                              errorf("the input must be float, int8 or uint8"));
    const bool is = x.dtype() == DType::I8;
    for (int64_t i = 0; i < count; ++i) {
      int32_t v =
          multiplyByQuantized(load(x.rawData(), is, i) - inputZeroPoint_,
                              multiplier_, shift_) +
          zeroPoint_;
      store(od, os, i, std::min(std::max(v, lo), hi));
    }
  }

private:
  float scale_ = 1;
  int32_t zeroPoint_ = 0, inputZeroPoint_ = 0, multiplier_ = 0, shift_ = 0;
};

// ---- Lookup tables (LOGISTIC, TANH on int8 / uint8) ---------------------

/// y = table[uint8(x)]: TFLite's optimized kernels tabulate an 8-bit
/// activation over its 256 inputs; the importer computes the table as they
/// do.
class QuantizedLookupKernel final : public OpKernel {
public:
  explicit QuantizedLookupKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::vector<int64_t> table;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, intList(ctx, "table", &table));
    TFRT_FALLBACK_OP_REQUIRES(ctx, table.size() == 256,
                              errorf("the table must have 256 values"));
    for (int i = 0; i < 256; ++i)
      table_[i] = uint8_t(table[i]);
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, isQuantizedDType(x.dtype()),
                              errorf("the input must be int8 or uint8"));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &out));
    const uint8_t *in = static_cast<const uint8_t *>(x.rawData());
    uint8_t *o = static_cast<uint8_t *>(out->rawData());
    for (int64_t i = 0, n = x.numElements(); i < n; ++i)
      o[i] = table_[in[i]];
  }

private:
  uint8_t table_[256];
};

// ---- MEAN ---------------------------------------------------------------

/// x [any rank] int8 / uint8, axes int32 (scalar or 1-D, negative from the
/// end, repeats allowed) -> the mean over the axes, as TFLite's builtin
/// MEAN (reduce.cc EvalMean, its optimized kernel) computes it:
/// - keep_dims, a 4-D input and axes exactly [1, 2] or [2, 1]: the integer
///   sum requantized by QuantizeMultiplier(s_in / (n * s_out)) with
///   MultiplyByQuantizedMultiplier, plus the bias z_out -
///   round(z_in * s_in / s_out) (float, half away from zero), clamped;
/// - otherwise, one scale and zero point in and out: the sum divided by n,
///   truncated toward zero (TFLite's integer Mean);
/// - otherwise (QuantizedMeanOrSum): round(float(sum) / n * (s_in / s_out) -
///   z_in * (s_in / s_out)) + z_out in float, clamped.
/// An empty input gives zeros (TFLite's NaN cast to an integer).
class QuantizedMeanKernel final : public OpKernel {
public:
  explicit QuantizedMeanKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("input_scale", &inScale_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("input_zero_point", &inZero_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_scale", &outScale_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("output_zero_point", &outZero_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("keep_dims", &keepDims_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        std::isfinite(inScale_) && std::isfinite(outScale_) && inScale_ > 0 &&
            outScale_ > 0,
        errorf("input_scale and output_scale must be positive"));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0), &axesT = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, isQuantizedDType(x.dtype()),
                              errorf("the input must be int8 or uint8"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axesT.dtype() == DType::I32 && axesT.rank() <= 1,
        errorf("the axes must be an int32 scalar or vector: %s",
               axesT.shape().toString()));
    const int rank = x.rank();
    const int64_t count = axesT.numElements();
    const int32_t *axes = axesT.data<int32_t>();
    std::vector<bool> reduced(rank, false);
    for (int64_t i = 0; i < count; ++i) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, axes[i] >= -rank && axes[i] < rank,
          errorf("axis %d is out of range for rank %d", axes[i], rank));
      reduced[axes[i] < 0 ? axes[i] + rank : axes[i]] = true;
    }
    std::vector<int64_t> outDims;
    // The input as [outer..., ...] walked with per-dimension output strides.
    std::vector<int64_t> outStride(rank, 0);
    int64_t n = 1, outCount = 1;
    for (int d = rank - 1; d >= 0; --d) {
      if (reduced[d]) {
        n *= x.dim(d);
      } else {
        outStride[d] = outCount;
        outCount *= x.dim(d);
      }
    }
    for (int d = 0; d < rank; ++d)
      if (!reduced[d])
        outDims.push_back(x.dim(d));
      else if (keepDims_)
        outDims.push_back(1);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(absl::MakeConstSpan(outDims)),
                                 &out));
    TFRT_FALLBACK_OP_REQUIRES(ctx, out->dtype() == x.dtype(),
                              errorf("the output must be the input's type"));
    const bool s = x.dtype() == DType::I8;
    void *od = out->rawData();
    if (x.numElements() == 0) {
      for (int64_t i = 0; i < out->numElements(); ++i)
        store(od, s, i, 0);
      return;
    }
    // int32 sums, as TFLite's (wrapping past 2^31 where its overflow is
    // undefined).
    std::vector<int64_t> sums(outCount, 0);
    std::vector<int64_t> idx(rank, 0);
    int64_t o = 0;
    for (int64_t i = 0, total = x.numElements(); i < total; ++i) {
      sums[o] += load(x.rawData(), s, i);
      for (int d = rank - 1; d >= 0; --d) {
        o += outStride[d];
        if (++idx[d] < x.dim(d))
          break;
        o -= outStride[d] * idx[d];
        idx[d] = 0;
      }
    }
    const int32_t lo = s ? -128 : 0, hi = s ? 127 : 255;
    auto sum32 = [&](int64_t i) { return int32_t(uint32_t(sums[i])); };
    const bool hw =
        keepDims_ && rank == 4 && count == 2 &&
        ((axes[0] == 1 && axes[1] == 2) || (axes[0] == 2 && axes[1] == 1));
    if (hw) {
      // optimized_integer_ops::Mean / optimized_ops::Mean (uint8).
      int32_t multiplier, bias;
      int shift;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   hwParameters(n, &multiplier, &shift, &bias));
      for (int64_t i = 0; i < outCount; ++i) {
        int32_t v = multiplyByQuantized(sum32(i), multiplier, shift) + bias;
        store(od, s, i, std::min(std::max(v, lo), hi));
      }
      return;
    }
    if (inZero_ == outZero_ && inScale_ == outScale_) {
      for (int64_t i = 0; i < outCount; ++i)
        store(od, s, i, int32_t(int64_t(sum32(i)) / n));
      return;
    }
    for (int64_t i = 0; i < outCount; ++i)
      store(od, s, i, floatMean(sum32(i), n, lo, hi));
  }

private:
  /// The 4-D kernel's parameters, in TFLite's float arithmetic.
  Status hwParameters(int64_t n, int32_t *multiplier, int *shift,
                      int32_t *bias) const {
#pragma clang fp contract(off)
    float temp = float(inZero_) * inScale_ / outScale_;
    temp = temp > 0 ? temp + 0.5f : temp - 0.5f;
    if (!(std::fabs(temp) < 2147483520.0f))
      return errorf("the zero point's rescaled value is out of range");
    *bias = outZero_ - int32_t(temp);
    float realScale = inScale_ / (float(n) * outScale_);
    QuantizedMultiplier q = quantizeMultiplier(double(realScale));
    *multiplier = q.multiplier;
    *shift = q.shift;
    if (*shift > 30)
      return errorf("the scale ratio is too large");
    return OkStatus();
  }
  /// QuantizedMeanOrSum's float mean (no fused multiply-add).
  int32_t floatMean(int32_t sum, int64_t n, int32_t lo, int32_t hi) const {
#pragma clang fp contract(off)
    const float scale = inScale_ / outScale_;
    const float bias = float(-inZero_) * scale;
    float mean = float(sum) / float(n);
    float scaled = mean * scale;
    float result = std::round(scaled + bias) + float(outZero_);
    result = std::min(result, float(hi));
    result = std::max(result, float(lo));
    return int32_t(result);
  }

  float inScale_ = 1, outScale_ = 1;
  int32_t inZero_ = 0, outZero_ = 0;
  bool keepDims_ = false;
};

// ---- SOFTMAX ------------------------------------------------------------

/// x [..., D] int8 / uint8 -> softmax over the last axis, int8 / uint8 (the
/// input's type) or int16, as TFLite's builtin SOFTMAX computes it (its
/// optimized kernel, optimized_ops::Softmax with the float table of
/// PopulateSoftmaxLookupTable): table[255 - v] = expf(-input_scale * beta *
/// v) for v in 0..255; per row, sum = the table at (255 - max + x) summed
/// in order (float), each output round(table * (1 / (sum * output_scale)))
/// + output_zero_point (uint8: truncate(p + 0.5), TFLite's x86 and wasm
/// path), clamped to the output type.
class QuantizedSoftmaxKernel final : public OpKernel {
public:
  explicit QuantizedSoftmaxKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    float beta = 1, inScale = 1;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("beta", &beta));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("input_scale", &inScale));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("output_scale", &outScale_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("output_zero_point", &outZero_));
    populate(inScale, beta);
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, isQuantizedDType(x.dtype()) && x.rank() >= 1,
        errorf("the input must be int8 or uint8 of rank 1 or more: %s",
               x.shape().toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &out));
    const DType od = out->dtype();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, od == x.dtype() || od == DType::I16,
        errorf("the output must be the input's type or int16"));
    const bool s = x.dtype() == DType::I8;
    const int64_t depth = x.dim(x.rank() - 1);
    const int64_t rows = depth == 0 ? 0 : x.numElements() / depth;
    std::vector<int32_t> row(depth);
    for (int64_t r = 0; r < rows; ++r) {
      int32_t maxValue = s ? -128 : 0;
      for (int64_t j = 0; j < depth; ++j) {
        row[j] = load(x.rawData(), s, r * depth + j);
        maxValue = std::max(maxValue, row[j]);
      }
      const float *table = &table_[255 - maxValue];
      write(table, row.data(), depth, od, out->rawData(), r * depth);
    }
  }

private:
  void populate(float inScale, float beta) {
#pragma clang fp contract(off)
    const float scale = -inScale * beta;
    for (int32_t v = 0; v <= 255; ++v)
      table_[255 - v] = std::exp(scale * float(v));
  }
  void write(const float *table, const int32_t *row, int64_t depth, DType od,
             void *data, int64_t offset) const {
#pragma clang fp contract(off)
    float sum = 0.0f;
    for (int64_t j = 0; j < depth; ++j)
      sum += table[row[j]];
    const float inverse = 1.0f / (sum * outScale_);
    for (int64_t j = 0; j < depth; ++j) {
      const float p = table[row[j]] * inverse;
      int32_t q;
      if (od == DType::U8) {
        q = int32_t(p + 0.5f);
        static_cast<uint8_t *>(data)[offset + j] =
            uint8_t(std::min(std::max(q, 0), 255));
        continue;
      }
      q = int32_t(std::round(p)) + outZero_;
      if (od == DType::I8)
        static_cast<int8_t *>(data)[offset + j] =
            int8_t(std::min(std::max(q, -128), 127));
      else
        static_cast<int16_t *>(data)[offset + j] =
            int16_t(std::min(std::max(q, -32768), 32767));
    }
  }

  float table_[256];
  float outScale_ = 1;
  int32_t outZero_ = 0;
};

} // namespace

void registerTFLiteQuantizedKernels(KernelRegistry &registry) {
  const std::initializer_list<DType> q8 = {DType::I8, DType::U8};
  registerKernel<OpId::kTFLiteQuantizedConv2D, QuantizedConvKernel<false>>(
      registry, {{"T", q8}, {"Tfilter", q8}});
  registerKernel<OpId::kTFLiteQuantizedDepthwiseConv2D,
                 QuantizedConvKernel<true>>(registry,
                                            {{"T", q8}, {"Tfilter", q8}});
  registerKernel<OpId::kTFLiteQuantizedFullyConnected,
                 QuantizedFullyConnectedKernel>(registry,
                                                {{"T", q8}, {"Tfilter", q8}});
  registerKernel<OpId::kTFLiteQuantizedAdd, QuantizedBinaryKernel<false>>(
      registry, {{"T", q8}});
  registerKernel<OpId::kTFLiteQuantizedMul, QuantizedBinaryKernel<true>>(
      registry, {{"T", q8}});
  registerKernel<OpId::kTFLiteQuantizedAvgPool, QuantizedPoolKernel<false>>(
      registry, {{"T", q8}});
  registerKernel<OpId::kTFLiteQuantizedMaxPool, QuantizedPoolKernel<true>>(
      registry, {{"T", q8}});
  registerKernel<OpId::kTFLiteQuantize, QuantizeKernel>(
      registry, {{"Tin", {DType::F32, DType::I8, DType::U8}}, {"T", q8}});
  registerKernel<OpId::kTFLiteQuantizedLookup, QuantizedLookupKernel>(
      registry, {{"T", q8}});
  registerKernel<OpId::kTFLiteQuantizedMean, QuantizedMeanKernel>(registry,
                                                                  {{"T", q8}});
  registerKernel<OpId::kTFLiteQuantizedSoftmax, QuantizedSoftmaxKernel>(
      registry, {{"T", q8}, {"Tout", {DType::I8, DType::U8, DType::I16}}});
}

} // namespace tfrt_fallback::rt

//===- QuantizationKernels.cpp - QuantizeV2, Dequantize, Requantize, ... --===//
//
// TensorFlow's quantization ops on its quantized dtypes (qint8, quint8,
// qint16, quint16, qint32), each with a float range [min, max] given beside
// the tensor: QuantizeV2 (quantize_op.cc), Dequantize (dequantize_op.cc),
// Requantize (requantize.cc), RequantizationRange
// (requantization_range_op.cc), QuantizeDownAndShrinkRange
// (quantize_down_and_shrink_range.cc), QuantizedAdd (quantized_add_op.cc),
// QuantizedMul (quantized_mul_op.cc), QuantizedReshape
// (quantized_reshape_op.cc) and QuantizedConcat (quantized_concat_op.cc),
// with TF's CPU arithmetic (QuantizationUtils.h), checks and messages, for
// the dtype combinations TF registers on CPU. Plain loops; the x86 paths of
// TF (no ARM gemmlowp/meta code).
//
// Beyond TF: every float range input must be finite with min <= max, and
// float -> integer conversions saturate where TF's are undefined (see
// docs/Kernels.md).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "quantization/QuantizationUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
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

//===----------------------------------------------------------------------===//
// QuantizeV2 and Dequantize
//===----------------------------------------------------------------------===//

enum class QuantizeMode { MinCombined, MinFirst, Scaled };

bool parseQuantizeMode(const std::string &name, QuantizeMode *mode) {
  if (name == "MIN_COMBINED")
    *mode = QuantizeMode::MinCombined;
  else if (name == "MIN_FIRST")
    *mode = QuantizeMode::MinFirst;
  else if (name == "SCALED")
    *mode = QuantizeMode::Scaled;
  else
    return false;
  return true;
}

/// Calls f(p, s, q) for each element of an input of `dims` viewed as [pre,
/// slices, post] around `axis` (axis -1: one slice), with the element's
/// flat position.
struct SliceView {
  int64_t pre = 1, slices = 1, post = 1;
  SliceView(absl::Span<const int64_t> dims, int64_t axis) {
    if (axis < 0) {
      for (int64_t d : dims)
        post *= d;
      return;
    }
    for (int64_t i = 0; i < axis; ++i)
      pre *= dims[i];
    slices = dims[axis];
    for (size_t i = axis + 1; i < dims.size(); ++i)
      post *= dims[i];
  }
  template <typename F> void forSlice(int64_t s, F &&f) const {
    for (int64_t p = 0; p < pre; ++p) {
      const int64_t base = (p * slices + s) * post;
      for (int64_t q = 0; q < post; ++q)
        f(base + q);
    }
  }
};

/// QuantizeV2's checks of its range input `name` ("min_range" or
/// "max_range"), with TF's texts: with an axis, a 1-D tensor of the axis's
/// `numSlices`; without, a single element.
Status checkQuantizeRange(const OpKernel &op, const char *name,
                          const Tensor &range, int64_t axis,
                          int64_t numSlices) {
  if (axis <= -1) {
    if (range.numElements() != 1)
      return op.errorf("If axis is not specified, %s must contain a single "
                       "float element, but it contains %d elements",
                       name, range.numElements());
    return OkStatus();
  }
  if (range.rank() != 1)
    return op.errorf("If axis is specified, %s must be a 1-D tensor whose size "
                     "matches the axis dimension of the input and output "
                     "tensors, but %s dims are %d",
                     name, name, range.rank());
  if (range.dim(0) != numSlices)
    return op.errorf("If axis is specified, %s must be a 1-D tensor whose size "
                     "matches the axis dimension of the input and output "
                     "tensors, but %s is a 1-D tensor of size %d and input's "
                     "axis dimension is of size %d",
                     name, name, range.dim(0), numSlices);
  return OkStatus();
}

/// QuantizeV2(input: float, min_range, max_range; T, mode, round_mode,
/// narrow_range, axis, ensure_minimum_range) -> (output: T, output_min,
/// output_max). The range is first widened to contain 0 and to be at least
/// ensure_minimum_range * max(1, |min|, |max|) wide. MIN_COMBINED:
/// (clamp(x) - min) * (highest - lowest) / (max - min), + 0.5 and
/// truncated for unsigned T, - (range + 1) / 2 and rounded half away from
/// zero for signed T. MIN_FIRST: TF's QUANTIZE_WITH_EIGEN. SCALED: one
/// scale from the side of [min, max] that needs the larger step
/// (narrow_range leaves out the lowest value), x * scale rounded by
/// round_mode, output range [lowest, highest] / scale. With axis, each
/// slice along axis has its own range (not with MIN_FIRST).
template <typename T> class QuantizeV2Kernel final : public OpKernel {
public:
  explicit QuantizeV2Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string mode = "MIN_COMBINED";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "mode", &mode));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, parseQuantizeMode(mode, &mode_),
        errorf("Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or "
               "'SCALED', is '%s'",
               mode));
    std::string roundMode = "HALF_AWAY_FROM_ZERO";
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "round_mode", &roundMode));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, roundMode == "HALF_AWAY_FROM_ZERO" || roundMode == "HALF_TO_EVEN",
        errorf("Round mode string must be 'HALF_AWAY_FROM_ZERO' or "
               "'HALF_TO_EVEN', is '%s'",
               roundMode));
    halfToEven_ = roundMode == "HALF_TO_EVEN";
    // TF's message has the typo "b  ut".
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, !halfToEven_ || mode_ == QuantizeMode::Scaled,
        errorf("Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', "
               "b  ut mode is '%s'.",
               mode));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "narrow_range", &narrowRange_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "axis", &axis_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        getOptionalAttr(ctx, "ensure_minimum_range", &ensureMinimumRange_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 0, 2));
    const Tensor &input = ctx->input(0);
    const Tensor &minRange = ctx->input(1);
    const Tensor &maxRange = ctx->input(2);
    int64_t numSlices = 1;
    if (axis_ > -1) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, input.rank() > axis_,
          errorf("Axis is on a zero-based index, so its value must always be "
                 "less than number of input's dims, but given axis value was "
                 "%d and input's dims was %d",
                 axis_, input.rank()));
      numSlices = input.dim(static_cast<int>(axis_));
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        checkQuantizeRange(*this, "min_range", minRange, axis_, numSlices));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        checkQuantizeRange(*this, "max_range", maxRange, axis_, numSlices));
    Tensor *output = nullptr, *outMin = nullptr, *outMax = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, input.shape(), &output));
    const float *in = input.data<float>();
    T *out = output->data<T>();
    const float *mins = minRange.data<float>();
    const float *maxs = maxRange.data<float>();
    if (numSlices == 1) {
      // TF: scalar output ranges, even with an axis of size 1.
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(1, TensorShape{}, &outMin));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(2, TensorShape{}, &outMax));
      const SliceView all(input.shape().dims(), -1);
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, quantizeSlice(all, 0, in, mins[0], maxs[0], out,
                             outMin->data<float>(), outMax->data<float>(),
                             /*minFirst=*/mode_ == QuantizeMode::MinFirst));
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, mode_ != QuantizeMode::MinFirst,
        unimplemented(*this, "MIN_FIRST mode is not implemented for Quantize "
                             "with axis != -1."));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, minRange.shape(), &outMin));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2, minRange.shape(), &outMax));
    const SliceView view(input.shape().dims(), axis_);
    for (int64_t s = 0; s < numSlices; ++s)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, quantizeSlice(view, s, in, mins[s], maxs[s], out,
                             outMin->data<float>() + s,
                             outMax->data<float>() + s, false));
  }

private:
  Status quantizeSlice(const SliceView &view, int64_t slice, const float *in,
                       float inputMin, float inputMax, T *out, float *outMin,
                       float *outMax, bool minFirst) const {
    if (inputMax < inputMin)
      return errorf("input_max_range must be larger than input_min_range.");
    if (Status status = checkRange(*this, "input", inputMin, inputMax);
        !status.ok())
      return status;
    float minR = std::min(0.0f, inputMin);
    const float epsilon =
        std::max(1.0f, std::max(std::fabs(inputMin), std::fabs(inputMax))) *
        ensureMinimumRange_;
    float maxR = std::max(0.0f, std::max(inputMax, minR + epsilon));
    const int64_t lowest = lowestOf<T>(), highest = highestOf<T>();
    if (minFirst) {
      const Quantizer<T> f2q(minR, maxR);
      view.forSlice(slice, [&](int64_t i) { out[i] = f2q(in[i]); });
    } else if (mode_ == QuantizeMode::MinCombined) {
      const float scale =
          (static_cast<double>(highest) - static_cast<double>(lowest)) /
          (maxR - minR);
      if constexpr (isSignedQ<T>()) {
        const float halfRange =
            (static_cast<double>(highest) - static_cast<double>(lowest) + 1) /
            2.0f;
        view.forSlice(slice, [&](int64_t i) {
          const float clamped = std::max(std::min(in[i], maxR), minR);
          const float shifted = clamped - minR;
          const float scaled = shifted * scale;
          const float centred = scaled - halfRange;
          out[i] = clampToQ<T>(std::round(centred), lowest, highest);
        });
      } else {
        view.forSlice(slice, [&](int64_t i) {
          const float clamped = std::max(std::min(in[i], maxR), minR);
          const float shifted = clamped - minR;
          const float scaled = shifted * scale;
          const float v = scaled + 0.5f;
          out[i] = clampToQ<T>(std::trunc(v), lowest, highest);
        });
      }
    } else {
      const int64_t minOutput = lowest + (narrowRange_ ? 1 : 0);
      const float minOutputF = static_cast<float>(minOutput);
      const float maxOutputF = static_cast<float>(highest);
      const float fromMin = (minOutputF * minR > 0)
                                ? minOutputF / minR
                                : std::numeric_limits<float>::max();
      const float fromMax = (maxOutputF * maxR > 0)
                                ? maxOutputF / maxR
                                : std::numeric_limits<float>::max();
      const float scale = std::min(fromMin, fromMax);
      minR = minOutputF / scale;
      maxR = maxOutputF / scale;
      view.forSlice(slice, [&](int64_t i) {
        const float clamped = std::max(std::min(in[i], maxR), minR);
        const float scaled = clamped * scale;
        const float r =
            halfToEven_ ? std::nearbyint(scaled) : std::round(scaled);
        out[i] = clampToQ<T>(r, lowest, highest);
      });
    }
    *outMin = minR;
    *outMax = maxR;
    return OkStatus();
  }

  QuantizeMode mode_ = QuantizeMode::MinCombined;
  bool halfToEven_ = false;
  bool narrowRange_ = false;
  int64_t axis_ = -1;
  float ensureMinimumRange_ = 0.01f;
};

/// Dequantize(input: T, min_range, max_range; mode, narrow_range, axis,
/// dtype) -> float or bfloat16 (bfloat16 only with MIN_COMBINED; computed in
/// float and rounded). MIN_COMBINED: (x + (range + 1) / 2 for signed T) *
/// (max - min) / (highest - lowest) + min. MIN_FIRST: TF's
/// DEQUANTIZE_WITH_EIGEN. SCALED: x * max(min / lowest', max / highest)
/// (max / highest for unsigned T; lowest' is lowest + 1 with narrow_range).
/// With axis, each slice along axis has its own range (not with
/// MIN_FIRST).
template <typename T, typename S>
class DequantizeKernel final : public OpKernel {
public:
  explicit DequantizeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string mode = "MIN_COMBINED";
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "mode", &mode));
    if constexpr (std::is_same_v<S, float>)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, parseQuantizeMode(mode, &mode_),
          errorf("Mode string must be 'MIN_COMBINED', 'MIN_FIRST', or "
                 "'SCALED', is '%s'",
                 mode));
    else
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, mode == "MIN_COMBINED",
          errorf("When output type is bfloat16, Mode string must be "
                 "'MIN_COMBINED', is '%s'",
                 mode));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "narrow_range", &narrowRange_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "axis", &axis_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 1, 2));
    const Tensor &input = ctx->input(0);
    const Tensor &minT = ctx->input(1);
    const Tensor &maxT = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axis_ < input.rank(),
        errorf("Axis must be less than input dimension(%d), got %d",
               input.rank(), axis_));
    int64_t numSlices = 1;
    if (axis_ > -1)
      numSlices = input.dim(static_cast<int>(axis_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, minT.numElements() == numSlices,
        errorf("input_min_tensor must have as many elements as input on the "
               "dequantization axis (%d), got %d, expected %d",
               axis_, minT.numElements(), numSlices));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, maxT.numElements() == numSlices,
        errorf("input_max_tensor must have as many elements as input on the "
               "dequantization axis (%d), got %d, expected %d",
               axis_, maxT.numElements(), numSlices));
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, input.shape(), &output));
    const float *mins = minT.data<float>();
    const float *maxs = maxT.data<float>();
    for (int64_t s = 0; s < numSlices; ++s)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkRange(*this, "input", mins[s], maxs[s]));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numSlices == 1 || mode_ != QuantizeMode::MinFirst,
        unimplemented(*this, "MIN_FIRST mode is not implemented for "
                             "Dequantize with axis != -1."));
    const SliceView view(input.shape().dims(), numSlices == 1 ? -1 : axis_);
    const T *in = input.data<T>();
    S *out = output->data<S>();
    const float lowest = static_cast<float>(lowestOf<T>());
    const float highest = static_cast<float>(highestOf<T>());
    for (int64_t s = 0; s < numSlices; ++s) {
      const float minR = mins[s], maxR = maxs[s];
      if (mode_ == QuantizeMode::MinCombined) {
        const float halfRange =
            isSignedQ<T>() ? (highest - lowest + 1) / 2.0f : 0.0f;
        const float scale = (maxR - minR) / (highest - lowest);
        view.forSlice(s, [&](int64_t i) {
          const float shifted = static_cast<float>(in[i].value) + halfRange;
          const float scaled = shifted * scale;
          out[i] = static_cast<S>(scaled + minR);
        });
      } else if (mode_ == QuantizeMode::MinFirst) {
        const Dequantizer<T> q2f(minR, maxR);
        view.forSlice(
            s, [&](int64_t i) { out[i] = static_cast<S>(q2f(in[i].value)); });
      } else {
        const float minOutput =
            static_cast<float>(lowestOf<T>() + (narrowRange_ ? 1 : 0));
        const float scale = lowestOf<T>() == 0
                                ? maxR / highest
                                : std::max(minR / minOutput, maxR / highest);
        view.forSlice(s, [&](int64_t i) {
          out[i] = static_cast<S>(static_cast<float>(in[i].value) * scale);
        });
      }
    }
  }

private:
  QuantizeMode mode_ = QuantizeMode::MinCombined;
  bool narrowRange_ = false;
  int64_t axis_ = -1;
};

//===----------------------------------------------------------------------===//
// Requantize, RequantizationRange, QuantizeDownAndShrinkRange
//===----------------------------------------------------------------------===//

/// Fails with TF's "`<name>` must be rank 0 but is rank N" unless `t` is a
/// scalar.
Status requireScalar(const OpKernel &op, const Tensor &t,
                     std::string_view name) {
  if (t.rank() != 0)
    return op.errorf("`%s` must be rank 0 but is rank %d", name, t.rank());
  return OkStatus();
}

/// Requantizes `n` qint32 values from [inMin, inMax] to T2 in [outMin,
/// outMax] as TF's RequantizeManyInNewRangeUsingEigen: quint8 by the
/// fixed-point path, other types through float.
template <typename T2>
void requantizeFrom32(const qint32 *in, int64_t n, float inMin, float inMax,
                      float outMin, float outMax, T2 *out) {
  if constexpr (std::is_same_v<T2, quint8>) {
    const Requantizer32To8 r(inMin, inMax, outMin, outMax);
    for (int64_t i = 0; i < n; ++i)
      out[i] = r(in[i].value);
  } else {
    const Dequantizer<qint32> q2f(inMin, inMax);
    const Quantizer<T2> f2q(outMin, outMax);
    for (int64_t i = 0; i < n; ++i)
      out[i] = f2q(q2f(in[i].value));
  }
}

/// Requantize(input: qint32, input_min, input_max, requested_output_min,
/// requested_output_max; out_type) -> (output, output_min, output_max):
/// the values mapped from the input range into the requested one (which
/// must contain 0 at or above its min), saturating.
template <typename T2> class RequantizeKernel final : public OpKernel {
public:
  explicit RequantizeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 1, 4));
    const Tensor &input = ctx->input(0);
    static constexpr const char *kNames[] = {"", "input_min", "input_max",
                                             "requested_output_min",
                                             "requested_output_max"};
    for (int i = 1; i <= 4; ++i)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, requireScalar(*this, ctx->input(i), kNames[i]));
    const float inMin = scalarOf(ctx->input(1));
    const float inMax = scalarOf(ctx->input(2));
    const float outMin = scalarOf(ctx->input(3));
    const float outMax = scalarOf(ctx->input(4));
    Tensor *output = nullptr, *minT = nullptr, *maxT = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, input.shape(), &output));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape{}, &minT));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(2, TensorShape{}, &maxT));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, outMin <= 0.0f,
        errorf("requested_output_min must be <= 0, but got %s", outMin));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, outMax >= outMin,
        errorf("requested_output_max must be >= requested_output_min, but got "
               "%s and %s",
               outMax, outMin));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", inMin, inMax));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkRange(*this, "requested output", outMin, outMax));
    requantizeFrom32<T2>(input.data<qint32>(), input.numElements(), inMin,
                         inMax, outMin, outMax, output->data<T2>());
    *minT->data<float>() = outMin;
    *maxT->data<float>() = outMax;
  }
};

/// The smallest and largest qint32 of `t` (highest and lowest when empty,
/// as TF's reductions start).
void usedRange(const Tensor &t, int32_t *minQ, int32_t *maxQ) {
  int32_t lo = std::numeric_limits<int32_t>::max();
  int32_t hi = std::numeric_limits<int32_t>::lowest();
  const qint32 *in = t.data<qint32>();
  for (int64_t i = 0, n = t.numElements(); i < n; ++i) {
    lo = std::min(lo, in[i].value);
    hi = std::max(hi, in[i].value);
  }
  *minQ = lo;
  *maxQ = hi;
}

/// RequantizationRange(input: qint32, input_min, input_max) ->
/// (output_min, output_max): the float range the input's values actually
/// use, its min at most 0.
class RequantizationRangeKernel final : public OpKernel {
public:
  explicit RequantizationRangeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 1, 2));
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(1).numElements() > 0,
                              errorf("Input min must not be empty."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(2).numElements() > 0,
                              errorf("Input max must not be empty."));
    const float inMin = scalarOf(ctx->input(1));
    const float inMax = scalarOf(ctx->input(2));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", inMin, inMax));
    Tensor *minT = nullptr, *maxT = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape{}, &minT));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape{}, &maxT));
    int32_t lo, hi;
    usedRange(ctx->input(0), &lo, &hi);
    *minT->data<float>() =
        std::min(0.0f, quantizedToFloat<qint32>(lo, inMin, inMax));
    *maxT->data<float>() = quantizedToFloat<qint32>(hi, inMin, inMax);
  }
};

/// QuantizeDownAndShrinkRange(input: qint32, input_min, input_max;
/// out_type = quint8) -> (output, output_min, output_max): Requantize to
/// the range RequantizationRange computes.
class QuantizeDownAndShrinkRangeKernel final : public OpKernel {
public:
  explicit QuantizeDownAndShrinkRangeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 1, 2));
    const Tensor &input = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, requireScalar(*this, ctx->input(1), "input_min"));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, requireScalar(*this, ctx->input(2), "input_max"));
    const float inMin = scalarOf(ctx->input(1));
    const float inMax = scalarOf(ctx->input(2));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", inMin, inMax));
    Tensor *output = nullptr, *minT = nullptr, *maxT = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, input.shape(), &output));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape{}, &minT));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(2, TensorShape{}, &maxT));
    int32_t lo, hi;
    usedRange(input, &lo, &hi);
    const float actualMin =
        std::min(0.0f, quantizedToFloat<qint32>(lo, inMin, inMax));
    const float actualMax = quantizedToFloat<qint32>(hi, inMin, inMax);
    requantizeFrom32<quint8>(input.data<qint32>(), input.numElements(), inMin,
                             inMax, actualMin, actualMax,
                             output->data<quint8>());
    *minT->data<float>() = actualMin;
    *maxT->data<float>() = actualMax;
  }
};

//===----------------------------------------------------------------------===//
// QuantizedAdd, QuantizedMul
//===----------------------------------------------------------------------===//

/// TF's BCast of two shapes with its fewer-dims optimization: the output
/// shape and both operands' shapes collapsed to the fewest dims (runs of
/// dims with the same broadcast pattern merged, all-1 dims dropped).
struct CollapsedBroadcast {
  bool valid = true;
  std::vector<int64_t> output;
  std::vector<int64_t> x, y; // Collapsed, outermost first.

  CollapsedBroadcast(absl::Span<const int64_t> xs,
                     absl::Span<const int64_t> ys) {
    if (xs == ys) {
      int64_t elements = 1;
      for (int64_t d : xs)
        elements *= d;
      output.assign(xs.begin(), xs.end());
      x = y = {elements};
      return;
    }
    const size_t rank = std::max(xs.size(), ys.size());
    auto dimOf = [&](absl::Span<const int64_t> s, size_t j) -> int64_t {
      return j < s.size() ? s[s.size() - 1 - j] : 1;
    };
    bool prevOne[2] = {false, false}, setOne = false;
    std::vector<int64_t> out, rx, ry, rr;
    for (size_t j = 0; j < rank; ++j) {
      const int64_t d[2] = {dimOf(xs, j), dimOf(ys, j)};
      bool isOne[2];
      int64_t outDim = -1;
      bool outSet = false;
      for (int i = 0; i < 2; ++i) {
        isOne[i] = d[i] == 1;
        if (isOne[i])
          continue;
        if (!outSet || d[i] == outDim) {
          outDim = d[i];
          outSet = true;
        } else {
          valid = false;
          return;
        }
      }
      out.push_back(outSet ? outDim : 1);
      if (!outSet)
        continue;
      if (isOne[0] == prevOne[0] && isOne[1] == prevOne[1] && setOne) {
        rr.back() *= outDim;
        rx.back() *= d[0];
        ry.back() *= d[1];
      } else {
        rr.push_back(outDim);
        rx.push_back(d[0]);
        ry.push_back(d[1]);
      }
      setOne = true;
      prevOne[0] = isOne[0];
      prevOne[1] = isOne[1];
    }
    if (rr.empty()) {
      rx.push_back(1);
      ry.push_back(1);
    }
    output.assign(out.rbegin(), out.rend());
    x.assign(rx.rbegin(), rx.rend());
    y.assign(ry.rbegin(), ry.rend());
  }

  /// The flat position in an operand of collapsed dims `dims` (at most 2)
  /// of output element (i, j) of the collapsed [rows, cols] view.
  static int64_t offset(const std::vector<int64_t> &dims, int64_t i,
                        int64_t j) {
    if (dims.size() == 1)
      return dims[0] == 1 ? 0 : j;
    return (dims[0] == 1 ? 0 : i) * dims[1] + (dims[1] == 1 ? 0 : j);
  }
};

/// The shared shape logic of QuantizedAdd / QuantizedMul: TF's broadcast
/// check and its limit of two collapsed dims. Fills `bcast`'s output as a
/// shape, the collapsed [rows, cols] view and whether one operand is a
/// single value handled by TF's scalar path.
struct BinaryPlan {
  TensorShape shape;
  int64_t rows = 1, cols = 1;
  int ndims = 1;
};

Status planBinary(const OpKernel &op, const Tensor &x, const Tensor &y,
                  CollapsedBroadcast *bcast, BinaryPlan *plan) {
  if (!bcast->valid)
    return op.errorf("Incompatible shapes: %s vs. %s", x.shape().toString(),
                     y.shape().toString());
  StatusOr<TensorShape> shape = TensorShape::create(bcast->output);
  if (!shape.ok())
    return shape.status();
  plan->shape = *std::move(shape);
  plan->ndims = static_cast<int>(bcast->x.size());
  if (plan->ndims == 2) {
    plan->rows = std::max(bcast->x[0], bcast->y[0]);
    plan->cols = std::max(bcast->x[1], bcast->y[1]);
    if (bcast->x[0] == 0 || bcast->y[0] == 0)
      plan->rows = 0;
    if (bcast->x[1] == 0 || bcast->y[1] == 0)
      plan->cols = 0;
  } else {
    plan->cols = plan->shape.numElements();
  }
  return OkStatus();
}

Status broadcastUnimplemented(const OpKernel &op, const Tensor &x,
                              const Tensor &y) {
  return makeOpError(StatusCode::kUnimplemented, op.opName(), op.nodeName(),
                     strCat("Broadcast between ", x.shape().toString(), " and ",
                            y.shape().toString(), " is not supported yet."));
}

/// The linear map TF's x86 QuantizedAdd applies to one quint8 operand:
/// code(v) = code0 + v * (code1 - code0) in the qint32 output range,
/// clamped to int32.
struct Linear8To32 {
  int64_t code0;
  int32_t mult;
  Linear8To32(float min, float max, float outMin, float outMax) {
    const float f0 = quantizedToFloat<quint8>(0, min, max);
    const float f1 = quantizedToFloat<quint8>(1, min, max);
    code0 = floatToQuantizedUnclamped<qint32>(f0, outMin, outMax);
    const int64_t code1 = floatToQuantizedUnclamped<qint32>(f1, outMin, outMax);
    // TF's int32 of the int64 difference (modular; unsigned so that the
    // saturated codes of a non-finite range cannot overflow).
    mult = static_cast<int32_t>(static_cast<uint32_t>(
        static_cast<uint64_t>(code1) - static_cast<uint64_t>(code0)));
  }
  int32_t operator()(uint8_t v) const {
    int64_t out = 0;
    if (__builtin_add_overflow(code0, static_cast<int64_t>(v) * mult, &out))
      out = code0 < 0 ? INT64_MIN : INT64_MAX;
    out = std::min<int64_t>(std::max<int64_t>(out, INT32_MIN), INT32_MAX);
    return static_cast<int32_t>(out);
  }
};

int32_t wrapAdd(int32_t a, int32_t b) {
  return static_cast<int32_t>(static_cast<uint32_t>(a) +
                              static_cast<uint32_t>(b));
}

/// QuantizedAdd(x: quint8, y: quint8, min_x, max_x, min_y, max_y; Toutput
/// = qint32) -> (z, min_z, max_z): x + y in the symmetric range +-(the
/// largest |min| or |max| of both) * 2^14, each operand mapped into it (a
/// single-value operand through float, TF's scalar path). Broadcasting as
/// TF: shapes whose broadcast collapses to more than two dims are
/// Unimplemented.
class QuantizedAddKernel final : public OpKernel {
public:
  explicit QuantizedAddKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 2, 5));
    const Tensor &x = ctx->input(0);
    const Tensor &y = ctx->input(1);
    static constexpr const char *kNames[] = {"",      "",      "min_x",
                                             "max_x", "min_y", "max_y"};
    for (int i = 2; i < 6; ++i)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, requireScalar(*this, ctx->input(i), kNames[i]));
    const float minX = scalarOf(ctx->input(2)), maxX = scalarOf(ctx->input(3));
    const float minY = scalarOf(ctx->input(4)), maxY = scalarOf(ctx->input(5));
    CollapsedBroadcast bcast(x.shape().dims(), y.shape().dims());
    BinaryPlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, planBinary(*this, x, y, &bcast, &plan));
    Tensor *z = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, plan.shape, &z));
    TFRT_FALLBACK_OP_REQUIRES(ctx, maxX > minX,
                              errorf("max_x must be larger than min_x."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, maxY > minY,
                              errorf("max_y must be larger than min_y."));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "x", minX, maxX));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "y", minY, maxY));
    const float smallestMin = std::min(minX, minY);
    const float largestMax = std::max(maxX, maxY);
    const float biggest =
        std::max(std::fabs(smallestMin), std::fabs(largestMax));
    const float outputRange = biggest * (1 << 14);
    const float minZ = -outputRange, maxZ = outputRange;
    const uint8_t *xd = &x.data<quint8>()->value;
    const uint8_t *yd = &y.data<quint8>()->value;
    int32_t *zd = &z->data<qint32>()->value;
    if (plan.ndims > 2) {
      ctx->ctxFailure(broadcastUnimplemented(*this, x, y));
      return;
    }
    if (plan.ndims == 2)
      TFRT_FALLBACK_OP_REQUIRES(ctx,
                                std::min(x.numElements(), y.numElements()) > 0,
                                errorf("Must have some elements to add"));
    if (plan.ndims <= 1 && (x.numElements() == 1 || y.numElements() == 1)) {
      // TF's ScalarAddition: the single value through float, the other
      // operand through the linear map.
      const bool xScalar = x.numElements() == 1;
      const uint8_t *full = xScalar ? yd : xd;
      const Linear8To32 map(xScalar ? minY : minX, xScalar ? maxY : maxX, minZ,
                            maxZ);
      const int32_t scalar = requantizeInNewRange<quint8, qint32>(
                                 xScalar ? xd[0] : yd[0], xScalar ? minX : minY,
                                 xScalar ? maxX : maxY, minZ, maxZ)
                                 .value;
      for (int64_t i = 0, n = plan.shape.numElements(); i < n; ++i)
        zd[i] = wrapAdd(map(full[i]), scalar);
    } else {
      const Linear8To32 mapX(minX, maxX, minZ, maxZ);
      const Linear8To32 mapY(minY, maxY, minZ, maxZ);
      for (int64_t i = 0; i < plan.rows; ++i)
        for (int64_t j = 0; j < plan.cols; ++j)
          zd[i * plan.cols + j] =
              wrapAdd(mapX(xd[CollapsedBroadcast::offset(bcast.x, i, j)]),
                      mapY(yd[CollapsedBroadcast::offset(bcast.y, i, j)]));
    }
    Tensor *minT = nullptr, *maxT = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape{}, &minT));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(2, TensorShape{}, &maxT));
    *minT->data<float>() = minZ;
    *maxT->data<float>() = maxZ;
  }
};

/// QuantizedMul(x: quint8, y: quint8, min_x, max_x, min_y, max_y; Toutput
/// = qint32) -> (z, min_z, max_z): (x - zero_x) * (y - zero_y), zero_* the
/// code of 0.0 in each range, in the product of the ranges
/// (QuantizationRangeForMultiplication). Broadcasting as QuantizedAdd.
class QuantizedMulKernel final : public OpKernel {
public:
  explicit QuantizedMulKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 2, 5));
    const Tensor &x = ctx->input(0);
    const Tensor &y = ctx->input(1);
    static constexpr const char *kNames[] = {"",      "",      "min_x",
                                             "max_x", "min_y", "max_y"};
    for (int i = 2; i < 6; ++i)
      TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(i).rank() == 0,
                                errorf("%s must be a scalar", kNames[i]));
    const float minX = scalarOf(ctx->input(2)), maxX = scalarOf(ctx->input(3));
    const float minY = scalarOf(ctx->input(4)), maxY = scalarOf(ctx->input(5));
    CollapsedBroadcast bcast(x.shape().dims(), y.shape().dims());
    BinaryPlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, planBinary(*this, x, y, &bcast, &plan));
    Tensor *z = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, plan.shape, &z));
    // TF's messages (min_a / min_b).
    TFRT_FALLBACK_OP_REQUIRES(ctx, maxX > minX,
                              errorf("max_x must be larger than min_a."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, maxY > minY,
                              errorf("max_x must be larger than min_b."));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "x", minX, maxX));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "y", minY, maxY));
    const int32_t offsetX = static_cast<int32_t>(
        floatToQuantizedUnclamped<quint8>(0.0f, minX, maxX));
    const int32_t offsetY = static_cast<int32_t>(
        floatToQuantizedUnclamped<quint8>(0.0f, minY, maxY));
    const uint8_t *xd = &x.data<quint8>()->value;
    const uint8_t *yd = &y.data<quint8>()->value;
    int32_t *zd = &z->data<qint32>()->value;
    if (plan.ndims > 2) {
      ctx->ctxFailure(broadcastUnimplemented(*this, x, y));
      return;
    }
    if (plan.ndims == 2)
      TFRT_FALLBACK_OP_REQUIRES(ctx,
                                std::min(x.numElements(), y.numElements()) > 0,
                                errorf("vector must have at least 1 element"));
    // int32 arithmetic that wraps where TF's overflows.
    auto mul = [](int64_t a, int64_t b) {
      return static_cast<int32_t>(static_cast<uint32_t>(a) *
                                  static_cast<uint32_t>(b));
    };
    for (int64_t i = 0; i < plan.rows; ++i)
      for (int64_t j = 0; j < plan.cols; ++j)
        zd[i * plan.cols + j] = mul(
            int64_t{xd[CollapsedBroadcast::offset(bcast.x, i, j)]} - offsetX,
            int64_t{yd[CollapsedBroadcast::offset(bcast.y, i, j)]} - offsetY);
    float minZ, maxZ;
    quantizationRangeForMultiplication<quint8, quint8, qint32>(
        minX, maxX, minY, maxY, &minZ, &maxZ);
    Tensor *minT = nullptr, *maxT = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape{}, &minT));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(2, TensorShape{}, &maxT));
    *minT->data<float>() = minZ;
    *maxT->data<float>() = maxZ;
  }
};

//===----------------------------------------------------------------------===//
// QuantizedReshape, QuantizedConcat
//===----------------------------------------------------------------------===//

/// Reshape's shape rule (ShapeKernels.cpp, TF's ReshapeOp): `sizes` a 1-D
/// (or scalar) int32/int64 tensor with at most one -1.
Status reshapeShape(const OpKernel &op, const Tensor &input,
                    const Tensor &sizes, TensorShape *out) {
  if (sizes.rank() > 1)
    return op.errorf("sizes input must be 1-D, not %s",
                     sizes.shape().toString());
  const int64_t rank = sizes.numElements();
  TensorShape::Dims dims;
  int64_t product = 1;
  int64_t unknown = -1;
  bool sizesHaveZero = false;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t s = indexAt(sizes, d);
    if (s == -1) {
      if (unknown != -1)
        return op.errorf("Only one input size may be -1, not both %d and %d",
                         unknown, d);
      unknown = d;
      dims.push_back(1);
      continue;
    }
    if (s < 0)
      return op.errorf("Size %d must be non-negative, not %d", d, s);
    if (s != 0 && product > std::numeric_limits<int64_t>::max() / s)
      return op.errorf("Requested shape has too many elements");
    dims.push_back(s);
    if (s == 0)
      sizesHaveZero = true;
    else
      product *= s;
  }
  if (unknown != -1) {
    int64_t inputCount = 1;
    bool inputHasZero = false;
    for (int64_t dim : input.shape().dims()) {
      if (dim > 0 || !sizesHaveZero)
        inputCount *= dim;
      else
        inputHasZero = true;
    }
    const int64_t missing = inputCount / product;
    if (!inputHasZero && product * missing != inputCount)
      return op.errorf("Input to reshape is a tensor with %d values, but the "
                       "requested shape requires a multiple of %d",
                       inputCount, product);
    dims[unknown] = missing;
  }
  StatusOr<TensorShape> shape = TensorShape::create(dims);
  if (!shape.ok())
    return op.errorf("Invalid requested shape: %s", shape.status().message());
  if (shape->numElements() != input.numElements())
    return op.errorf("Input to reshape is a tensor with %d values, but the "
                     "requested shape has %d",
                     input.numElements(), shape->numElements());
  *out = *std::move(shape);
  return OkStatus();
}

/// QuantizedReshape(tensor: T, shape: Tshape, input_min, input_max) ->
/// (output, output_min, output_max): Reshape, the range passed through
/// (each a scalar or a 1-element vector). The output shares the input's
/// buffer.
class QuantizedReshapeKernel final : public OpKernel {
public:
  explicit QuantizedReshapeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, requireFloatInputs(*this, ctx, 2, 3));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(ctx->input(1)),
                              errorf("shape must be int32 or int64, got %s",
                                     dtypeName(ctx->input(1).dtype())));
    const Tensor &input = ctx->input(0);
    TensorShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, reshapeShape(*this, input, ctx->input(1), &shape));
    for (int i = 2; i < 4; ++i) {
      const Tensor &t = ctx->input(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, t.rank() == 0 || (t.rank() == 1 && t.dim(0) == 1),
          errorf("%s must be a scalar or a vector of 1 element",
                 i == 2 ? "input_min" : "input_max"));
    }
    const float minV = scalarOf(ctx->input(2));
    const float maxV = scalarOf(ctx->input(3));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", minV, maxV));
    ctx->setOutput(0, input.reshaped(std::move(shape)));
    Tensor *minT = nullptr, *maxT = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape{}, &minT));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(2, TensorShape{}, &maxT));
    *minT->data<float>() = minV;
    *maxT->data<float>() = maxV;
  }
};

/// QuantizedConcat(concat_dim: int32, values: N x T, input_mins: N x
/// float, input_maxes: N x float) -> (output, output_min, output_max): the
/// values concatenated along concat_dim (0 <= concat_dim < rank, no
/// negative dims, as TF) in the union of the input ranges with min at most
/// 0 (symmetric around 0 for qint32); inputs whose range differs are
/// requantized (TF's QUANTIZE_WITH_EIGEN / DEQUANTIZE_WITH_EIGEN).
template <typename T> class QuantizedConcatKernel final : public OpKernel {
public:
  explicit QuantizedConcatKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, requireFloatInputs(*this, ctx, 1 + (ctx->numInputs() - 1) / 3,
                                ctx->numInputs() - 1));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, requireInputDType(*this, ctx, {0}, DType::I32));
    const int n = (ctx->numInputs() - 1) / 3;
    const Tensor &dimT = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dimT.rank() == 0,
        errorf("Concat dim tensor should be a scalar integer, but got shape %s",
               dimT.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, n >= 1 && ctx->numInputs() == 1 + 3 * n,
        errorf("QuantizedConcatOp : Expected mins and maxes input list "
               "lengths to equal values length"));
    const int64_t concatDim = *dimT.data<int32_t>();
    const Tensor &first = ctx->input(1);
    const int rank = first.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, 0 <= concatDim && concatDim < rank,
        errorf("ConcatOp : Expected concatenating dimensions in the range "
               "[0, %d), but got %d",
               rank, concatDim));
    float overallMin = std::numeric_limits<float>::max();
    float overallMax = std::numeric_limits<float>::lowest();
    std::vector<std::pair<float, float>> ranges;
    for (int i = 0; i < n; ++i) {
      const Tensor &minT = ctx->input(1 + n + i);
      const Tensor &maxT = ctx->input(1 + 2 * n + i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, minT.numElements() == 1,
          errorf("input_mins each tensor's num elements must be 1, given num "
                 "elements %d in index %d",
                 minT.numElements(), i));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, maxT.numElements() == 1,
          errorf("input_maxes each tensor's num elements must be 1, given num "
                 "elements %d in index %d",
                 maxT.numElements(), i));
      const float lo = scalarOf(minT), hi = scalarOf(maxT);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkRange(*this, "input", lo, hi));
      ranges.emplace_back(lo, hi);
      overallMin = std::min(overallMin, lo);
      overallMax = std::max(overallMax, hi);
    }
    overallMin = std::min(0.0f, overallMin);
    float outMin = overallMin, outMax = overallMax;
    if constexpr (isSignedQ<T>()) {
      const float largest =
          std::max(std::fabs(overallMin), std::fabs(overallMax));
      outMin = -largest;
      outMax = largest;
    }
    int64_t outer = 1;
    for (int d = 0; d < concatDim; ++d)
      outer *= first.dim(d);
    int64_t concatTotal = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor &in = ctx->input(1 + i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, in.rank() == rank,
          errorf("ConcatOp : Ranks of all input tensors should match: "
                 "shape[0] = %s vs. shape[%d] = %s",
                 first.shape().toString(), i, in.shape().toString()));
      for (int d = 0; d < rank; ++d)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, d == concatDim || in.dim(d) == first.dim(d),
            errorf("ConcatOp : Dimensions of inputs should match: shape[0] = "
                   "%s vs. shape[%d] = %s",
                   first.shape().toString(), i, in.shape().toString()));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          !__builtin_add_overflow(
              concatTotal, in.dim(static_cast<int>(concatDim)), &concatTotal),
          errorf("ConcatOp : the output dimension %d overflows int64",
                 concatDim));
    }
    TensorShape::Dims outDims(first.shape().dims().begin(),
                              first.shape().dims().end());
    outDims[concatDim] = concatTotal;
    Tensor *output = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outDims, &output));
    T *out = output->data<T>();
    const int64_t outRow = outer == 0 ? 0 : output->numElements() / outer;
    int64_t column = 0;
    for (int i = 0; i < n; ++i) {
      const Tensor &in = ctx->input(1 + i);
      if (in.numElements() == 0)
        continue;
      const int64_t row = in.numElements() / outer;
      const T *src = in.data<T>();
      const auto [lo, hi] = ranges[i];
      if (lo == outMin && hi == outMax) {
        for (int64_t r = 0; r < outer; ++r)
          std::memcpy(out + r * outRow + column, src + r * row,
                      row * sizeof(T));
      } else {
        const Dequantizer<T> q2f(lo, hi);
        const Quantizer<T> f2q(outMin, outMax);
        for (int64_t r = 0; r < outer; ++r)
          for (int64_t k = 0; k < row; ++k)
            out[r * outRow + column + k] = f2q(q2f(src[r * row + k].value));
      }
      column += row;
    }
    Tensor *minT = nullptr, *maxT = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, TensorShape{}, &minT));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(2, TensorShape{}, &maxT));
    *minT->data<float>() = outMin;
    *maxT->data<float>() = outMax;
  }
};

template <typename T> void registerQuantizeV2(KernelRegistry &registry) {
  registerWith<OpId::kQuantizeV2, QuantizeV2Kernel<T>, T>(
      registry, {{"T", dtypeOf<T>()}});
}

template <typename T> void registerDequantize(KernelRegistry &registry) {
  registerWith<OpId::kDequantize, DequantizeKernel<T, float>, T>(
      registry, {{"T", dtypeOf<T>()}, {"dtype", DType::F32}});
  registerWith<OpId::kDequantize, DequantizeKernel<T, Eigen::bfloat16>, T>(
      registry, {{"T", dtypeOf<T>()}, {"dtype", DType::BF16}});
}

} // namespace

void registerQuantizationKernels(KernelRegistry &registry) {
  registerQuantizeV2<quint8>(registry);
  registerQuantizeV2<qint8>(registry);
  registerQuantizeV2<quint16>(registry);
  registerQuantizeV2<qint16>(registry);
  registerQuantizeV2<qint32>(registry);
  registerDequantize<quint8>(registry);
  registerDequantize<qint8>(registry);
  registerDequantize<quint16>(registry);
  registerDequantize<qint16>(registry);
  registerDequantize<qint32>(registry);
  registerWith<OpId::kRequantize, RequantizeKernel<quint8>, qint32>(
      registry, {{"Tinput", DType::QI32}, {"out_type", DType::QU8}});
  registerWith<OpId::kRequantize, RequantizeKernel<qint8>, qint32>(
      registry, {{"Tinput", DType::QI32}, {"out_type", DType::QI8}});
  registerWith<OpId::kRequantizationRange, RequantizationRangeKernel, qint32>(
      registry, {{"Tinput", DType::QI32}});
  registerWith<OpId::kQuantizeDownAndShrinkRange,
               QuantizeDownAndShrinkRangeKernel, qint32>(
      registry, {{"Tinput", DType::QI32}, {"out_type", DType::QU8}});
  registerWith<OpId::kQuantizedAdd, QuantizedAddKernel, quint8>(
      registry,
      {{"T1", DType::QU8}, {"T2", DType::QU8}, {"Toutput", DType::QI32}});
  registerWith<OpId::kQuantizedMul, QuantizedMulKernel, quint8>(
      registry,
      {{"T1", DType::QU8}, {"T2", DType::QU8}, {"Toutput", DType::QI32}});
  registerWith<OpId::kQuantizedReshape, QuantizedReshapeKernel, quint8>(
      registry, {{"T", DType::QU8}});
  registerWith<OpId::kQuantizedReshape, QuantizedReshapeKernel, qint32>(
      registry, {{"T", DType::QI32}});
  registerWith<OpId::kQuantizedConcat, QuantizedConcatKernel<quint8>, quint8>(
      registry, {{"T", DType::QU8}});
  registerWith<OpId::kQuantizedConcat, QuantizedConcatKernel<qint32>, qint32>(
      registry, {{"T", DType::QI32}});
}

} // namespace tfrt_fallback::rt

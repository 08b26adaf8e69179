//===- QuantizationUtils.h - TF's quantized <-> float arithmetic -*- C++
//-*-===//
//
// Private to lib/Runtime/Kernels: the arithmetic of TensorFlow's
// quantization_utils.h that the quantized kernels (QuantizationKernels.cpp,
// QuantizedNNKernels.cpp) share, written as plain scalar functions with the
// same float / double operations in the same order, so that results match
// TF's CPU kernels bit for bit:
//
// - floatToQuantizedUnclamped / floatToQuantized / quantizedToFloat: TF's
//   reference conversions (double arithmetic, range_adjust = 2^n / (2^n - 1)).
// - Dequantizer / Quantizer: TF's DEQUANTIZE_WITH_EIGEN / QUANTIZE_WITH_EIGEN
//   (QuantizedToFloatStruct / FloatToQuantizedStruct, float arithmetic).
// - requantize32To8: the fixed-point qint32 -> quint8 path of
//   RequantizeManyInNewRangeUsingEigen<qint32, quint8>.
// - quantizationRangeForMultiplication, floatForOneQuantizedLevel,
//   outputRangeForQuantizedAdd.
//
// Where TF's conversions are undefined (a double or float outside the
// target integer's range, NaN) these saturate (NaN gives the lowest value),
// so no input can trigger undefined behaviour.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_QUANTIZATION_QUANTIZATIONUTILS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_QUANTIZATION_QUANTIZATIONUTILS_H

#include "common/Registration.h"

#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

// TF evaluates these expressions one operation at a time (Eigen packet ops,
// or GCC without FMA contraction): no fused multiply-adds here either.
#pragma STDC FP_CONTRACT OFF

namespace tfrt_fallback::rt::kernels::quant {

inline Status unimplemented(const OpKernel &op, std::string message) {
  return makeOpError(StatusCode::kUnimplemented, op.opName(), op.nodeName(),
                     message);
}

/// Registers `KernelClass` for `Op` with one dtype per type attribute
/// (`constraints`), unless the kernel selection leaves (Op, First) out.
template <OpId Op, typename KernelClass, typename First>
void registerWith(
    KernelRegistry &registry,
    std::initializer_list<std::pair<std::string_view, DType>> constraints) {
  if constexpr (isKernelSelected(Op, dtypeOf<First>())) {
    KernelDefBuilder builder(kOpRow<Op>);
    for (const auto &[name, dtype] : constraints)
      builder.typeConstraint(name, {dtype});
    rt::registerKernel<KernelClass>(registry, builder);
  }
}

/// The storage integer of quantized type T (uint8_t for quint8), or T.
template <typename T> struct StorageOf {
  using type = T;
};
template <typename Int, int N> struct StorageOf<Quantized<Int, N>> {
  using type = Int;
};

template <typename T> constexpr int64_t lowestOf() {
  return std::numeric_limits<typename StorageOf<T>::type>::lowest();
}
template <typename T> constexpr int64_t highestOf() {
  return std::numeric_limits<typename StorageOf<T>::type>::max();
}
template <typename T> constexpr bool isSignedQ() { return lowestOf<T>() < 0; }

/// The integer of a quantized element (the value for plain integers).
template <typename T> int64_t valueOf(T v) {
  if constexpr (kIsQuantized<T>)
    return v.value;
  else
    return static_cast<int64_t>(v);
}

/// A quantized element of T holding `v` (in range).
template <typename T> T makeQ(int64_t v) {
  return T(static_cast<typename StorageOf<T>::type>(v));
}

/// double -> int64, saturating; NaN gives INT64_MIN.
inline int64_t saturateToInt64(double v) {
  if (!(v > -9.2233720368547758e18))
    return std::numeric_limits<int64_t>::min();
  if (v >= 9.2233720368547758e18)
    return std::numeric_limits<int64_t>::max();
  return static_cast<int64_t>(v);
}

/// Float -> integer code of T with clamping to [lo, hi] (NaN gives lo), for
/// values TF rounds and casts.
template <typename T> T clampToQ(double v, int64_t lo, int64_t hi) {
  if (!(v > static_cast<double>(lo)))
    return makeQ<T>(lo);
  if (v >= static_cast<double>(hi))
    return makeQ<T>(hi);
  return makeQ<T>(static_cast<int64_t>(v));
}

/// TF's FloatToQuantizedUnclamped<T>.
template <typename T>
int64_t floatToQuantizedUnclamped(float input, float rangeMin, float rangeMax) {
  const int64_t lowest = lowestOf<T>();
  if (rangeMin == rangeMax)
    return lowest;
  const int bits = sizeof(T) * 8;
  const int64_t steps = static_cast<int64_t>(1) << bits;
  const double rangeAdjust = steps / (steps - 1.0);
  const double range = (rangeMax - rangeMin) * rangeAdjust;
  const double rangeScale = steps / range;
  const double q =
      std::round(input * rangeScale) - std::round(rangeMin * rangeScale);
  const int64_t quantized = saturateToInt64(q);
  // Saturating add of the lowest value.
  if (quantized < std::numeric_limits<int64_t>::min() - lowest)
    return std::numeric_limits<int64_t>::min();
  return quantized + lowest;
}

/// TF's FloatToQuantized<T>: FloatToQuantizedUnclamped clamped to T.
template <typename T> T floatToQuantized(float input, float min, float max) {
  const int64_t q = floatToQuantizedUnclamped<T>(input, min, max);
  return makeQ<T>(std::min(std::max(q, lowestOf<T>()), highestOf<T>()));
}

/// TF's QuantizedToFloat<T> of the integer `input`.
template <typename T>
float quantizedToFloat(int64_t input, float rangeMin, float rangeMax) {
  if (rangeMin == rangeMax)
    return rangeMin;
  const int bits = sizeof(T) * 8;
  const int64_t steps = static_cast<int64_t>(1) << bits;
  const double rangeAdjust = steps / (steps - 1.0);
  const double range = (rangeMax - rangeMin) * rangeAdjust;
  const double rangeScale = range / steps;
  const int64_t lowest = lowestOf<T>();
  const double offsetInput = static_cast<double>(input) - lowest;
  const float scaleF = static_cast<float>(rangeScale);
  const float rounded = std::round(rangeMin / scaleF);
  const double rangeMinRounded = rounded * scaleF;
  const double result = rangeMinRounded + (offsetInput * rangeScale);
  return static_cast<float>(result);
}

/// TF's RequantizeInNewRange<T1, T2>.
template <typename T1, typename T2>
T2 requantizeInNewRange(int64_t input, float minInput, float maxInput,
                        float minNew, float maxNew) {
  return floatToQuantized<T2>(quantizedToFloat<T1>(input, minInput, maxInput),
                              minNew, maxNew);
}

/// TF's FloatForOneQuantizedLevel<T>.
template <typename T> float floatForOneQuantizedLevel(float min, float max) {
  return (max - min) / static_cast<float>(highestOf<T>() - lowestOf<T>());
}

/// TF's QuantizationRangeForMultiplication<T1, T2, T3>: the range of the
/// product of a T1 and a T2 tensor held in T3 (qint32).
template <typename T1, typename T2, typename T3>
void quantizationRangeForMultiplication(float minA, float maxA, float minB,
                                        float maxB, float *minC, float *maxC) {
  const float a = floatForOneQuantizedLevel<T1>(minA, maxA);
  const float b = floatForOneQuantizedLevel<T2>(minB, maxB);
  const float c = a * b;
  *minC = c * static_cast<float>(lowestOf<T3>());
  *maxC = c * static_cast<float>(highestOf<T3>());
}

/// TF's GetOutputMinAndMaxForQuantizedAdd (QuantizedBiasAdd's range): the
/// largest magnitude of both ranges times 2^17, symmetric.
inline void outputRangeForQuantizedAdd(float inputMin, float inputMax,
                                       float smallerMin, float smallerMax,
                                       float *outputMin, float *outputMax) {
  *outputMax = std::max(inputMax, std::max(-inputMin,
                                           std::max(smallerMax, -smallerMin))) *
               (1 << 17);
  *outputMin = -(*outputMax);
}

/// TF's DEQUANTIZE_WITH_EIGEN with QuantizedToFloatStruct<T>: float
/// arithmetic, base + x * scale.
template <typename T> struct Dequantizer {
  float rangeScale;
  float base;
  Dequantizer(float rangeMin, float rangeMax) {
    const int64_t steps = static_cast<int64_t>(1) << (sizeof(T) * 8);
    rangeScale = static_cast<float>((rangeMax - rangeMin) / (steps - 1.0));
    float rangeMinRounded = rangeMin;
    if (rangeMax != rangeMin) {
      const float r = std::round(rangeMin / rangeScale);
      rangeMinRounded = r * rangeScale;
    }
    const float lowestTimesScale =
        static_cast<float>(lowestOf<T>()) * rangeScale;
    base = rangeMinRounded - lowestTimesScale;
  }
  float operator()(int64_t q) const {
    const float scaled = static_cast<float>(q) * rangeScale;
    return base + scaled;
  }
};

/// TF's QUANTIZE_WITH_EIGEN with FloatToQuantizedStruct<T>: round(x *
/// scale) - (round(min * scale) - lowest), clamped, in float.
template <typename T> struct Quantizer {
  float rangeScale;
  float offset;
  float lower, upper;
  Quantizer(float rangeMin, float rangeMax) {
    const int64_t steps = static_cast<int64_t>(1) << (sizeof(T) * 8);
    rangeScale = static_cast<float>(
        rangeMax == rangeMin ? 0.0 : (steps - 1.0) / (rangeMax - rangeMin));
    const float product = rangeMin * rangeScale;
    const float rangeMinScaled = std::round(product);
    offset = rangeMinScaled - static_cast<float>(lowestOf<T>());
    lower = std::max(static_cast<float>(lowestOf<T>()), -2.147483648e+09f);
    upper = std::min(static_cast<float>(highestOf<T>()), +2.147483520e+09f);
  }
  T operator()(float x) const {
    const float scaled = x * rangeScale;
    const float v = std::round(scaled) - offset;
    // cwiseMax(lower).cwiseMin(upper), then cast<int32>; NaN gives lower.
    if (!(v > lower))
      return makeQ<T>(static_cast<int64_t>(lower));
    if (v >= upper)
      return makeQ<T>(static_cast<int64_t>(upper));
    return makeQ<T>(static_cast<int32_t>(v));
  }
};

/// The fixed-point qint32 -> quint8 requantization of TF's
/// RequantizeManyInNewRangeUsingEigen<qint32, quint8> (16 fractional
/// bits). The 64-bit product wraps as TF's does in practice.
struct Requantizer32To8 {
  int64_t rangeScaleFp;
  int64_t offset;
  Requantizer32To8(float minInput, float maxInput, float minOutput,
                   float maxOutput) {
    const int fpShift = 16;
    const float inputRange = maxInput - minInput;
    const float outputRange = maxOutput - minOutput;
    const float recipOutputRange =
        outputRange == 0.0 ? 0.0 : (255.0 / outputRange);
    const float inputRezero = (minInput + maxInput) / 2.0;
    rangeScaleFp = outputRange == 0.0
                       ? 0
                       : saturateToInt64(255.0 * (1 << fpShift) * inputRange /
                                         outputRange);
    const float offsetProduct = inputRezero * recipOutputRange;
    const int64_t inputOffsetFp =
        saturateToInt64(offsetProduct * static_cast<float>(1 << fpShift));
    const int64_t outputOffsetFp =
        outputRange == 0.0
            ? 0
            : saturateToInt64(std::round((1 << fpShift) * (minOutput * 255.0) /
                                         outputRange));
    const int64_t roundingDelta = 1 << (fpShift - 1);
    offset = static_cast<int64_t>(static_cast<uint64_t>(inputOffsetFp) -
                                  static_cast<uint64_t>(outputOffsetFp) +
                                  static_cast<uint64_t>(roundingDelta));
  }
  quint8 operator()(int32_t input) const {
    const int64_t product = static_cast<int64_t>(
        static_cast<uint64_t>(static_cast<int64_t>(input)) *
        static_cast<uint64_t>(rangeScaleFp));
    const int64_t fp = static_cast<int64_t>(
        static_cast<uint64_t>(product >> 32) + static_cast<uint64_t>(offset));
    const int64_t q = fp >> 16;
    return quint8(
        static_cast<uint8_t>(std::min<int64_t>(std::max<int64_t>(q, 0), 255)));
  }
};

/// The checks the quantized kernels add to TF's: a float range input must
/// be finite with min <= max ("<what> range [min, max] must be finite with
/// min <= max").
inline Status checkRange(const OpKernel &op, std::string_view what, float min,
                         float max) {
  if (!std::isfinite(min) || !std::isfinite(max) || !(min <= max))
    return op.errorf("%s range [%s, %s] must be finite with min <= max", what,
                     min, max);
  return OkStatus();
}

/// Fails unless inputs `indices` of `ctx` are `dtype` tensors: the OpDef
/// fixes them (float ranges, int32 sizes), but the loader leaves numeric
/// dtypes to the kernels, and reading another dtype's buffer as floats
/// could read past it.
inline Status requireInputDType(const OpKernel &op,
                                OpKernelContextInterface *ctx,
                                std::initializer_list<int> indices,
                                DType dtype) {
  for (int i : indices)
    if (ctx->input(i).dtype() != dtype)
      return op.errorf("input #%d must be a %s tensor, got %s", i,
                       dtypeName(dtype), dtypeName(ctx->input(i).dtype()));
  return OkStatus();
}

/// requireInputDType(F32) for inputs [first, last].
inline Status requireFloatInputs(const OpKernel &op,
                                 OpKernelContextInterface *ctx, int first,
                                 int last) {
  for (int i = first; i <= last; ++i)
    if (Status status = requireInputDType(op, ctx, {i}, DType::F32);
        !status.ok())
      return status;
  return OkStatus();
}

/// The float element of a scalar (or any 1-element) float tensor.
inline float scalarOf(const Tensor &t) { return t.data<float>()[0]; }

} // namespace tfrt_fallback::rt::kernels::quant

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_QUANTIZATION_QUANTIZATIONUTILS_H

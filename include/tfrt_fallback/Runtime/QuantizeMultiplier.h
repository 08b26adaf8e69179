//===- QuantizeMultiplier.h - TFLite's fixed-point multipliers --*- C++ -*-===//
//
// TFLite's QuantizeMultiplier (lite/kernels/internal/quantization_util.cc):
// a real multiplier m as q * 2^(shift - 31) with q in [2^30, 2^31), the form
// its integer kernels rescale by. The TFLite importer computes the
// multipliers of a model's integer operators with it, and the quantized
// kernels the ones that depend on run-time shapes (MEAN's element count).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_QUANTIZEMULTIPLIER_H
#define TFRT_FALLBACK_RUNTIME_QUANTIZEMULTIPLIER_H

#include <cmath>
#include <cstdint>

namespace tfrt_fallback::rt {

struct QuantizedMultiplier {
  int32_t multiplier = 0;
  int shift = 0;
};

/// m as TFLite's QuantizeMultiplier writes it; 0 for 0, and 0 for a
/// multiplier too small to represent (an exponent below -31).
inline QuantizedMultiplier quantizeMultiplier(double m) {
  if (m == 0.0)
    return {};
  int exponent;
  double fraction = std::frexp(m, &exponent);
  int64_t fixed = static_cast<int64_t>(std::round(fraction * (1LL << 31)));
  if (fixed == (1LL << 31)) {
    fixed /= 2;
    ++exponent;
  }
  if (exponent < -31)
    return {};
  return {static_cast<int32_t>(fixed), exponent};
}

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_QUANTIZEMULTIPLIER_H

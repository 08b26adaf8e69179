//===- DepthwiseNeonFp16.cpp - NEON FP16 depthwise rows ---------*- C++ -*-===//
//
// AArch64 with the ARMv8.2 half-precision arithmetic (compiled with
// -march=armv8.2-a+fp16, called only when gemm::halfArithmetic()): the f16
// depthwise convolution's interior rows, DepthwiseVectorRows.h's in vectors
// of 8 halves (NeonHalfVec.h), for a multiple of 8 channels or groups of
// adjacent pixels that fill whole vectors at stride 1, with the bias and
// Relu/Relu6 epilogue in registers. 8 MACs per `fmla v.8h`.
//
//===----------------------------------------------------------------------===//

#include "compute/DepthwiseRows.h"
#include "compute/DepthwiseVectorRows.h"
#include "compute/NeonHalfVec.h"

namespace tfrt_fallback::rt::kernels {

void depthwiseRowNeonFp16(const uint16_t *base, const int64_t *rowOffset,
                          const uint16_t *const *filters, int nTaps,
                          int64_t pixelStride, int64_t channels, int64_t n,
                          uint16_t *out, const uint16_t *bias,
                          DepthwiseActivation activation) {
  depthwiseRow<simd::NeonHalfVec>(base, rowOffset, filters, nTaps, pixelStride,
                                  channels, n, out, bias, activation);
}

} // namespace tfrt_fallback::rt::kernels

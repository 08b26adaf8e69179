//===- DepthwiseNeon.cpp - NEON depthwise convolution rows ------*- C++ -*-===//
//
// AArch64 only, called when gemm::activeIsa() says Isa::Neon (the default
// there; TFRT_FALLBACK_ISA=portable forces the portable loop). The rows are
// DepthwiseVectorRows.h's in vectors of 4 floats (NeonVec.h), for a
// multiple of 4 channels or groups of adjacent pixels that fill whole
// vectors at stride 1, with the bias and Relu/Relu6 epilogue in registers.
//
//===----------------------------------------------------------------------===//

#include "compute/DepthwiseRows.h"
#include "compute/DepthwiseVectorRows.h"
#include "compute/NeonVec.h"

namespace tfrt_fallback::rt::kernels {

void depthwiseRowNeon(const float *base, const int64_t *rowOffset,
                      const float *const *filters, int nTaps,
                      int64_t pixelStride, int64_t channels, int64_t n,
                      float *out, const float *bias,
                      DepthwiseActivation activation) {
  depthwiseRow<simd::NeonVec>(base, rowOffset, filters, nTaps, pixelStride,
                              channels, n, out, bias, activation);
}

} // namespace tfrt_fallback::rt::kernels

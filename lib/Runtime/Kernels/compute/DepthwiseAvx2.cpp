//===- DepthwiseAvx2.cpp - AVX2 depthwise convolution rows ------*- C++ -*-===//
//
// Compiled with -mavx2 -mfma whatever the runtime's -march, and only called
// after gemm::activeIsa() says Isa::Avx2 or better (an AVX-512 CPU takes
// DepthwiseAvx512.cpp's rows where they fit, these for a multiple of 8
// channels that is not one of 16 at a stride above 1;
// TFRT_FALLBACK_ISA=avx2 forces these). The rows are DepthwiseVectorRows.h's,
// in vectors of 8 floats, for a multiple of 8 channels (32-byte vectors on
// whole 64-byte lines when the tensor starts on one), or groups of adjacent
// pixels that fill whole vectors at stride 1. What they add to the portable
// path is the epilogue in
// registers: the portable loop loses its vector form when anything follows
// its taps, and a separate pass over each chunk cost half as much again as
// the taps (a 112x112x96 3x3 layer with bias and Relu6: 0.33 ms without,
// 0.49 with).
//
//===----------------------------------------------------------------------===//

#include "compute/Avx2Vec.h"
#include "compute/DepthwiseRows.h"
#include "compute/DepthwiseVectorRows.h"

namespace tfrt_fallback::rt::kernels {

void depthwiseRowAvx2(const float *base, const int64_t *rowOffset,
                      const float *const *filters, int nTaps,
                      int64_t pixelStride, int64_t channels, int64_t n,
                      float *out, const float *bias,
                      DepthwiseActivation activation) {
  depthwiseRow<simd::Avx2Vec>(base, rowOffset, filters, nTaps, pixelStride,
                              channels, n, out, bias, activation);
}

} // namespace tfrt_fallback::rt::kernels

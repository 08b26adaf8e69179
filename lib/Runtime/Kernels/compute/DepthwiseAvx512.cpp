//===- DepthwiseAvx512.cpp - AVX-512F depthwise rows ------------*- C++ -*-===//
//
// Compiled with -mavx512f -mavx2 -mfma whatever the runtime's -march, and
// only called after gemm::activeIsa() says Isa::Avx512: a CPU without
// AVX-512 never reaches this code. The rows are DepthwiseVectorRows.h's, in
// vectors of 16 floats.
//
// Only for a multiple of 16 channels: then every pixel's vectors start on a
// 64-byte line when the tensor does; with 24 channels (a 96-byte pixel)
// every other 64-byte load would span two lines, and 16 + 8 channels in
// 32-byte vectors are faster (measured: 24, 40, 72 and 88 channels 7% to
// 18% slower in 64-byte vectors, 48 and 96 channels 15% and 24% faster).
// Other channel counts come here at stride 1 as groups of adjacent pixels
// whose channels fill whole vectors (ConvKernels.cpp, depthwisePixelGroup:
// two pixels of 24 channels are one "pixel" of 48), which keeps every
// vector on whole 64-byte lines where the tensor starts on one.
//
//===----------------------------------------------------------------------===//

#include "compute/Avx512Vec.h"
#include "compute/DepthwiseRows.h"
#include "compute/DepthwiseVectorRows.h"

namespace tfrt_fallback::rt::kernels {

void depthwiseRowAvx512(const float *base, const int64_t *rowOffset,
                        const float *const *filters, int nTaps,
                        int64_t pixelStride, int64_t channels, int64_t n,
                        float *out, const float *bias,
                        DepthwiseActivation activation) {
  depthwiseRow<simd::Avx512Vec>(base, rowOffset, filters, nTaps, pixelStride,
                                channels, n, out, bias, activation);
}

} // namespace tfrt_fallback::rt::kernels

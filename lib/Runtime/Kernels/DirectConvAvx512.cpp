//===- DirectConvAvx512.cpp - AVX-512F direct convolution ------*- C++ -*-===//
//
// DirectConv.h's template with 16 lanes and 32 vector registers, compiled
// with -mavx512f -mavx2 -mfma whatever the runtime's -march, and only
// called after gemm::activeIsa() says Isa::Avx512: a CPU without AVX-512
// never reaches this code. The template is in an anonymous namespace, so
// this file's copy is its own.
//
//===----------------------------------------------------------------------===//

#include "DirectConv.h"

namespace tfrt_fallback::rt::kernels {

void directConvRowsAvx512(const DirectConvArgs &d, int64_t first, int64_t last,
                          float *out) {
  direct::convRows<16, 32>(d, first, last, out);
}

} // namespace tfrt_fallback::rt::kernels

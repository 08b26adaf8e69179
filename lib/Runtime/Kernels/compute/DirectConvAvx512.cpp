//===- DirectConvAvx512.cpp - AVX-512F direct convolution ------*- C++ -*-===//
//
// DirectConv.h's template with 16 lanes and 32 vector registers, compiled
// with -mavx512f -mavx2 -mfma whatever the runtime's -march, and only
// called after gemm::activeIsa() says Isa::Avx512: a CPU without AVX-512
// never reaches this code. The template is in an anonymous namespace, so
// this file's copy is its own.
//
//===----------------------------------------------------------------------===//

#include "compute/DirectConv.h"

#include <immintrin.h>

namespace tfrt_fallback::rt::kernels {
namespace {
/// The channels left in a block's last vector, in one masked store.
struct MaskedStore {
  template <int Lanes>
  static void store(float *out, const direct::Vec<Lanes> &v, int64_t count) {
    static_assert(Lanes == 16, "a 64-byte vector");
    _mm512_mask_storeu_ps(out, static_cast<__mmask16>((1u << count) - 1), v);
  }
};
} // namespace

void directConvRowsAvx512(const DirectConvArgs &d, int64_t first, int64_t last,
                          float *out) {
  direct::convRows<16, 32, MaskedStore>(d, first, last, out);
}

} // namespace tfrt_fallback::rt::kernels

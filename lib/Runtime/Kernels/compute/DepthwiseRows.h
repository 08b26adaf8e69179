//===- DepthwiseRows.h - Depthwise convolution rows per ISA -----*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the instruction-set specific forms of the
// depthwise convolution's interior pixels (ConvKernels.cpp has the portable
// one and the rest of the kernel). Only declarations: each definition lives
// in a file compiled for its instruction set, which nothing else includes.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DEPTHWISEROWS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DEPTHWISEROWS_H

#include <cstdint>

namespace tfrt_fallback::rt::kernels {

/// The activations the vector rows apply in registers.
enum class DepthwiseActivation : uint8_t { None, Relu, Relu6 };

#if defined(__x86_64__) || defined(_M_X64)
/// `n` adjacent interior output pixels of an f32 depthwise convolution with
/// channel multiplier 1 and a multiple of 16 channels, every channel, with
/// AVX-512F (DepthwiseAvx512.cpp; call only when gemm::activeIsa() is
/// Isa::Avx512). Output pixel p's tap t
/// reads base + rowOffset[t] + p * pixelStride (`channels` values) and
/// multiplies them with filters[t]; the sums, in tap order with one fused
/// multiply-add per tap, go to out + p * channels: the sums the portable
/// depthwiseRun makes, in the same order. With `bias` (`channels` values),
/// each sum gets its channel's bias before it is stored, then
/// `activation`: the fused epilogue in registers, the same operations in
/// the same order as Epilogue::apply.
void depthwiseRowAvx512(
    const float *base, const int64_t *rowOffset, const float *const *filters,
    int nTaps, int64_t pixelStride, int64_t channels, int64_t n, float *out,
    const float *bias = nullptr,
    DepthwiseActivation activation = DepthwiseActivation::None);

/// The same rows with AVX2 and FMA in vectors of 8 (DepthwiseAvx2.cpp; a
/// multiple of 8 channels; call only when gemm::activeIsa() is Isa::Avx2 or
/// Isa::Avx512).
void depthwiseRowAvx2(
    const float *base, const int64_t *rowOffset, const float *const *filters,
    int nTaps, int64_t pixelStride, int64_t channels, int64_t n, float *out,
    const float *bias = nullptr,
    DepthwiseActivation activation = DepthwiseActivation::None);
#endif

#if defined(__aarch64__)
/// depthwiseRowAvx512's contract in NEON vectors of 4 (DepthwiseNeon.cpp)
/// for a multiple of 4 channels; call only when gemm::activeIsa() is at
/// least Isa::Neon.
void depthwiseRowNeon(
    const float *base, const int64_t *rowOffset, const float *const *filters,
    int nTaps, int64_t pixelStride, int64_t channels, int64_t n, float *out,
    const float *bias = nullptr,
    DepthwiseActivation activation = DepthwiseActivation::None);

/// The same rows in f16 (the halves' bits) with the ARMv8.2 FP16
/// arithmetic in vectors of 8, summing in f16 with one fused multiply-add
/// per tap (DepthwiseNeonFp16.cpp) for a multiple of 8 channels; call only
/// when gemm::halfArithmetic().
void depthwiseRowNeonFp16(
    const uint16_t *base, const int64_t *rowOffset,
    const uint16_t *const *filters, int nTaps, int64_t pixelStride,
    int64_t channels, int64_t n, uint16_t *out, const uint16_t *bias = nullptr,
    DepthwiseActivation activation = DepthwiseActivation::None);
#endif

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DEPTHWISEROWS_H

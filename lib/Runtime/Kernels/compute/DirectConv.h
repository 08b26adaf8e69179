//===- DirectConv.h - Direct convolution of few input channels --*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. The first layer of an image model
// convolves the 3 channels of its input with a small window. Through im2col
// it writes kH * kW * inC values per output pixel (blazeface's 5x5x3: 75
// floats, 4.9 MB for its 128x128 outputs) that a GEMM with only outC
// columns reads back: the copy costs as much as the products. The direct
// convolution reads the input in place: per output pixel, V vectors of
// Lanes channels accumulate tap by tap (kh, kw, then input channel: im2col's
// order), P pixels at a time, each filter vector loaded once for the P
// pixels, as many sums in flight as the registers hold.
//
// The code is a template in an anonymous namespace, so each file that
// includes it compiles its own copy for its instruction set:
// ConvKernels.cpp with 8 lanes (the runtime's -march: AVX2 on x86-64-v3,
// two NEON registers per vector on aarch64), DirectConvAvx512.cpp with 16
// (-mavx512f, called only when gemm::activeIsa() is Isa::Avx512).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DIRECTCONV_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DIRECTCONV_H

#include "compute/Unroll.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tfrt_fallback::rt::kernels {

/// The direct path takes convolutions of at most this many input channels,
/// taps (kH * kW * inC) and output channels, with a window of two or more
/// pixels.
constexpr int64_t kDirectMaxInC = 4;
constexpr int64_t kDirectMaxTaps = 256;
constexpr int64_t kDirectMaxOutC = 64;

enum class DirectActivation : uint8_t { None, Relu, Relu6 };

/// An NHWC f32 convolution for the direct path.
struct DirectConvArgs {
  const float *in = nullptr;
  /// [kH * kW * inC][outCp]: the HWIO filter with its output channels
  /// padded with zeros to outCp, a multiple of the vector width.
  const float *filter = nullptr;
  /// outCp values (zeros past outC) added to every output, or null.
  const float *bias = nullptr;
  int64_t n = 0, inH = 0, inW = 0, inC = 0, kH = 0, kW = 0;
  int64_t outC = 0, outH = 0, outW = 0, outCp = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0;
  DirectActivation activation = DirectActivation::None;
};

#if defined(__x86_64__) || defined(_M_X64)
/// Output rows [first, last) (of n * outH) of `d` into `out`, with
/// AVX-512F (DirectConvAvx512.cpp); outCp must be a multiple of 16.
void directConvRowsAvx512(const DirectConvArgs &d, int64_t first, int64_t last,
                          float *out);
#endif

namespace direct {
namespace {

/// Lanes floats as one vector: a GCC/clang vector type. Spelled per width
/// in specializations: GCC drops the attribute on an alias template.
template <int Lanes> struct VecOf;
template <> struct VecOf<8> {
  typedef float Type __attribute__((vector_size(8 * sizeof(float))));
};
template <> struct VecOf<16> {
  typedef float Type __attribute__((vector_size(16 * sizeof(float))));
};
template <int Lanes> using Vec = typename VecOf<Lanes>::Type;

template <int Lanes> inline Vec<Lanes> loadVec(const float *p) {
  Vec<Lanes> v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

/// Stores the first `count` (< Lanes) values of `v`: the output channels
/// left in the last vector of a block (24 channels in 16 lanes). A file for
/// one instruction set may pass its own (a masked store).
struct PartialStoreLoop {
  template <int Lanes>
  static void store(float *out, const Vec<Lanes> &v, int64_t count) {
    std::memcpy(out, &v, count * sizeof(float));
  }
};

/// Channels [c0, c0 + Lanes * V) of output pixels [ow, ow + P) of row `oh`
/// of image `b`, taps kh in [khLo, khHi). `Checked`: some taps of these
/// pixels fall in the left or right padding (then P is 1).
template <int Lanes, int P, int V, bool Checked, class PartialStore>
inline void block(const DirectConvArgs &d, int64_t b, int64_t oh, int64_t ow,
                  int64_t c0, int64_t khLo, int64_t khHi, float *out) {
  Vec<Lanes> acc[P][V];
  TFRT_FALLBACK_UNROLL
  for (int p = 0; p < P; ++p)
    TFRT_FALLBACK_UNROLL
  for (int v = 0; v < V; ++v)
    acc[p][v] = Vec<Lanes>{};
  const int64_t iw0 = ow * d.strideW - d.padLeft;
  const int64_t pixelStep = d.strideW * d.inC;
  for (int64_t kh = khLo; kh < khHi; ++kh) {
    const int64_t ih = oh * d.strideH - d.padTop + kh * d.dilationH;
    const float *row = d.in + (b * d.inH + ih) * d.inW * d.inC;
    for (int64_t kw = 0; kw < d.kW; ++kw) {
      const int64_t iw = iw0 + kw * d.dilationW;
      if constexpr (Checked) {
        if (iw < 0 || iw >= d.inW)
          continue;
      }
      const float *x = row + iw * d.inC;
      const float *w = d.filter + ((kh * d.kW + kw) * d.inC) * d.outCp + c0;
      for (int64_t ic = 0; ic < d.inC; ++ic, w += d.outCp) {
        Vec<Lanes> wv[V];
        TFRT_FALLBACK_UNROLL
        for (int v = 0; v < V; ++v)
          wv[v] = loadVec<Lanes>(w + v * Lanes);
        TFRT_FALLBACK_UNROLL
        for (int p = 0; p < P; ++p) {
          // A scalar operand is splat across the vector.
          const float xv = x[p * pixelStep + ic];
          TFRT_FALLBACK_UNROLL
          for (int v = 0; v < V; ++v)
            acc[p][v] += wv[v] * xv;
        }
      }
    }
  }
  // Each sum is read through a copy with constant indices, so the sums
  // stay in registers through the loops above.
  const bool clamp = d.activation != DirectActivation::None;
  const float hi = d.activation == DirectActivation::Relu6
                       ? 6.0f
                       : std::numeric_limits<float>::infinity();
  // Every vector but the last is within outC (channels); the last may
  // hold channels past it (24 channels in 16 lanes), which are not stored.
  const int64_t lastCount =
      std::min<int64_t>(Lanes, d.outC - c0 - (V - 1) * Lanes);
  TFRT_FALLBACK_UNROLL
  for (int v = 0; v < V; ++v) {
    // The bias after the sum, as the GEMM's epilogue adds it (the same
    // rounding).
    const Vec<Lanes> bias =
        d.bias ? loadVec<Lanes>(d.bias + c0 + v * Lanes) : Vec<Lanes>{};
    TFRT_FALLBACK_UNROLL
    for (int p = 0; p < P; ++p) {
      Vec<Lanes> r = acc[p][v];
      if (d.bias)
        r += bias;
      if (clamp)
        for (int i = 0; i < Lanes; ++i)
          r[i] = std::min(std::max(r[i], 0.0f), hi);
      float *o = out + p * d.outC + c0 + v * Lanes;
      if (v + 1 < V || lastCount == Lanes)
        std::memcpy(o, &r, sizeof(r));
      else
        PartialStore::template store<Lanes>(o, r, lastCount);
    }
  }
}

/// Channels [c0, c0 + Lanes * V) of every pixel of output row `oh`, whose
/// pixels [owLo, owHi) have all their taps inside the input horizontally.
template <int Lanes, int V, int NumRegs, class PartialStore>
void channels(const DirectConvArgs &d, int64_t b, int64_t oh, int64_t c0,
              int64_t khLo, int64_t khHi, int64_t owLo, int64_t owHi,
              float *out) {
  // P * V sums, V filter vectors and a broadcast input value in NumRegs
  // registers, with one to spare; at most 8 pixels, whose input pointers
  // must stay in the 16 general registers too.
  constexpr int P = std::min(8, (NumRegs - V - 2) / V);
  // Blocks of P pixels between the borders; the pixels left over take the
  // checked single-pixel block, as the borders do.
  int64_t ow = 0;
  while (ow < d.outW) {
    if (ow >= owLo && ow + P <= owHi) {
      block<Lanes, P, V, false, PartialStore>(d, b, oh, ow, c0, khLo, khHi,
                                              out + ow * d.outC);
      ow += P;
    } else {
      block<Lanes, 1, V, true, PartialStore>(d, b, oh, ow, c0, khLo, khHi,
                                             out + ow * d.outC);
      ++ow;
    }
  }
}

/// Output rows [first, last) (of n * outH) of `d` into `out`, with vectors
/// of `Lanes` floats and `NumRegs` vector registers.
template <int Lanes, int NumRegs, class PartialStore = PartialStoreLoop>
void convRows(const DirectConvArgs &d, int64_t first, int64_t last,
              float *out) {
  // Few block widths (each is a few KB of code): 3 vectors of 8 (24
  // channels, the common first layers' 24 or 32 in one or two passes) or 2
  // of 16, then 2 vectors of 8 (16 channels in one pass: selfie's first
  // layer, 28% fewer instructions on NEON than two passes of one), and
  // single vectors for what is left.
  constexpr int kMaxV = Lanes >= 16 ? 2 : 3;
  for (int64_t row = first; row < last; ++row) {
    const int64_t b = row / d.outH, oh = row % d.outH;
    float *o = out + row * d.outW * d.outC;
    // The taps inside the input vertically, and the pixels whose taps are
    // all inside it horizontally.
    int64_t khLo = 0, khHi = d.kH;
    while (khLo < khHi && oh * d.strideH - d.padTop + khLo * d.dilationH < 0)
      ++khLo;
    while (khHi > khLo &&
           oh * d.strideH - d.padTop + (khHi - 1) * d.dilationH >= d.inH)
      --khHi;
    int64_t owLo = 0, owHi = d.outW;
    while (owLo < owHi && owLo * d.strideW - d.padLeft < 0)
      ++owLo;
    while (owHi > owLo &&
           (owHi - 1) * d.strideW - d.padLeft + (d.kW - 1) * d.dilationW >=
               d.inW)
      --owHi;
    for (int64_t c0 = 0; c0 < d.outC;) {
      const int64_t left = (d.outCp - c0) / Lanes;
      if (left >= kMaxV) {
        channels<Lanes, kMaxV, NumRegs, PartialStore>(d, b, oh, c0, khLo, khHi,
                                                      owLo, owHi, o);
        c0 += kMaxV * Lanes;
      } else if (kMaxV > 2 && left == 2) {
        channels<Lanes, 2, NumRegs, PartialStore>(d, b, oh, c0, khLo, khHi,
                                                  owLo, owHi, o);
        c0 += 2 * Lanes;
      } else {
        channels<Lanes, 1, NumRegs, PartialStore>(d, b, oh, c0, khLo, khHi,
                                                  owLo, owHi, o);
        c0 += Lanes;
      }
    }
  }
}

} // namespace
} // namespace direct

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_DIRECTCONV_H

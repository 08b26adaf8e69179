//===- ConvKernels.cpp - Convolutions ---------------------------*- C++ -*-===//
//
// Conv2D and _FusedConv2D (im2col + GEMM; a 1x1 stride-1 convolution and a
// filter covering the whole input are a plain GEMM on the input),
// DepthwiseConv2dNative and its fused forms (a direct loop vectorized over
// channels) and Conv2DBackpropInput (GEMM + col2im). f32 GEMMs are the
// runtime's own (Gemm.h: fused epilogues in the microkernel's registers,
// constant filters packed once per kernel); f64 uses Eigen's contraction
// with the epilogue in its output kernel. FusedPadConv2D and
// FusedResizeAndPadConv2D (FusedPadConvKernels.cpp) run their convolution
// through conv2dNhwcNoEpilogue (FusedPadConv.h).
//
//===----------------------------------------------------------------------===//

// Eigen 3.4's thread-pool contraction uses std::bind, whose libstdc++
// implementation uses the C++17-deprecated std::result_of.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/FusedOps.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/Window.h"
#include "compute/ComputeInF16.h"
#include "compute/DepthwiseRows.h"
#include "compute/DirectConv.h"
#include "compute/GemmEpilogue.h"
#include "math/BinaryOpKernel.h"
#include "nn/FusedPadConv.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Shared attributes and shapes
//===----------------------------------------------------------------------===//

/// The window attributes of Conv2D-like ops (TF's InitConv2DParameters):
/// strides and dilations (4 values, batch and depth entries must be 1,
/// dilations default to 1), padding SAME / VALID / EXPLICIT with
/// explicit_paddings (8 values, nonnegative, zero for batch and depth;
/// empty unless EXPLICIT) and data_format NHWC (default) or NCHW.
struct ConvAttrs {
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  WindowPadding padding = WindowPadding::Valid;
  bool nchw = false;

  /// Reads the attributes of `kernel` from `ctx`, its construction context.
  Status read(const OpKernel &kernel, OpKernelConstructionInterface *ctx) {
    std::string format = "NHWC";
    Status status = getOptionalAttr(ctx, "data_format", &format);
    if (!status.ok())
      return status;
    StatusOr<shape::DataFormat> dataFormat = shape::parseDataFormat(format);
    if (!dataFormat.ok())
      return opError(kernel, dataFormat.status());
    nchw = dataFormat->channelsFirst;
    const int h = nchw ? 2 : 1, w = nchw ? 3 : 2, c = nchw ? 1 : 3;
    std::vector<int64_t> strides;
    status = ctx->getAttr("strides", &strides);
    if (!status.ok())
      return status;
    if (strides.size() != 4)
      return kernel.errorf(
          "Sliding window strides field must specify 4 dimensions");
    if (strides[0] != 1 || strides[c] != 1)
      return kernel.errorf(
          "Current implementation does not yet support strides in the "
          "batch and depth dimensions.");
    strideH = strides[h];
    strideW = strides[w];
    if (strideH <= 0 || strideW <= 0)
      return kernel.errorf("Row and column strides should be larger than 0.");
    std::vector<int64_t> dilations = {1, 1, 1, 1};
    status = getOptionalAttr(ctx, "dilations", &dilations);
    if (!status.ok())
      return status;
    if (dilations.size() != 4)
      return kernel.errorf(
          "Sliding window dilations field must specify 4 dimensions");
    if (dilations[0] != 1 || dilations[c] != 1)
      return kernel.errorf(
          "Current implementation does not yet support dilations in the "
          "batch and depth dimensions.");
    dilationH = dilations[h];
    dilationW = dilations[w];
    if (dilationH <= 0 || dilationW <= 0)
      return kernel.errorf("Dilated rates should be larger than 0.");
    status = readPadding(kernel, ctx, /*allowExplicit=*/true, &padding);
    if (!status.ok())
      return status;
    std::vector<int64_t> explicitPaddings;
    status = getOptionalAttr(ctx, "explicit_paddings", &explicitPaddings);
    if (!status.ok())
      return status;
    if (padding != WindowPadding::Explicit) {
      if (!explicitPaddings.empty())
        return kernel.errorf(
            "explicit_paddings attribute must be empty if the padding "
            "attribute is not EXPLICIT");
      return OkStatus();
    }
    if (explicitPaddings.size() != 8)
      return kernel.errorf(
          "explicit_paddings attribute must contain 8 values, but got: %d",
          explicitPaddings.size());
    for (int64_t p : explicitPaddings)
      if (p < 0)
        return kernel.errorf(
            "All elements of explicit_paddings must be nonnegative");
    if (explicitPaddings[0] || explicitPaddings[1] || explicitPaddings[2 * c] ||
        explicitPaddings[2 * c + 1])
      return kernel.errorf(
          "Nonzero explicit padding in the batch or depth dimensions is "
          "not supported");
    padTop = explicitPaddings[2 * h];
    padBottom = explicitPaddings[2 * h + 1];
    padLeft = explicitPaddings[2 * w];
    padRight = explicitPaddings[2 * w + 1];
    return OkStatus();
  }
};

/// Geometry of one NHWC convolution: input [n, inH, inW, inC], filter
/// [kH, kW, inC, ...], output [n, outH, outW, outC].
struct ConvShape {
  int64_t n, inH, inW, inC, kH, kW, outC, outH, outW;
  int64_t strideH, strideW, dilationH, dilationW, padTop, padLeft;
};

/// Fills `shape` from the NHWC input dims and the filter's spatial dims of
/// `kernel`'s convolution.
Status computeConvShape(const OpKernel &kernel, const ConvAttrs &attrs,
                        int64_t n, int64_t inH, int64_t inW, int64_t inC,
                        int64_t kH, int64_t kW, int64_t outC,
                        ConvShape *shape) {
  WindowDim rows, cols;
  if (Status status =
          computeWindow(kernel, inH, kH, attrs.dilationH, attrs.strideH,
                        attrs.padding, attrs.padTop, attrs.padBottom, &rows);
      !status.ok())
    return status;
  if (Status status =
          computeWindow(kernel, inW, kW, attrs.dilationW, attrs.strideW,
                        attrs.padding, attrs.padLeft, attrs.padRight, &cols);
      !status.ok())
    return status;
  *shape = ConvShape{n,
                     inH,
                     inW,
                     inC,
                     kH,
                     kW,
                     outC,
                     rows.out,
                     cols.out,
                     attrs.strideH,
                     attrs.strideW,
                     attrs.dilationH,
                     attrs.dilationW,
                     rows.padBefore,
                     cols.padBefore};
  return OkStatus();
}

/// NHWC dims of a 4-D tensor in `nchw` or NHWC layout.
void nhwcDims(const Tensor &t, bool nchw, int64_t dims[4]) {
  dims[0] = t.dim(0);
  dims[1] = t.dim(nchw ? 2 : 1);
  dims[2] = t.dim(nchw ? 3 : 2);
  dims[3] = t.dim(nchw ? 1 : 3);
}

TensorShape layoutShape(int64_t n, int64_t h, int64_t w, int64_t c, bool nchw) {
  return nchw ? TensorShape{n, c, h, w} : TensorShape{n, h, w, c};
}

/// Runs `body(in, out)` on NHWC data: directly on the tensors for NHWC, or
/// through transposed temporaries for NCHW.
template <typename T, typename Body>
Status withNhwc(bool nchw, const Tensor &input, Tensor *output, Body &&body) {
  if (!nchw) {
    body(input.data<T>(), output->data<T>());
    return OkStatus();
  }
  const int64_t n = input.dim(0), inC = input.dim(1);
  const int64_t outC = output->dim(1);
  StatusOr<Tensor> inT =
      Tensor::allocate(dtypeOf<T>(), TensorShape{input.numElements()});
  if (!inT.ok())
    return inT.status();
  StatusOr<Tensor> outT =
      Tensor::allocate(dtypeOf<T>(), TensorShape{output->numElements()});
  if (!outT.ok())
    return outT.status();
  transposeChannels(input.data<T>(), inT->data<T>(), n, inC,
                    input.dim(2) * input.dim(3), true);
  body(static_cast<const T *>(inT->data<T>()), outT->data<T>());
  transposeChannels(outT->data<T>(), output->data<T>(), n, outC,
                    output->dim(2) * output->dim(3), false);
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// GEMM
//===----------------------------------------------------------------------===//

/// B's packing as gemmRows takes it: sgemm's PackedB for f32, hgemm's
/// panels for f16 (kHalfGemm), none for the other types.
template <typename T>
using PackedFilter =
    std::conditional_t<kHalfGemm<T>, const uint16_t *, const gemm::PackedB *>;

/// out[m, n] = a[m, k] * op(b) with the epilogue applied to each output row,
/// where op(b) is b [k, n] or, with `transposeB`, b [n, k] transposed. f32
/// runs gemm::sgemm, with b's packing `packedB` when given; f16 on AArch64
/// gemm::hgemm likewise; other dtypes one Eigen contraction instantiation
/// per dtype, serving every path of this file.
template <typename T>
void gemmRows(const Eigen::ThreadPoolDevice &device, const T *a, const T *b,
              T *out, int64_t m, int64_t k, int64_t n, bool transposeB,
              const Epilogue<T> &epilogue, PackedFilter<T> packedB = nullptr) {
  if (m == 0 || n == 0)
    return;
  if constexpr (std::is_same_v<T, float>) {
    gemm::sgemm(device, m, n, k, a, k, false, b, transposeB ? k : n, transposeB,
                out, n, gemmEpilogue(epilogue), packedB);
#if defined(__aarch64__)
  } else if constexpr (kHalfGemm<T>) {
    assert(gemm::halfArithmetic() && "an f16 kernel without f16 arithmetic");
    auto bits = [](const T *p) {
      return reinterpret_cast<const uint16_t *>(p);
    };
    gemm::hgemm(device, m, n, k, bits(a), k, false, bits(b), transposeB ? k : n,
                transposeB, reinterpret_cast<uint16_t *>(out), n,
                gemmEpilogue(epilogue), packedB);
#endif
  } else {
    if (k == 0) {
      std::fill(out, out + m * n, T(0));
      if (!epilogue.empty())
        for (int64_t r = 0; r < m; ++r)
          epilogue.apply(out + r * n, 0, n);
      return;
    }
    using ConstMap = Eigen::TensorMap<
        Eigen::Tensor<const T, 2, Eigen::RowMajor, Eigen::DenseIndex>,
        Eigen::Unaligned>;
    ConstMap lhs(a, m, k);
    ConstMap rhs(b, transposeB ? n : k, transposeB ? k : n);
    TensorMapND<T, 2> result(out, m, n);
    Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims = {
        Eigen::IndexPair<Eigen::DenseIndex>(1, transposeB ? 1 : 0)};
    result.device(device) =
        lhs.contract(rhs, dims, EpilogueOutputKernel<T>{&epilogue});
  }
}

/// Target size of one im2col chunk; large enough for efficient GEMM
/// blocks, small enough to stay in the L2/L3 cache between fill and use.
constexpr size_t kIm2colChunkBytes = 1 << 20;

/// Copies n values. A short row (a first layer's 5 pixels x 3 channels: 60
/// bytes) as two fixed-size copies that overlap in the middle: memcpy with
/// a constant size is a few vector moves, a call of memcpy with a variable
/// size costs more than that copy (the calls would take half of blazeface's
/// first convolution). A loop of the values is slower still.
template <typename T> inline void copyValues(T *dst, const T *src, int64_t n) {
  const size_t bytes = n * sizeof(T);
  char *d = reinterpret_cast<char *>(dst);
  const char *s = reinterpret_cast<const char *>(src);
  if (bytes >= 16 && bytes <= 32) {
    std::memcpy(d, s, 16);
    std::memcpy(d + bytes - 16, s + bytes - 16, 16);
  } else if (bytes > 32 && bytes <= 64) {
    std::memcpy(d, s, 32);
    std::memcpy(d + bytes - 32, s + bytes - 32, 32);
  } else if (bytes > 64 && bytes <= 128) {
    std::memcpy(d, s, 64);
    std::memcpy(d + bytes - 64, s + bytes - 64, 64);
  } else {
    std::memcpy(d, s, bytes);
  }
}

/// Writes the patches of output pixels [first, last) (rows of the im2col
/// matrix, kH * kW * inC values each) to `dst`, zeros for padding. The
/// pixel's (batch, row, column) is stepped, not divided out per pixel
/// (16% faster for MobileNet's first layer, 112x112 patches of 3x3x3).
template <typename T>
void im2colRows(const T *in, const ConvShape &s, int64_t first, int64_t last,
                T *dst) {
  if (first >= last)
    return;
  int64_t ow = first % s.outW;
  int64_t oh = (first / s.outW) % s.outH;
  int64_t b = first / (s.outW * s.outH);
  const int64_t rowLen = s.kW * s.inC;
  for (int64_t pixel = first; pixel < last; ++pixel) {
    const int64_t iw0 = ow * s.strideW - s.padLeft;
    const bool contiguous =
        (s.dilationW == 1 || s.kW == 1) && iw0 >= 0 && iw0 + s.kW <= s.inW;
    for (int64_t kh = 0; kh < s.kH; ++kh, dst += rowLen) {
      const int64_t ih = oh * s.strideH - s.padTop + kh * s.dilationH;
      if (ih < 0 || ih >= s.inH) {
        std::fill(dst, dst + rowLen, T(0));
        continue;
      }
      const T *src = in + ((b * s.inH + ih) * s.inW) * s.inC;
      if (contiguous) {
        copyValues(dst, src + iw0 * s.inC, rowLen);
        continue;
      }
      for (int64_t kw = 0; kw < s.kW; ++kw) {
        const int64_t iw = iw0 + kw * s.dilationW;
        T *d = dst + kw * s.inC;
        if (iw < 0 || iw >= s.inW)
          std::fill(d, d + s.inC, T(0));
        else
          copyValues(d, src + iw * s.inC, s.inC);
      }
    }
    if (++ow == s.outW) {
      ow = 0;
      if (++oh == s.outH) {
        oh = 0;
        ++b;
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Direct convolution of few input channels (DirectConv.h)
//===----------------------------------------------------------------------===//

/// Whether conv2dNhwc computes an f32 convolution with this filter
/// directly (then the filter is not packed for the GEMM).
bool isDirectConvFilter(int64_t kH, int64_t kW, int64_t inC, int64_t outC) {
  return inC <= kDirectMaxInC && kH * kW * inC <= kDirectMaxTaps &&
         outC <= kDirectMaxOutC && kH * kW > 1;
}
bool useDirectConv(const ConvShape &s) {
  return isDirectConvFilter(s.kH, s.kW, s.inC, s.outC);
}

/// The direct convolution of `in` with `filter` [kH, kW, inC, outC] into
/// `out`, then `epilogue`: 16 lanes with AVX-512, else 8 (DirectConv.h).
void directConv(const Eigen::ThreadPoolDevice &device, const float *in,
                const float *filter, float *out, const ConvShape &s,
                const Epilogue<float> &epilogue) {
#if defined(__x86_64__) || defined(_M_X64)
  const bool avx512 = gemm::activeIsa() == gemm::Isa::Avx512;
#else
  const bool avx512 = false;
#endif
  const int64_t lanes = avx512 ? 16 : 8;
  const int64_t taps = s.kH * s.kW * s.inC;
  const int64_t outCp = (s.outC + lanes - 1) / lanes * lanes;
  std::vector<float> packed(taps * outCp + outCp, 0.0f);
  for (int64_t t = 0; t < taps; ++t)
    std::memcpy(&packed[t * outCp], filter + t * s.outC,
                s.outC * sizeof(float));
  DirectConvArgs d;
  d.in = in;
  d.filter = packed.data();
  d.n = s.n, d.inH = s.inH, d.inW = s.inW, d.inC = s.inC;
  d.kH = s.kH, d.kW = s.kW, d.outC = s.outC, d.outH = s.outH, d.outW = s.outW;
  d.strideH = s.strideH, d.strideW = s.strideW;
  d.dilationH = s.dilationH, d.dilationW = s.dilationW;
  d.padTop = s.padTop, d.padLeft = s.padLeft;
  d.outCp = outCp;
  // Bias and Relu/Relu6 in the accumulators; anything else afterwards.
  const bool inRegisters = epilogue.bnMean.empty() && !epilogue.addend &&
                           (epilogue.activation == FusedActivation::None ||
                            epilogue.activation == FusedActivation::Relu ||
                            epilogue.activation == FusedActivation::Relu6);
  if (inRegisters) {
    if (epilogue.bias) {
      float *bias = &packed[taps * outCp];
      std::memcpy(bias, epilogue.bias, s.outC * sizeof(float));
      d.bias = bias;
    }
    d.activation = epilogue.activation == FusedActivation::Relu
                       ? DirectActivation::Relu
                   : epilogue.activation == FusedActivation::Relu6
                       ? DirectActivation::Relu6
                       : DirectActivation::None;
  }
  const int64_t rowValues = s.outW * s.outC;
  kernels::parallelFor(
      device, s.n * s.outH,
      elementCost<float>(1, 1, 0) * static_cast<double>(rowValues * taps),
      [&](Eigen::Index first, Eigen::Index last) {
#if defined(__x86_64__) || defined(_M_X64)
        if (avx512)
          directConvRowsAvx512(d, first, last, out);
        else
#endif
          direct::convRows<8, 16>(d, first, last, out);
        if (!inRegisters && !epilogue.empty())
          for (int64_t px = first * s.outW; px < last * s.outW; ++px)
            epilogue.apply(out + px * s.outC, 0, s.outC);
      });
}

/// NHWC convolution with filter [kH, kW, inC, outC] into `out`
/// [n, outH, outW, outC], applying `epilogue` to every output pixel. f32
/// uses the filter's packing `packed` when given, and otherwise packs it
/// once per call when im2col takes several chunks.
template <typename T>
void conv2dNhwc(const Eigen::ThreadPoolDevice &device, const T *in,
                const T *filter, T *out, const ConvShape &s,
                const Epilogue<T> &epilogue, PackedFilter<T> packed = nullptr) {
  const int64_t m = s.n * s.outH * s.outW;
  const int64_t k = s.kH * s.kW * s.inC;
  if (m == 0 || s.outC == 0)
    return;
  const bool pointwise = s.kH == 1 && s.kW == 1 && s.strideH == 1 &&
                         s.strideW == 1 && s.padTop == 0 && s.padLeft == 0 &&
                         s.outH == s.inH && s.outW == s.inW;
  const bool wholeInput = s.kH == s.inH && s.kW == s.inW && s.outH == 1 &&
                          s.outW == 1 && s.padTop == 0 && s.padLeft == 0 &&
                          (s.dilationH == 1 || s.kH == 1) &&
                          (s.dilationW == 1 || s.kW == 1);
  // k == 0 (a zero-depth input or window): the products are empty sums and
  // there are no patches to gather.
  if (pointwise || wholeInput || k == 0) {
    gemmRows(device, in, filter, out, m, k, s.outC, false, epilogue, packed);
    return;
  }
  if constexpr (std::is_same_v<T, float>) {
    if (useDirectConv(s)) {
      directConv(device, in, filter, out, s, epilogue);
      return;
    }
  }
  const int64_t chunkRows = std::clamp<int64_t>(
      kIm2colChunkBytes / (std::max<int64_t>(k, 1) * sizeof(T)), 64, m);
  std::optional<gemm::PackedB> packedHere;
  std::vector<uint16_t> halfPackedHere;
  if constexpr (std::is_same_v<T, float>) {
    if (!packed && chunkRows < m) {
      packedHere.emplace(filter, s.outC, false, k, s.outC, gemm::activeIsa());
      packed = &*packedHere;
    }
#if defined(__aarch64__)
  } else if constexpr (kHalfGemm<T>) {
    if (!packed && chunkRows < m) {
      halfPackedHere.resize(gemm::packedHalfBElements(k, s.outC));
      gemm::packHalfB(reinterpret_cast<const uint16_t *>(filter), s.outC, false,
                      k, s.outC, halfPackedHere.data());
      packed = halfPackedHere.data();
    }
#endif
  }
  T *patches = threadScratch<T, 0>(chunkRows * k);
  for (int64_t r0 = 0; r0 < m; r0 += chunkRows) {
    const int64_t rows = std::min(chunkRows, m - r0);
    kernels::parallelFor(
        device, rows, elementCost<T>(1, 1, 0) * static_cast<double>(k),
        [&](Eigen::Index first, Eigen::Index last) {
          im2colRows(in, s, r0 + first, r0 + last, patches + first * k);
        });
    gemmRows(device, static_cast<const T *>(patches), filter, out + r0 * s.outC,
             rows, k, s.outC, false, epilogue, packed);
  }
}

//===----------------------------------------------------------------------===//
// Conv2D and _FusedConv2D
//===----------------------------------------------------------------------===//

/// What Conv2D / _FusedConv2D and the DepthwiseConv2dNative forms share:
/// the window attributes and, when `Fused`, the fused_ops attributes, read
/// at construction, and the compute() steps around the convolution itself.
template <typename T, bool Fused> class ConvKernelBase : public OpKernel {
public:
  explicit ConvKernelBase(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, attrs_.read(*this, ctx));
    if constexpr (Fused)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, readFusedAttrs(*this, ctx, &spec_, &epsilon_, &leakyAlpha_));
  }

protected:
  /// Checks that input and filter are 4-D with the same in_depth, computes
  /// the output geometry (output depth filter.dim(3), times in_depth when
  /// `depthwise`), prepares the epilogue from the extra inputs, allocates
  /// the output in the input's layout and calls
  /// run(in, filter, out, shape, epilogue) on NHWC data.
  template <typename Run>
  void computeConv(OpKernelContextInterface *ctx, bool depthwise, Run &&run) {
    const Tensor &input = ctx->input(0);
    const Tensor &filter = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() == 4,
        errorf("input must be 4-dimensional: %s", input.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filter.rank() == 4,
        errorf("filter must be 4-dimensional: %s", filter.shape().toString()));
    int64_t d[4];
    nhwcDims(input, attrs_.nchw, d);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, d[3] == filter.dim(2),
        depthwise
            ? errorf("input and filter must have the same depth: %d vs %d",
                     d[3], filter.dim(2))
            : errorf("input depth must equal filter depth (grouped "
                     "convolutions are not supported): %d vs %d",
                     d[3], filter.dim(2)));
    ConvShape s;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        computeConvShape(*this, attrs_, d[0], d[1], d[2], d[3], filter.dim(0),
                         filter.dim(1),
                         depthwise ? d[3] * filter.dim(3) : filter.dim(3), &s));
    Epilogue<T> epilogue;
    const Tensor *addend = nullptr;
    if constexpr (Fused) {
      TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->numInputs() >= 2 + spec_.numArgs,
                                errorf("expected %d extra arguments, got %d",
                                       spec_.numArgs, ctx->numInputs() - 2));
      const Tensor *args[6];
      for (int i = 0; i < spec_.numArgs; ++i)
        args[i] = &ctx->input(2 + i);
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, epilogue.init(*this, spec_, absl::MakeSpan(args, spec_.numArgs),
                             s.outC, epsilon_, leakyAlpha_));
      if (spec_.add)
        addend = args[1];
    }
    TensorShape outShape =
        layoutShape(s.n, s.outH, s.outW, s.outC, attrs_.nchw);
    const T *f = filter.data<T>();
    // A fused Add whose addend is not laid out like the output: the
    // convolution and its bias, then the broadcasting add and the
    // activation, as the separate ops compute them.
    if (addend && (attrs_.nchw || addend->dtype() != dtypeOf<T>() ||
                   addend->shape() != outShape)) {
      StatusOr<Tensor> conv = Tensor::allocate(dtypeOf<T>(), outShape);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, conv.status());
      Epilogue<T> biasOnly = epilogue;
      biasOnly.activation = FusedActivation::None;
      if (conv->numElements() > 0)
        TFRT_FALLBACK_OP_REQUIRES_OK(
            ctx,
            withNhwc<T>(attrs_.nchw, input, &*conv, [&](const T *in, T *o) {
              run(in, f, o, s, biasOnly);
            }));
      addBroadcast(ctx, *conv, *addend, epilogue, s.outC);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
    if (out->numElements() == 0)
      return;
    if (addend)
      epilogue.setAddend(addend->data<T>(), out->data<T>());
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, withNhwc<T>(attrs_.nchw, input, out, [&](const T *in, T *o) {
          run(in, f, o, s, epilogue);
        }));
  }

private:
  /// Output = activation(broadcast(conv, addend)), `conv` the convolution
  /// with its bias, for a fused Add whose addend differs from the
  /// convolution's output in shape or layout (not a template on the
  /// convolution: one copy per dtype).
  void addBroadcast(OpKernelContextInterface *ctx, const Tensor &conv,
                    const Tensor &addend, const Epilogue<T> &epilogue,
                    int64_t outC) {
    const TensorShape &convShape = conv.shape();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, addend.dtype() == dtypeOf<T>(),
        errorf("the fused Add's addend must be %s, got %s",
               dtypeName(dtypeOf<T>()), dtypeName(addend.dtype())));
    TensorShape::Dims outDims;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, broadcastShapes(convShape, addend.shape(), &outDims),
        errorf("Incompatible shapes: %s vs. %s", convShape.toString(),
               addend.shape().toString()));
    const TensorShape outShape(outDims);
    const int64_t channels =
        outShape.rank() > 0 ? outShape.dim(outShape.rank() - 1) : 1;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        epilogue.activation != FusedActivation::Prelu || epilogue.preluScalar ||
            channels == outC,
        errorf("Prelu's alpha has %d elements but the fused Add makes %d "
               "channels",
               outC, channels));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
    if (out->numElements() == 0)
      return;
    // A plain loop over the broadcast (rare: our fusion pass only fuses
    // addends of the output's rank, so only programs that spell such a
    // _FusedConv2D themselves come here).
    T *o = out->data<T>();
    const T *pa = conv.data<T>(), *pb = addend.data<T>();
    if (conv.numElements() > 0 && addend.numElements() > 0) {
      BroadcastPlan plan = planBroadcast(conv.shape(), addend.shape(), outDims);
      const int rank = static_cast<int>(plan.dims.size());
      absl::InlinedVector<int64_t, 6> index(rank, 0);
      for (int64_t i = 0, e = out->numElements(); i < e; ++i) {
        int64_t offA = 0, offB = 0;
        for (int d = 0; d < rank; ++d) {
          offA += index[d] * plan.aStrides[d];
          offB += index[d] * plan.bStrides[d];
        }
        o[i] = pa[offA] + pb[offB];
        for (int d = rank - 1; d >= 0 && ++index[d] == plan.dims[d]; --d)
          index[d] = 0;
      }
    }
    for (int64_t i = 0, e = out->numElements(); i < e; i += channels)
      epilogue.applyActivation(o + i, 0, channels);
  }

  ConvAttrs attrs_;
  FusedOpsSpec spec_;
  float epsilon_ = 1e-4f;
  float leakyAlpha_ = 0.2f;
};

/// Conv2D(input, filter) and _FusedConv2D(input, filter, args...):
/// input [batch, in_rows, in_cols, in_depth] (NHWC; NCHW puts depth
/// second), filter [filter_rows, filter_cols, in_depth, out_depth];
/// output [batch, out_rows, out_cols, out_depth] in the input's layout, with
/// out_rows/out_cols from the padding rule (see computeWindow). Windows
/// start at -pad_before and step by `strides`; taps are `dilations` apart.
/// in_depth must equal the filter's in_depth (grouped convolutions, which
/// TF's CPU kernels also reject before TF 2.9, are not supported).
/// _FusedConv2D applies `fused_ops` to each output value: BiasAdd or
/// FusedBatchNorm (args scale, offset, mean, variance, `epsilon`), then
/// an optional Relu, Relu6, Elu, LeakyRelu (`leakyrelu_alpha`), Sigmoid,
/// Tanh or Prelu (args: bias, alpha), with `num_args` extra inputs.
template <typename T, bool Fused>
class Conv2DKernel final : public ConvKernelBase<T, Fused> {
public:
  explicit Conv2DKernel(OpKernelConstructionInterface *ctx)
      : ConvKernelBase<T, Fused>(ctx) {
    // A constant HWIO filter is the GEMM's [h * w * in, out] B.
    if constexpr (std::is_same_v<T, float> || kHalfGemm<T>)
      packedFilter_.prepack(
          ctx, 1, /*transB=*/false,
          [](const Tensor &f, int64_t *k, int64_t *n, int64_t *ldb) {
            if (f.rank() != 4 ||
                (std::is_same_v<T, float> &&
                 isDirectConvFilter(f.dim(0), f.dim(1), f.dim(2), f.dim(3))))
              return false;
            *k = f.dim(0) * f.dim(1) * f.dim(2);
            *n = *ldb = f.dim(3);
            return true;
          });
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Eigen::ThreadPoolDevice &device = ctx->eigenDevice();
    const bool constantFilter = ctx->isInputConstant(1);
    this->computeConv(ctx, /*depthwise=*/false,
                      [&](const T *in, const T *f, T *o, const ConvShape &s,
                          const Epilogue<T> &epilogue) {
                        PackedFilter<T> packed = nullptr;
                        const int64_t k = s.kH * s.kW * s.inC;
                        if constexpr (std::is_same_v<T, float>) {
                          bool packedNow = false;
                          if (constantFilter && !useDirectConv(s))
                            packed = packedFilter_.get(
                                f, s.outC, false, k, s.outC, gemm::activeIsa(),
                                &packedNow);
                          if (packedNow)
                            ctx->releaseConstantInput(1);
#if defined(__aarch64__)
                        } else if constexpr (kHalfGemm<T>) {
                          if (constantFilter)
                            packed = packedFilter_.get(f, k, s.outC, false);
#endif
                        }
                        (void)k;
                        conv2dNhwc<T>(device, in, f, o, s, epilogue, packed);
                      });
  }

private:
  /// The filter packed for the GEMM when it is a program constant (f32,
  /// and f16 where hgemm runs it).
  PackedConstantB<T> packedFilter_;
};

//===----------------------------------------------------------------------===//
// DepthwiseConv2dNative and fused forms
//===----------------------------------------------------------------------===//

/// out[c, c + kBlock) = sum over taps of taps[t][c..] * filters[t][c..],
/// the sums kept in registers across all taps.
template <typename T, int64_t kBlock>
inline void depthwiseBlock(const T *const *taps, const T *const *filters,
                           int nTaps, int64_t c, T *out) {
  T acc[kBlock] = {};
  for (int t = 0; t < nTaps; ++t) {
    const T *x = taps[t] + c;
    const T *f = filters[t] + c;
    for (int64_t j = 0; j < kBlock; ++j)
      acc[j] += x[j] * f[j];
  }
  for (int64_t j = 0; j < kBlock; ++j)
    out[c + j] = acc[j];
}

/// One output pixel of a depthwise convolution with channel multiplier 1:
/// out[c] = sum over valid taps of in[tap][c] * filter[tap][c]. Channels go
/// in register blocks of 32, 8, 4 and 1 (four, one, half and no AVX2
/// vector); each channel sums its taps in the same order whatever its block.
template <typename T>
void depthwisePixel(const T *const *taps, const T *const *filters, int nTaps,
                    int64_t channels, T *out) {
  int64_t c = 0;
  for (; c + 32 <= channels; c += 32)
    depthwiseBlock<T, 32>(taps, filters, nTaps, c, out);
  for (; c + 8 <= channels; c += 8)
    depthwiseBlock<T, 8>(taps, filters, nTaps, c, out);
  for (; c + 4 <= channels; c += 4)
    depthwiseBlock<T, 4>(taps, filters, nTaps, c, out);
  for (; c < channels; ++c)
    depthwiseBlock<T, 1>(taps, filters, nTaps, c, out);
}

/// kPixels adjacent interior output pixels of a depthwise convolution with
/// channel multiplier 1, channels [c, c + kBlock): pixel p's tap t reads
/// base[rowOffset[t] + p * pixelStride + c..]. Each filter vector loaded is
/// used for every pixel, and the kPixels x kBlock sums stay in registers
/// across all taps, summed in the taps' order as depthwiseBlock does.
template <typename T, int kPixels, int64_t kBlock>
inline void depthwisePixelsBlock(const T *base, const int64_t *rowOffset,
                                 const T *const *filters, int nTaps,
                                 int64_t pixelStride, int64_t c,
                                 int64_t outStride, T *out) {
  T acc[kPixels][kBlock] = {};
  for (int t = 0; t < nTaps; ++t) {
    const T *f = filters[t] + c;
    const T *x = base + rowOffset[t] + c;
    for (int p = 0; p < kPixels; ++p)
      for (int64_t j = 0; j < kBlock; ++j)
        acc[p][j] += x[p * pixelStride + j] * f[j];
  }
  for (int p = 0; p < kPixels; ++p)
    for (int64_t j = 0; j < kBlock; ++j)
      out[p * outStride + c + j] = acc[p][j];
}

/// Pixels [0, n) of a run of interior pixels, channels [c, c + kBlock), in
/// groups of kPixels and then one by one.
template <typename T, int kPixels, int64_t kBlock>
inline void depthwiseRunBlock(const T *base, const int64_t *rowOffset,
                              const T *const *filters, int nTaps,
                              int64_t pixelStride, int64_t n, int64_t c,
                              int64_t channels, T *out) {
  int64_t p = 0;
  for (; p + kPixels <= n; p += kPixels)
    depthwisePixelsBlock<T, kPixels, kBlock>(base + p * pixelStride, rowOffset,
                                             filters, nTaps, pixelStride, c,
                                             channels, out + p * channels);
  for (; p < n; ++p)
    depthwisePixelsBlock<T, 1, kBlock>(base + p * pixelStride, rowOffset,
                                       filters, nTaps, pixelStride, c, channels,
                                       out + p * channels);
}

/// Interior pixels depthwiseRun finishes (every channel, the epilogue)
/// before the next ones, so the epilogue finds them in cache.
constexpr int64_t kDepthwiseChunk = 32;

/// n adjacent interior output pixels of a depthwise convolution with channel
/// multiplier 1, all channels (pixel p reads base + p * pixelStride, see
/// depthwisePixelsBlock, and writes out + p * channels), on the portable
/// path. Every block keeps eight vectors of sums in flight, enough to hide
/// the multiply-add latency: blocks of 16 channels go over groups of 4
/// pixels, all blocks of a group before the next group (the input streams
/// in order); the channels past the last block of 16 go over groups of 8
/// pixels in blocks of 8 (or 4) that end at the last channel, overlapping
/// the block before: an overlapped channel is computed again, in the same
/// order, to the same value. (A block of 8 over 4 pixels would have only
/// four sums in flight and run at half speed: blazeface's 24 channels.)
/// Every output sums its taps in the taps' order, as depthwisePixel does.
template <typename T>
void depthwisePixelRun(const T *base, const int64_t *rowOffset,
                       const T *const *filters, int nTaps, int64_t pixelStride,
                       int64_t channels, int64_t n, T *out) {
  const int64_t full = channels / 16 * 16;
  int64_t p = 0;
  for (; p + 4 <= n; p += 4)
    for (int64_t c = 0; c < full; c += 16)
      depthwisePixelsBlock<T, 4, 16>(base + p * pixelStride, rowOffset, filters,
                                     nTaps, pixelStride, c, channels,
                                     out + p * channels);
  for (; p < n; ++p)
    for (int64_t c = 0; c < full; c += 16)
      depthwisePixelsBlock<T, 1, 16>(base + p * pixelStride, rowOffset, filters,
                                     nTaps, pixelStride, c, channels,
                                     out + p * channels);
  if (full == channels)
    return;
  if (channels >= 8) {
    for (int64_t c = full; c < channels; c += 8)
      depthwiseRunBlock<T, 8, 8>(base, rowOffset, filters, nTaps, pixelStride,
                                 n, std::min(c, channels - 8), channels, out);
  } else if (channels >= 4) {
    for (int64_t c = full; c < channels; c += 4)
      depthwiseRunBlock<T, 8, 4>(base, rowOffset, filters, nTaps, pixelStride,
                                 n, std::min(c, channels - 4), channels, out);
  } else {
    for (int64_t c = full; c < channels; ++c)
      depthwiseRunBlock<T, 8, 1>(base, rowOffset, filters, nTaps, pixelStride,
                                 n, c, channels, out);
  }
}

/// The vector rows (DepthwiseRows.h) that compute T pixels of `channels`
/// channels on this CPU: for f32, AVX-512 for a multiple of 16, AVX2 for a
/// multiple of 8, NEON for a multiple of 4 on AArch64; for f16 where hgemm
/// runs (kHalfGemm), NEON FP16 for a multiple of 8; none (the portable
/// path) otherwise.
enum class DepthwiseRowsIsa : uint8_t { None, Neon, NeonFp16, Avx2, Avx512 };
template <typename T> DepthwiseRowsIsa depthwiseRowsIsa(int64_t channels) {
  if constexpr (kHalfGemm<T>)
    return channels % 8 == 0 ? DepthwiseRowsIsa::NeonFp16
                             : DepthwiseRowsIsa::None;
  if constexpr (!std::is_same_v<T, float>)
    return DepthwiseRowsIsa::None;
#if defined(__x86_64__) || defined(_M_X64)
  const gemm::Isa isa = gemm::activeIsa();
  if (isa == gemm::Isa::Avx512 && channels % 16 == 0)
    return DepthwiseRowsIsa::Avx512;
  if (isa >= gemm::Isa::Avx2 && channels % 8 == 0)
    return DepthwiseRowsIsa::Avx2;
#elif defined(__aarch64__)
  if (gemm::activeIsa() >= gemm::Isa::Neon && channels % 4 == 0)
    return DepthwiseRowsIsa::Neon;
#else
  (void)channels;
#endif
  return DepthwiseRowsIsa::None;
}

/// Whether T's depthwise convolution has vector rows on some CPU.
template <typename T>
inline constexpr bool kDepthwiseVectorRows =
    std::is_same_v<T, float> || kHalfGemm<T>;

/// The pixels an f32 depthwise convolution of stride 1 with `channels`
/// channels takes together when no vector rows fit one pixel: adjacent
/// pixels are adjacent in memory, so `group` of them are one row of
/// group * channels floats that fills whole vectors, computed against the
/// filter repeated `group` times (24 channels on AVX-512: pairs, 3 vectors
/// of 16; 28 channels on AVX2: pairs, 7 vectors of 8). 1 when grouping does
/// not apply (another type or stride, a channel multiplier, vector rows for
/// one pixel already, or no vector rows).
template <typename T>
int depthwisePixelGroup(int64_t channels, int64_t strideW, int64_t multiplier) {
  if constexpr (kDepthwiseVectorRows<T>) {
    // The widest rows this CPU has (16 channels fill any vector).
    const DepthwiseRowsIsa widest = depthwiseRowsIsa<T>(16);
    if (strideW != 1 || multiplier != 1 || widest == DepthwiseRowsIsa::None ||
        depthwiseRowsIsa<T>(channels) == widest)
      return 1;
    for (int group = 2; group <= 16; group *= 2)
      if (depthwiseRowsIsa<T>(group * channels) == widest)
        return group;
  }
  return 1;
}

/// What the vector rows of an f32 depthwise convolution take beyond the
/// portable path's arguments: the pixel group (depthwisePixelGroup; 1 for
/// none) with each of the row's taps' filters repeated `group` times, and,
/// when they apply the epilogue in their registers, its bias (repeated
/// `group` times; null for none) and activation (both unset otherwise).
template <typename T> struct DepthwiseVectorRows {
  int group = 1;
  const T *const *groupFilters = nullptr;
  bool epilogueInRegisters = false;
  const T *bias = nullptr;
  DepthwiseActivation activation = DepthwiseActivation::None;
};

/// Whether the vector rows can apply `epilogue` in registers, and how.
template <typename T>
bool registerEpilogue(const Epilogue<T> &epilogue,
                      DepthwiseActivation *activation) {
  if (!epilogue.bnMean.empty() || epilogue.addend)
    return false;
  switch (epilogue.activation) {
  case FusedActivation::None:
    *activation = DepthwiseActivation::None;
    return true;
  case FusedActivation::Relu:
    *activation = DepthwiseActivation::Relu;
    return true;
  case FusedActivation::Relu6:
    *activation = DepthwiseActivation::Relu6;
    return true;
  default:
    return false;
  }
}

/// The interior pixels of a row (see depthwisePixelRun) in chunks: every
/// channel of a chunk, then `epilogue` on it while it is in L1. f32 with
/// vector rows for its channels (depthwiseRowsIsa; a multiple of 16 on
/// AVX-512, of 8 on AVX2) makes the same sums in those vectors, and so do
/// groups of `vec.group` pixels against the filters repeated for them, the
/// pixels past the last whole group taking the portable path. The vector
/// rows apply the epilogue in their registers when `vec` says so.
template <typename T>
void depthwiseRun(const T *base, const int64_t *rowOffset,
                  const T *const *filters, int nTaps, int64_t pixelStride,
                  int64_t channels, int64_t n, const Epilogue<T> &epilogue,
                  T *out, const DepthwiseVectorRows<T> &vec = {}) {
  DepthwiseRowsIsa rows = DepthwiseRowsIsa::None;
  int64_t group = 1;
  if constexpr (kDepthwiseVectorRows<T>) {
    group = vec.group;
    rows = depthwiseRowsIsa<T>(group * channels);
    // The AVX2 rows pay for themselves by grouping pixels or by applying
    // the epilogue in registers; for the bare sums of single pixels the
    // portable loop is ~3% faster (a 112x112x96 3x3 layer: 0.330 against
    // 0.342 ms).
    if (rows == DepthwiseRowsIsa::Avx2 && group == 1 &&
        !(vec.epilogueInRegisters && !epilogue.empty()))
      rows = DepthwiseRowsIsa::None;
  }
  for (int64_t p0 = 0; p0 < n; p0 += kDepthwiseChunk) {
    const T *b = base + p0 * pixelStride;
    T *o = out + p0 * channels;
    const int64_t np = std::min(kDepthwiseChunk, n - p0);
    // Pixels [0, done) come from the vector rows, which apply the epilogue
    // when `vec` says so: the pass below starts at `finished`.
    int64_t done = 0, finished = 0;
#if defined(__x86_64__) || defined(_M_X64) || defined(__aarch64__)
    if constexpr (kDepthwiseVectorRows<T>) {
      if (rows != DepthwiseRowsIsa::None) {
        const T *const *rowFilters = group > 1 ? vec.groupFilters : filters;
        const int64_t groups = np / group;
#if defined(__aarch64__)
        if constexpr (kHalfGemm<T>) {
          // The halves' bits, as the f16 rows take them.
          using Bits = const uint16_t *;
          depthwiseRowNeonFp16(reinterpret_cast<Bits>(b), rowOffset,
                               reinterpret_cast<const Bits *>(rowFilters),
                               nTaps, group * pixelStride, group * channels,
                               groups, reinterpret_cast<uint16_t *>(o),
                               reinterpret_cast<Bits>(vec.bias),
                               vec.activation);
        } else {
          depthwiseRowNeon(b, rowOffset, rowFilters, nTaps, group * pixelStride,
                           group * channels, groups, o, vec.bias,
                           vec.activation);
        }
#else
        (rows == DepthwiseRowsIsa::Avx512 ? depthwiseRowAvx512
                                          : depthwiseRowAvx2)(
            b, rowOffset, rowFilters, nTaps, group * pixelStride,
            group * channels, groups, o, vec.bias, vec.activation);
#endif
        done = groups * group;
        if (vec.epilogueInRegisters)
          finished = done;
      }
    }
#endif
    if (done < np)
      depthwisePixelRun(b + done * pixelStride, rowOffset, filters, nTaps,
                        pixelStride, channels, np - done, o + done * channels);
    if (!epilogue.empty())
      for (int64_t q = finished; q < np; ++q)
        epilogue.apply(o + q * channels, 0, channels);
  }
}

/// One output pixel of an f16 depthwise convolution with channel multiplier
/// 1 (an edge's, whose taps are any `nTaps` of the window) through the FP16
/// rows when they take its channels (a multiple of 8): its taps are rows of
/// one pixel at offsets from the first tap. True when the sums are made
/// (false: the portable path, which scalar halves make slow); then
/// `*finished` says whether the epilogue was applied in registers too.
template <typename T>
bool depthwiseHalfPixel(const T *const *taps, const T *const *filters,
                        int nTaps, int64_t channels, T *out,
                        const DepthwiseVectorRows<T> &vec, bool *finished) {
  *finished = false;
#if defined(__aarch64__)
  if constexpr (kHalfGemm<T>) {
    if (nTaps == 0 || depthwiseRowsIsa<T>(channels) == DepthwiseRowsIsa::None)
      return false;
    // Up to a 7x7 window; larger ones take the portable path.
    constexpr int kMaxTaps = 49;
    int64_t offsets[kMaxTaps];
    if (nTaps > kMaxTaps)
      return false;
    for (int t = 0; t < nTaps; ++t)
      offsets[t] = taps[t] - taps[0];
    using Bits = const uint16_t *;
    depthwiseRowNeonFp16(
        reinterpret_cast<Bits>(taps[0]), offsets,
        reinterpret_cast<const Bits *>(filters), nTaps, channels, channels, 1,
        reinterpret_cast<uint16_t *>(out),
        vec.epilogueInRegisters ? reinterpret_cast<Bits>(vec.bias) : nullptr,
        vec.epilogueInRegisters ? vec.activation : DepthwiseActivation::None);
    *finished = vec.epilogueInRegisters;
    return true;
  }
#endif
  (void)taps, (void)filters, (void)nTaps, (void)channels, (void)out, (void)vec;
  return false;
}

/// DepthwiseConv2dNative(input, filter) and the fused forms
/// _FusedDepthwiseConv2dNative / FusedDepthwiseConv2dNative (TF.js):
/// input [batch, rows, cols, in_depth] (NHWC; NCHW supported through
/// transposes), filter [filter_rows, filter_cols, in_depth,
/// channel_multiplier]; output depth in_depth * channel_multiplier with
/// output channel c * channel_multiplier + m = sum of input channel c times
/// filter[..., c, m]. Padding, strides, dilations and explicit_paddings as
/// for Conv2D; fused_ops as for _FusedConv2D.
template <typename T, bool Fused>
class DepthwiseConvKernel final : public ConvKernelBase<T, Fused> {
public:
  using ConvKernelBase<T, Fused>::ConvKernelBase;

  void compute(OpKernelContextInterface *ctx) override {
    const Eigen::ThreadPoolDevice &device = ctx->eigenDevice();
    this->computeConv(ctx, /*depthwise=*/true,
                      [&](const T *in, const T *f, T *o, const ConvShape &s,
                          const Epilogue<T> &epilogue) {
                        // The filter is 4-D by now: dim 3 is the channel
                        // multiplier.
                        run(device, in, f, o, s, ctx->input(1).dim(3),
                            epilogue);
                      });
  }

private:
  static void run(const Eigen::ThreadPoolDevice &device, const T *in,
                  const T *filter, T *out, const ConvShape &s,
                  int64_t multiplier, const Epilogue<T> &epilogue) {
    const int64_t taps = s.kH * s.kW;
    const double rowCost = static_cast<double>(s.outW * s.outC * taps * 2);
    // Each tap's filter (and the bias) repeated for the pixel groups, when
    // they apply; the epilogue in the vector rows' registers when it can.
    const int group = depthwisePixelGroup<T>(s.outC, s.strideW, multiplier);
    std::vector<T> groupFilter, groupBias;
    DepthwiseVectorRows<T> vec;
    vec.group = group;
    vec.epilogueInRegisters = registerEpilogue(epilogue, &vec.activation);
    if (vec.epilogueInRegisters)
      vec.bias = epilogue.bias;
    if (group > 1) {
      groupFilter.resize(taps * group * s.outC);
      for (int64_t t = 0; t < taps; ++t)
        for (int g = 0; g < group; ++g)
          std::copy_n(filter + t * s.outC, s.outC,
                      groupFilter.data() + (t * group + g) * s.outC);
      if (vec.bias) {
        groupBias.resize(group * s.outC);
        for (int g = 0; g < group; ++g)
          std::copy_n(vec.bias, s.outC, groupBias.data() + g * s.outC);
        vec.bias = groupBias.data();
      }
    }
    kernels::parallelFor(
        device, s.n * s.outH, Eigen::TensorOpCost(0, 0, rowCost),
        [&](Eigen::Index first, Eigen::Index last) {
          absl::InlinedVector<const T *, 16> tapIn(taps), tapFilter(taps);
          absl::InlinedVector<const T *, 16> rowGroupFilter(group > 1 ? taps
                                                                      : 0);
          DepthwiseVectorRows<T> rowVec = vec;
          rowVec.groupFilters = rowGroupFilter.data();
          // Interior columns, where every kw tap lies inside the input: their
          // taps are the row's taps shifted by the column, computed once per
          // row. The taps keep the kh-major order of the edge path, so every
          // output sums in the same order either way.
          const int64_t lastTap = (s.kW - 1) * s.dilationW;
          int64_t owLo = (s.padLeft + s.strideW - 1) / s.strideW;
          int64_t owHi = s.inW - 1 + s.padLeft - lastTap >= 0
                             ? (s.inW - 1 + s.padLeft - lastTap) / s.strideW + 1
                             : 0;
          owLo = std::min(owLo, s.outW);
          owHi = std::clamp(owHi, owLo, s.outW);
          absl::InlinedVector<int64_t, 16> rowOffset(taps);
          absl::InlinedVector<const T *, 16> rowFilter(taps);
          for (Eigen::Index row = first; row < last; ++row) {
            const int64_t b = row / s.outH, oh = row % s.outH;
            T *o = out + row * s.outW * s.outC;
            int nRowTaps = 0;
            for (int64_t kh = 0; kh < s.kH; ++kh) {
              const int64_t ih = oh * s.strideH - s.padTop + kh * s.dilationH;
              if (ih < 0 || ih >= s.inH)
                continue;
              for (int64_t kw = 0; kw < s.kW; ++kw) {
                rowOffset[nRowTaps] =
                    ((b * s.inH + ih) * s.inW + kw * s.dilationW) * s.inC;
                rowFilter[nRowTaps] = filter + (kh * s.kW + kw) * s.outC;
                if (group > 1)
                  rowGroupFilter[nRowTaps] =
                      groupFilter.data() + (kh * s.kW + kw) * group * s.outC;
                ++nRowTaps;
              }
            }
            for (int64_t ow = 0; ow < s.outW; ++ow, o += s.outC) {
              // The row's interior pixels in one run: filter loads shared
              // by groups of pixels.
              if (multiplier == 1 && ow == owLo && owHi > owLo) {
                const int64_t n = owHi - owLo;
                depthwiseRun(in + (ow * s.strideW - s.padLeft) * s.inC,
                             rowOffset.data(), rowFilter.data(), nRowTaps,
                             s.strideW * s.inC, s.outC, n, epilogue, o, rowVec);
                ow += n - 1;
                o += (n - 1) * s.outC;
                continue;
              }
              int nTaps = 0;
              const T *const *filters = tapFilter.data();
              if (ow >= owLo && ow < owHi) {
                const T *base = in + (ow * s.strideW - s.padLeft) * s.inC;
                for (int t = 0; t < nRowTaps; ++t)
                  tapIn[t] = base + rowOffset[t];
                nTaps = nRowTaps;
                filters = rowFilter.data();
              } else {
                for (int64_t kh = 0; kh < s.kH; ++kh) {
                  const int64_t ih =
                      oh * s.strideH - s.padTop + kh * s.dilationH;
                  if (ih < 0 || ih >= s.inH)
                    continue;
                  for (int64_t kw = 0; kw < s.kW; ++kw) {
                    const int64_t iw =
                        ow * s.strideW - s.padLeft + kw * s.dilationW;
                    if (iw < 0 || iw >= s.inW)
                      continue;
                    tapIn[nTaps] = in + ((b * s.inH + ih) * s.inW + iw) * s.inC;
                    tapFilter[nTaps] = filter + (kh * s.kW + kw) * s.outC;
                    ++nTaps;
                  }
                }
              }
              bool finished = false;
              if (multiplier == 1 &&
                  depthwiseHalfPixel(tapIn.data(), filters, nTaps, s.outC, o,
                                     vec, &finished)) {
                if (finished)
                  continue;
              } else if (multiplier == 1) {
                depthwisePixel(tapIn.data(), filters, nTaps, s.outC, o);
              } else {
                std::fill(o, o + s.outC, T(0));
                for (int t = 0; t < nTaps; ++t)
                  for (int64_t c = 0; c < s.inC; ++c) {
                    const T x = tapIn[t][c];
                    const T *fc = filters[t] + c * multiplier;
                    T *oc = o + c * multiplier;
                    for (int64_t m = 0; m < multiplier; ++m)
                      oc[m] += x * fc[m];
                  }
              }
              if (!epilogue.empty())
                epilogue.apply(o, 0, s.outC);
            }
          }
        });
  }
};

//===----------------------------------------------------------------------===//
// Conv2DBackpropInput
//===----------------------------------------------------------------------===//

/// Below this many output columns a GEMM's register tiles are mostly
/// padding: narrowGemmTransposedB computes them as dot products instead.
constexpr int64_t kNarrowColumns = 8;

/// Conv2DBackpropInput(input_sizes, filter, out_backprop): the gradient of
/// Conv2D with respect to its input, i.e. a transposed convolution.
/// input_sizes is an int32/int64 vector of 4 (the input shape in
/// data_format) or 2 (rows, cols; batch and depth then come from
/// out_backprop and filter) values; filter [rows, cols, in_depth,
/// out_depth]; out_backprop must have the shape Conv2D would produce.
/// Each out_backprop pixel times filter^T is scattered (col2im) into the
/// windows it was computed from. Attributes as for Conv2D.
template <typename T> class Conv2DBackpropInputKernel final : public OpKernel {
public:
  explicit Conv2DBackpropInputKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, attrs_.read(*this, ctx));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &sizes = ctx->input(0);
    const Tensor &filter = ctx->input(1);
    const Tensor &dy = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        sizes.rank() == 1 &&
            (sizes.dtype() == DType::I32 || sizes.dtype() == DType::I64) &&
            (sizes.numElements() == 4 || sizes.numElements() == 2),
        errorf("input_sizes must be a 1-D int32/int64 tensor of 4 or 2 "
               "elements, got %s",
               sizes.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, filter.rank() == 4,
        errorf("filter must be 4-dimensional: %s", filter.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, dy.rank() == 4,
                              errorf("out_backprop must be 4-dimensional: %s",
                                     dy.shape().toString()));
    int64_t v[4];
    for (int64_t i = 0; i < sizes.numElements(); ++i)
      v[i] = sizes.dtype() == DType::I32 ? sizes.data<int32_t>()[i]
                                         : sizes.data<int64_t>()[i];
    int64_t dyDims[4];
    nhwcDims(dy, attrs_.nchw, dyDims);
    int64_t in[4]; // NHWC
    if (sizes.numElements() == 4) {
      in[0] = v[0];
      in[1] = v[attrs_.nchw ? 2 : 1];
      in[2] = v[attrs_.nchw ? 3 : 2];
      in[3] = v[attrs_.nchw ? 1 : 3];
    } else {
      in[0] = dyDims[0];
      in[1] = v[0];
      in[2] = v[1];
      in[3] = filter.dim(2);
    }
    for (int64_t x : in)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, x >= 0, errorf("input_sizes must be nonnegative, got %d", x));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in[3] == filter.dim(2),
        errorf("input and filter must have the same depth: %d vs %d", in[3],
               filter.dim(2)));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dyDims[3] == filter.dim(3),
        errorf("out_backprop depth must equal the filter's output depth: "
               "%d vs %d",
               dyDims[3], filter.dim(3)));
    ConvShape s;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeConvShape(*this, attrs_, in[0], in[1], in[2], in[3],
                              filter.dim(0), filter.dim(1), filter.dim(3), &s));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dyDims[0] == s.n && dyDims[1] == s.outH && dyDims[2] == s.outW,
        errorf("Conv2DCustomBackpropInput: Size of out_backprop doesn't "
               "match computed: out_backprop %s, expected [%d,%d,%d] (batch, "
               "rows, cols)",
               dy.shape().toString(), s.n, s.outH, s.outW));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(
            0, layoutShape(in[0], in[1], in[2], in[3], attrs_.nchw), &out));
    if (out->numElements() == 0)
      return;
    const T *f = filter.data<T>();
    const Eigen::ThreadPoolDevice &device = ctx->eigenDevice();
    // withNhwc maps dy (the "input" of the layout helper) to NHWC and the
    // result back to the data format.
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, withNhwc<T>(attrs_.nchw, dy, out,
                         [&](const T *g, T *o) { run(device, g, f, o, s); }));
  }

private:
  /// The filter columns of one dy pixel x (outC values): acc[l] = sum over
  /// c of x[c] * filterT[c * L + l], in L lanes (one or two vectors).
  template <int L>
  static void narrowColumns(const T *x, const T *filterT, int64_t outC,
                            T *columns) {
    if constexpr (std::is_same_v<T, float>) {
      // A vector of L lanes spelled out: left to itself the compiler
      // vectorizes over c instead, with the sums in order (scalar adds).
      typedef float Lanes __attribute__((vector_size(L * sizeof(float))));
      Lanes acc = {};
      for (int64_t c = 0; c < outC; ++c) {
        Lanes f;
        std::memcpy(&f, filterT + c * L, sizeof(f));
        acc += x[c] * f;
      }
      std::memcpy(columns, &acc, sizeof(acc));
    } else {
      T acc[L] = {};
      for (int64_t c = 0; c < outC; ++c)
        for (int l = 0; l < L; ++l)
          acc[l] += x[c] * filterT[c * L + l];
      std::copy(acc, acc + L, columns);
    }
  }

  /// The narrow path (k <= kNarrowColumns filter columns) in L lanes.
  template <int L, typename ForEachTap>
  static void runNarrow(const Eigen::ThreadPoolDevice &device, const T *dy,
                        const T *filter, T *out, const ConvShape &s, int64_t k,
                        ForEachTap &&forEachTap) {
    // The filter transposed to [outC, L], zeros past its k columns.
    std::vector<T> filterT(s.outC * L, T(0));
    for (int64_t j = 0; j < k; ++j)
      for (int64_t c = 0; c < s.outC; ++c)
        filterT[c * L + j] = filter[j * s.outC + c];
    // Windows that tile the input exactly (the kernel its stride, no
    // dilation or padding: the 2x2 stride-2 upsampling of segmentation
    // heads): every input pixel is one tap of one dy pixel, so the columns
    // go straight to their place, rows in parallel. Tap kh's columns,
    // [kh * kW * inC, (kh + 1) * kW * inC), are consecutive in its row.
    if (s.kH == s.strideH && s.kW == s.strideW && s.dilationH == 1 &&
        s.dilationW == 1 && s.padTop == 0 && s.padLeft == 0 &&
        s.outH * s.strideH == s.inH && s.outW * s.strideW == s.inW) {
      const int64_t rowLen = s.kW * s.inC;
      kernels::parallelFor(
          device, s.n * s.outH,
          elementCost<T>(1, 1, 0) * static_cast<double>(s.outW * s.outC * L),
          [&](Eigen::Index first, Eigen::Index last) {
            T columns[L];
            for (Eigen::Index row = first; row < last; ++row) {
              const int64_t b = row / s.outH, oh = row % s.outH;
              const T *x = dy + row * s.outW * s.outC;
              for (int64_t ow = 0; ow < s.outW; ++ow, x += s.outC) {
                narrowColumns<L>(x, filterT.data(), s.outC, columns);
                for (int64_t kh = 0; kh < s.kH; ++kh)
                  std::copy_n(
                      columns + kh * rowLen, rowLen,
                      out + ((b * s.inH + oh * s.kH + kh) * s.inW + ow * s.kW) *
                                s.inC);
              }
            }
          });
      return;
    }
    std::fill(out, out + s.n * s.inH * s.inW * s.inC, T(0));
    int64_t current = -1;
    T columns[L];
    forEachTap(
        0, s.n * s.outH * s.outW, [&](int64_t r, int64_t at, int64_t column) {
          if (r != current) {
            narrowColumns<L>(dy + r * s.outC, filterT.data(), s.outC, columns);
            current = r;
          }
          for (int64_t i = 0; i < s.inC; ++i)
            out[at + i] += columns[column + i];
        });
  }

  static void run(const Eigen::ThreadPoolDevice &device, const T *dy,
                  const T *filter, T *out, const ConvShape &s) {
    const int64_t m = s.n * s.outH * s.outW;
    const int64_t k = s.kH * s.kW * s.inC;
    if (m == 0 || k == 0) {
      std::fill(out, out + s.n * s.inH * s.inW * s.inC, T(0));
      return;
    }
    // Walks the pixels of dy (b, oh, ow from `first` on, by increments) and
    // calls emit(pixel index, tap input offset, filter column) for every tap
    // that lands inside the input.
    auto forEachTap = [&](int64_t first, int64_t count, auto &&emit) {
      int64_t ow = first % s.outW, oh = (first / s.outW) % s.outH,
              b = first / (s.outW * s.outH);
      for (int64_t r = 0; r < count; ++r) {
        if (r > 0 && ++ow == s.outW) {
          ow = 0;
          if (++oh == s.outH) {
            oh = 0;
            ++b;
          }
        }
        for (int64_t kh = 0; kh < s.kH; ++kh) {
          const int64_t ih = oh * s.strideH - s.padTop + kh * s.dilationH;
          if (ih < 0 || ih >= s.inH)
            continue;
          for (int64_t kw = 0; kw < s.kW; ++kw) {
            const int64_t iw = ow * s.strideW - s.padLeft + kw * s.dilationW;
            if (iw < 0 || iw >= s.inW)
              continue;
            emit(r, ((b * s.inH + ih) * s.inW + iw) * s.inC,
                 (kh * s.kW + kw) * s.inC);
          }
        }
      }
    };
    if (k <= kNarrowColumns) {
      // Few filter columns (a one-channel mask upsampled): a GEMM's tiles
      // would be mostly padding. Each pixel's k columns are one vector of
      // 4 or 8 lanes (runNarrow).
      if (k <= 4)
        runNarrow<4>(device, dy, filter, out, s, k, forEachTap);
      else
        runNarrow<kNarrowColumns>(device, dy, filter, out, s, k, forEachTap);
      return;
    }
    std::fill(out, out + s.n * s.inH * s.inW * s.inC, T(0));
    const int64_t chunkRows =
        std::clamp<int64_t>(kIm2colChunkBytes / (k * sizeof(T)), 64, m);
    T *cols = threadScratch<T, 0>(chunkRows * k);
    Epilogue<T> none;
    // cols = dy * filter^T: the filter, [k, outC], is B transposed. f32
    // packs it once for every chunk.
    std::optional<gemm::PackedB> packed;
    if constexpr (std::is_same_v<T, float>)
      if (chunkRows < m)
        packed.emplace(filter, s.outC, true, s.outC, k, gemm::activeIsa());
    for (int64_t r0 = 0; r0 < m; r0 += chunkRows) {
      const int64_t rows = std::min(chunkRows, m - r0);
      // cols[rows, k] = dy[rows, outC] * filter[k, outC]^T.
      gemmRows(device, dy + r0 * s.outC, filter, cols, rows, s.outC, k, true,
               none, packed ? &*packed : nullptr);
      forEachTap(r0, rows, [&](int64_t r, int64_t at, int64_t column) {
        const T *c = cols + r * k + column;
        for (int64_t i = 0; i < s.inC; ++i)
          out[at + i] += c[i];
      });
    }
  }

  ConvAttrs attrs_;
};

template <typename T> using Conv2D = Conv2DKernel<T, false>;
template <typename T> using FusedConv2D = Conv2DKernel<T, true>;
template <typename T> using DepthwiseConv = DepthwiseConvKernel<T, false>;
template <typename T> using FusedDepthwiseConv = DepthwiseConvKernel<T, true>;

} // namespace

template <typename T>
void kernels::conv2dNhwcNoEpilogue(const Eigen::ThreadPoolDevice &device,
                                   const T *in, const T *filter, T *out,
                                   int64_t n, int64_t inH, int64_t inW,
                                   int64_t inC, int64_t kH, int64_t kW,
                                   int64_t outC, int64_t outH, int64_t outW,
                                   int64_t strideH, int64_t strideW,
                                   int64_t padTop, int64_t padLeft) {
  const ConvShape s{n,    inH,     inW,     inC, kH, kW,     outC,   outH,
                    outW, strideH, strideW, 1,   1,  padTop, padLeft};
  conv2dNhwc<T>(device, in, filter, out, s, Epilogue<T>());
}

template void kernels::conv2dNhwcNoEpilogue<float>(
    const Eigen::ThreadPoolDevice &, const float *, const float *, float *,
    int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
    int64_t, int64_t, int64_t, int64_t, int64_t);
template void kernels::conv2dNhwcNoEpilogue<double>(
    const Eigen::ThreadPoolDevice &, const double *, const double *, double *,
    int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
    int64_t, int64_t, int64_t, int64_t, int64_t);

void registerConvKernels(KernelRegistry &registry) {
  registerKernel<OpId::kConv2D, Conv2D, float, double>(registry);
  registerKernel<OpId::k_FusedConv2D, FusedConv2D, float, double>(registry);
  registerKernel<OpId::kDepthwiseConv2dNative, DepthwiseConv, float, double>(
      registry);
  registerKernel<OpId::k_FusedDepthwiseConv2dNative, FusedDepthwiseConv, float,
                 double>(registry);
  registerKernel<OpId::kFusedDepthwiseConv2dNative, FusedDepthwiseConv, float,
                 double>(registry);
  registerKernel<OpId::kConv2DBackpropInput, Conv2DBackpropInputKernel, float,
                 double>(registry);
  // f16 in f16 where the CPU has the arithmetic (ComputeInF16.h), else (and
  // bf16) through the f32 kernels (ComputeInF32.h).
  registerKernel<OpId::kConv2D, InF16OrF32<Conv2D>::Kernel>(registry,
                                                            HalfFloatTypes{});
  registerKernel<OpId::k_FusedConv2D, InF16OrF32<FusedConv2D>::Kernel>(
      registry, HalfFloatTypes{});
  registerKernel<OpId::kDepthwiseConv2dNative,
                 InF16OrF32<DepthwiseConv>::Kernel>(registry, HalfFloatTypes{});
  registerKernel<OpId::k_FusedDepthwiseConv2dNative,
                 InF16OrF32<FusedDepthwiseConv>::Kernel>(registry,
                                                         HalfFloatTypes{});
  registerKernel<OpId::kFusedDepthwiseConv2dNative,
                 InF16OrF32<FusedDepthwiseConv>::Kernel>(registry,
                                                         HalfFloatTypes{});
  registerKernel<OpId::kConv2DBackpropInput,
                 InF32<Conv2DBackpropInputKernel>::Kernel>(registry,
                                                           HalfFloatTypes{});
}

} // namespace tfrt_fallback::rt

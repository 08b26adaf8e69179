//===- FftKernels.cpp - FFT, IFFT, RFFT, IRFFT in 1-3 dimensions -*- C++
//-*-===//
//
// TensorFlow's Fourier transforms (fft_ops.cc) over the innermost 1, 2 or
// 3 dimensions of a tensor, every other dimension a batch:
//
// - FFT / IFFT (input: Tcomplex): the complex transform; the inverse scales
//   by 1 / (product of the transformed lengths), as TF (and NumPy) do.
// - RFFT (input: Treal, fft_length: int32[rank]): the transform of real
//   input: each transformed dimension is cropped to fft_length[i] (TF
//   requires the input to be at least that long, or empty), and the
//   innermost one keeps fft_length / 2 + 1 coefficients (0 stays 0).
//   Treal float gives complex64, double complex128.
// - IRFFT (input: Tcomplex, fft_length): the inverse of RFFT: fft_length
//   real values per innermost line from its first fft_length / 2 + 1
//   coefficients (the rest of the spectrum is their Hermitian mirror; the
//   imaginary parts of the zero-frequency and, for even lengths, the
//   Nyquist coefficient are ignored, as in NumPy's irfft), scaled by
//   1 / product(fft_length).
//
// TF's errors: "Input must have rank of at least 2 but got: [3]",
// "fft_length must have shape [2]", "fft_length[0] must >= 0, but got: -1",
// "Input dimension 1 must have length of at least 4 but got: 3".
//
// The 1-D transforms are Eigen's FFT module (unsupported/Eigen/FFT, its
// KISS FFT backend: any length, mixed radix), run line by line along each
// transformed axis, lines split over the device's threads. Real transforms
// run as complex ones on the full spectrum (twice the work of a dedicated
// real FFT, and exact to the same rounding).
//
//===----------------------------------------------------------------------===//

#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <unsupported/Eigen/FFT>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

enum class FftKind { Complex, Real };

/// Transforms every line along `axis` of the row-major complex array `data`
/// of `dims` in place: forward, or inverse without scaling.
template <typename R>
void transformAxis(const Eigen::ThreadPoolDevice &device, std::complex<R> *data,
                   absl::Span<const int64_t> dims, int axis, bool forward) {
  const int64_t n = dims[axis];
  if (n <= 1)
    return; // A length-1 transform is the identity.
  int64_t inner = 1;
  for (size_t d = axis + 1; d < dims.size(); ++d)
    inner *= dims[d];
  int64_t total = 1;
  for (int64_t dim : dims)
    total *= dim;
  const int64_t lines = total / n;
  const double cost = 5.0 * n * std::log2(static_cast<double>(n));
  parallelFor(device, lines,
              Eigen::TensorOpCost(n * sizeof(std::complex<R>),
                                  n * sizeof(std::complex<R>), cost),
              [&](Eigen::Index first, Eigen::Index last) {
                Eigen::FFT<R> fft;
                fft.SetFlag(Eigen::FFT<R>::Unscaled);
                std::vector<std::complex<R>> in(n), out(n);
                for (Eigen::Index line = first; line < last; ++line) {
                  // Line `line` starts at outer * n * inner + i.
                  const int64_t outer = line / inner, i = line % inner;
                  std::complex<R> *base = data + outer * n * inner + i;
                  for (int64_t k = 0; k < n; ++k)
                    in[k] = base[k * inner];
                  if (forward)
                    fft.fwd(out.data(), in.data(), n);
                  else
                    fft.inv(out.data(), in.data(), n);
                  for (int64_t k = 0; k < n; ++k)
                    base[k * inner] = out[k];
                }
              });
}

/// Copies the row-major array `src` of `srcDims` into `dst` of `dstDims`
/// (each dst dim <= the src dim): the leading corner.
template <typename From, typename To>
void copyCorner(const From *src, absl::Span<const int64_t> srcDims, To *dst,
                absl::Span<const int64_t> dstDims) {
  const int rank = static_cast<int>(dstDims.size());
  if (rank == 0) {
    dst[0] = To(src[0]);
    return;
  }
  int64_t dstTotal = 1;
  for (int64_t d : dstDims)
    dstTotal *= d;
  if (dstTotal == 0)
    return;
  const int64_t row = dstDims[rank - 1];
  std::vector<int64_t> index(rank, 0);
  for (int64_t done = 0; done < dstTotal; done += row) {
    int64_t srcOffset = 0;
    for (int d = 0; d < rank; ++d)
      srcOffset = srcOffset * srcDims[d] + index[d];
    for (int64_t k = 0; k < row; ++k)
      *dst++ = To(src[srcOffset + k]);
    for (int d = rank - 2; d >= 0; --d) {
      if (++index[d] < dstDims[d])
        break;
      index[d] = 0;
    }
  }
}

/// The kernel of one op: `Rank` transformed dims, forward or inverse,
/// complex or real. In is the input element type, C the complex type.
template <int Rank, bool Forward, FftKind Kind, typename In, typename C>
class FftKernel final : public OpKernel {
  using R = typename C::value_type;
  static constexpr bool kReal = Kind == FftKind::Real;

public:
  explicit FftKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const int rank = input.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rank >= Rank,
        errorf("Input must have rank of at least %d but got: %s", Rank,
               input.shape().toString()));
    TensorShape::Dims outDims(input.shape().dims().begin(),
                              input.shape().dims().end());
    // The transform lengths, innermost last.
    int64_t lengths[3] = {0, 0, 0};
    if constexpr (kReal) {
      const Tensor &fftLength = ctx->input(1);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          fftLength.dtype() == DType::I32 && fftLength.rank() == 1 &&
              fftLength.dim(0) == Rank,
          errorf("fft_length must have shape [%d]", Rank));
      for (int i = 0; i < Rank; ++i) {
        const int64_t length = fftLength.data<int32_t>()[i];
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, length >= 0,
            errorf("fft_length[%d] must >= 0, but got: %d", i, length));
        lengths[i] = length;
        const bool innermost = i == Rank - 1;
        const int64_t minLength =
            !Forward && innermost ? length / 2 + 1 : length;
        const int inputIndex = rank - Rank + i;
        TFRT_FALLBACK_OP_REQUIRES(
            ctx,
            input.dim(inputIndex) == 0 || input.dim(inputIndex) >= minLength,
            errorf("Input dimension %d must have length of at least %d but "
                   "got: %d",
                   inputIndex, minLength, input.dim(inputIndex)));
        outDims[inputIndex] =
            Forward && innermost && length != 0 ? length / 2 + 1 : length;
      }
    } else {
      for (int i = 0; i < Rank; ++i)
        lengths[i] = input.dim(rank - Rank + i);
    }
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    if (input.numElements() == 0 || outShape->numElements() == 0) {
      // TF passes empty tensors through; a zero-length transform of a
      // non-empty input has no elements either.
      return;
    }
    const Eigen::ThreadPoolDevice &device = ctx->eigenDevice();
    const auto inDims = input.shape().dims();

    if constexpr (!kReal) {
      // Complex: copy, then transform the innermost Rank axes in place.
      C *data = out->data<C>();
      const C *src = input.data<C>();
      std::copy(src, src + input.numElements(), data);
      for (int i = 0; i < Rank; ++i)
        transformAxis<R>(device, data, inDims, rank - Rank + i, Forward);
      if (!Forward)
        scale(data, out->numElements(), lengths);
    } else if constexpr (Forward) {
      // RFFT: the full complex transform of the cropped input, then the
      // first n / 2 + 1 coefficients of each innermost line.
      TensorShape::Dims full(outDims.begin(), outDims.end());
      full[rank - 1] = lengths[Rank - 1];
      std::vector<C> work(product(full));
      copyCorner(input.data<In>(), inDims, work.data(), full);
      for (int i = 0; i < Rank; ++i)
        transformAxis<R>(device, work.data(), full, rank - Rank + i, true);
      copyCorner(work.data(), full, out->data<C>(), outDims);
    } else {
      // IRFFT: the inverse along the outer transformed axes on the half
      // spectrum; then each innermost line is the half spectrum of a real
      // line: rebuild its full spectrum (the Hermitian mirror of its first
      // n / 2 + 1 coefficients), transform back, keep the real parts.
      const int64_t n = lengths[Rank - 1], half = n / 2 + 1;
      TensorShape::Dims halfDims(outDims.begin(), outDims.end());
      halfDims[rank - 1] = half;
      std::vector<C> halves(product(halfDims));
      copyCorner(input.data<C>(), inDims, halves.data(), halfDims);
      for (int i = 0; i + 1 < Rank; ++i)
        transformAxis<R>(device, halves.data(), halfDims, rank - Rank + i,
                         false);
      TensorShape::Dims full(outDims.begin(), outDims.end());
      std::vector<C> work(product(full));
      const int64_t lines = product(full) / n;
      for (int64_t line = 0; line < lines; ++line) {
        const C *h = halves.data() + line * half;
        C *w = work.data() + line * n;
        for (int64_t k = 0; k < half; ++k)
          w[k] = h[k];
        w[0] = C(w[0].real(), 0);
        if (n % 2 == 0)
          w[n / 2] = C(w[n / 2].real(), 0);
        for (int64_t k = half; k < n; ++k)
          w[k] = std::conj(h[n - k]);
      }
      transformAxis<R>(device, work.data(), full, rank - 1, false);
      R *dst = out->data<R>();
      R factor = R(1);
      for (int i = 0; i < Rank; ++i)
        factor /= static_cast<R>(lengths[i]);
      for (size_t k = 0; k < work.size(); ++k)
        dst[k] = work[k].real() * factor;
    }
  }

private:
  static int64_t product(absl::Span<const int64_t> dims) {
    int64_t p = 1;
    for (int64_t d : dims)
      p *= d;
    return p;
  }

  static void scale(C *data, int64_t n, const int64_t *lengths) {
    R factor = R(1);
    for (int i = 0; i < Rank; ++i)
      factor /= static_cast<R>(lengths[i]);
    for (int64_t k = 0; k < n; ++k)
      data[k] *= factor;
  }
};

using C64 = std::complex<float>;
using C128 = std::complex<double>;

/// FFT / IFFT of one rank: complex64 and complex128 (attribute Tcomplex).
template <OpId Op, int Rank, bool Forward>
void registerComplexFft(KernelRegistry &registry) {
  if constexpr (isKernelSelected(Op, DType::C64))
    rt::registerKernel<FftKernel<Rank, Forward, FftKind::Complex, C64, C64>>(
        registry, KernelDefBuilder(kOpRow<Op>).typeConstraint<C64>("Tcomplex"));
  if constexpr (isKernelSelected(Op, DType::C128))
    rt::registerKernel<FftKernel<Rank, Forward, FftKind::Complex, C128, C128>>(
        registry,
        KernelDefBuilder(kOpRow<Op>).typeConstraint<C128>("Tcomplex"));
}

/// RFFT / IRFFT of one rank: (Treal, Tcomplex) = (float, complex64) and
/// (double, complex128).
template <OpId Op, int Rank, bool Forward>
void registerRealFft(KernelRegistry &registry) {
  auto registerOne = [&](auto real, auto complex) {
    using R = decltype(real);
    using C = decltype(complex);
    using In = std::conditional_t<Forward, R, C>;
    if constexpr (isKernelSelected(Op, dtypeOf<R>()))
      rt::registerKernel<FftKernel<Rank, Forward, FftKind::Real, In, C>>(
          registry, KernelDefBuilder(kOpRow<Op>)
                        .typeConstraint<R>("Treal")
                        .template typeConstraint<C>("Tcomplex"));
  };
  registerOne(float{}, C64{});
  registerOne(double{}, C128{});
}

} // namespace

void registerFftKernels(KernelRegistry &registry) {
  registerComplexFft<OpId::kFFT, 1, true>(registry);
  registerComplexFft<OpId::kFFT2D, 2, true>(registry);
  registerComplexFft<OpId::kFFT3D, 3, true>(registry);
  registerComplexFft<OpId::kIFFT, 1, false>(registry);
  registerComplexFft<OpId::kIFFT2D, 2, false>(registry);
  registerComplexFft<OpId::kIFFT3D, 3, false>(registry);
  registerRealFft<OpId::kRFFT, 1, true>(registry);
  registerRealFft<OpId::kRFFT2D, 2, true>(registry);
  registerRealFft<OpId::kRFFT3D, 3, true>(registry);
  registerRealFft<OpId::kIRFFT, 1, false>(registry);
  registerRealFft<OpId::kIRFFT2D, 2, false>(registry);
  registerRealFft<OpId::kIRFFT3D, 3, false>(registry);
}

} // namespace tfrt_fallback::rt

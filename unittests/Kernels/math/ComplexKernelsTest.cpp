//===- ComplexKernelsTest.cpp - complex numbers and FFTs --------*- C++ -*-===//
//
// Complex, Real, Imag, Angle, ComplexAbs, Conj, and the FFT family, run
// through the executor. Expected values are worked out by hand (the DFT of
// [1, 2, 3, 4] is [10, -2+2i, -2, -2-2i]) or by a naive O(n^2) DFT in this
// file, independent of the kernels' FFT library; errors are TF's
// (fft_ops.cc).
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <complex>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

using C64 = std::complex<float>;
using C128 = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;

Tensor c64(TensorShape shape, std::vector<C64> v) {
  return makeTensor<C64>(std::move(shape), v);
}
Tensor c128(TensorShape shape, std::vector<C128> v) {
  return makeTensor<C128>(std::move(shape), v);
}

/// Checks a complex tensor's shape and values (absolute tolerance `tol`,
/// relative to the largest expected magnitude when that is above 1).
template <typename C>
void expectComplex(const Tensor &actual, const TensorShape &shape,
                   const std::vector<C> &expected, double tol = 1e-5) {
  ASSERT_EQ(actual.dtype(), dtypeOf<C>());
  ASSERT_EQ(actual.shape(), shape);
  ASSERT_EQ(actual.numElements(), static_cast<int64_t>(expected.size()));
  double scale = 1;
  for (const C &e : expected)
    scale = std::max(scale, static_cast<double>(std::abs(e)));
  const C *data = actual.data<C>();
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_NEAR(data[i].real(), expected[i].real(), tol * scale) << "at " << i;
    EXPECT_NEAR(data[i].imag(), expected[i].imag(), tol * scale) << "at " << i;
  }
}

TEST(Complex, BuildsFromPartsWithBroadcasting) {
  AttrMap attrs{{"T", DType::F32}, {"Tout", DType::C64}};
  auto out =
      runKernel("Complex", attrs,
                {f32({2, 2}, {1, 2, 3, 4}), f32({2}, {-1, 0.5f})}, DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C64>(*out, {2, 2}, {{1, -1}, {2, 0.5f}, {3, -1}, {4, 0.5f}});
  // double -> complex128.
  out = runKernel("Complex", {{"T", DType::F64}, {"Tout", DType::C128}},
                  {makeTensor<double>({}, {2.5}), makeTensor<double>({}, {-3})},
                  DType::C128);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C128>(*out, {}, {{2.5, -3}});
  // float parts cannot make complex128 (TF registers (float, complex64)
  // and (double, complex128) only).
  out = runKernel("Complex", {{"T", DType::F32}, {"Tout", DType::C128}},
                  {f32({1}, {1}), f32({1}, {1})}, DType::C128);
  EXPECT_FALSE(out.ok());
  out = runKernel("Complex", attrs, {f32({2}, {1, 2}), f32({3}, {1, 2, 3})},
                  DType::C64);
  EXPECT_EQ(out.status().message(),
            opError("Complex", "Incompatible shapes: [2] vs. [3]"));
}

TEST(Complex, PartsAngleAbsConj) {
  // z = [3+4i, -1+0i, 0-2i].
  const std::vector<C64> z = {{3, 4}, {-1, 0}, {0, -2}};
  AttrMap attrs{{"T", DType::C64}, {"Tout", DType::F32}};
  auto real = runKernel("Real", attrs, {c64({3}, z)}, DType::F32);
  ASSERT_TRUE(real.ok()) << real.status();
  expectValues<float>(*real, {3}, {3, -1, 0});
  auto imag = runKernel("Imag", attrs, {c64({3}, z)}, DType::F32);
  ASSERT_TRUE(imag.ok()) << imag.status();
  expectValues<float>(*imag, {3}, {4, 0, -2});
  // atan2(4, 3), atan2(0, -1) = pi, atan2(-2, 0) = -pi/2.
  auto angle = runKernel("Angle", attrs, {c64({3}, z)}, DType::F32);
  ASSERT_TRUE(angle.ok()) << angle.status();
  expectValues<float>(*angle, {3}, {std::atan2(4.0, 3.0), kPi, -kPi / 2});
  auto abs = runKernel("ComplexAbs", attrs, {c64({3}, z)}, DType::F32);
  ASSERT_TRUE(abs.ok()) << abs.status();
  expectValues<float>(*abs, {3}, {5, 1, 2});
  // |z| does not overflow where re^2 + im^2 would: 3e30 + 4e30i.
  abs =
      runKernel("ComplexAbs", attrs, {c64({1}, {{3e30f, 4e30f}})}, DType::F32);
  ASSERT_TRUE(abs.ok()) << abs.status();
  expectValues<float>(*abs, {1}, {5e30});
  auto conj = runKernel("Conj", {{"T", DType::C128}},
                        {c128({2}, {{1, 2}, {-3, -4}})}, DType::C128);
  ASSERT_TRUE(conj.ok()) << conj.status();
  expectComplex<C128>(*conj, {2}, {{1, -2}, {-3, 4}});
  // complex128 -> double.
  auto real64 = runKernel("Real", {{"T", DType::C128}, {"Tout", DType::F64}},
                          {c128({1}, {{0.25, 8}})}, DType::F64);
  ASSERT_TRUE(real64.ok()) << real64.status();
  expectValues<double>(*real64, {1}, {0.25});
}

TEST(Complex, CastToAndFromComplex) {
  // NumPy's rules, as TF: complex -> real keeps the real part; real ->
  // complex has a zero imaginary part.
  auto out = runKernel("Cast", {{"SrcT", DType::C64}, {"DstT", DType::I32}},
                       {c64({2}, {{2.9f, 7}, {-1.5f, 1}})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {2, -1});
  out = runKernel("Cast", {{"SrcT", DType::F32}, {"DstT", DType::C128}},
                  {f32({2}, {0.5f, -2})}, DType::C128);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C128>(*out, {2}, {{0.5, 0}, {-2, 0}});
  out = runKernel("Cast", {{"SrcT", DType::C128}, {"DstT", DType::C64}},
                  {c128({1}, {{1.25, -3.5}})}, DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C64>(*out, {1}, {{1.25f, -3.5f}});
  out = runKernel("Cast", {{"SrcT", DType::C64}, {"DstT", DType::Bool}},
                  {c64({2}, {{0, 1}, {2, 0}})}, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  // Only the real part counts (TF's scalar_cast_op<complex, bool>).
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{false, true}));
}

//===----------------------------------------------------------------------===//
// FFT
//===----------------------------------------------------------------------===//

/// The naive DFT of the row-major array `x` of `dims` over its last `rank`
/// axes (inverse: e^{+i...} and 1/N).
std::vector<C128> naiveDft(const std::vector<C128> &x,
                           const std::vector<int64_t> &dims, int rank,
                           bool inverse) {
  std::vector<C128> cur = x;
  const int total = static_cast<int>(dims.size());
  for (int axis = total - rank; axis < total; ++axis) {
    const int64_t n = dims[axis];
    int64_t inner = 1;
    for (int d = axis + 1; d < total; ++d)
      inner *= dims[d];
    const int64_t outer = static_cast<int64_t>(x.size()) / (n * inner);
    std::vector<C128> next(cur.size());
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i)
        for (int64_t k = 0; k < n; ++k) {
          C128 sum = 0;
          for (int64_t j = 0; j < n; ++j) {
            const double angle =
                (inverse ? 2 : -2) * kPi * double(j * k % n) / double(n);
            sum += cur[(o * n + j) * inner + i] *
                   C128(std::cos(angle), std::sin(angle));
          }
          next[(o * n + k) * inner + i] = inverse ? sum / double(n) : sum;
        }
    cur = std::move(next);
  }
  return cur;
}

TEST(FFT, OneDimensionByHand) {
  auto out = runKernel("FFT", {{"Tcomplex", DType::C64}},
                       {c64({4}, {1, 2, 3, 4})}, DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C64>(*out, {4}, {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}});
  auto back =
      runKernel("IFFT", {{"Tcomplex", DType::C64}},
                {c64({4}, {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}})}, DType::C64);
  ASSERT_TRUE(back.ok()) << back.status();
  expectComplex<C64>(*back, {4}, {1, 2, 3, 4});
  // A length-3 impulse at 1: the cube roots of unity e^{-2 pi i k / 3}.
  const double h = std::sqrt(3.0) / 2;
  auto odd = runKernel("FFT", {{"Tcomplex", DType::C128}},
                       {c128({1, 3}, {0, 1, 0})}, DType::C128);
  ASSERT_TRUE(odd.ok()) << odd.status();
  expectComplex<C128>(*odd, {1, 3}, {{1, 0}, {-0.5, -h}, {-0.5, h}}, 1e-12);
}

TEST(FFT, TwoAndThreeDimensionsAgainstNaiveDft) {
  // FFT2D of [[1, 2], [3, 4]] = [[10, -2], [-4, 0]].
  auto out = runKernel("FFT2D", {{"Tcomplex", DType::C64}},
                       {c64({2, 2}, {1, 2, 3, 4})}, DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C64>(*out, {2, 2}, {10, -2, -4, 0});
  // A batch of two 3x4x5 complex blocks.
  const std::vector<int64_t> dims = {2, 3, 4, 5};
  std::vector<C128> x;
  for (int i = 0; i < 120; ++i)
    x.push_back(C128(std::sin(0.7 * i), std::cos(1.3 * i) - 0.25));
  for (bool inverse : {false, true}) {
    auto fft =
        runKernel(inverse ? "IFFT3D" : "FFT3D", {{"Tcomplex", DType::C128}},
                  {c128({2, 3, 4, 5}, x)}, DType::C128);
    ASSERT_TRUE(fft.ok()) << fft.status();
    expectComplex<C128>(*fft, {2, 3, 4, 5}, naiveDft(x, dims, 3, inverse),
                        1e-12);
  }
  // Rank 2 over the last two of three dims.
  auto fft2 = runKernel("FFT2D", {{"Tcomplex", DType::C128}},
                        {c128({6, 4, 5}, x)}, DType::C128);
  ASSERT_TRUE(fft2.ok()) << fft2.status();
  expectComplex<C128>(*fft2, {6, 4, 5}, naiveDft(x, {6, 4, 5}, 2, false),
                      1e-12);
}

TEST(RFFT, HalfSpectrumAndCropping) {
  AttrMap attrs{{"Treal", DType::F32}, {"Tcomplex", DType::C64}};
  auto out = runKernel("RFFT", attrs, {f32({4}, {1, 2, 3, 4}), i32({1}, {4})},
                       DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C64>(*out, {3}, {{10, 0}, {-2, 2}, {-2, 0}});
  // fft_length 4 of a length-5 input reads its first 4 values.
  out = runKernel("RFFT", attrs, {f32({5}, {1, 2, 3, 4, 100}), i32({1}, {4})},
                  DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C64>(*out, {3}, {{10, 0}, {-2, 2}, {-2, 0}});
  // Odd length 3: [6, -1.5 + (sqrt(3)/2) i].
  out = runKernel("RFFT", attrs, {f32({3}, {1, 2, 3}), i32({1}, {3})},
                  DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C64>(*out, {2}, {{6, 0}, {-1.5f, std::sqrt(3.0f) / 2}});
  // RFFT2D of [[1, 2], [3, 4]]: the first two columns of the FFT2D.
  out = runKernel("RFFT2D", attrs,
                  {f32({2, 2}, {1, 2, 3, 4}), i32({2}, {2, 2})}, DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectComplex<C64>(*out, {2, 2}, {10, -2, -4, 0});
  // fft_length 0: an empty innermost dimension.
  out = runKernel("RFFT", attrs, {f32({2}, {1, 2}), i32({1}, {0})}, DType::C64);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
}

TEST(IRFFT, InvertsRfftIgnoringImaginaryDcAndNyquist) {
  AttrMap attrs{{"Treal", DType::F32}, {"Tcomplex", DType::C64}};
  // The imaginary parts 5 (DC) and 7 (Nyquist) do not count.
  auto out = runKernel("IRFFT", attrs,
                       {c64({3}, {{10, 5}, {-2, 2}, {-2, 7}}), i32({1}, {4})},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {1, 2, 3, 4});
  // Odd length 3 from [6, -1.5 + 0.866i].
  out = runKernel(
      "IRFFT", attrs,
      {c64({2}, {{6, 0}, {-1.5f, std::sqrt(3.0f) / 2}}), i32({1}, {3})},
      DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {1, 2, 3});
  // 2-D and 3-D: a real signal through RFFTnD and back (double).
  AttrMap attrs64{{"Treal", DType::F64}, {"Tcomplex", DType::C128}};
  std::vector<double> x;
  for (int i = 0; i < 2 * 3 * 4 * 6; ++i)
    x.push_back(std::sin(0.37 * i) + 0.1 * i);
  for (int rank : {2, 3}) {
    std::vector<int32_t> lengths =
        rank == 2 ? std::vector<int32_t>{4, 6} : std::vector<int32_t>{3, 4, 6};
    const std::string suffix = std::to_string(rank) + "D";
    auto spectrum =
        runKernel("RFFT" + suffix, attrs64,
                  {makeTensor<double>({2, 3, 4, 6}, x), i32({rank}, lengths)},
                  DType::C128);
    ASSERT_TRUE(spectrum.ok()) << spectrum.status();
    EXPECT_EQ(spectrum->shape(), TensorShape({2, 3, 4, 4}));
    // The half spectrum is the FFT's first 4 of 6 innermost coefficients.
    std::vector<C128> cx(x.begin(), x.end());
    std::vector<C128> full = naiveDft(cx, {2, 3, 4, 6}, rank, false);
    std::vector<C128> half;
    for (size_t i = 0; i < full.size(); ++i)
      if (i % 6 < 4)
        half.push_back(full[i]);
    expectComplex<C128>(*spectrum, {2, 3, 4, 4}, half, 1e-12);
    auto back = runKernel("IRFFT" + suffix, attrs64,
                          {*spectrum, i32({rank}, lengths)}, DType::F64);
    ASSERT_TRUE(back.ok()) << back.status();
    expectValues<double>(*back, {2, 3, 4, 6}, x);
  }
}

TEST(FFT, Errors) {
  auto out = runKernel("FFT2D", {{"Tcomplex", DType::C64}},
                       {c64({3}, {1, 2, 3})}, DType::C64);
  EXPECT_EQ(
      out.status().message(),
      opError("FFT2D", "Input must have rank of at least 2 but got: [3]"));
  AttrMap attrs{{"Treal", DType::F32}, {"Tcomplex", DType::C64}};
  out = runKernel("RFFT", attrs, {f32({3}, {1, 2, 3}), i32({2}, {3, 3})},
                  DType::C64);
  EXPECT_EQ(out.status().message(),
            opError("RFFT", "fft_length must have shape [1]"));
  out = runKernel("RFFT", attrs, {f32({3}, {1, 2, 3}), i32({1}, {-1})},
                  DType::C64);
  EXPECT_EQ(out.status().message(),
            opError("RFFT", "fft_length[0] must >= 0, but got: -1"));
  out = runKernel("RFFT", attrs, {f32({3}, {1, 2, 3}), i32({1}, {4})},
                  DType::C64);
  EXPECT_EQ(out.status().message(),
            opError("RFFT", "Input dimension 0 must have length of at least 4 "
                            "but got: 3"));
  // IRFFT of length 8 needs 5 coefficients.
  out = runKernel("IRFFT", attrs, {c64({4}, {1, 2, 3, 4}), i32({1}, {8})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("IRFFT", "Input dimension 0 must have length of at least 5 "
                             "but got: 4"));
}

} // namespace

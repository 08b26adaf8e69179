//===- ComputeInF32Test.cpp - f16 / bf16 convolutions, products, sums -----===//
//
// The f16 and bf16 forms of the convolution, matrix-product and reduction
// kernels against reference loops in double written here.
//
// ComputeInF32 (common/ComputeInF32.h): the operands are multiples of 1/4
// with small magnitudes, so every product and partial sum is exact in f32
// and a kernel that rounds once gives exactly the double result rounded to
// the type; a kernel that rounded its partial sums to 16 bits would not
// (Sum of 4096 values shows it). Constant weights run as program constants
// too (the f32 kernel packs them once). Where the CPU has the FP16
// arithmetic (AArch64 with HWCAP_ASIMDHP: qemu -cpu max), the f16 Conv2D
// and MatMul compute in f16 instead (compute/ComputeInF16.h): those tests'
// small sums are exact in f16 too, so they hold on both paths.
//
// HalfKernels: the f16 path itself, where the CPU has it (skipped, saying
// why, elsewhere): a sum that f16 accumulation leaves at 1024 where the f32
// one reaches 1152 shows which path ran, and larger convolutions and
// products stay within the f16 rounding bound of the exact result.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "compute/Gemm.h"

#include <cmath>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// Checks that `actual` holds exactly each of `expected` rounded to T.
template <typename T>
void expectRoundedOnce(const Tensor &actual, const TensorShape &shape,
                       const std::vector<double> &expected) {
  ASSERT_EQ(actual.dtype(), dtypeOf<T>());
  ASSERT_EQ(actual.shape(), shape);
  ASSERT_EQ(static_cast<size_t>(actual.numElements()), expected.size());
  const T *data = actual.data<T>();
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_EQ(toDouble(data[i]),
              toDouble(static_cast<T>(static_cast<float>(expected[i]))))
        << "at " << i << ": exact " << expected[i];
}

/// NHWC SAME convolution (stride 1) or depthwise one (multiplier 1).
std::vector<double> refConv(const std::vector<double> &in,
                            const std::vector<double> &f, int64_t h, int64_t w,
                            int64_t c, int64_t k, int64_t outC,
                            bool depthwise) {
  const int64_t pad = (k - 1) / 2, oc = depthwise ? c : outC;
  std::vector<double> out(h * w * oc, 0.0);
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      for (int64_t o = 0; o < oc; ++o) {
        double sum = 0;
        for (int64_t i = 0; i < k; ++i)
          for (int64_t j = 0; j < k; ++j) {
            const int64_t iy = y + i - pad, ix = x + j - pad;
            if (iy < 0 || iy >= h || ix < 0 || ix >= w)
              continue;
            const double *px = in.data() + (iy * w + ix) * c;
            if (depthwise)
              sum += px[o] * f[(i * k + j) * c + o];
            else
              for (int64_t ch = 0; ch < c; ++ch)
                sum += px[ch] * f[((i * k + j) * c + ch) * outC + o];
          }
        out[(y * w + x) * oc + o] = sum;
      }
  return out;
}

AttrMap convAttrs(DType t) {
  return AttrMap{{"T", t},
                 {"padding", "SAME"},
                 {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                 {"dilations", std::vector<int64_t>{1, 1, 1, 1}}};
}

template <typename T> void checkConv(bool depthwise, bool constantFilter) {
  // 8 input channels: the GEMM path (the direct one takes at most 4).
  const int64_t h = 6, w = 5, c = 8, k = 3, outC = depthwise ? 1 : 12;
  const std::vector<double> in = patternValues(h * w * c, 2, 1);
  const std::vector<double> f = patternValues(k * k * c * outC, 2, 2);
  const std::string op = depthwise ? "DepthwiseConv2dNative" : "Conv2D";
  std::vector<Tensor> inputs = {makeTensorFrom<T>({1, h, w, c}, in),
                                makeTensorFrom<T>({k, k, c, outC}, f)};
  StatusOr<Tensor> out =
      constantFilter
          ? runKernelWithConstants(op, convAttrs(dtypeOf<T>()),
                                   std::move(inputs), 2, dtypeOf<T>())
          : runKernel(op, convAttrs(dtypeOf<T>()), std::move(inputs),
                      dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  expectRoundedOnce<T>(*out, {1, h, w, depthwise ? c : outC},
                       refConv(in, f, h, w, c, k, outC, depthwise));
}

TEST(ComputeInF32, Conv2DHalfAndBFloat16) {
  for (bool constant : {false, true}) {
    SCOPED_TRACE(constant ? "constant filter" : "filter argument");
    checkConv<half>(/*depthwise=*/false, constant);
    checkConv<bf16>(/*depthwise=*/false, constant);
  }
}

TEST(ComputeInF32, DepthwiseConv2dNativeHalfAndBFloat16) {
  for (bool constant : {false, true}) {
    SCOPED_TRACE(constant ? "constant filter" : "filter argument");
    checkConv<half>(/*depthwise=*/true, constant);
    checkConv<bf16>(/*depthwise=*/true, constant);
  }
}

TEST(ComputeInF32, FusedConv2DBiasRelu6) {
  const int64_t h = 4, w = 4, c = 8, k = 3, outC = 16;
  const std::vector<double> in = patternValues(h * w * c, 2, 3);
  const std::vector<double> f = patternValues(k * k * c * outC, 2, 4);
  const std::vector<double> bias = patternValues(outC, 2, 5);
  std::vector<double> expected = refConv(in, f, h, w, c, k, outC, false);
  for (size_t i = 0; i < expected.size(); ++i)
    expected[i] = std::min(std::max(expected[i] + bias[i % outC], 0.0), 6.0);
  AttrMap attrs = convAttrs(DType::F16);
  attrs.set("fused_ops", std::vector<std::string>{"BiasAdd", "Relu6"});
  attrs.set("num_args", int64_t{1});
  attrs.set("epsilon", 0.0f);
  StatusOr<Tensor> out =
      runKernelWithConstants("_FusedConv2D", attrs,
                             {makeTensorFrom<half>({1, h, w, c}, in),
                              makeTensorFrom<half>({k, k, c, outC}, f),
                              makeTensorFrom<half>({outC}, bias)},
                             6, DType::F16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectRoundedOnce<half>(*out, {1, h, w, outC}, expected);
}

template <typename T> void checkMatMul(bool transposeB, bool constantB) {
  const int64_t m = 9, k = 40, n = 33;
  const std::vector<double> a = patternValues(m * k, 2, 6);
  const std::vector<double> b = patternValues(k * n, 2, 7);
  std::vector<double> expected(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        expected[i * n + j] +=
            a[i * k + p] * (transposeB ? b[j * k + p] : b[p * n + j]);
  AttrMap attrs{
      {"T", dtypeOf<T>()}, {"transpose_a", false}, {"transpose_b", transposeB}};
  std::vector<Tensor> inputs = {
      makeTensorFrom<T>({m, k}, a),
      makeTensorFrom<T>(transposeB ? TensorShape{n, k} : TensorShape{k, n}, b)};
  StatusOr<Tensor> out =
      constantB ? runKernelWithConstants("MatMul", attrs, std::move(inputs), 2,
                                         dtypeOf<T>())
                : runKernel("MatMul", attrs, std::move(inputs), dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  expectRoundedOnce<T>(*out, {m, n}, expected);
}

TEST(ComputeInF32, MatMulHalfAndBFloat16) {
  for (bool transposeB : {false, true})
    for (bool constant : {false, true}) {
      SCOPED_TRACE(::testing::Message()
                   << "transpose_b " << transposeB << " constant " << constant);
      checkMatMul<half>(transposeB, constant);
      checkMatMul<bf16>(transposeB, constant);
    }
}

TEST(ComputeInF32, BatchMatMulV2Broadcasts) {
  const int64_t m = 3, k = 5, n = 4;
  const std::vector<double> a = patternValues(2 * m * k, 2, 8);
  const std::vector<double> b = patternValues(k * n, 2, 9);
  std::vector<double> expected(2 * m * n, 0.0);
  for (int64_t batch = 0; batch < 2; ++batch)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t p = 0; p < k; ++p)
          expected[(batch * m + i) * n + j] +=
              a[(batch * m + i) * k + p] * b[p * n + j];
  StatusOr<Tensor> out = runKernel(
      "BatchMatMulV2", {{"T", DType::BF16}, {"adj_x", false}, {"adj_y", false}},
      {makeTensorFrom<bf16>({2, m, k}, a), makeTensorFrom<bf16>({1, k, n}, b)},
      DType::BF16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectRoundedOnce<bf16>(*out, {2, m, n}, expected);
}

TEST(ComputeInF32, SumAccumulatesInF32) {
  // 4096 times f16(0.1): f16 partial sums would stop growing at 256 (where
  // 0.1 is below half an ulp); summed in f32 the result is 409.5 +- f32
  // rounding, which rounds to f16's 409.5.
  const int64_t n = 4096;
  const double tenth = toDouble(static_cast<half>(0.1f));
  Tensor x = makeTensor<half>({n}, std::vector<half>(n, half(0.1f)));
  StatusOr<Tensor> sum = runKernel(
      "Sum", {{"T", DType::F16}, {"Tidx", DType::I32}, {"keep_dims", false}},
      {x, i32({1}, {0})}, DType::F16);
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(toDouble(sum->data<half>()[0]),
            toDouble(static_cast<half>(static_cast<float>(n * tenth))));
  StatusOr<Tensor> mean = runKernel(
      "Mean", {{"T", DType::F16}, {"Tidx", DType::I32}, {"keep_dims", true}},
      {x, i32({}, {0})}, DType::F16);
  ASSERT_TRUE(mean.ok()) << mean.status();
  EXPECT_EQ(mean->shape(), TensorShape({1}));
  EXPECT_EQ(toDouble(mean->data<half>()[0]), tenth);
}

TEST(ComputeInF32, MaxMinProdOverAxes) {
  // [2, 3] reduced over axis 1, with a NaN in row 1 for Max and Min.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> v = {1.5, -2.0, 4.0, 0.25, nan, -8.0};
  for (const char *op : {"Max", "Min", "Prod"}) {
    SCOPED_TRACE(op);
    std::vector<double> expected;
    for (int r = 0; r < 2; ++r) {
      const double *row = v.data() + 3 * r;
      const std::string name = op;
      if (std::isnan(row[0]) || std::isnan(row[1]) || std::isnan(row[2]))
        expected.push_back(nan);
      else if (name == "Max")
        expected.push_back(std::max({row[0], row[1], row[2]}));
      else if (name == "Min")
        expected.push_back(std::min({row[0], row[1], row[2]}));
      else
        expected.push_back(row[0] * row[1] * row[2]);
    }
    StatusOr<Tensor> out = runKernel(
        op, {{"T", DType::BF16}, {"Tidx", DType::I64}, {"keep_dims", false}},
        {makeTensorFrom<bf16>({2, 3}, v), i64({1}, {1})}, DType::BF16);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<bf16>(*out, {2}, expected, 0.0);
  }
}

TEST(ComputeInF32, ErrorsNameTheOp) {
  // 3 input channels against a filter for 4: the f32 kernel's message.
  StatusOr<Tensor> out =
      runKernel("Conv2D", convAttrs(DType::F16),
                {makeTensorFrom<half>({1, 4, 4, 3}, patternValues(48)),
                 makeTensorFrom<half>({3, 3, 4, 2}, patternValues(72))},
                DType::F16);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(out.status().message().find("Conv2D 'loc(test)'"),
            std::string::npos)
      << out.status();
}

//===----------------------------------------------------------------------===//
// The f16 arithmetic (ComputeInF16.h)
//===----------------------------------------------------------------------===//

class HalfKernels : public ::testing::Test {
protected:
  void SetUp() override {
    if (!gemm::halfArithmetic())
      GTEST_SKIP() << "f16 computes in f32 here (no FP16 arithmetic, or "
                      "TFRT_FALLBACK_ISA below neon-fp16)";
  }
};

/// Checks `actual` (f16) against `expected` within (k + 3) f16 roundings of
/// each value's `magnitude` (the sum of its terms' absolute values).
void expectWithinF16Bound(const Tensor &actual, const TensorShape &shape,
                          const std::vector<double> &expected,
                          const std::vector<double> &magnitude, int64_t k) {
  ASSERT_EQ(actual.dtype(), DType::F16);
  ASSERT_EQ(actual.shape(), shape);
  ASSERT_EQ(static_cast<size_t>(actual.numElements()), expected.size());
  const double unit = std::ldexp(1.0, -11);
  int bad = 0;
  for (size_t i = 0; i < expected.size() && bad < 5; ++i) {
    const double got = toDouble(actual.data<half>()[i]);
    if (!(std::abs(got - expected[i]) <= (k + 3) * unit * (magnitude[i] + 1))) {
      ++bad;
      ADD_FAILURE() << "at " << i << ": " << got << ", exact " << expected[i];
    }
  }
}

TEST_F(HalfKernels, Conv2DAndMatMulSumInF16) {
  // 1024, then 511 times 0.25, summed in order: in f16 each 0.25 is half an
  // ulp of 1024 and rounds away (1024); in f32, 1151.75 rounds to 1152.
  const int64_t k = 512;
  std::vector<double> a(k, 0.25), ones(k, 1.0);
  a[0] = 1024;
  StatusOr<Tensor> conv =
      runKernelWithConstants("Conv2D", convAttrs(DType::F16),
                             {makeTensorFrom<half>({1, 1, 1, k}, a),
                              makeTensorFrom<half>({1, 1, k, 1}, ones)},
                             2, DType::F16);
  ASSERT_TRUE(conv.ok()) << conv.status();
  EXPECT_EQ(toDouble(conv->data<half>()[0]), 1024.0);
  StatusOr<Tensor> matmul = runKernel(
      "MatMul",
      {{"T", DType::F16}, {"transpose_a", false}, {"transpose_b", false}},
      {makeTensorFrom<half>({1, k}, a), makeTensorFrom<half>({k, 1}, ones)},
      DType::F16);
  ASSERT_TRUE(matmul.ok()) << matmul.status();
  EXPECT_EQ(toDouble(matmul->data<half>()[0]), 1024.0);
}

TEST_F(HalfKernels, FusedConv2DWithinTheF16Bound) {
  // 360 pixels x 216 taps x 40 channels: many tiles, a partial panel, sums
  // too large for f16 to hold exactly.
  const int64_t h = 20, w = 18, c = 24, k = 3, outC = 40;
  const std::vector<double> in = patternValues(h * w * c, 2, 11);
  const std::vector<double> f = patternValues(k * k * c * outC, 2, 12);
  const std::vector<double> bias = patternValues(outC, 2, 13);
  auto absolute = [](std::vector<double> v) {
    for (double &x : v)
      x = std::abs(x);
    return v;
  };
  std::vector<double> expected = refConv(in, f, h, w, c, k, outC, false);
  std::vector<double> magnitude =
      refConv(absolute(in), absolute(f), h, w, c, k, outC, false);
  for (size_t i = 0; i < expected.size(); ++i) {
    expected[i] = std::max(expected[i] + bias[i % outC], 0.0);
    magnitude[i] += std::abs(bias[i % outC]);
  }
  AttrMap attrs = convAttrs(DType::F16);
  attrs.set("fused_ops", std::vector<std::string>{"BiasAdd", "Relu"});
  attrs.set("num_args", int64_t{1});
  attrs.set("epsilon", 0.0f);
  for (bool constant : {false, true}) {
    SCOPED_TRACE(constant ? "constant filter" : "filter argument");
    std::vector<Tensor> inputs = {makeTensorFrom<half>({1, h, w, c}, in),
                                  makeTensorFrom<half>({k, k, c, outC}, f),
                                  makeTensorFrom<half>({outC}, bias)};
    StatusOr<Tensor> out =
        constant
            ? runKernelWithConstants("_FusedConv2D", attrs, std::move(inputs),
                                     6, DType::F16)
            : runKernel("_FusedConv2D", attrs, std::move(inputs), DType::F16);
    ASSERT_TRUE(out.ok()) << out.status();
    expectWithinF16Bound(*out, {1, h, w, outC}, expected, magnitude, k * k * c);
  }
}

TEST_F(HalfKernels, MatMulTransposedWithinTheF16Bound) {
  const int64_t m = 23, k = 300, n = 37;
  const std::vector<double> a = patternValues(k * m, 2, 14); // [k, m]
  const std::vector<double> b = patternValues(n * k, 2, 15); // [n, k]
  std::vector<double> expected(m * n, 0.0), magnitude(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) {
        expected[i * n + j] += a[p * m + i] * b[j * k + p];
        magnitude[i * n + j] += std::abs(a[p * m + i] * b[j * k + p]);
      }
  for (bool constant : {false, true}) {
    SCOPED_TRACE(constant ? "constant b" : "b argument");
    AttrMap attrs{
        {"T", DType::F16}, {"transpose_a", true}, {"transpose_b", true}};
    std::vector<Tensor> inputs = {makeTensorFrom<half>({k, m}, a),
                                  makeTensorFrom<half>({n, k}, b)};
    StatusOr<Tensor> out =
        constant ? runKernelWithConstants("MatMul", attrs, std::move(inputs), 2,
                                          DType::F16)
                 : runKernel("MatMul", attrs, std::move(inputs), DType::F16);
    ASSERT_TRUE(out.ok()) << out.status();
    expectWithinF16Bound(*out, {m, n}, expected, magnitude, k);
  }
}

TEST_F(HalfKernels, DepthwiseSumsInF16WithinTheBound) {
  // One VALID 3x3 window: 1024 at the first tap, then eight times 0.25,
  // summed in tap order: f16 stays at 1024, f32 reaches 1026.
  {
    const int64_t c = 8;
    std::vector<double> in(9 * c, 0.25), ones(9 * c, 1.0);
    std::fill(in.begin(), in.begin() + c, 1024.0);
    AttrMap attrs = convAttrs(DType::F16);
    attrs.set("padding", "VALID");
    StatusOr<Tensor> out = runKernel("DepthwiseConv2dNative", attrs,
                                     {makeTensorFrom<half>({1, 3, 3, c}, in),
                                      makeTensorFrom<half>({3, 3, c, 1}, ones)},
                                     DType::F16);
    ASSERT_TRUE(out.ok()) << out.status();
    for (int64_t i = 0; i < c; ++i)
      EXPECT_EQ(toDouble(out->data<half>()[i]), 1024.0) << "channel " << i;
  }
  // 24 channels (three vectors of 8) and 20 (pixel pairs fill five), with
  // the fused bias and Relu6 (in the rows' registers), or a residual Add
  // too (applied after them), edges and interior.
  for (bool residual : {false, true})
    for (int64_t c : {24, 20}) {
      SCOPED_TRACE(::testing::Message()
                   << c << " channels" << (residual ? ", residual Add" : ""));
      const int64_t h = 9, w = 10, k = 3;
      const std::vector<double> in = patternValues(h * w * c, 2, 16);
      const std::vector<double> f = patternValues(k * k * c, 2, 17);
      const std::vector<double> bias = patternValues(c, 2, 18);
      const std::vector<double> add = patternValues(h * w * c, 2, 19);
      std::vector<double> expected = refConv(in, f, h, w, c, k, 1, true);
      std::vector<double> magnitude(expected.size(), 0.0);
      for (size_t i = 0; i < expected.size(); ++i) {
        // Every product of two values of [-2, 2) is at most 4 in magnitude.
        magnitude[i] = 4.0 * k * k + 4;
        expected[i] = std::min(
            std::max(expected[i] + bias[i % c] + (residual ? add[i] : 0.0),
                     0.0),
            6.0);
      }
      AttrMap attrs = convAttrs(DType::F16);
      attrs.set("fused_ops",
                residual ? std::vector<std::string>{"BiasAdd", "Add", "Relu6"}
                         : std::vector<std::string>{"BiasAdd", "Relu6"});
      attrs.set("num_args", int64_t{residual ? 2 : 1});
      attrs.set("epsilon", 0.0f);
      std::vector<Tensor> inputs = {makeTensorFrom<half>({1, h, w, c}, in),
                                    makeTensorFrom<half>({k, k, c, 1}, f),
                                    makeTensorFrom<half>({c}, bias)};
      if (residual)
        inputs.push_back(makeTensorFrom<half>({1, h, w, c}, add));
      StatusOr<Tensor> out =
          runKernelWithConstants("_FusedDepthwiseConv2dNative", attrs,
                                 std::move(inputs), 6, DType::F16);
      ASSERT_TRUE(out.ok()) << out.status();
      expectWithinF16Bound(*out, {1, h, w, c}, expected, magnitude, k * k);
    }
}

} // namespace

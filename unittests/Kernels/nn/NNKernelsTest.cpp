//===- NNKernelsTest.cpp - Activation, BiasAdd, Softmax tests ---*- C++ -*-===//
//
// Relu, Relu6, Sigmoid, Tanh, BiasAdd and Softmax against hand-derived
// values and reference loops written here with <cmath>.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

template <typename T>
StatusOr<Tensor> runUnary(const std::string &op, TensorShape shape,
                          const std::vector<double> &values) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<T>(std::move(shape), values));
  return runKernel(op, AttrMap{{"T", dtypeOf<T>()}}, std::move(inputs),
                   dtypeOf<T>());
}

template <typename T>
StatusOr<Tensor>
runBiasAdd(TensorShape valueShape, const std::vector<double> &value,
           TensorShape biasShape, const std::vector<double> &bias,
           const char *format = nullptr) {
  AttrMap attrs{{"T", dtypeOf<T>()}};
  if (format)
    attrs.set("data_format", format);
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<T>(std::move(valueShape), value));
  inputs.push_back(makeTensorFrom<T>(std::move(biasShape), bias));
  return runKernel("BiasAdd", attrs, std::move(inputs), dtypeOf<T>());
}

/// Values rounded to T, as the kernel sees them.
template <typename T> std::vector<double> roundTo(std::vector<double> v) {
  for (double &x : v)
    x = toDouble(static_cast<T>(x));
  return v;
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

TEST(Activations, HandDerived) {
  auto out = runUnary<float>("Relu", {5}, {-2, -0.5, 0, 0.5, 7});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {0, 0, 0, 0.5, 7});
  out = runUnary<float>("Relu6", {5}, {-2, 0, 3, 6, 7.5});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {0, 0, 3, 6, 6});
  out = runUnary<float>("Sigmoid", {3}, {0, 100, -100});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {0.5, 1, 0}, 1e-6);
  out = runUnary<float>("Tanh", {3}, {0, 20, -20});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {0, 1, -1}, 1e-6);
}

template <typename T> class FloatActivationTest : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double, half, bf16>;
TYPED_TEST_SUITE(FloatActivationTest, FloatTypes);

TYPED_TEST(FloatActivationTest, AgainstCMath) {
  using T = TypeParam;
  std::vector<double> x = roundTo<T>(patternValues(999, 9, 5));
  std::vector<double> relu, relu6, sigmoid, tanh;
  for (double v : x) {
    relu.push_back(std::max(v, 0.0));
    relu6.push_back(std::min(std::max(v, 0.0), 6.0));
    sigmoid.push_back(1 / (1 + std::exp(-v)));
    tanh.push_back(std::tanh(v));
  }
  // Eigen's vectorized tanh/logistic are accurate to a few ulp in float;
  // absolute near zero.
  const double approx = std::max(4 * tolerance<T>(), 1e-6);
  auto check = [&](const char *op, const std::vector<double> &expected,
                   double tol) {
    SCOPED_TRACE(op);
    auto out = runUnary<T>(op, {27, 37}, x);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<T>(*out, {27, 37}, expected, tol);
  };
  check("Relu", relu, 0);
  check("Relu6", relu6, 0);
  check("Sigmoid", sigmoid, approx);
  check("Tanh", tanh, approx);
}

template <typename T> class IntReluTest : public ::testing::Test {};
using IntTypes = ::testing::Types<int32_t, int64_t, int8_t>;
TYPED_TEST_SUITE(IntReluTest, IntTypes);

TYPED_TEST(IntReluTest, Relu) {
  using T = TypeParam;
  auto out = runUnary<T>("Relu", {2, 3}, {-100, -1, 0, 1, 5, 127});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, {2, 3}, {0, 0, 0, 1, 5, 127});
}

TEST(Activations, IntegerOnlyWhereRegistered) {
  auto out = runUnary<int32_t>("Sigmoid", {1}, {1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
}

//===----------------------------------------------------------------------===//
// BiasAdd
//===----------------------------------------------------------------------===//

/// Reference: value[i] + bias[channel of i], channel from an explicit
/// multi-index (last dim for NHWC, dim 1 for NCHW).
std::vector<double> refBiasAdd(const std::vector<int64_t> &dims,
                               const std::vector<double> &value,
                               const std::vector<double> &bias, bool nchw) {
  const int rank = static_cast<int>(dims.size());
  const int channelDim = nchw ? 1 : rank - 1;
  std::vector<double> out;
  std::vector<int64_t> idx(rank);
  for (size_t flat = 0; flat < value.size(); ++flat) {
    int64_t rest = static_cast<int64_t>(flat);
    for (int i = rank - 1; i >= 0; --i) {
      idx[i] = rest % dims[i];
      rest /= dims[i];
    }
    out.push_back(value[flat] + bias[idx[channelDim]]);
  }
  return out;
}

TEST(BiasAdd, NHWCHandDerived) {
  auto out = runBiasAdd<float>({2, 3}, {1, 2, 3, 4, 5, 6}, {3}, {10, 20, 30});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {11, 22, 33, 14, 25, 36});
  // Explicit NHWC gives the same.
  out =
      runBiasAdd<float>({2, 3}, {1, 2, 3, 4, 5, 6}, {3}, {10, 20, 30}, "NHWC");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {11, 22, 33, 14, 25, 36});
}

TEST(BiasAdd, NCHWHandDerived) {
  // [N=1, C=2, H=1, W=2]: the bias is per channel, i.e. per dim 1.
  auto out =
      runBiasAdd<float>({1, 2, 1, 2}, {1, 2, 3, 4}, {2}, {10, 20}, "NCHW");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 1, 2}, {11, 12, 23, 24});
  // Rank 2 NCHW: the channel dim is dim 1, the last one.
  out = runBiasAdd<float>({2, 2}, {1, 2, 3, 4}, {2}, {10, 20}, "NCHW");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {11, 22, 13, 24});
}

TEST(BiasAdd, AgainstReference) {
  struct Case {
    std::vector<int64_t> dims;
    const char *format;
  };
  for (const Case &c : std::vector<Case>{{{2, 5, 7, 3}, "NHWC"},
                                         {{2, 3, 5, 7}, "NCHW"},
                                         {{4, 3, 9}, "NCHW"},
                                         {{2, 3, 2, 2, 4}, "NCDHW"},
                                         {{2, 2, 2, 2, 3}, "NDHWC"},
                                         {{700, 13}, "NHWC"},
                                         {{3, 64, 100}, "NCHW"}}) {
    TensorShape shape(absl::MakeConstSpan(c.dims));
    SCOPED_TRACE(shape.toString() + " " + c.format);
    const bool nchw = c.format[1] == 'C';
    const int64_t channels = nchw ? c.dims[1] : c.dims.back();
    std::vector<double> value = patternValues(shape.numElements(), 8, 1);
    std::vector<double> bias = patternValues(channels, 8, 2);
    auto out = runBiasAdd<float>(shape, value, {channels}, bias, c.format);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, shape, refBiasAdd(c.dims, value, bias, nchw));
  }
}

template <typename T> class BiasAddDTypeTest : public ::testing::Test {};
using BiasAddTypes = ::testing::Types<float, double, half, bf16, int32_t>;
TYPED_TEST_SUITE(BiasAddDTypeTest, BiasAddTypes);

TYPED_TEST(BiasAddDTypeTest, BothFormats) {
  using T = TypeParam;
  const std::vector<int64_t> dims = {2, 3, 2, 2};
  std::vector<double> value = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12,
                               13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
  auto out = runBiasAdd<T>({2, 3, 2, 2}, value, {3}, {-1, 2, 5}, "NCHW");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, {2, 3, 2, 2},
                  refBiasAdd(dims, value, {-1, 2, 5}, true));
  out = runBiasAdd<T>({2, 3, 2, 2}, value, {2}, {-1, 2}, "NHWC");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, {2, 3, 2, 2}, refBiasAdd(dims, value, {-1, 2}, false));
}

TEST(BiasAdd, ForwardsValue) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<float>({2, 2}, {1, 2, 3, 4}));
  inputs.push_back(makeTensor<float>({2}, {1, 1}));
  const void *data = inputs[0].rawData();
  auto out = runKernel("BiasAdd", AttrMap{{"T", DType::F32}}, std::move(inputs),
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), data);
  expectValues<float>(*out, {2, 2}, {2, 3, 4, 5});
}

TEST(BiasAdd, EmptyValue) {
  auto out = runBiasAdd<float>({0, 3}, {}, {3}, {1, 2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3}));
  out = runBiasAdd<float>({2, 0, 3}, {}, {0}, {}, "NCHW");
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 0, 3}));
}

TEST(BiasAdd, Errors) {
  auto out = runBiasAdd<float>({3}, {1, 2, 3}, {3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("BiasAdd", "Input tensor must be at least 2D: [3]"));
  out = runBiasAdd<float>({2, 3}, std::vector<double>(6), {1, 3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("BiasAdd", "Biases must be 1D: [1,3]"));
  out = runBiasAdd<float>({2, 3}, std::vector<double>(6), {2}, {1, 2});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("BiasAdd", "Must provide as many biases as the last "
                               "dimension of the input tensor: [2] vs. [2,3]"));
  // NCHW wants dim 1.
  out = runBiasAdd<float>({2, 3, 4}, std::vector<double>(24), {4}, {1, 2, 3, 4},
                          "NCHW");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("BiasAdd", "Must provide as many biases as the last "
                               "dimension of the input tensor: [4] vs. "
                               "[2,3,4]"));
  // Construction-time failure.
  out =
      runBiasAdd<float>({2, 3}, std::vector<double>(6), {3}, {1, 2, 3}, "HWCN");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.status().message(),
            opError("BiasAdd", "Invalid data format 'HWCN'"));
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

/// Reference softmax over the last axis in double, the textbook formula.
std::vector<double> refSoftmax(const std::vector<double> &x, int64_t classes) {
  std::vector<double> out(x.size());
  for (size_t r = 0; r < x.size() / classes; ++r) {
    double sum = 0;
    for (int64_t c = 0; c < classes; ++c)
      sum += std::exp(x[r * classes + c]);
    for (int64_t c = 0; c < classes; ++c)
      out[r * classes + c] = std::exp(x[r * classes + c]) / sum;
  }
  return out;
}

template <typename T>
StatusOr<Tensor> runSoftmax(TensorShape shape,
                            const std::vector<double> &values) {
  return runUnary<T>("Softmax", std::move(shape), values);
}

TEST(Softmax, HandDerived) {
  // softmax([0, ln 2, ln 5]) = [1, 2, 5] / 8.
  auto out = runSoftmax<double>({1, 3}, {0, std::log(2.0), std::log(5.0)});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {1, 3}, {0.125, 0.25, 0.625});
  // Rows are independent; a constant row is uniform.
  out = runSoftmax<double>({2, 2}, {3, 3, 0, std::log(3.0)});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 2}, {0.5, 0.5, 0.25, 0.75});
}

TEST(Softmax, NumericallyStable) {
  // exp(1000) overflows; subtracting the row max keeps it finite.
  auto out = runSoftmax<float>({2}, {1000, 1000 + std::log(3.0)});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {0.25, 0.75}, 1e-4);
  out = runSoftmax<float>({3}, {-1000, -1000, -1000});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-6);
}

template <typename T> class SoftmaxDTypeTest : public ::testing::Test {};
TYPED_TEST_SUITE(SoftmaxDTypeTest, FloatTypes);

TYPED_TEST(SoftmaxDTypeTest, AgainstReference) {
  using T = TypeParam;
  for (const TensorShape &shape :
       {TensorShape{7}, TensorShape{3, 5}, TensorShape{2, 3, 4},
        TensorShape{257, 33}, TensorShape{4, 1}}) {
    SCOPED_TRACE(shape.toString());
    std::vector<double> x =
        roundTo<T>(patternValues(shape.numElements(), 6, 9));
    auto out = runSoftmax<T>(shape, x);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<T>(*out, shape, refSoftmax(x, shape.dim(shape.rank() - 1)),
                    std::max(4 * tolerance<T>(), 1e-6));
  }
}

TEST(Softmax, EmptyAndErrors) {
  auto out = runSoftmax<float>({0, 4}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 4}));
  out = runSoftmax<float>({3, 0}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({3, 0}));
  out = runSoftmax<float>({}, {1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Softmax", "logits must have >= 1 dimension, got []"));
}

} // namespace

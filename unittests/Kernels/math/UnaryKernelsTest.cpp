//===- UnaryKernelsTest.cpp - Unary math and activation tests ---*- C++ -*-===//
//
// The Unary family against std:: math on doubles (an independent
// reference), hand-derived values for rounding and integer edge cases, and
// every registered dtype.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

using Dims = std::vector<int64_t>;
using half = Eigen::half;
using bf16 = Eigen::bfloat16;

template <typename T>
StatusOr<Tensor> runUnary(const std::string &op, const TensorShape &shape,
                          const std::vector<T> &values,
                          AttrMap attrs = AttrMap(),
                          DType outDType = dtypeOf<T>()) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<T>(shape, values));
  if (op != "LogicalNot")
    attrs.set("T", dtypeOf<T>());
  return runKernel(op, attrs, std::move(inputs), outDType);
}

/// Runs `op` on `inputs` (converted to T) and compares with ref applied to
/// the converted inputs in double.
template <typename T>
void checkAgainst(const std::string &op, const std::vector<double> &inputs,
                  const std::function<double(double)> &ref, double tol = -1) {
  SCOPED_TRACE(op);
  std::vector<T> values;
  std::vector<double> expected;
  for (double v : inputs) {
    values.push_back(static_cast<T>(v));
    expected.push_back(ref(toDouble(values.back())));
  }
  const TensorShape shape({static_cast<int64_t>(values.size())});
  auto out = runUnary<T>(op, shape, values);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, shape, expected, tol);
}

const std::vector<double> &mixedInputs() {
  static const std::vector<double> v = {-3.5, -2,  -1.25, -0.5, -0.1, 0,
                                        0.1,  0.5, 1,     1.5,  2.5,  7};
  return v;
}
const std::vector<double> &positiveInputs() {
  static const std::vector<double> v = {0.01, 0.25, 0.5, 1, 2, 3.5, 10, 1000};
  return v;
}

double softplusRef(double x) { return std::log1p(std::exp(x)); }
double eluRef(double x) { return x < 0 ? std::expm1(x) : x; }
double seluRef(double x) {
  return x < 0 ? 1.7580993408473768599402175208123 * std::expm1(x)
               : 1.0507009873554804934193349852946 * x;
}
double signRef(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

TEST(UnaryKernels, MathF32) {
  checkAgainst<float>("Abs", mixedInputs(),
                      [](double x) { return std::abs(x); });
  checkAgainst<float>("Square", mixedInputs(), [](double x) { return x * x; });
  checkAgainst<float>("Sign", mixedInputs(), signRef);
  checkAgainst<float>("Floor", mixedInputs(),
                      [](double x) { return std::floor(x); });
  checkAgainst<float>("Ceil", mixedInputs(),
                      [](double x) { return std::ceil(x); });
  checkAgainst<float>(
      "Sin", mixedInputs(), [](double x) { return std::sin(x); }, 1e-6);
  checkAgainst<float>(
      "Cos", mixedInputs(), [](double x) { return std::cos(x); }, 1e-6);
  checkAgainst<float>(
      "Tan", mixedInputs(), [](double x) { return std::tan(x); }, 1e-5);
  checkAgainst<float>(
      "Atan", mixedInputs(), [](double x) { return std::atan(x); }, 1e-6);
  checkAgainst<float>(
      "Sinh", mixedInputs(), [](double x) { return std::sinh(x); }, 1e-6);
  checkAgainst<float>(
      "Cosh", mixedInputs(), [](double x) { return std::cosh(x); }, 1e-6);
  checkAgainst<float>(
      "Erf", mixedInputs(), [](double x) { return std::erf(x); }, 1e-6);
  checkAgainst<float>(
      "Expm1", mixedInputs(), [](double x) { return std::expm1(x); }, 1e-6);
  checkAgainst<float>("Elu", mixedInputs(), eluRef, 1e-6);
  checkAgainst<float>("Selu", mixedInputs(), seluRef, 1e-6);
  checkAgainst<float>("Softplus", mixedInputs(), softplusRef, 1e-6);
  checkAgainst<float>(
      "Log", positiveInputs(), [](double x) { return std::log(x); }, 1e-6);
  checkAgainst<float>(
      "Log1p", positiveInputs(), [](double x) { return std::log1p(x); }, 1e-6);
  checkAgainst<float>(
      "Sqrt", positiveInputs(), [](double x) { return std::sqrt(x); }, 1e-6);
  checkAgainst<float>(
      "Rsqrt", positiveInputs(), [](double x) { return 1 / std::sqrt(x); },
      1e-6);
  checkAgainst<float>(
      "Reciprocal", mixedInputs(), [](double x) { return 1 / x; }, 1e-6);
  checkAgainst<float>(
      "Inv", positiveInputs(), [](double x) { return 1 / x; }, 1e-6);
  const std::vector<double> unit = {-1, -0.5, 0, 0.3, 1};
  checkAgainst<float>(
      "Asin", unit, [](double x) { return std::asin(x); }, 1e-6);
  checkAgainst<float>(
      "Acos", unit, [](double x) { return std::acos(x); }, 1e-6);
  checkAgainst<float>(
      "Asinh", mixedInputs(), [](double x) { return std::asinh(x); }, 1e-6);
  checkAgainst<double>(
      "Acosh", {1, 1.5, 2, 10, 1e6}, [](double x) { return std::acosh(x); },
      1e-12);
  checkAgainst<float>(
      "Atanh", {-0.99, -0.5, 0, 0.3, 0.9},
      [](double x) { return std::atanh(x); }, 1e-6);
  // Outside the domain: NaN, and +-1 the infinities, as IEEE 754 (and TF).
  checkAgainst<float>("Acosh", {0.5}, [](double x) { return std::acosh(x); });
  checkAgainst<float>("Atanh", {-1, 1, 2},
                      [](double x) { return std::atanh(x); });
}

TEST(UnaryKernels, IEEESpecialValues) {
  const double inf = std::numeric_limits<double>::infinity();
  checkAgainst<float>("Log", {0, -1}, [](double x) { return std::log(x); });
  checkAgainst<float>("Sqrt", {-1, 0}, [](double x) { return std::sqrt(x); });
  checkAgainst<float>("Reciprocal", {0, inf}, [](double x) { return 1 / x; });
  checkAgainst<float>("Sign", {NAN, -inf, inf},
                      [](double x) { return std::isnan(x) ? x : signRef(x); });
  checkAgainst<float>("Abs", {NAN, -inf}, [](double x) { return std::abs(x); });
}

TEST(UnaryKernels, RoundHalfToEven) {
  const std::vector<double> in = {-2.5, -1.5, -0.5, 0.5, 1.5,
                                  2.5,  3.5,  -3.7, 2.2, 0.49};
  const std::vector<double> expected = {-2, -2, -0, 0, 2, 2, 4, -4, 2, 0};
  for (int i = 0; i < 4; ++i) {
    const TensorShape shape({10});
    auto run = [&](auto tag) {
      using T = typename decltype(tag)::Type;
      std::vector<T> values;
      for (double v : in)
        values.push_back(static_cast<T>(v));
      auto out = runUnary<T>("Round", shape, values);
      ASSERT_TRUE(out.ok()) << out.status();
      expectValues<T>(*out, shape, expected);
    };
    if (i == 0)
      run(DTypeTag<float>{});
    else if (i == 1)
      run(DTypeTag<double>{});
    else if (i == 2)
      run(DTypeTag<half>{});
    else
      run(DTypeTag<bf16>{});
  }
  auto out = runUnary<int32_t>("Round", {3}, {-7, 0, 9});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {-7, 0, 9});
}

TEST(UnaryKernels, Integers) {
  const int32_t min32 = std::numeric_limits<int32_t>::min();
  auto out = runUnary<int32_t>("Abs", {4}, {-5, 0, 7, min32});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<int32_t>(*out), (std::vector<int32_t>{5, 0, 7, min32}));
  auto i8 = runUnary<int8_t>("Abs", {2}, {-128, -3});
  ASSERT_TRUE(i8.ok()) << i8.status();
  EXPECT_EQ(valuesOf<int8_t>(*i8), (std::vector<int8_t>{-128, 3}));
  auto i16 = runUnary<int16_t>("Abs", {1}, {-300});
  ASSERT_TRUE(i16.ok()) << i16.status();
  expectValues<int16_t>(*i16, {1}, {300});
  auto i64 = runUnary<int64_t>("Abs", {2}, {-(int64_t(1) << 40), 3});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {2}, {double(int64_t(1) << 40), 3});

  out = runUnary<int32_t>("Square", {3}, {-3, 46341, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  // 46341^2 = 2147488281 wraps to 2147488281 - 2^32.
  expectValues<int32_t>(*out, {3}, {9, 2147488281.0 - 4294967296.0, 0});
  i64 = runUnary<int64_t>("Square", {1}, {-100000});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {1}, {1e10});

  out = runUnary<int32_t>("Sign", {3}, {-9, 0, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {-1, 0, 1});
  i64 = runUnary<int64_t>("Sign", {2}, {-(int64_t(1) << 50), 1});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {2}, {-1, 1});
}

TEST(UnaryKernels, LeakyRelu) {
  const std::vector<double> in = {-2, -0.5, 0, 1.5, NAN};
  // Default alpha 0.2.
  auto out = runUnary<float>("LeakyRelu", {5},
                             std::vector<float>(in.begin(), in.end()));
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {-0.4, -0.1, 0, 1.5, NAN});
  // alpha > 1 and < 0 use the select form, not max(x, alpha * x).
  out = runUnary<float>("LeakyRelu", {5},
                        std::vector<float>(in.begin(), in.end()),
                        AttrMap{{"alpha", 2.0f}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {-4, -1, 0, 1.5, NAN});
  auto h = runUnary<half>("LeakyRelu", {2}, {half(-1), half(3)},
                          AttrMap{{"alpha", -0.5f}});
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {2}, {0.5, 3});
  auto d =
      runUnary<double>("LeakyRelu", {2}, {-10, 10}, AttrMap{{"alpha", 0.01f}});
  ASSERT_TRUE(d.ok()) << d.status();
  expectValues<double>(*d, {2}, {-10 * double(0.01f), 10});
  // A mistyped attribute fails at construction.
  auto bad = runUnary<float>("LeakyRelu", {1}, {1}, AttrMap{{"alpha", "x"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(UnaryKernels, SoftplusExtremes) {
  // Large inputs return x, very negative ones exp(x), no overflow.
  checkAgainst<float>(
      "Softplus", {-100, -20, -15, 15, 20, 100, 1e30},
      [](double x) { return x > 30 ? x : std::log1p(std::exp(x)); }, 1e-6);
  checkAgainst<double>("Softplus", {-800, -40, 40, 800}, [](double x) {
    return x > 40 ? x : std::log1p(std::exp(x));
  });
}

template <typename T> class UnaryFloatTest : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double, half, bf16>;
TYPED_TEST_SUITE(UnaryFloatTest, FloatTypes);

TYPED_TEST(UnaryFloatTest, EveryFloatOp) {
  using T = TypeParam;
  const double tol = std::is_same_v<T, double>  ? 1e-12
                     : std::is_same_v<T, float> ? 1e-6
                                                : 4 * tolerance<T>();
  checkAgainst<T>(
      "Abs", mixedInputs(), [](double x) { return std::abs(x); }, tol);
  checkAgainst<T>("Square", mixedInputs(), [](double x) { return x * x; }, tol);
  checkAgainst<T>("Sign", mixedInputs(), signRef, tol);
  checkAgainst<T>(
      "Floor", mixedInputs(), [](double x) { return std::floor(x); }, tol);
  checkAgainst<T>(
      "Ceil", mixedInputs(), [](double x) { return std::ceil(x); }, tol);
  checkAgainst<T>(
      "Sin", mixedInputs(), [](double x) { return std::sin(x); }, tol);
  checkAgainst<T>(
      "Cos", mixedInputs(), [](double x) { return std::cos(x); }, tol);
  checkAgainst<T>("Elu", mixedInputs(), eluRef, tol);
  checkAgainst<T>("Selu", mixedInputs(), seluRef, tol);
  checkAgainst<T>("Softplus", mixedInputs(), softplusRef, tol);
  checkAgainst<T>(
      "Expm1", mixedInputs(), [](double x) { return std::expm1(x); }, tol);
  checkAgainst<T>(
      "Reciprocal", mixedInputs(), [](double x) { return 1 / x; }, tol);
  checkAgainst<T>("Inv", positiveInputs(), [](double x) { return 1 / x; }, tol);
  checkAgainst<T>(
      "Log", positiveInputs(), [](double x) { return std::log(x); }, tol);
  checkAgainst<T>(
      "Log1p", positiveInputs(), [](double x) { return std::log1p(x); }, tol);
  checkAgainst<T>(
      "Sqrt", positiveInputs(), [](double x) { return std::sqrt(x); }, tol);
  checkAgainst<T>(
      "Rsqrt", positiveInputs(), [](double x) { return 1 / std::sqrt(x); },
      tol);
  checkAgainst<T>(
      "Round", mixedInputs(), [](double x) { return std::nearbyint(x); }, tol);

  // Predicates.
  const std::vector<T> special = {T(1), T(NAN), T(INFINITY), T(-INFINITY),
                                  T(0)};
  struct Pred {
    const char *op;
    std::vector<bool> expected;
  };
  for (const Pred &p :
       std::vector<Pred>{{"IsNan", {false, true, false, false, false}},
                         {"IsInf", {false, false, true, true, false}},
                         {"IsFinite", {true, false, false, false, true}}}) {
    auto out = runUnary<T>(p.op, {5}, special, AttrMap(), DType::Bool);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(valuesOf<bool>(*out), p.expected) << p.op;
  }
}

TEST(UnaryKernels, LargeParallel) {
  const int64_t n = 100003;
  std::vector<double> in = patternValues(n, 8, 3);
  std::vector<float> values(in.begin(), in.end());
  std::vector<double> expected;
  for (double v : in)
    expected.push_back(eluRef(v));
  auto out = runUnary<float>("Elu", {n}, values);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {n}, expected, 1e-6);
}

TEST(UnaryKernels, LogicalNot) {
  auto out = runUnary<bool>("LogicalNot", {2, 2}, {true, false, false, true});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 2}));
  EXPECT_EQ(valuesOf<bool>(*out),
            (std::vector<bool>{false, true, true, false}));
  out = runUnary<bool>("LogicalNot", {0}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->numElements(), 0);
}

TEST(UnaryKernels, ZerosLikeOnesLike) {
  auto f = runUnary<float>("ZerosLike", {2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(f.ok()) << f.status();
  expectValues<float>(*f, {2, 3}, {0, 0, 0, 0, 0, 0});
  f = runUnary<float>("OnesLike", {2}, {NAN, 5});
  ASSERT_TRUE(f.ok()) << f.status();
  expectValues<float>(*f, {2}, {1, 1});
  auto h = runUnary<half>("OnesLike", {}, {half(3)});
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {}, {1});
  auto b = runUnary<bf16>("OnesLike", {1}, {bf16(3)});
  ASSERT_TRUE(b.ok()) << b.status();
  expectValues<bf16>(*b, {1}, {1});
  auto bl = runUnary<bool>("OnesLike", {2}, {false, true});
  ASSERT_TRUE(bl.ok()) << bl.status();
  EXPECT_EQ(valuesOf<bool>(*bl), (std::vector<bool>{true, true}));
  bl = runUnary<bool>("ZerosLike", {2}, {false, true});
  ASSERT_TRUE(bl.ok()) << bl.status();
  EXPECT_EQ(valuesOf<bool>(*bl), (std::vector<bool>{false, false}));
  auto u64 = runUnary<uint64_t>("OnesLike", {2}, {7, 8});
  ASSERT_TRUE(u64.ok()) << u64.status();
  EXPECT_EQ(valuesOf<uint64_t>(*u64), (std::vector<uint64_t>{1, 1}));
  auto i8 = runUnary<int8_t>("ZerosLike", {3}, {1, 2, 3});
  ASSERT_TRUE(i8.ok()) << i8.status();
  EXPECT_EQ(valuesOf<int8_t>(*i8), (std::vector<int8_t>{0, 0, 0}));
  auto empty = runUnary<int32_t>("OnesLike", {0, 4}, {});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({0, 4}));
}

TEST(UnaryKernels, EmptyAndForwarding) {
  auto out = runUnary<float>("Sqrt", {0, 3}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3}));
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<float>({3}, {1, 4, 9}));
  const void *data = inputs[0].rawData();
  auto fwd = runKernel("Sqrt", AttrMap{{"T", DType::F32}}, std::move(inputs),
                       DType::F32);
  ASSERT_TRUE(fwd.ok()) << fwd.status();
  EXPECT_EQ(fwd->rawData(), data);
  expectValues<float>(*fwd, {3}, {1, 2, 3});
}

TEST(UnaryKernels, UnregisteredDType) {
  auto out = runUnary<int32_t>("Sqrt", {1}, {4});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
  out = runUnary<int32_t>("IsNan", {1}, {4}, AttrMap(), DType::Bool);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
}

} // namespace

//===- BinaryKernelsTest.cpp - Elementwise kernel tests ---------*- C++ -*-===//
//
// AddV2, Add, Sub, Mul, RealDiv, Div, Maximum, Minimum, Exp and Neg against
// hand-derived values and an explicit broadcasting index loop written here,
// independent of the kernels' merged-dims evaluation.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// Reference NumPy broadcast: for every output multi-index, the input
/// element at the right-aligned index, 0 along size-1 (or missing) dims.
template <typename T, typename F>
std::vector<double> refBroadcast(const Dims &aDims, const std::vector<T> &a,
                                 const Dims &bDims, const std::vector<T> &b,
                                 const Dims &outDims, F f) {
  std::vector<double> out;
  forEachIndex(outDims, [&](const std::vector<int64_t> &idx) {
    out.push_back(toDouble(static_cast<T>(
        f(a[broadcastOffset(aDims, idx)], b[broadcastOffset(bDims, idx)]))));
  });
  return out;
}

/// Typed pattern data: quarter steps in [-8, 8) for floats, integers in
/// [-8, 8) for signed and [0, 16) for unsigned types. `nonZero` replaces
/// zeros by 1 (for divisors).
template <typename T>
std::vector<T> typedValues(int64_t n, int seed, bool nonZero = false) {
  std::vector<T> out;
  for (double v : patternValues(n, 8, seed)) {
    if constexpr (std::is_integral_v<T>) {
      v = std::floor(v);
      if (std::is_unsigned_v<T>)
        v += 8;
    }
    if (nonZero && v == 0)
      v = 1;
    out.push_back(static_cast<T>(v));
  }
  return out;
}

AttrMap attrsT(DType dtype) { return AttrMap{{"T", dtype}}; }

template <typename T>
StatusOr<Tensor> runBinary(const std::string &op, const Dims &aDims,
                           const std::vector<T> &a, const Dims &bDims,
                           const std::vector<T> &b) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<T>(shapeOf(aDims), a));
  inputs.push_back(makeTensor<T>(shapeOf(bDims), b));
  return runKernel(op, attrsT(dtypeOf<T>()), std::move(inputs), dtypeOf<T>());
}

//===----------------------------------------------------------------------===//
// Hand-derived cases
//===----------------------------------------------------------------------===//

TEST(BinaryKernels, AddSameShape) {
  auto out = runBinary<float>("AddV2", {2, 3}, {1, 2, 3, 4, 5, 6}, {2, 3},
                              {10, 20, 30, 40, 50, 60});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {11, 22, 33, 44, 55, 66});
}

TEST(BinaryKernels, AddRowVector) {
  // [2,3] + [3]: the vector is added to each row.
  auto out =
      runBinary<float>("AddV2", {2, 3}, {1, 2, 3, 4, 5, 6}, {3}, {10, 20, 30});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {11, 22, 33, 14, 25, 36});
}

TEST(BinaryKernels, ColumnTimesRow) {
  // [2,1] * [1,3]: an outer product.
  auto out = runBinary<float>("Mul", {2, 1}, {2, 3}, {1, 3}, {1, 10, 100});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {2, 20, 200, 3, 30, 300});
  // [2,1] - [1,3]: operand order matters.
  out = runBinary<float>("Sub", {2, 1}, {2, 3}, {1, 3}, {1, 10, 100});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {1, -8, -98, 2, -7, -97});
}

TEST(BinaryKernels, ScalarOperands) {
  auto out = runBinary<float>("Sub", {}, {10}, {2, 2}, {1, 2, 3, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {9, 8, 7, 6});
  out = runBinary<float>("Sub", {2, 2}, {1, 2, 3, 4}, {}, {10});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {-9, -8, -7, -6});
  out = runBinary<float>("RealDiv", {}, {1}, {}, {4});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {}, {0.25});
  // A single-element operand of higher rank still broadcasts the shape.
  out = runBinary<float>("AddV2", {1, 1, 1}, {5}, {3}, {1, 2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 3}, {6, 7, 8});
}

TEST(BinaryKernels, MaximumMinimum) {
  auto out = runBinary<float>("Maximum", {4}, {1, -5, 3, 0}, {}, {0});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {1, 0, 3, 0});
  out = runBinary<int32_t>("Minimum", {2, 2}, {1, -5, 3, 9}, {2}, {2, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 2}, {1, -5, 2, 4});
}

TEST(BinaryKernels, MaximumMinimumPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const char *op : {"Maximum", "Minimum"}) {
    auto out =
        runBinary<float>(op, {4}, {nan, 1, nan, 2}, {4}, {1, nan, nan, 3});
    ASSERT_TRUE(out.ok()) << out.status();
    double m = std::string(op) == "Maximum" ? 3 : 2;
    expectValues<float>(*out, {4}, {NAN, NAN, NAN, m});
  }
}

TEST(BinaryKernels, FloatDivision) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const char *op : {"RealDiv", "Div"}) {
    auto out = runBinary<double>(op, {4}, {1, -1, 0, 7}, {4}, {0, 0, 0, 2});
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<double>(*out, {4}, {inf, -inf, NAN, 3.5});
  }
}

TEST(BinaryKernels, IntegerDivTruncatesTowardZero) {
  auto out = runBinary<int32_t>("Div", {6}, {7, -7, 7, -7, 6, 0}, {6},
                                {2, 2, -2, -2, 3, -5});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {6}, {3, -3, -3, 3, 2, 0});

  out = runBinary<int32_t>("Div", {2}, {std::numeric_limits<int32_t>::min(), 9},
                           {2}, {-1, -1});
  ASSERT_TRUE(out.ok()) << out.status();
  // MIN / -1 wraps to MIN instead of being undefined.
  EXPECT_EQ(valuesOf<int32_t>(*out),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -9}));

  auto i64 = runBinary<int64_t>("Div", {3}, {-9, 9, int64_t(1) << 40}, {}, {4});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {3}, {-2, 2, double(int64_t(1) << 38)});

  auto u8 = runBinary<uint8_t>("Div", {2}, {200, 255}, {2}, {7, 16});
  ASSERT_TRUE(u8.ok()) << u8.status();
  expectValues<uint8_t>(*u8, {2}, {28, 15});

  auto i8 = runBinary<int8_t>("Div", {2}, {-128, -7}, {2}, {-1, 2});
  ASSERT_TRUE(i8.ok()) << i8.status();
  expectValues<int8_t>(*i8, {2}, {-128, -3});
}

TEST(BinaryKernels, IntegerDivisionByZero) {
  auto out = runBinary<int32_t>("Div", {3}, {1, 2, 3}, {3}, {1, 0, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.status().message(), opError("Div", "Integer division by zero"));
  // A broadcast zero divisor, and other integer types.
  out = runBinary<int32_t>("Div", {2, 2}, {1, 2, 3, 4}, {}, {0});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), opError("Div", "Integer division by zero"));
  auto i64 = runBinary<int64_t>("Div", {2}, {1, 2}, {2, 1}, {3, 0});
  ASSERT_FALSE(i64.ok());
  EXPECT_EQ(i64.status().message(), opError("Div", "Integer division by zero"));
  auto u8 = runBinary<uint8_t>("Div", {1}, {1}, {1}, {0});
  EXPECT_FALSE(u8.ok());
  // No element is divided when the output is empty, so no error.
  out = runBinary<int32_t>("Div", {0}, {}, {1}, {0});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
}

TEST(BinaryKernels, IncompatibleShapes) {
  auto out = runBinary<float>("AddV2", {2, 3}, std::vector<float>(6), {4},
                              std::vector<float>(4));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.status().message(),
            opError("AddV2", "Incompatible shapes: [2,3] vs. [4]"));
  out = runBinary<float>("Mul", {2, 3}, std::vector<float>(6), {3, 2},
                         std::vector<float>(6));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Mul", "Incompatible shapes: [2,3] vs. [3,2]"));
  // 0 only broadcasts against 1.
  out = runBinary<float>("Sub", {0}, {}, {2}, {1, 2});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Sub", "Incompatible shapes: [0] vs. [2]"));
}

TEST(BinaryKernels, EmptyOutputs) {
  struct Case {
    Dims a, b, out;
  };
  for (const Case &c : std::vector<Case>{{{0, 3}, {3}, {0, 3}},
                                         {{2, 0}, {1}, {2, 0}},
                                         {{1, 0}, {3, 1}, {3, 0}},
                                         {{0}, {}, {0}},
                                         {{4, 1, 2}, {0, 1}, {4, 0, 2}}}) {
    auto out =
        runBinary<float>("AddV2", c.a, std::vector<float>(product(c.a), 1.0f),
                         c.b, std::vector<float>(product(c.b), 2.0f));
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(out->shape(), shapeOf(c.out));
    EXPECT_EQ(out->numElements(), 0);
  }
}

TEST(BinaryKernels, UnregisteredDType) {
  auto out = runBinary<int32_t>("RealDiv", {1}, {1}, {1}, {1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
}

//===----------------------------------------------------------------------===//
// Broadcasting sweep against the reference loop
//===----------------------------------------------------------------------===//

struct ShapeCase {
  Dims a, b, out;
};

const std::vector<ShapeCase> &shapeCases() {
  static const std::vector<ShapeCase> cases = {
      {{2, 3}, {3}, {2, 3}},
      {{3}, {2, 3}, {2, 3}},
      {{2, 1}, {1, 3}, {2, 3}},
      {{}, {2, 2}, {2, 2}},
      {{2, 2}, {}, {2, 2}},
      {{1}, {7}, {7}},
      {{7}, {1}, {7}},
      {{1, 1}, {1}, {1, 1}},
      {{1, 3, 1}, {2, 1, 4}, {2, 3, 4}},
      {{4, 1, 3}, {5, 3}, {4, 5, 3}},
      {{3, 1}, {3, 4}, {3, 4}},
      {{3, 4}, {3, 1}, {3, 4}},
      {{2, 3, 4}, {2, 3, 4}, {2, 3, 4}},
      {{2, 3, 4}, {1, 3, 4}, {2, 3, 4}},
      {{5, 1, 1, 2}, {1, 3, 4, 1}, {5, 3, 4, 2}},
      {{1, 2, 1, 2, 1}, {2, 1, 2, 1, 2}, {2, 2, 2, 2, 2}},
      {{2, 1, 3, 1, 1, 2}, {4, 1, 5, 1, 2}, {2, 4, 3, 5, 1, 2}},
      {{3, 1, 5}, {3, 4, 5}, {3, 4, 5}},
      {{1, 6}, {6, 1, 1}, {6, 1, 6}},
      {{64, 1, 33}, {1, 50, 33}, {64, 50, 33}},
      {{300, 40}, {40}, {300, 40}},
      {{1000, 1}, {1, 7}, {1000, 7}},
      {{4099}, {4099}, {4099}},
      {{4099}, {}, {4099}},
  };
  return cases;
}

template <typename T> void checkSweep(const std::string &op) {
  auto fn = [&](T a, T b) -> T {
    if (op == "AddV2" || op == "Add")
      return a + b;
    if (op == "Sub")
      return a - b;
    if (op == "Mul")
      return a * b;
    if (op == "RealDiv" || op == "Div")
      return a / b;
    if (op == "Maximum")
      return a < b ? b : a;
    return b < a ? b : a; // Minimum
  };
  int seed = 0;
  for (const ShapeCase &c : shapeCases()) {
    SCOPED_TRACE(op + " " + shapeOf(c.a).toString() + " vs. " +
                 shapeOf(c.b).toString());
    const bool div = op == "RealDiv" || op == "Div";
    std::vector<T> a = typedValues<T>(product(c.a), ++seed);
    std::vector<T> b = typedValues<T>(product(c.b), ++seed, div);
    auto out = runBinary<T>(op, c.a, a, c.b, b);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<T>(*out, shapeOf(c.out),
                    refBroadcast<T>(c.a, a, c.b, b, c.out, fn));
  }
}

TEST(BinaryKernels, BroadcastSweepF32) {
  for (const char *op :
       {"AddV2", "Add", "Sub", "Mul", "RealDiv", "Div", "Maximum", "Minimum"})
    checkSweep<float>(op);
}

TEST(BinaryKernels, BroadcastSweepI32) {
  for (const char *op : {"AddV2", "Sub", "Mul", "Div", "Maximum", "Minimum"})
    checkSweep<int32_t>(op);
}

//===----------------------------------------------------------------------===//
// Every registered dtype
//===----------------------------------------------------------------------===//

template <typename T> class BinaryDTypeTest : public ::testing::Test {};
using BinaryTypes = ::testing::Types<float, double, half, bf16, int32_t,
                                     int64_t, int8_t, uint8_t>;
TYPED_TEST_SUITE(BinaryDTypeTest, BinaryTypes);

TYPED_TEST(BinaryDTypeTest, AllOps) {
  using T = TypeParam;
  const Dims aDims = {2, 1, 3}, bDims = {4, 3}, outDims = {2, 4, 3};
  std::vector<T> a = typedValues<T>(product(aDims), 11);
  std::vector<T> b = typedValues<T>(product(bDims), 12, /*nonZero=*/true);
  struct OpCase {
    const char *op;
    std::function<T(T, T)> fn;
  };
  std::vector<OpCase> ops = {
      {"AddV2", [](T x, T y) { return T(x + y); }},
      {"Add", [](T x, T y) { return T(x + y); }},
      {"Sub", [](T x, T y) { return T(x - y); }},
      {"Mul", [](T x, T y) { return T(x * y); }},
      {"Div", [](T x, T y) { return T(x / y); }},
      {"Maximum", [](T x, T y) { return x < y ? y : x; }},
      {"Minimum", [](T x, T y) { return y < x ? y : x; }},
  };
  if constexpr (!std::is_integral_v<T>)
    ops.push_back({"RealDiv", [](T x, T y) { return T(x / y); }});
  for (const OpCase &c : ops) {
    SCOPED_TRACE(c.op);
    auto out = runBinary<T>(c.op, aDims, a, bDims, b);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<T>(*out, shapeOf(outDims),
                    refBroadcast<T>(aDims, a, bDims, b, outDims, c.fn));
    // Same shape and scalar fast paths.
    out = runBinary<T>(c.op, bDims, b, bDims, b);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<T>(*out, shapeOf(bDims),
                    refBroadcast<T>(bDims, b, bDims, b, bDims, c.fn));
    out = runBinary<T>(c.op, {}, {a[0]}, bDims, b);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<T>(*out, shapeOf(bDims),
                    refBroadcast<T>({}, {a[0]}, bDims, b, bDims, c.fn));
  }
}

// f16 rows longer than the chunks AArch64 widens to f32 (BinaryOpKernel.h:
// 256 values) and no multiple of the 4-lane conversions, against each
// value's Eigen::half arithmetic (the float op rounded once): bit for bit,
// same shape, scalar on either side, NaN and infinity included.
TEST(BinaryKernels, HalfRowsBitForBit) {
  const int64_t n = 1001;
  std::vector<half> a(n), b(n);
  for (int64_t i = 0; i < n; ++i) {
    a[i] = half(static_cast<float>((i * 37) % 1999 - 999) / 7.0f);
    b[i] = half(static_cast<float>((i * 53) % 997 + 1) / 13.0f);
  }
  a[5] = half(std::numeric_limits<float>::quiet_NaN());
  a[6] = half(std::numeric_limits<float>::infinity());
  a[7] = half(60000.0f); // sums past f16's range round to infinity
  b[7] = half(60000.0f);
  const std::pair<const char *, std::function<half(half, half)>> ops[] = {
      {"AddV2", [](half x, half y) { return half(x + y); }},
      {"Sub", [](half x, half y) { return half(x - y); }},
      {"Mul", [](half x, half y) { return half(x * y); }},
      {"RealDiv", [](half x, half y) { return half(x / y); }},
  };
  auto expectBits = [](const Tensor &t, const std::vector<half> &want) {
    ASSERT_EQ(t.numElements(), static_cast<int64_t>(want.size()));
    for (size_t i = 0; i < want.size(); ++i)
      ASSERT_EQ(Eigen::numext::bit_cast<uint16_t>(t.data<half>()[i]),
                Eigen::numext::bit_cast<uint16_t>(want[i]))
          << "at " << i << ": " << static_cast<float>(t.data<half>()[i])
          << " vs " << static_cast<float>(want[i]);
  };
  for (const auto &[op, fn] : ops) {
    SCOPED_TRACE(op);
    std::vector<half> same(n), left(n), right(n);
    for (int64_t i = 0; i < n; ++i) {
      same[i] = fn(a[i], b[i]);
      left[i] = fn(a[3], b[i]);
      right[i] = fn(a[i], b[3]);
    }
    auto out = runBinary<half>(op, {n}, a, {n}, b);
    ASSERT_TRUE(out.ok()) << out.status();
    expectBits(*out, same);
    out = runBinary<half>(op, {}, {a[3]}, {n}, b);
    ASSERT_TRUE(out.ok()) << out.status();
    expectBits(*out, left);
    out = runBinary<half>(op, {n}, a, {}, {b[3]});
    ASSERT_TRUE(out.ok()) << out.status();
    expectBits(*out, right);
  }
}

//===----------------------------------------------------------------------===//
// Forwarding
//===----------------------------------------------------------------------===//

TEST(BinaryKernels, ForwardsUniquelyOwnedInput) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}));
  inputs.push_back(makeTensor<float>({3}, {1, 1, 1}));
  const void *data0 = inputs[0].rawData();
  auto out =
      runKernel("AddV2", attrsT(DType::F32), std::move(inputs), DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), data0);
  expectValues<float>(*out, {2, 3}, {2, 3, 4, 5, 6, 7});
}

TEST(BinaryKernels, ForwardsSecondInputWhenFirstIsBroadcast) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<float>({3}, {10, 20, 30}));
  inputs.push_back(makeTensor<float>({2, 3}, {1, 2, 3, 4, 5, 6}));
  const void *data1 = inputs[1].rawData();
  auto out =
      runKernel("Sub", attrsT(DType::F32), std::move(inputs), DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), data1);
  expectValues<float>(*out, {2, 3}, {9, 18, 27, 6, 15, 24});
}

TEST(BinaryKernels, DoesNotForwardSharedBuffers) {
  Tensor a = makeTensor<float>({2}, {1, 2});
  Tensor b = makeTensor<float>({2}, {3, 4});
  std::vector<Tensor> inputs = {a, b};
  auto out = runKernel("Mul", attrsT(DType::F32), inputs, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  // Shared buffers: neither input is uniquely owned.
  EXPECT_NE(out->rawData(), a.rawData());
  EXPECT_NE(out->rawData(), b.rawData());
  expectValues<float>(a, {2}, {1, 2});
  expectValues<float>(*out, {2}, {3, 8});
}

//===----------------------------------------------------------------------===//
// Exp and Neg
//===----------------------------------------------------------------------===//

template <typename T>
StatusOr<Tensor> runUnary(const std::string &op, const Dims &dims,
                          const std::vector<T> &values) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<T>(shapeOf(dims), values));
  return runKernel(op, attrsT(dtypeOf<T>()), std::move(inputs), dtypeOf<T>());
}

template <typename T> class FloatUnaryTest : public ::testing::Test {};
using FloatTypes = ::testing::Types<float, double, half, bf16>;
TYPED_TEST_SUITE(FloatUnaryTest, FloatTypes);

TYPED_TEST(FloatUnaryTest, ExpAndNeg) {
  using T = TypeParam;
  std::vector<T> x = typedValues<T>(1000, 3);
  std::vector<double> expExpected, negExpected;
  for (T v : x) {
    expExpected.push_back(std::exp(toDouble(v)));
    negExpected.push_back(-toDouble(v));
  }
  auto out = runUnary<T>("Exp", {10, 100}, x);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, {10, 100}, expExpected, 4 * tolerance<T>());
  out = runUnary<T>("Neg", {1000}, x);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, {1000}, negExpected, 0);
}

TEST(UnaryKernels, ExpHandDerived) {
  auto out = runUnary<float>("Exp", {3}, {0, 1, -INFINITY});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {1, 2.718281828459045, 0});
}

TEST(UnaryKernels, NegIntegers) {
  auto i32 = runUnary<int32_t>("Neg", {3}, {1, -2, 0});
  ASSERT_TRUE(i32.ok()) << i32.status();
  expectValues<int32_t>(*i32, {3}, {-1, 2, 0});
  auto i64 = runUnary<int64_t>("Neg", {2}, {int64_t(1) << 40, -5});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {2}, {-double(int64_t(1) << 40), 5});
  auto i8 = runUnary<int8_t>("Neg", {2, 1}, {127, -3});
  ASSERT_TRUE(i8.ok()) << i8.status();
  expectValues<int8_t>(*i8, {2, 1}, {-127, 3});
  auto empty = runUnary<int8_t>("Neg", {0, 4}, {});
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({0, 4}));
}

TEST(UnaryKernels, ForwardsInput) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<float>({4}, {1, -2, 3, -4}));
  const void *data = inputs[0].rawData();
  auto out =
      runKernel("Neg", attrsT(DType::F32), std::move(inputs), DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), data);
  expectValues<float>(*out, {4}, {-1, 2, -3, 4});
}

} // namespace

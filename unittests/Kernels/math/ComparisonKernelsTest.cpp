//===- ComparisonKernelsTest.cpp - Comparison and logical tests -*- C++ -*-===//
//
// Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual, LogicalAnd and
// LogicalOr against hand-derived values and an explicit broadcasting loop
// written here.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <functional>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

template <typename T>
StatusOr<Tensor> runCompare(const std::string &op, const Dims &aDims,
                            const std::vector<T> &a, const Dims &bDims,
                            const std::vector<T> &b,
                            AttrMap attrs = AttrMap()) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<T>(shapeOf(aDims), a));
  inputs.push_back(makeTensor<T>(shapeOf(bDims), b));
  if (op != "LogicalAnd" && op != "LogicalOr")
    attrs.set("T", dtypeOf<T>());
  return runKernel(op, attrs, std::move(inputs), DType::Bool);
}

std::vector<bool> boolsOf(const Tensor &t) {
  EXPECT_EQ(t.dtype(), DType::Bool);
  return valuesOf<bool>(t);
}

/// Reference: op over the right-aligned broadcast of a and b.
template <typename T>
std::vector<bool> refCompare(const Dims &aDims, const std::vector<T> &a,
                             const Dims &bDims, const std::vector<T> &b,
                             const Dims &outDims,
                             const std::function<bool(T, T)> &f) {
  std::vector<bool> out;
  forEachIndex(outDims, [&](const std::vector<int64_t> &idx) {
    out.push_back(
        f(a[broadcastOffset(aDims, idx)], b[broadcastOffset(bDims, idx)]));
  });
  return out;
}

TEST(ComparisonKernels, HandDerived) {
  const std::vector<float> a = {1, 2, 3}, b = {2, 2, 2};
  struct Case {
    const char *op;
    std::vector<bool> expected;
  };
  for (const Case &c :
       std::vector<Case>{{"Equal", {false, true, false}},
                         {"NotEqual", {true, false, true}},
                         {"Less", {true, false, false}},
                         {"LessEqual", {true, true, false}},
                         {"Greater", {false, false, true}},
                         {"GreaterEqual", {false, true, true}}}) {
    auto out = runCompare<float>(c.op, {3}, a, {3}, b);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(out->shape(), TensorShape({3}));
    EXPECT_EQ(boolsOf(*out), c.expected) << c.op;
    // Scalar right operand.
    out = runCompare<float>(c.op, {3}, a, {}, {2});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(boolsOf(*out), c.expected) << c.op;
  }
}

TEST(ComparisonKernels, NaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const char *op :
       {"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"}) {
    auto out = runCompare<float>(op, {2}, {nan, nan}, {2}, {nan, 1});
    ASSERT_TRUE(out.ok()) << out.status();
    const bool expected = std::string(op) == "NotEqual";
    EXPECT_EQ(boolsOf(*out), (std::vector<bool>{expected, expected})) << op;
  }
}

TEST(ComparisonKernels, BroadcastSweep) {
  struct Case {
    Dims a, b, out;
  };
  const std::vector<Case> cases = {
      {{2, 3}, {3}, {2, 3}},
      {{2, 1}, {1, 3}, {2, 3}},
      {{}, {4}, {4}},
      {{4, 1, 3}, {5, 3}, {4, 5, 3}},
      {{1, 3, 1}, {2, 1, 4}, {2, 3, 4}},
      {{300, 40}, {300, 1}, {300, 40}},
      {{0, 3}, {3}, {0, 3}},
  };
  const std::vector<
      std::pair<const char *, std::function<bool(int32_t, int32_t)>>>
      ops = {{"Equal", [](int32_t x, int32_t y) { return x == y; }},
             {"NotEqual", [](int32_t x, int32_t y) { return x != y; }},
             {"Less", [](int32_t x, int32_t y) { return x < y; }},
             {"LessEqual", [](int32_t x, int32_t y) { return x <= y; }},
             {"Greater", [](int32_t x, int32_t y) { return x > y; }},
             {"GreaterEqual", [](int32_t x, int32_t y) { return x >= y; }}};
  int seed = 0;
  for (const Case &c : cases) {
    std::vector<int32_t> a, b;
    for (double v : patternValues(product(c.a), 2, ++seed))
      a.push_back(static_cast<int32_t>(std::floor(v)));
    for (double v : patternValues(product(c.b), 2, ++seed))
      b.push_back(static_cast<int32_t>(std::floor(v)));
    for (const auto &[op, fn] : ops) {
      SCOPED_TRACE(std::string(op) + " " + shapeOf(c.out).toString());
      auto out = runCompare<int32_t>(op, c.a, a, c.b, b);
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_EQ(out->shape(), shapeOf(c.out));
      EXPECT_EQ(boolsOf(*out), refCompare<int32_t>(c.a, a, c.b, b, c.out, fn));
    }
  }
}

template <typename T> class ComparisonDTypeTest : public ::testing::Test {};
using ComparisonTypes = ::testing::Types<float, double, half, bf16, int32_t,
                                         int64_t, int8_t, uint8_t>;
TYPED_TEST_SUITE(ComparisonDTypeTest, ComparisonTypes);

TYPED_TEST(ComparisonDTypeTest, AllOps) {
  using T = TypeParam;
  const std::vector<T> a = {T(1), T(5), T(3), T(0)};
  const std::vector<T> b = {T(3)};
  auto check = [&](const char *op, std::vector<bool> expected) {
    auto out = runCompare<T>(op, {2, 2}, a, {1}, b);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(out->shape(), TensorShape({2, 2}));
    EXPECT_EQ(boolsOf(*out), expected) << op;
  };
  check("Equal", {false, false, true, false});
  check("NotEqual", {true, true, false, true});
  check("Less", {true, false, false, true});
  check("LessEqual", {true, false, true, true});
  check("Greater", {false, true, false, false});
  check("GreaterEqual", {false, true, true, false});
}

TEST(ComparisonKernels, EqualBool) {
  auto out = runCompare<bool>("Equal", {4}, {true, true, false, false}, {4},
                              {true, false, true, false});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(boolsOf(*out), (std::vector<bool>{true, false, false, true}));
  out = runCompare<bool>("NotEqual", {2}, {true, false}, {}, {true});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(boolsOf(*out), (std::vector<bool>{false, true}));
  // Less has no bool kernel, as in TF.
  out = runCompare<bool>("Less", {1}, {true}, {1}, {false});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
}

TEST(ComparisonKernels, IncompatibleShapes) {
  auto out = runCompare<float>("Less", {2}, {1, 2}, {3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Less", "Incompatible shapes: [2] vs. [3]"));
  out = runCompare<float>("Equal", {2}, {1, 2}, {3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Equal", "Incompatible shapes: [2] vs. [3]"));
  // incompatible_shape_error = false: a scalar false / true.
  AttrMap lenient{{"incompatible_shape_error", false}};
  out = runCompare<float>("Equal", {2}, {1, 2}, {3}, {1, 2, 3}, lenient);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape());
  EXPECT_EQ(boolsOf(*out), (std::vector<bool>{false}));
  out = runCompare<int32_t>("NotEqual", {2, 2}, {1, 2, 3, 4}, {3}, {1, 2, 3},
                            lenient);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape());
  EXPECT_EQ(boolsOf(*out), (std::vector<bool>{true}));
  // Compatible shapes are compared normally in that mode.
  out = runCompare<float>("Equal", {2}, {1, 2}, {}, {2}, lenient);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(boolsOf(*out), (std::vector<bool>{false, true}));
}

TEST(ComparisonKernels, Logical) {
  const std::vector<bool> a = {true, true, false, false};
  const std::vector<bool> b = {true, false, true, false};
  auto out = runCompare<bool>("LogicalAnd", {4}, a, {4}, b);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(boolsOf(*out), (std::vector<bool>{true, false, false, false}));
  out = runCompare<bool>("LogicalOr", {4}, a, {4}, b);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(boolsOf(*out), (std::vector<bool>{true, true, true, false}));
  // Broadcasting: [2,1] and [2].
  out =
      runCompare<bool>("LogicalAnd", {2, 1}, {true, false}, {2}, {true, false});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 2}));
  EXPECT_EQ(boolsOf(*out), (std::vector<bool>{true, false, false, false}));
  out = runCompare<bool>("LogicalOr", {}, {false}, {0}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
  out = runCompare<bool>("LogicalOr", {2}, {true, false}, {3},
                         {true, false, true});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("LogicalOr", "Incompatible shapes: [2] vs. [3]"));
}

} // namespace

//===- BinaryExtraKernelsTest.cpp - FloorDiv, Pow, Select, AddN -*- C++ -*-===//
//
// FloorDiv, FloorMod, SquaredDifference, Pow, Atan2, Select, SelectV2 and
// AddN against hand-derived values (Python's // and % for the floor ops) and
// an explicit multi-index broadcasting loop written here.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

template <typename T>
StatusOr<Tensor> runBinary(const std::string &op, const Dims &aDims,
                           const std::vector<T> &a, const Dims &bDims,
                           const std::vector<T> &b) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<T>(shapeOf(aDims), a));
  inputs.push_back(makeTensor<T>(shapeOf(bDims), b));
  return runKernel(op, AttrMap{{"T", dtypeOf<T>()}}, std::move(inputs),
                   dtypeOf<T>());
}

//===----------------------------------------------------------------------===//
// FloorDiv, FloorMod
//===----------------------------------------------------------------------===//

TEST(BinaryExtraKernels, FloorDivIntegers) {
  // Python: 7//2=3, -7//2=-4, 7//-2=-4, -7//-2=3, 6//3=2, 0//-5=0, -1//3=-1.
  auto out = runBinary<int32_t>("FloorDiv", {7}, {7, -7, 7, -7, 6, 0, -1}, {7},
                                {2, 2, -2, -2, 3, -5, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {7}, {3, -4, -4, 3, 2, 0, -1});
  auto i64 = runBinary<int64_t>("FloorDiv", {3}, {-9, 9, -8}, {}, {4});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {3}, {-3, 2, -2});
  auto u8 = runBinary<uint8_t>("FloorDiv", {2}, {200, 7}, {2}, {7, 2});
  ASSERT_TRUE(u8.ok()) << u8.status();
  expectValues<uint8_t>(*u8, {2}, {28, 3});
  auto i8 = runBinary<int8_t>("FloorDiv", {2}, {-128, -7}, {2}, {-1, 2});
  ASSERT_TRUE(i8.ok()) << i8.status();
  expectValues<int8_t>(*i8, {2}, {-128, -4}); // MIN // -1 wraps.
  auto i16 = runBinary<int16_t>("FloorDiv", {1}, {-300}, {1}, {7});
  ASSERT_TRUE(i16.ok()) << i16.status();
  expectValues<int16_t>(*i16, {1}, {-43});
}

TEST(BinaryExtraKernels, FloorDivFloats) {
  const double inf = std::numeric_limits<double>::infinity();
  auto out = runBinary<float>("FloorDiv", {6}, {7, -7, 7.5, -0.5, 1, 0}, {6},
                              {2, 2, -2, 4, 0, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {6}, {3, -4, -4, -1, inf, NAN});
  auto h = runBinary<half>("FloorDiv", {2}, {half(-7), half(9)}, {}, {half(2)});
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {2}, {-4, 4});
}

TEST(BinaryExtraKernels, FloorModIntegers) {
  // Python: 7%2=1, -7%2=1, 7%-2=-1, -7%-2=-1, 6%3=0, 0%-5=0.
  auto out = runBinary<int32_t>("FloorMod", {6}, {7, -7, 7, -7, 6, 0}, {6},
                                {2, 2, -2, -2, 3, -5});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {6}, {1, 1, -1, -1, 0, 0});
  auto i64 = runBinary<int64_t>("FloorMod", {2}, {-9, INT64_MIN}, {2}, {4, -1});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {2}, {3, 0});
  auto u16 = runBinary<uint16_t>("FloorMod", {1}, {65535}, {1}, {10});
  ASSERT_TRUE(u16.ok()) << u16.status();
  expectValues<uint16_t>(*u16, {1}, {5});
}

TEST(BinaryExtraKernels, FloorModFloats) {
  auto out = runBinary<double>("FloorMod", {5}, {7.5, -7.5, 7.5, -7.5, 1}, {5},
                               {2, 2, -2, -2, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {5}, {1.5, 0.5, -0.5, -1.5, NAN});
  auto b = runBinary<bf16>("FloorMod", {1}, {bf16(-3)}, {1}, {bf16(2)});
  ASSERT_TRUE(b.ok()) << b.status();
  expectValues<bf16>(*b, {1}, {1});
}

TEST(BinaryExtraKernels, IntegerDivisionByZero) {
  for (const char *op : {"FloorDiv", "FloorMod"}) {
    auto out = runBinary<int32_t>(op, {2, 2}, {1, 2, 3, 4}, {2}, {1, 0});
    ASSERT_FALSE(out.ok()) << op;
    EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(out.status().message(), opError(op, "Integer division by zero"));
    // Nothing is divided when the output is empty.
    out = runBinary<int32_t>(op, {0}, {}, {}, {0});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(out->numElements(), 0);
  }
}

//===----------------------------------------------------------------------===//
// SquaredDifference, Pow, Atan2
//===----------------------------------------------------------------------===//

TEST(BinaryExtraKernels, SquaredDifference) {
  auto out =
      runBinary<float>("SquaredDifference", {2, 2}, {1, 2, 3, 4}, {2}, {3, -1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {4, 9, 0, 25});
  auto i32 = runBinary<int32_t>("SquaredDifference", {3}, {1, -5, 7}, {}, {2});
  ASSERT_TRUE(i32.ok()) << i32.status();
  expectValues<int32_t>(*i32, {3}, {1, 49, 25});
}

TEST(BinaryExtraKernels, PowFloats) {
  auto out = runBinary<float>("Pow", {5}, {2, 4, -2, 0, 9}, {5},
                              {10, 0.5, 3, 0, -0.5});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {1024, 2, -8, 1, 1.0 / 3});
  out = runBinary<float>("Pow", {1}, {-8}, {1}, {1.0f / 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1}, {NAN});
  auto d = runBinary<double>("Pow", {2}, {1.5, 10}, {}, {2});
  ASSERT_TRUE(d.ok()) << d.status();
  expectValues<double>(*d, {2}, {2.25, 100});
}

TEST(BinaryExtraKernels, PowIntegers) {
  auto out =
      runBinary<int32_t>("Pow", {5}, {2, -3, 0, 7, 3}, {5}, {10, 3, 0, 1, 21});
  ASSERT_TRUE(out.ok()) << out.status();
  // 3^21 = 10460353203 wraps to 10460353203 - 2 * 2^32 = 1870418611.
  expectValues<int32_t>(*out, {5}, {1024, -27, 1, 7, 1870418611});
  auto i64 = runBinary<int64_t>("Pow", {2}, {-2, 3}, {}, {5});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {2}, {-32, 243});
  out = runBinary<int32_t>("Pow", {2}, {2, 2}, {2}, {1, -1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Pow", "Integers to negative integer powers are not "
                           "allowed"));
}

TEST(BinaryExtraKernels, Atan2) {
  const double pi = 3.14159265358979323846;
  auto out =
      runBinary<float>("Atan2", {5}, {1, 1, -1, 0, 0}, {5}, {1, -1, -1, 1, -1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {pi / 4, 3 * pi / 4, -3 * pi / 4, 0, pi});
  auto h = runBinary<half>("Atan2", {1}, {half(1)}, {1}, {half(0)});
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {1}, {pi / 2});
}

TEST(BinaryExtraKernels, BroadcastSweep) {
  struct Case {
    Dims a, b, out;
  };
  const std::vector<Case> cases = {{{2, 3}, {3}, {2, 3}},
                                   {{2, 1}, {1, 3}, {2, 3}},
                                   {{4, 1, 3}, {5, 3}, {4, 5, 3}},
                                   {{5, 1, 1, 2}, {1, 3, 4, 1}, {5, 3, 4, 2}},
                                   {{300, 40}, {40}, {300, 40}},
                                   {{}, {7}, {7}}};
  int seed = 0;
  for (const Case &c : cases) {
    std::vector<double> av = patternValues(product(c.a), 8, ++seed);
    std::vector<double> bv = patternValues(product(c.b), 8, ++seed);
    std::vector<int32_t> ai, bi;
    for (double v : av)
      ai.push_back(static_cast<int32_t>(std::floor(v * 4)));
    for (double v : bv)
      bi.push_back(static_cast<int32_t>(std::floor(v * 4)) | 1); // Non-zero.
    std::vector<double> floorDiv, floorMod;
    forEachIndex(c.out, [&](const std::vector<int64_t> &idx) {
      const int64_t x = ai[broadcastOffset(c.a, idx)];
      const int64_t y = bi[broadcastOffset(c.b, idx)];
      const double q = std::floor(static_cast<double>(x) / y);
      floorDiv.push_back(q);
      floorMod.push_back(static_cast<double>(x) - q * y);
    });
    auto out = runBinary<int32_t>("FloorDiv", c.a, ai, c.b, bi);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<int32_t>(*out, shapeOf(c.out), floorDiv);
    out = runBinary<int32_t>("FloorMod", c.a, ai, c.b, bi);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<int32_t>(*out, shapeOf(c.out), floorMod);
  }
}

//===----------------------------------------------------------------------===//
// Select, SelectV2
//===----------------------------------------------------------------------===//

template <typename T>
StatusOr<Tensor> runSelect(const std::string &op, const Dims &cDims,
                           const std::vector<bool> &c, const Dims &tDims,
                           const std::vector<T> &t, const Dims &eDims,
                           const std::vector<T> &e) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<bool>(shapeOf(cDims), c));
  inputs.push_back(makeTensor<T>(shapeOf(tDims), t));
  inputs.push_back(makeTensor<T>(shapeOf(eDims), e));
  return runKernel(op, AttrMap{{"T", dtypeOf<T>()}}, std::move(inputs),
                   dtypeOf<T>());
}

TEST(BinaryExtraKernels, SelectElementwise) {
  auto out = runSelect<float>("Select", {2, 2}, {true, false, false, true},
                              {2, 2}, {1, 2, 3, 4}, {2, 2}, {10, 20, 30, 40});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {1, 20, 30, 4});
  // Vector condition with vector then/else: elementwise too.
  auto i64 = runSelect<int64_t>("Select", {3}, {false, true, false}, {3},
                                {1, 2, 3}, {3}, {-1, -2, -3});
  ASSERT_TRUE(i64.ok()) << i64.status();
  expectValues<int64_t>(*i64, {3}, {-1, 2, -3});
}

TEST(BinaryExtraKernels, SelectScalarAndBatch) {
  auto out = runSelect<int32_t>("Select", {}, {false}, {2, 2}, {1, 2, 3, 4},
                                {2, 2}, {5, 6, 7, 8});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 2}, {5, 6, 7, 8});
  // A vector condition picks rows (dim 0 slices).
  out =
      runSelect<int32_t>("Select", {3}, {true, false, true}, {3, 2},
                         {1, 2, 3, 4, 5, 6}, {3, 2}, {-1, -2, -3, -4, -5, -6});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3, 2}, {1, 2, -3, -4, 5, 6});
  auto h = runSelect<half>("Select", {2}, {false, true}, {2, 1, 2},
                           {half(1), half(2), half(3), half(4)}, {2, 1, 2},
                           {half(5), half(6), half(7), half(8)});
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {2, 1, 2}, {5, 6, 3, 4});
}

TEST(BinaryExtraKernels, SelectErrors) {
  auto out =
      runSelect<float>("Select", {}, {true}, {2}, {1, 2}, {3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Select", "'then' and 'else' must have the same size.  "
                              "but received: [2] vs. [3]"));
  out = runSelect<float>("Select", {3}, {true, true, false}, {2, 2},
                         {1, 2, 3, 4}, {2, 2}, {1, 2, 3, 4});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Select", "Number of batches of 'then' must match size of "
                              "'cond', but saw: 2 vs. 3"));
  out = runSelect<float>("Select", {2}, {true, false}, {}, {1}, {}, {2});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Select", "'then' must be at least a vector, but saw "
                              "shape: []"));
  out = runSelect<float>("Select", {2, 1}, {true, false}, {2, 2}, {1, 2, 3, 4},
                         {2, 2}, {1, 2, 3, 4});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Select", "Inputs must have the same size and shape.  "
                              "Input 0: [2,1] != input 1: [2,2]"));
  out = runSelect<float>("SelectV2", {3}, {true, true, false}, {2}, {1, 2}, {2},
                         {1, 2});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("SelectV2", "condition [3] and then/else [2] shapes are "
                                "incompatible"));
  out = runSelect<float>("SelectV2", {}, {true}, {2}, {1, 2}, {3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("SelectV2", "then and else shapes are incompatible: [2] "
                                "vs. [3]"));
}

TEST(BinaryExtraKernels, SelectV2BroadcastSweep) {
  struct Case {
    Dims c, t, e, out;
  };
  const std::vector<Case> cases = {
      {{}, {2, 3}, {2, 3}, {2, 3}},
      {{2, 3}, {}, {}, {2, 3}},
      {{3}, {2, 3}, {1}, {2, 3}},
      {{2, 1}, {1, 3}, {3}, {2, 3}},
      {{4, 1, 1}, {1, 5, 1}, {1, 1, 6}, {4, 5, 6}},
      {{1, 3, 1, 2}, {2, 1, 4, 1}, {4, 2}, {2, 3, 4, 2}},
      {{64, 1}, {64, 33}, {1, 33}, {64, 33}},
      {{0, 3}, {3}, {1, 3}, {0, 3}},
      {{1}, {1}, {1}, {1}},
  };
  int seed = 0;
  for (const Case &k : cases) {
    SCOPED_TRACE(shapeOf(k.out).toString());
    std::vector<bool> c;
    for (double v : patternValues(product(k.c), 8, ++seed))
      c.push_back(v > 0);
    std::vector<double> tv = patternValues(product(k.t), 8, ++seed);
    std::vector<double> ev = patternValues(product(k.e), 8, ++seed);
    std::vector<float> t(tv.begin(), tv.end()), e(ev.begin(), ev.end());
    std::vector<double> expected;
    forEachIndex(k.out, [&](const std::vector<int64_t> &idx) {
      expected.push_back(c[broadcastOffset(k.c, idx)]
                             ? t[broadcastOffset(k.t, idx)]
                             : e[broadcastOffset(k.e, idx)]);
    });
    auto out = runSelect<float>("SelectV2", k.c, c, k.t, t, k.e, e);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, shapeOf(k.out), expected);
  }
}

TEST(BinaryExtraKernels, SelectV2EveryElementSize) {
  auto b = runSelect<bool>("SelectV2", {2}, {true, false}, {}, {true}, {2},
                           {false, true});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(valuesOf<bool>(*b), (std::vector<bool>{true, true}));
  auto u16 =
      runSelect<uint16_t>("SelectV2", {2}, {true, false}, {2}, {1, 2}, {}, {9});
  ASSERT_TRUE(u16.ok()) << u16.status();
  expectValues<uint16_t>(*u16, {2}, {1, 9});
  auto d = runSelect<double>("SelectV2", {2, 1}, {false, true}, {2}, {1, 2}, {},
                             {9});
  ASSERT_TRUE(d.ok()) << d.status();
  expectValues<double>(*d, {2, 2}, {9, 9, 1, 2});
  auto u8 = runSelect<uint8_t>("Select", {2}, {false, true}, {2}, {1, 2}, {2},
                               {3, 4});
  ASSERT_TRUE(u8.ok()) << u8.status();
  expectValues<uint8_t>(*u8, {2}, {3, 2});
}

//===----------------------------------------------------------------------===//
// AddN
//===----------------------------------------------------------------------===//

template <typename T>
StatusOr<Tensor> runAddN(const Dims &dims,
                         const std::vector<std::vector<T>> &values) {
  std::vector<Tensor> inputs;
  for (const std::vector<T> &v : values)
    inputs.push_back(makeTensor<T>(shapeOf(dims), v));
  return runKernel(
      "AddN",
      AttrMap{{"T", dtypeOf<T>()}, {"N", static_cast<int64_t>(values.size())}},
      std::move(inputs), dtypeOf<T>());
}

TEST(BinaryExtraKernels, AddN) {
  auto out = runAddN<float>(
      {2, 2}, {{1, 2, 3, 4}, {10, 20, 30, 40}, {100, 200, 300, 400}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {111, 222, 333, 444});
  out = runAddN<float>({3}, {{1, 2, 3}});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {1, 2, 3});
  auto i32 = runAddN<int32_t>({}, {{1}, {2}});
  ASSERT_TRUE(i32.ok()) << i32.status();
  expectValues<int32_t>(*i32, {}, {3});
  auto i64 = runAddN<int64_t>({0, 2}, {{}, {}, {}});
  ASSERT_TRUE(i64.ok()) << i64.status();
  EXPECT_EQ(i64->shape(), TensorShape({0, 2}));
  auto h = runAddN<half>({2}, {{half(1), half(2)}, {half(0.5), half(-2)}});
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {2}, {1.5, 0});

  // Many inputs over a large tensor (parallel chunks).
  const int64_t n = 10007;
  std::vector<std::vector<double>> values;
  std::vector<double> expected(n, 0);
  for (int k = 0; k < 9; ++k) {
    values.push_back(patternValues(n, 8, k + 1));
    for (int64_t i = 0; i < n; ++i)
      expected[i] += values.back()[i];
  }
  std::vector<std::vector<double>> copy = values;
  auto big = runAddN<double>({n}, copy);
  ASSERT_TRUE(big.ok()) << big.status();
  expectValues<double>(*big, {n}, expected);
}

TEST(BinaryExtraKernels, AddNShapeMismatch) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<float>({2}, {1, 2}));
  inputs.push_back(makeTensor<float>({3}, {1, 2, 3}));
  auto out = runKernel("AddN", AttrMap{{"T", DType::F32}, {"N", int64_t(2)}},
                       std::move(inputs), DType::F32);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("AddN", "Inputs must have the same size and shape.  "
                            "Input 0: [2] != input 1: [3]"));
}

} // namespace

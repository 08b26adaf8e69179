//===- MathKernelsTest.cpp - Scans, bit ops, segments -----------*- C++ -*-===//
//
// The math family (MathKernels.cpp) through the executor: Cumsum, Cumprod
// and CumulativeLogsumexp (every exclusive/reverse combination and axis,
// against hand-derived values and a naive scan loop written here), Erfc,
// Xlogy, Xlog1py, DivNoNan, MulNoNan, the bitwise ops and shifts,
// PopulationCount, Bucketize, LinSpace, ApproximateEqual and the segment
// reductions, with TF's error messages.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <cstdint>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

const double kInf = std::numeric_limits<double>::infinity();

AttrMap scanAttrs(DType t, bool exclusive, bool reverse) {
  return AttrMap{{"T", t}, {"exclusive", exclusive}, {"reverse", reverse}};
}

template <typename T>
StatusOr<Tensor> runScan(const std::string &op, const Dims &dims,
                         const std::vector<double> &x, int64_t axis,
                         bool exclusive = false, bool reverse = false,
                         bool axisI64 = false) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<T>(shapeOf(dims), x));
  inputs.push_back(axisI64 ? i64({}, {axis})
                           : i32({}, {static_cast<int32_t>(axis)}));
  return runKernel(op, scanAttrs(dtypeOf<T>(), exclusive, reverse),
                   std::move(inputs), dtypeOf<T>());
}

/// The scan by definition: output[idx] reduces, in scan order, the inputs
/// at idx with the axis coordinate replaced by each k before idx[axis]
/// (after it with reverse; idx[axis] itself unless exclusive).
std::vector<double> naiveScan(const Dims &dims, const std::vector<double> &x,
                              int axis, bool exclusive, bool reverse,
                              bool product) {
  std::vector<double> out;
  const int64_t n = dims[axis];
  forEachIndex(dims, [&](const std::vector<int64_t> &idx) {
    double acc = product ? 1 : 0;
    for (int64_t step = 0; step < n; ++step) {
      const int64_t k = reverse ? n - 1 - step : step;
      const bool before = reverse ? k > idx[axis] : k < idx[axis];
      if (!before && !(k == idx[axis] && !exclusive))
        continue;
      std::vector<int64_t> src = idx;
      src[axis] = k;
      int64_t flat = 0;
      for (size_t d = 0; d < dims.size(); ++d)
        flat = flat * dims[d] + src[d];
      acc = product ? acc * x[flat] : acc + x[flat];
    }
    out.push_back(acc);
  });
  return out;
}

//===----------------------------------------------------------------------===//
// Cumsum, Cumprod
//===----------------------------------------------------------------------===//

TEST(MathKernels, CumsumExclusiveReverse) {
  const std::vector<double> x = {1, 2, 3, 4};
  const struct {
    bool exclusive, reverse;
    std::vector<double> expected;
  } cases[] = {{false, false, {1, 3, 6, 10}},
               {true, false, {0, 1, 3, 6}},
               {false, true, {10, 9, 7, 4}},
               {true, true, {9, 7, 4, 0}}};
  for (const auto &c : cases) {
    auto out = runScan<float>("Cumsum", {4}, x, 0, c.exclusive, c.reverse);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, {4}, c.expected);
    auto i = runScan<int64_t>("Cumsum", {4}, x, -1, c.exclusive, c.reverse,
                              /*axisI64=*/true);
    ASSERT_TRUE(i.ok()) << i.status();
    expectValues<int64_t>(*i, {4}, c.expected);
  }
}

TEST(MathKernels, CumprodExclusiveReverse) {
  const std::vector<double> x = {1, 2, 3, 4};
  const struct {
    bool exclusive, reverse;
    std::vector<double> expected;
  } cases[] = {{false, false, {1, 2, 6, 24}},
               {true, false, {1, 1, 2, 6}},
               {false, true, {24, 24, 12, 4}},
               {true, true, {24, 12, 4, 1}}};
  for (const auto &c : cases) {
    auto out = runScan<double>("Cumprod", {4}, x, 0, c.exclusive, c.reverse);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<double>(*out, {4}, c.expected);
    auto i = runScan<int32_t>("Cumprod", {4}, x, 0, c.exclusive, c.reverse);
    ASSERT_TRUE(i.ok()) << i.status();
    expectValues<int32_t>(*i, {4}, c.expected);
  }
}

TEST(MathKernels, CumsumAxes) {
  // x = [[1, 2, 3], [4, 5, 6]].
  const std::vector<double> x = {1, 2, 3, 4, 5, 6};
  auto rows = runScan<float>("Cumsum", {2, 3}, x, 0);
  ASSERT_TRUE(rows.ok()) << rows.status();
  expectValues<float>(*rows, {2, 3}, {1, 2, 3, 5, 7, 9});
  auto cols = runScan<float>("Cumsum", {2, 3}, x, 1);
  ASSERT_TRUE(cols.ok()) << cols.status();
  expectValues<float>(*cols, {2, 3}, {1, 3, 6, 4, 9, 15});
  auto neg = runScan<int32_t>("Cumsum", {2, 3}, x, -2, true, true);
  ASSERT_TRUE(neg.ok()) << neg.status();
  expectValues<int32_t>(*neg, {2, 3}, {4, 5, 6, 0, 0, 0});
}

template <typename T> void checkScansAgainstNaiveLoop() {
  const Dims dims = {2, 3, 4};
  // Small integers keep every partial sum and product exact in T.
  std::vector<double> x = patternValues(product(dims), 2);
  for (int axis = -3; axis < 3; ++axis)
    for (bool exclusive : {false, true})
      for (bool reverse : {false, true})
        for (bool product : {false, true}) {
          const char *op = product ? "Cumprod" : "Cumsum";
          SCOPED_TRACE(std::string(op) + " axis " + std::to_string(axis) +
                       (exclusive ? " exclusive" : "") +
                       (reverse ? " reverse" : ""));
          std::vector<double> in = x;
          if (std::is_integral_v<T>)
            for (double &v : in)
              v = std::floor(v);
          auto out =
              runScan<T>(op, dims, in, axis, exclusive, reverse, axis % 2);
          ASSERT_TRUE(out.ok()) << out.status();
          expectValues<T>(*out, shapeOf(dims),
                          naiveScan(dims, in, axis < 0 ? axis + 3 : axis,
                                    exclusive, reverse, product));
        }
}

TEST(MathKernels, ScansMatchNaiveLoop) {
  checkScansAgainstNaiveLoop<float>();
  checkScansAgainstNaiveLoop<double>();
  checkScansAgainstNaiveLoop<int32_t>();
  checkScansAgainstNaiveLoop<int64_t>();
  checkScansAgainstNaiveLoop<int8_t>();
  checkScansAgainstNaiveLoop<half>();
}

TEST(MathKernels, LargeScansSplitAcrossThreads) {
  // Wide inner dims (several column blocks per slab) and many slabs.
  for (const Dims &dims : {Dims{3, 5, 1300}, Dims{700, 4, 3}}) {
    const std::vector<double> x = patternValues(product(dims), 2, 5);
    for (int axis = 0; axis < 3; ++axis)
      for (bool exclusive : {false, true}) {
        SCOPED_TRACE("axis " + std::to_string(axis));
        auto out =
            runScan<double>("Cumsum", dims, x, axis, exclusive, !exclusive);
        ASSERT_TRUE(out.ok()) << out.status();
        expectValues<double>(*out, shapeOf(dims),
                             naiveScan(dims, x, axis, exclusive, !exclusive,
                                       /*product=*/false));
      }
  }
}

TEST(MathKernels, ScanDetails) {
  // The accumulator starts at +0, so -0 sums to +0 (as TF).
  auto zero = runScan<float>("Cumsum", {1}, {-0.0}, 0);
  ASSERT_TRUE(zero.ok()) << zero.status();
  EXPECT_FALSE(std::signbit(zero->data<float>()[0]));
  // f16 accumulates in f32: 2048 + 1 + 1 = 2050 (2049 rounds to even 2048
  // when stored); a half accumulator would stay at 2048.
  auto h = runScan<half>("Cumsum", {3}, {2048, 1, 1}, 0);
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {3}, {2048, 2048, 2050}, 0);
  // Integer overflow wraps.
  auto u8 = runScan<uint8_t>("Cumsum", {2}, {200, 100}, 0);
  ASSERT_TRUE(u8.ok()) << u8.status();
  expectValues<uint8_t>(*u8, {2}, {200, 44});
  auto wrapped =
      runKernel("Cumsum", scanAttrs(DType::I32, false, false),
                {i32({2}, {INT32_MAX, 1}), i32({}, {0})}, DType::I32);
  ASSERT_TRUE(wrapped.ok()) << wrapped.status();
  EXPECT_EQ(valuesOf<int32_t>(*wrapped),
            (std::vector<int32_t>{INT32_MAX, INT32_MIN}));
  auto prod = runScan<int64_t>("Cumprod", {2}, {4294967296.0, 4294967296.0}, 0);
  ASSERT_TRUE(prod.ok()) << prod.status();
  EXPECT_EQ(valuesOf<int64_t>(*prod), (std::vector<int64_t>{4294967296, 0}));
  // An empty input gives an empty output.
  auto empty = runScan<float>("Cumprod", {2, 0}, {}, 1);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({2, 0}));
}

TEST(MathKernels, ScanErrors) {
  auto out = runScan<float>("Cumsum", {2, 3}, std::vector<double>(6), 2);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.status().message(),
            opError("Cumsum", "ScanOp: Expected scan axis in the range [-2, "
                              "2), but got 2"));
  // TF names the axis after adding the rank.
  out = runScan<float>("Cumprod", {2, 3}, std::vector<double>(6), -3);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Cumprod", "ScanOp: Expected scan axis in the range [-2, "
                               "2), but got -1"));
  // A scalar has no axis to scan.
  out = runScan<float>("Cumsum", {}, {1}, 0);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Cumsum", "ScanOp: Expected scan axis in the range [0, "
                              "0), but got 0"));
  out = runKernel("Cumsum", scanAttrs(DType::F32, false, false),
                  {f32({2}, {1, 2}), i32({1}, {0})}, DType::F32);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Cumsum", "ScanOp: axis must be a scalar, not [1]"));
}

//===----------------------------------------------------------------------===//
// CumulativeLogsumexp
//===----------------------------------------------------------------------===//

TEST(MathKernels, CumulativeLogsumexp) {
  const double ln2 = std::log(2.0), ln3 = std::log(3.0), ln4 = std::log(4.0);
  // exp(x) = [1, 1, 2]: running sums 1, 2, 4.
  const std::vector<double> x = {0, 0, ln2};
  const struct {
    bool exclusive, reverse;
    std::vector<double> expected;
  } cases[] = {{false, false, {0, ln2, ln4}},
               {true, false, {-kInf, 0, ln2}},
               {false, true, {ln4, ln3, ln2}},
               {true, true, {ln3, ln2, -kInf}}};
  for (const auto &c : cases) {
    auto out = runScan<double>("CumulativeLogsumexp", {3}, x, 0, c.exclusive,
                               c.reverse);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<double>(*out, {3}, c.expected);
    auto f = runScan<float>("CumulativeLogsumexp", {3}, x, -1, c.exclusive,
                            c.reverse);
    ASSERT_TRUE(f.ok()) << f.status();
    expectValues<float>(*f, {3}, c.expected);
  }
  // No overflow for large inputs; -inf inputs stay -inf.
  auto big = runScan<float>("CumulativeLogsumexp", {2, 2},
                            {1000, -kInf, 1000, -kInf}, 0);
  ASSERT_TRUE(big.ok()) << big.status();
  expectValues<float>(*big, {2, 2}, {1000, -kInf, 1000 + ln2, -kInf});
  auto h = runScan<half>("CumulativeLogsumexp", {2}, {0, 0}, 0);
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {2}, {0, ln2});
}

//===----------------------------------------------------------------------===//
// Erfc, Xlogy, Xlog1py, DivNoNan, MulNoNan
//===----------------------------------------------------------------------===//

template <typename T>
StatusOr<Tensor> runUnary(const std::string &op, const Dims &dims,
                          const std::vector<double> &x) {
  return runKernel(op, AttrMap{{"T", dtypeOf<T>()}},
                   {makeTensorFrom<T>(shapeOf(dims), x)}, dtypeOf<T>());
}

template <typename T>
StatusOr<Tensor> runBinary(const std::string &op, const Dims &aDims,
                           const std::vector<double> &a, const Dims &bDims,
                           const std::vector<double> &b) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<T>(shapeOf(aDims), a));
  inputs.push_back(makeTensorFrom<T>(shapeOf(bDims), b));
  return runKernel(op, AttrMap{{"T", dtypeOf<T>()}}, std::move(inputs),
                   dtypeOf<T>());
}

TEST(MathKernels, Erfc) {
  // erfc(0) = 1, erfc(-x) = 2 - erfc(x), erfc(+-inf) = 0, 2.
  const std::vector<double> x = {0, 0.5, -0.5, 3, kInf, -kInf};
  std::vector<double> expected;
  for (double v : x)
    expected.push_back(std::erfc(v));
  EXPECT_DOUBLE_EQ(expected[1] + expected[2], 2.0);
  auto f = runUnary<float>("Erfc", {6}, x);
  ASSERT_TRUE(f.ok()) << f.status();
  expectValues<float>(*f, {6}, expected, 1e-6);
  auto d = runUnary<double>("Erfc", {2, 3}, x);
  ASSERT_TRUE(d.ok()) << d.status();
  expectValues<double>(*d, {2, 3}, expected);
  auto h = runUnary<half>("Erfc", {6}, x);
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {6}, expected);
}

TEST(MathKernels, XlogyAndXlog1py) {
  const double nan = std::nan("");
  // x == 0 gives 0 whatever y is; otherwise x * log(y).
  auto out = runBinary<float>("Xlogy", {5}, {0, 0, 2, 1, 3}, {5},
                              {0, nan, std::exp(1.0), -1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {0, 0, 2, nan, 0});
  // Broadcast [2,1] x [3]: rows x = 0 and x = 2.
  auto b = runBinary<double>("Xlogy", {2, 1}, {0, 2}, {3}, {1, 4, 0});
  ASSERT_TRUE(b.ok()) << b.status();
  expectValues<double>(*b, {2, 3}, {0, 0, 0, 0, 2 * std::log(4.0), -kInf});
  auto p = runBinary<double>("Xlog1py", {4}, {0, 3, 2, 0}, {4},
                             {-1, std::exp(1.0) - 1, 0, nan});
  ASSERT_TRUE(p.ok()) << p.status();
  expectValues<double>(*p, {4}, {0, 3, 0, 0});
  auto h = runBinary<half>("Xlog1py", {2}, {1, 0}, {}, {-1});
  ASSERT_TRUE(h.ok()) << h.status();
  expectValues<half>(*h, {2}, {-kInf, 0});
}

TEST(MathKernels, DivNoNanAndMulNoNan) {
  const double nan = std::nan("");
  // y == 0 gives 0 whatever x is.
  auto d = runBinary<float>("DivNoNan", {5}, {1, 0, kInf, nan, 6}, {5},
                            {0, 0, 0, 0, 3});
  ASSERT_TRUE(d.ok()) << d.status();
  expectValues<float>(*d, {5}, {0, 0, 0, 0, 2});
  auto bd = runBinary<double>("DivNoNan", {2, 2}, {1, 2, 3, 4}, {2}, {0, 2});
  ASSERT_TRUE(bd.ok()) << bd.status();
  expectValues<double>(*bd, {2, 2}, {0, 1, 0, 2});
  auto m = runBinary<float>("MulNoNan", {4}, {kInf, nan, 2, kInf}, {4},
                            {0, 0, 3, 2});
  ASSERT_TRUE(m.ok()) << m.status();
  expectValues<float>(*m, {4}, {0, 0, 6, kInf});
  // Only y is checked: 0 * inf is still NaN when x is the zero.
  auto m2 = runBinary<bf16>("MulNoNan", {2}, {0, 0}, {2}, {kInf, 1});
  ASSERT_TRUE(m2.ok()) << m2.status();
  expectValues<bf16>(*m2, {2}, {nan, 0});
  auto bad = runBinary<float>("DivNoNan", {2}, {1, 2}, {3}, {1, 2, 3});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            opError("DivNoNan", "Incompatible shapes: [2] vs. [3]"));
}

//===----------------------------------------------------------------------===//
// Bitwise ops, shifts, Invert, PopulationCount
//===----------------------------------------------------------------------===//

template <typename T> void checkBitwise() {
  SCOPED_TRACE(dtypeName(dtypeOf<T>()));
  // 12 = 0b1100, 10 = 0b1010: and 8, or 14, xor 6.
  const struct {
    const char *op;
    std::vector<double> expected;
  } cases[] = {{"BitwiseAnd", {8, 0, 1}},
               {"BitwiseOr", {14, 10, 3}},
               {"BitwiseXor", {6, 10, 2}}};
  for (const auto &c : cases) {
    auto out = runBinary<T>(c.op, {3}, {12, 0, 1}, {3}, {10, 10, 3});
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<T>(*out, {3}, c.expected);
  }
  // Broadcasting a scalar: x & 6 over [[1, 2], [4, 7]].
  auto b = runBinary<T>("BitwiseAnd", {2, 2}, {1, 2, 4, 7}, {}, {6});
  ASSERT_TRUE(b.ok()) << b.status();
  expectValues<T>(*b, {2, 2}, {0, 2, 4, 6});
  // Shifts: 3 << 2 = 12, 12 >> 2 = 3; amounts clamp to [0, bits - 1].
  const double bits = sizeof(T) * 8;
  auto l = runBinary<T>("LeftShift", {3}, {3, 1, 5}, {3}, {2, bits, 0});
  ASSERT_TRUE(l.ok()) << l.status();
  const double top = std::is_signed_v<T> ? -std::ldexp(1.0, bits - 1)
                                         : std::ldexp(1.0, bits - 1);
  expectValues<T>(*l, {3}, {12, top, 5});
  auto r = runBinary<T>("RightShift", {3}, {12, 100, 5}, {3}, {2, bits + 3, 0});
  ASSERT_TRUE(r.ok()) << r.status();
  expectValues<T>(*r, {3}, {3, 0, 5});
  // Invert: ~0 is all ones (-1 signed, MAX unsigned); ~5 = -6 / MAX - 5.
  auto inv = runUnary<T>("Invert", {2}, {0, 5});
  ASSERT_TRUE(inv.ok()) << inv.status();
  const double allOnes =
      std::is_signed_v<T> ? -1 : static_cast<double>(T(~T(0)));
  expectValues<T>(*inv, {2}, {allOnes, allOnes - 5});
  // PopulationCount: 0, 7 (3 bits), all ones (every bit).
  auto pc = runKernel("PopulationCount", AttrMap{{"T", dtypeOf<T>()}},
                      {makeTensor<T>({3}, {T(0), T(7), T(~T(0))})}, DType::U8);
  ASSERT_TRUE(pc.ok()) << pc.status();
  expectValues<uint8_t>(*pc, {3}, {0, 3, bits});
}

TEST(MathKernels, BitwiseEveryIntegerType) {
  checkBitwise<int8_t>();
  checkBitwise<int16_t>();
  checkBitwise<int32_t>();
  checkBitwise<int64_t>();
  checkBitwise<uint8_t>();
  checkBitwise<uint16_t>();
  checkBitwise<uint32_t>();
  checkBitwise<uint64_t>();
}

TEST(MathKernels, ShiftsClampAndSign) {
  // int8: 1 << 7 = -128; a negative amount shifts by 0; 1 << 100 clamps to
  // << 7; -128 >> 7 and >> 100 are -1 (arithmetic); 64 >> -3 is 64.
  auto l =
      runBinary<int8_t>("LeftShift", {4}, {1, 1, 1, -1}, {4}, {7, -1, 100, 1});
  ASSERT_TRUE(l.ok()) << l.status();
  expectValues<int8_t>(*l, {4}, {-128, 1, -128, -2});
  auto r =
      runBinary<int8_t>("RightShift", {3}, {-128, -128, 64}, {3}, {7, 100, -3});
  ASSERT_TRUE(r.ok()) << r.status();
  expectValues<int8_t>(*r, {3}, {-1, -1, 64});
  // uint8: 255 << 1 = 254 (bits fall off), 255 >> 9 clamps to >> 7 = 1.
  auto u = runBinary<uint8_t>("LeftShift", {1}, {255}, {1}, {1});
  ASSERT_TRUE(u.ok()) << u.status();
  expectValues<uint8_t>(*u, {1}, {254});
  u = runBinary<uint8_t>("RightShift", {1}, {255}, {1}, {9});
  ASSERT_TRUE(u.ok()) << u.status();
  expectValues<uint8_t>(*u, {1}, {1});
  auto i = runBinary<int32_t>("RightShift", {2, 1}, {-8, 8}, {2}, {1, 2});
  ASSERT_TRUE(i.ok()) << i.status();
  expectValues<int32_t>(*i, {2, 2}, {-4, -2, 4, 2});
  auto big = runBinary<int64_t>("LeftShift", {1}, {-1}, {}, {63});
  ASSERT_TRUE(big.ok()) << big.status();
  EXPECT_EQ(big->data<int64_t>()[0], INT64_MIN);
}

TEST(MathKernels, PopulationCountSignedValues) {
  auto pc = runKernel("PopulationCount", AttrMap{{"T", DType::I64}},
                      {i64({3}, {-1, INT64_MIN, 0x0F0F})}, DType::U8);
  ASSERT_TRUE(pc.ok()) << pc.status();
  expectValues<uint8_t>(*pc, {3}, {64, 1, 8});
  pc = runKernel("PopulationCount", AttrMap{{"T", DType::I8}},
                 {makeTensor<int8_t>({2}, {-1, -128})}, DType::U8);
  ASSERT_TRUE(pc.ok()) << pc.status();
  expectValues<uint8_t>(*pc, {2}, {8, 1});
}

//===----------------------------------------------------------------------===//
// Bucketize, LinSpace, ApproximateEqual
//===----------------------------------------------------------------------===//

AttrMap bucketizeAttrs(DType t, std::vector<float> boundaries) {
  return AttrMap{{"T", t}, {"boundaries", std::move(boundaries)}};
}

TEST(MathKernels, Bucketize) {
  // Boundaries 0, 10, 100: (-inf, 0) -> 0, [0, 10) -> 1, [10, 100) -> 2,
  // [100, inf) -> 3; a value equal to a boundary goes above it.
  auto f = runKernel("Bucketize", bucketizeAttrs(DType::F32, {0, 10, 100}),
                     {f32({2, 3}, {-5, 0, 5, 10, 150, 99.5f})}, DType::I32);
  ASSERT_TRUE(f.ok()) << f.status();
  expectValues<int32_t>(*f, {2, 3}, {0, 1, 1, 2, 3, 2});
  auto i = runKernel("Bucketize", bucketizeAttrs(DType::I64, {-1.5f, 2}),
                     {i64({4}, {-2, -1, 2, 3})}, DType::I32);
  ASSERT_TRUE(i.ok()) << i.status();
  expectValues<int32_t>(*i, {4}, {0, 1, 2, 2});
  auto d = runKernel("Bucketize", bucketizeAttrs(DType::F64, {0.5f}),
                     {makeTensor<double>({3}, {0.49, 0.5, 0.51})}, DType::I32);
  ASSERT_TRUE(d.ok()) << d.status();
  expectValues<int32_t>(*d, {3}, {0, 1, 1});
  auto none = runKernel("Bucketize", bucketizeAttrs(DType::I32, {}),
                        {i32({2}, {-7, 7})}, DType::I32);
  ASSERT_TRUE(none.ok()) << none.status();
  expectValues<int32_t>(*none, {2}, {0, 0});
  auto bad = runKernel("Bucketize", bucketizeAttrs(DType::F32, {1, 0}),
                       {f32({1}, {0})}, DType::I32);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("Expected sorted boundaries"),
            std::string::npos)
      << bad.status();
}

TEST(MathKernels, LinSpace) {
  auto out =
      runKernel("LinSpace", AttrMap{{"T", DType::F32}, {"Tidx", DType::I32}},
                {f32({}, {10}), f32({}, {14}), i32({}, {5})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {5}, {10, 11, 12, 13, 14});
  auto d = runKernel(
      "LinSpace", AttrMap{{"T", DType::F64}, {"Tidx", DType::I64}},
      {makeTensor<double>({}, {0}), makeTensor<double>({}, {1}), i64({}, {4})},
      DType::F64);
  ASSERT_TRUE(d.ok()) << d.status();
  expectValues<double>(*d, {4}, {0, 1.0 / 3, 2.0 / 3, 1});
  // Decreasing, and a single value (start).
  out = runKernel("LinSpace", AttrMap{{"T", DType::F32}},
                  {f32({}, {1}), f32({}, {-1}), i32({}, {3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {1, 0, -1});
  out = runKernel("LinSpace", AttrMap{{"T", DType::F32}},
                  {f32({}, {3}), f32({}, {9}), i32({}, {1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1}, {3});

  out = runKernel("LinSpace", AttrMap{{"T", DType::F32}},
                  {f32({}, {0}), f32({}, {1}), i32({}, {0})}, DType::F32);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), opError("LinSpace", "Requires num > 0: 0"));
  out = runKernel("LinSpace", AttrMap{{"T", DType::F32}},
                  {f32({1}, {0}), f32({}, {1}), i32({}, {2})}, DType::F32);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("LinSpace", "start must be a scalar, not shape [1]"));
  out = runKernel("LinSpace", AttrMap{{"T", DType::F32}},
                  {f32({}, {0}), f32({}, {1}), i32({2}, {2, 2})}, DType::F32);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("LinSpace", "num must be a scalar, not shape [2]"));
}

TEST(MathKernels, ApproximateEqual) {
  // Default tolerance 1e-5: |x - y| < 1e-5.
  auto out = runKernel("ApproximateEqual", AttrMap{{"T", DType::F32}},
                       {f32({3}, {1, 2, 3}), f32({3}, {1.000001f, 2.1f, 3})},
                       DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{true, false, true}));
  out = runKernel("ApproximateEqual",
                  AttrMap{{"T", DType::F64}, {"tolerance", 0.25f}},
                  {makeTensor<double>({2, 2}, {1, 2, 3, 4}),
                   makeTensor<double>({2, 2}, {1.2, 1.7, 3.3, 4})},
                  DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out),
            (std::vector<bool>{true, false, false, true}));
  // Integers: the tolerance converts to T, so 1e-5 is 0 and nothing is
  // equal; with 2, differences of 0 and 1 are.
  out = runKernel("ApproximateEqual", AttrMap{{"T", DType::I32}},
                  {i32({2}, {1, 2}), i32({2}, {1, 3})}, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{false, false}));
  out = runKernel("ApproximateEqual",
                  AttrMap{{"T", DType::I32}, {"tolerance", 2.0f}},
                  {i32({3}, {1, 2, 5}), i32({3}, {1, 3, 2})}, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{true, true, false}));
  // A tolerance beyond T's range saturates to 127; differences wrap in T:
  // 100 - -100 = -56 (|-56| = 56), |-128 - 0| wraps to -128.
  out = runKernel("ApproximateEqual",
                  AttrMap{{"T", DType::I8}, {"tolerance", 1e30f}},
                  {makeTensor<int8_t>({2}, {100, -128}),
                   makeTensor<int8_t>({2}, {-100, 0})},
                  DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{true, true}));

  out = runKernel("ApproximateEqual", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), f32({}, {1})}, DType::Bool);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("ApproximateEqual", "x and y must be of the same shape. "
                                        "x shape: [2]. y shape: []"));
}

//===----------------------------------------------------------------------===//
// Segment reductions
//===----------------------------------------------------------------------===//

template <typename T>
StatusOr<Tensor> runSegment(const std::string &op, const Dims &dims,
                            const std::vector<double> &data,
                            const Tensor &ids) {
  return runKernel(op, AttrMap{{"T", dtypeOf<T>()}},
                   {makeTensorFrom<T>(shapeOf(dims), data), ids}, dtypeOf<T>());
}

TEST(MathKernels, SortedSegments) {
  // data = [[1, 2], [3, 4], [5, 6], [7, 8]], ids [0, 0, 2, 3]: segment 1
  // has no rows (0; Prod 1).
  const std::vector<double> data = {1, 2, 3, 4, 5, 6, 7, 8};
  const Tensor ids = i32({4}, {0, 0, 2, 3});
  const struct {
    const char *op;
    std::vector<double> expected;
  } cases[] = {{"SegmentSum", {4, 6, 0, 0, 5, 6, 7, 8}},
               {"SegmentMean", {2, 3, 0, 0, 5, 6, 7, 8}},
               {"SegmentProd", {3, 8, 1, 1, 5, 6, 7, 8}},
               {"SegmentMax", {3, 4, 0, 0, 5, 6, 7, 8}},
               {"SegmentMin", {1, 2, 0, 0, 5, 6, 7, 8}}};
  for (const auto &c : cases) {
    SCOPED_TRACE(c.op);
    auto f = runSegment<float>(c.op, {4, 2}, data, ids);
    ASSERT_TRUE(f.ok()) << f.status();
    expectValues<float>(*f, {4, 2}, c.expected);
    auto i = runSegment<int64_t>(c.op, {4, 2}, data, i64({4}, {0, 0, 2, 3}));
    ASSERT_TRUE(i.ok()) << i.status();
    expectValues<int64_t>(*i, {4, 2}, c.expected);
  }
  // Integer Mean truncates: (1 + 2) / 2 = 1; negative values and Max.
  auto m =
      runSegment<int32_t>("SegmentMean", {3}, {1, 2, -7}, i32({3}, {0, 0, 1}));
  ASSERT_TRUE(m.ok()) << m.status();
  expectValues<int32_t>(*m, {2}, {1, -7});
  auto mx =
      runSegment<double>("SegmentMax", {3}, {-5, -3, -1}, i32({3}, {1, 1, 1}));
  ASSERT_TRUE(mx.ok()) << mx.status();
  expectValues<double>(*mx, {2}, {0, -1});
  auto empty = runSegment<float>("SegmentSum", {0, 3}, {}, i32({0}, {}));
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({0, 3}));
}

TEST(MathKernels, SortedSegmentErrors) {
  auto err = [](const Dims &dims, const Tensor &ids) {
    auto out = runSegment<float>("SegmentSum", dims,
                                 std::vector<double>(product(dims)), ids);
    EXPECT_FALSE(out.ok());
    return out.ok() ? std::string() : std::string(out.status().message());
  };
  EXPECT_EQ(err({2}, i32({2}, {1, 0})),
            opError("SegmentSum", "segment ids are not increasing"));
  EXPECT_EQ(err({2}, i32({2}, {-1, 0})),
            opError("SegmentSum",
                    "Segment id -1 out of range [0, 1), possibly "
                    "because 'segment_ids' input is not sorted."));
  EXPECT_EQ(err({2}, i32({2}, {0, -1})),
            opError("SegmentSum", "segment ids must be >= 0"));
  EXPECT_EQ(err({2}, i32({2}, {0, -2})),
            opError("SegmentSum", "segment ids must be >= 0"));
  EXPECT_EQ(err({3}, i32({2}, {0, 0})),
            opError("SegmentSum", "segment_ids should be the same size as "
                                  "dimension 0 of input."));
  EXPECT_EQ(err({2}, i32({2, 1}, {0, 0})),
            opError("SegmentSum", "segment_ids should be a vector."));
  EXPECT_EQ(err({}, i32({1}, {0})),
            opError("SegmentSum", "input must be at least rank 1"));
}

StatusOr<Tensor> runUnsorted(const std::string &op, const Dims &dims,
                             const std::vector<double> &data, const Tensor &ids,
                             const Tensor &numSegments) {
  return runKernel(
      op, AttrMap{{"T", DType::F32}},
      {makeTensorFrom<float>(shapeOf(dims), data), ids, numSegments},
      DType::F32);
}

TEST(MathKernels, UnsortedSegments) {
  // data = [[1, 2], [3, 4], [5, 6], [7, 8]], ids [0, -1, 2, 0] (the -1 row
  // is dropped), 3 segments: segment 1 gets no rows.
  const std::vector<double> data = {1, 2, 3, 4, 5, 6, 7, 8};
  const double lowest = std::numeric_limits<float>::lowest();
  const double highest = std::numeric_limits<float>::max();
  const struct {
    const char *op;
    std::vector<double> expected;
  } cases[] = {{"UnsortedSegmentSum", {8, 10, 0, 0, 5, 6}},
               {"UnsortedSegmentProd", {7, 16, 1, 1, 5, 6}},
               {"UnsortedSegmentMax", {7, 8, lowest, lowest, 5, 6}},
               {"UnsortedSegmentMin", {1, 2, highest, highest, 5, 6}}};
  for (const auto &c : cases) {
    SCOPED_TRACE(c.op);
    auto out =
        runUnsorted(c.op, {4, 2}, data, i32({4}, {0, -1, 2, 0}), i64({}, {3}));
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, {3, 2}, c.expected);
  }
  // ids of rank 2 index the first two dims of data.
  auto two = runUnsorted("UnsortedSegmentSum", {2, 2, 2}, data,
                         i64({2, 2}, {1, 1, 0, 1}), i32({}, {2}));
  ASSERT_TRUE(two.ok()) << two.status();
  expectValues<float>(*two, {2, 2}, {5, 6, 1 + 3 + 7, 2 + 4 + 8});
  auto ints = runKernel(
      "UnsortedSegmentMax", AttrMap{{"T", DType::I32}},
      {i32({3}, {4, -9, 2}), i32({3}, {0, 1, 0}), i32({}, {3})}, DType::I32);
  ASSERT_TRUE(ints.ok()) << ints.status();
  expectValues<int32_t>(*ints, {3},
                        {4, -9, double(std::numeric_limits<int32_t>::min())});
}

TEST(MathKernels, UnsortedSegmentsMatchNaiveLoop) {
  const Dims dims = {6, 3};
  const std::vector<double> data = patternValues(product(dims), 4, 3);
  const std::vector<int32_t> ids = {2, 0, 4, 2, -1, 0};
  auto out = runUnsorted("UnsortedSegmentSum", dims, data, i32({6}, ids),
                         i32({}, {5}));
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected(5 * 3, 0);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 3 && ids[r] >= 0; ++c)
      expected[ids[r] * 3 + c] += data[r * 3 + c];
  expectValues<float>(*out, {5, 3}, expected);
}

TEST(MathKernels, UnsortedSegmentsManySegments) {
  // 2000 rows into 300 segments (some rows dropped), split across threads.
  const Dims dims = {2000, 2};
  const std::vector<double> data = patternValues(product(dims), 4, 7);
  std::vector<int32_t> ids(2000);
  for (int r = 0; r < 2000; ++r)
    ids[r] = (r * 37) % 311 - 11; // -11 .. 299
  auto out = runKernel("UnsortedSegmentMax", AttrMap{{"T", DType::F64}},
                       {makeTensor<double>(shapeOf(dims), data),
                        i32({2000}, ids), i64({}, {300})},
                       DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected(600, std::numeric_limits<double>::lowest());
  for (int r = 0; r < 2000; ++r)
    for (int c = 0; c < 2 && ids[r] >= 0; ++c)
      expected[ids[r] * 2 + c] =
          std::max(expected[ids[r] * 2 + c], data[r * 2 + c]);
  expectValues<double>(*out, {300, 2}, expected);
}

TEST(MathKernels, UnsortedSegmentErrors) {
  auto err = [](const Dims &dims, const Tensor &ids, const Tensor &num) {
    auto out = runUnsorted("UnsortedSegmentSum", dims,
                           std::vector<double>(product(dims)), ids, num);
    EXPECT_FALSE(out.ok());
    return out.ok() ? std::string() : std::string(out.status().message());
  };
  const char *op = "UnsortedSegmentSum";
  EXPECT_EQ(err({4}, i32({4}, {0, 1, 5, 0}), i32({}, {3})),
            opError(op, "segment_ids[2] = 5 is out of range [0, 3)"));
  EXPECT_EQ(err({2, 2}, i32({2, 2}, {0, 1, 3, 0}), i32({}, {3})),
            opError(op, "segment_ids[1,0] = 3 is out of range [0, 3)"));
  EXPECT_EQ(err({2}, i32({2}, {0, 0}), i32({}, {-1})),
            opError(op, "Input num_segments == -1 must not be negative."));
  EXPECT_EQ(err({2}, i32({2}, {0, 0}), i32({1}, {2})),
            opError(op, "num_segments should be a scalar, not shape [1]"));
  EXPECT_EQ(err({4, 2}, i32({3}, {0, 0, 0}), i32({}, {2})),
            opError(op, "data.shape = [4,2] does not start with "
                        "segment_ids.shape = [3]"));
}

} // namespace

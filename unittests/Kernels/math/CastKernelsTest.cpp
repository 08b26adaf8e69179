//===- CastKernelsTest.cpp - Cast kernel tests ------------------*- C++ -*-===//
//
// Cast between every pair of supported dtypes against a reference written
// here from the documented rules (exactly representable values convert
// exactly), plus hand-derived rounding, truncation, saturation and NaN
// cases.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

StatusOr<Tensor> runCast(Tensor input, DType dst, bool truncate = false,
                         bool setTruncate = false) {
  AttrMap attrs{{"SrcT", input.dtype()}, {"DstT", dst}};
  if (setTruncate)
    attrs.set("Truncate", truncate);
  std::vector<Tensor> inputs;
  inputs.push_back(std::move(input));
  return runKernel("Cast", attrs, std::move(inputs), dst);
}

const DType kAllTypes[] = {DType::F32, DType::F64, DType::F16, DType::BF16,
                           DType::I8,  DType::I16, DType::I32, DType::I64,
                           DType::U8,  DType::U16, DType::U32, DType::U64,
                           DType::Bool};

/// Small values exact in every dtype's range: non-negative integers up to
/// 100 (so unsigned and bool sources work too; bool gets x != 0).
std::vector<double> exactValues(DType dtype) {
  if (dtype == DType::Bool)
    return {0, 1, 1, 0};
  return {0, 1, 2, 7, 100};
}

Tensor tensorOf(DType dtype, const std::vector<double> &values) {
  Tensor out;
  (void)dispatchDType(dtype, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    out = makeTensorFrom<T>(TensorShape({static_cast<int64_t>(values.size())}),
                            values);
  });
  return out;
}

std::vector<double> doublesOf(const Tensor &t) {
  std::vector<double> out;
  (void)dispatchDType(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::Type;
    for (T v : valuesOf<T>(t))
      out.push_back(toDouble(v));
  });
  return out;
}

TEST(CastKernels, EveryPairExactValues) {
  for (DType src : kAllTypes) {
    for (DType dst : kAllTypes) {
      SCOPED_TRACE(std::string(dtypeName(src)) + " -> " +
                   std::string(dtypeName(dst)));
      std::vector<double> in = exactValues(src);
      std::vector<double> expected;
      for (double v : in)
        expected.push_back(dst == DType::Bool ? (v != 0 ? 1 : 0) : v);
      auto out = runCast(tensorOf(src, in), dst);
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_EQ(out->dtype(), dst);
      EXPECT_EQ(out->shape(), TensorShape({static_cast<int64_t>(in.size())}));
      EXPECT_EQ(doublesOf(*out), expected);
    }
  }
}

TEST(CastKernels, NegativeAndFractionalValues) {
  // Float -> signed int truncates toward zero.
  for (DType dst : {DType::I8, DType::I16, DType::I32, DType::I64}) {
    auto out = runCast(
        makeTensor<float>({6}, {-2.7f, -0.5f, 0.5f, 2.7f, -0.0f, 99.99f}), dst);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(doublesOf(*out), (std::vector<double>{-2, 0, 0, 2, 0, 99}));
  }
  auto d = runCast(makeTensor<double>({2}, {-1e10, 1e10 + 0.9}), DType::I64);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(valuesOf<int64_t>(*d),
            (std::vector<int64_t>{-10000000000, 10000000000}));
  // Signed -> float keeps the sign; float -> bool is x != 0.
  auto f = runCast(makeTensor<int32_t>({2}, {-5, -100000}), DType::F32);
  ASSERT_TRUE(f.ok()) << f.status();
  expectValues<float>(*f, {2}, {-5, -100000});
  auto b =
      runCast(makeTensor<float>({4}, {0.0f, -0.0f, -0.1f, NAN}), DType::Bool);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(valuesOf<bool>(*b), (std::vector<bool>{false, false, true, true}));
  auto hb = runCast(makeTensor<half>({2}, {half(0), half(-2)}), DType::Bool);
  ASSERT_TRUE(hb.ok()) << hb.status();
  EXPECT_EQ(valuesOf<bool>(*hb), (std::vector<bool>{false, true}));
}

TEST(CastKernels, IntegerWrapAround) {
  auto out = runCast(makeTensor<int32_t>({4}, {300, -1, 128, -129}), DType::I8);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<int8_t>(*out), (std::vector<int8_t>{44, -1, -128, 127}));
  auto u8 = runCast(makeTensor<int32_t>({2}, {-1, 256}), DType::U8);
  ASSERT_TRUE(u8.ok()) << u8.status();
  EXPECT_EQ(valuesOf<uint8_t>(*u8), (std::vector<uint8_t>{255, 0}));
  auto u32 = runCast(makeTensor<int64_t>({1}, {-2}), DType::U32);
  ASSERT_TRUE(u32.ok()) << u32.status();
  EXPECT_EQ(valuesOf<uint32_t>(*u32), (std::vector<uint32_t>{4294967294u}));
  auto i64 = runCast(makeTensor<uint64_t>({1}, {~uint64_t(0)}), DType::I64);
  ASSERT_TRUE(i64.ok()) << i64.status();
  EXPECT_EQ(valuesOf<int64_t>(*i64), (std::vector<int64_t>{-1}));
  auto b = runCast(makeTensor<int32_t>({3}, {0, -7, 256}), DType::Bool);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(valuesOf<bool>(*b), (std::vector<bool>{false, true, true}));
}

TEST(CastKernels, FloatToIntSaturatesAndNaNIsZero) {
  const float inf = std::numeric_limits<float>::infinity();
  auto out = runCast(
      makeTensor<float>({6}, {NAN, inf, -inf, 3e9f, -3e9f, 2147483520.0f}),
      DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<int32_t>(*out),
            (std::vector<int32_t>{0, INT32_MAX, INT32_MIN, INT32_MAX, INT32_MIN,
                                  2147483520}));
  auto u8 = runCast(makeTensor<float>({5}, {-1.0f, -0.9f, 255.9f, 256.0f, NAN}),
                    DType::U8);
  ASSERT_TRUE(u8.ok()) << u8.status();
  EXPECT_EQ(valuesOf<uint8_t>(*u8), (std::vector<uint8_t>{0, 0, 255, 255, 0}));
  auto i8 = runCast(makeTensor<double>({3}, {-128.9, 127.9, 1e300}), DType::I8);
  ASSERT_TRUE(i8.ok()) << i8.status();
  EXPECT_EQ(valuesOf<int8_t>(*i8), (std::vector<int8_t>{-128, 127, 127}));
  auto i64 = runCast(
      makeTensor<double>({3}, {9.3e18, -9.3e18, -9223372036854775808.0}),
      DType::I64);
  ASSERT_TRUE(i64.ok()) << i64.status();
  EXPECT_EQ(valuesOf<int64_t>(*i64),
            (std::vector<int64_t>{INT64_MAX, INT64_MIN, INT64_MIN}));
  auto u64 = runCast(makeTensor<half>({3}, {half(-5), half(65504), half(NAN)}),
                     DType::U64);
  ASSERT_TRUE(u64.ok()) << u64.status();
  EXPECT_EQ(valuesOf<uint64_t>(*u64), (std::vector<uint64_t>{0, 65504, 0}));
  auto u16 = runCast(makeTensor<bf16>({1}, {bf16(1e6f)}), DType::U16);
  ASSERT_TRUE(u16.ok()) << u16.status();
  EXPECT_EQ(valuesOf<uint16_t>(*u16), (std::vector<uint16_t>{65535}));
}

uint16_t bitsOf(half h) { return Eigen::numext::bit_cast<uint16_t>(h); }

TEST(CastKernels, RoundToNearestEvenAndTruncate) {
  // 1 + 2^-11 is halfway between the halfs 1 and 1 + 2^-10: ties to even
  // (1); 1 + 3 * 2^-11 rounds up to 1 + 2^-9 (even); with Truncate both
  // keep only the leading mantissa bits.
  const float a = 1.0f + std::ldexp(1.0f, -11);
  const float b = 1.0f + 3 * std::ldexp(1.0f, -11);
  const float c = 1.0f + std::ldexp(1.0f, -10) + std::ldexp(1.0f, -12);
  auto out = runCast(makeTensor<float>({3}, {a, b, c}), DType::F16);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<half> h = valuesOf<half>(*out);
  EXPECT_EQ(static_cast<float>(h[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(h[1]), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(static_cast<float>(h[2]), 1.0f + std::ldexp(1.0f, -10));
  out = runCast(makeTensor<float>({3}, {b, -b, NAN}), DType::F16,
                /*truncate=*/true, /*setTruncate=*/true);
  ASSERT_TRUE(out.ok()) << out.status();
  h = valuesOf<half>(*out);
  EXPECT_EQ(static_cast<float>(h[0]), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(static_cast<float>(h[1]), -(1.0f + std::ldexp(1.0f, -10)));
  EXPECT_TRUE(Eigen::numext::isnan(h[2]));

  // bf16 has 8 mantissa bits: 1 + 3 * 2^-8 (a tie) rounds to the even
  // 1 + 2^-6 and truncates to 1 + 2^-7.
  const float d = 1.0f + 3 * std::ldexp(1.0f, -8);
  auto bf = runCast(makeTensor<float>({1}, {d}), DType::BF16);
  ASSERT_TRUE(bf.ok()) << bf.status();
  EXPECT_EQ(static_cast<float>(valuesOf<bf16>(*bf)[0]),
            1.0f + std::ldexp(1.0f, -6));
  bf = runCast(makeTensor<float>({1}, {d}), DType::BF16, true, true);
  ASSERT_TRUE(bf.ok()) << bf.status();
  EXPECT_EQ(static_cast<float>(valuesOf<bf16>(*bf)[0]),
            1.0f + std::ldexp(1.0f, -7));

  // f64 -> f32 with and without Truncate (a tie again).
  const double e = 1.0 + 3 * std::ldexp(1.0, -24);
  auto f = runCast(makeTensor<double>({1}, {e}), DType::F32);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(valuesOf<float>(*f)[0], 1.0f + std::ldexp(1.0f, -22));
  f = runCast(makeTensor<double>({1}, {e}), DType::F32, true, true);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(valuesOf<float>(*f)[0], 1.0f + std::ldexp(1.0f, -23));
  // f64 -> f16 truncates too.
  auto dh = runCast(makeTensor<double>({1}, {1.0 + 3 * std::ldexp(1.0, -11)}),
                    DType::F16, true, true);
  ASSERT_TRUE(dh.ok()) << dh.status();
  EXPECT_EQ(static_cast<float>(valuesOf<half>(*dh)[0]),
            1.0f + std::ldexp(1.0f, -10));
  // Truncate = false explicitly is the default; Truncate is ignored for
  // pairs TF does not truncate (int -> f16).
  f = runCast(makeTensor<double>({1}, {e}), DType::F32, false, true);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(valuesOf<float>(*f)[0], 1.0f + std::ldexp(1.0f, -22));
  auto ih = runCast(makeTensor<int32_t>({1}, {2049}), DType::F16, true, true);
  ASSERT_TRUE(ih.ok()) << ih.status();
  EXPECT_EQ(static_cast<float>(valuesOf<half>(*ih)[0]), 2048.0f);
}

TEST(CastKernels, SpecialFloatValues) {
  const float inf = std::numeric_limits<float>::infinity();
  auto h =
      runCast(makeTensor<float>({4}, {70000.0f, -inf, NAN, 1e-8f}), DType::F16);
  ASSERT_TRUE(h.ok()) << h.status();
  std::vector<half> hv = valuesOf<half>(*h);
  EXPECT_EQ(static_cast<float>(hv[0]), inf); // Overflow to inf.
  EXPECT_EQ(static_cast<float>(hv[1]), -inf);
  EXPECT_TRUE(Eigen::numext::isnan(hv[2]));
  EXPECT_EQ(bitsOf(hv[3]), 0); // Underflow to +0.
  auto f =
      runCast(makeTensor<half>({2}, {half(-inf), half(0.333f)}), DType::F64);
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(valuesOf<double>(*f)[0], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(valuesOf<double>(*f)[1], static_cast<float>(half(0.333f)));
  // f16 <-> bf16 go through f32.
  auto b = runCast(makeTensor<half>({1}, {half(1.0f + std::ldexp(1.0f, -10))}),
                   DType::BF16);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(static_cast<float>(valuesOf<bf16>(*b)[0]), 1.0f);
  auto bh = runCast(makeTensor<bf16>({1}, {bf16(1e20f)}), DType::F16);
  ASSERT_TRUE(bh.ok()) << bh.status();
  EXPECT_EQ(static_cast<float>(valuesOf<half>(*bh)[0]), inf);
  // Large integers round to nearest even in f32.
  auto i = runCast(makeTensor<int32_t>({2}, {16777217, 16777219}), DType::F32);
  ASSERT_TRUE(i.ok()) << i.status();
  EXPECT_EQ(valuesOf<float>(*i),
            (std::vector<float>{16777216.0f, 16777220.0f}));
  auto u = runCast(makeTensor<uint64_t>({1}, {~uint64_t(0)}), DType::F32);
  ASSERT_TRUE(u.ok()) << u.status();
  EXPECT_EQ(valuesOf<float>(*u)[0], 18446744073709551616.0f);
}

TEST(CastKernels, SameTypeSharesBufferAndEmpty) {
  Tensor in = makeTensor<float>({2}, {1, 2});
  const void *data = in.rawData();
  auto out = runCast(in, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), data);
  auto empty = runCast(makeTensor<int32_t>({0, 3}, {}), DType::F16);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({0, 3}));
  EXPECT_EQ(empty->dtype(), DType::F16);
}

TEST(CastKernels, LargeParallel) {
  const int64_t n = 100001;
  std::vector<double> values = patternValues(n, 100, 5);
  auto out = runCast(makeTensorFrom<float>({n}, values), DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  std::vector<double> expected;
  for (double v : values)
    expected.push_back(std::trunc(v));
  expectValues<int32_t>(*out, {n}, expected);
}

TEST(CastKernels, Errors) {
  // SrcT disagreeing with the input: the loader refuses the node before
  // the kernel could read i32 data as f32.
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<int32_t>({1}, {1}));
  auto out =
      runKernel("Cast", AttrMap{{"SrcT", DType::F32}, {"DstT", DType::I64}},
                std::move(inputs), DType::I64);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            std::string(kNode) +
                ": op 'Cast' has SrcT=f32 but its input #0 is i32");
  // A missing DstT fails at construction.
  inputs.clear();
  inputs.push_back(makeTensor<int32_t>({1}, {1}));
  out = runKernel("Cast", AttrMap{{"SrcT", DType::I32}}, std::move(inputs),
                  DType::F32);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
}

} // namespace

//===- RandomKernelsTest.cpp - Philox random ops ----------------*- C++ -*-===//
//
// The Philox stream against the Random123 known-answer vectors (the ones
// TensorFlow's own tests use), TF's conversions of its words to floats,
// doubles and integers computed here from those words, Box-Muller normals
// against a double-precision reference, the seed-to-key mixing of the
// stateless ops (a reference Philox written here, checked by the same
// vectors), and the stateful ops' starting position.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <array>
#include <cmath>
#include <cstring>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// A plain Philox4x32-10 from the Random123 paper, for the expectations.
std::array<uint32_t, 4> philox(std::array<uint32_t, 4> c,
                               std::array<uint32_t, 2> k) {
  for (int r = 0; r < 10; ++r) {
    const uint64_t p0 = uint64_t(0xD2511F53u) * c[0];
    const uint64_t p1 = uint64_t(0xCD9E8D57u) * c[2];
    c = {uint32_t(p1 >> 32) ^ c[1] ^ k[0], uint32_t(p1),
         uint32_t(p0 >> 32) ^ c[3] ^ k[1], uint32_t(p0)};
    k[0] += 0x9E3779B9u;
    k[1] += 0xBB67AE85u;
  }
  return c;
}

Tensor u64(TensorShape shape, std::vector<uint64_t> v) {
  return makeTensor<uint64_t>(std::move(shape), v);
}

/// Runs a V2 op on key `key` and counter words (lo, hi) pairs.
StatusOr<Tensor> runV2(const char *op, DType dtype, int64_t n, uint64_t key,
                       uint64_t c0, uint64_t c1) {
  return runKernel(op, AttrMap{{"dtype", dtype}},
                   {i32({1}, {static_cast<int32_t>(n)}), u64({1}, {key}),
                    u64({2}, {c0, c1}), i32({}, {1})},
                   dtype);
}

TEST(Philox, KnownAnswerVectors) {
  // Random123's kat_vectors for philox4x32-10, through the raw uint32
  // output of StatelessRandomUniformFullIntV2.
  struct Kat {
    std::array<uint32_t, 4> counter;
    std::array<uint32_t, 2> key;
    std::array<uint32_t, 4> expected;
  };
  const Kat kats[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
      {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
       {0xffffffff, 0xffffffff},
       {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
      {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
       {0xa4093822, 0x299f31d0},
       {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}}};
  for (const Kat &kat : kats) {
    EXPECT_EQ(philox(kat.counter, kat.key), kat.expected);
    const uint64_t key = kat.key[0] | uint64_t(kat.key[1]) << 32;
    const uint64_t c0 = kat.counter[0] | uint64_t(kat.counter[1]) << 32;
    const uint64_t c1 = kat.counter[2] | uint64_t(kat.counter[3]) << 32;
    auto out =
        runV2("StatelessRandomUniformFullIntV2", DType::U32, 4, key, c0, c1);
    ASSERT_TRUE(out.ok()) << out.status();
    const std::vector<uint32_t> v = valuesOf<uint32_t>(*out);
    const std::array<uint32_t, 4> got = {v[0], v[1], v[2], v[3]};
    EXPECT_EQ(got, kat.expected);
  }
}

float toFloat(uint32_t x) {
  const uint32_t bits = 0x3f800000u | (x & 0x7fffffu);
  float f;
  std::memcpy(&f, &bits, 4);
  return f - 1.0f;
}

TEST(StatelessRandomV2, ConversionsOfTheStream) {
  // Key and counter of the third vector: words d16cfe09 94fdcceb 5001e420
  // 24126ea1 for the first call, then the counter moves by one.
  const uint64_t key = 0x299f31d0a4093822ull;
  const uint64_t c0 = 0x85a308d3243f6a88ull, c1 = 0x0370734413198a2eull;
  const uint32_t w[4] = {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
  auto out = runV2("StatelessRandomUniformV2", DType::F32, 4, key, c0, c1);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(valuesOf<float>(*out)[i], toFloat(w[i])) << i;
  // Doubles take two words each: 20 high mantissa bits from the first.
  out = runV2("StatelessRandomUniformV2", DType::F64, 2, key, c0, c1);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 2; ++i) {
    const uint64_t bits = (uint64_t(1023) << 52) |
                          (uint64_t(w[2 * i] & 0xfffff) << 32) | w[2 * i + 1];
    double d;
    std::memcpy(&d, &bits, 8);
    EXPECT_EQ(valuesOf<double>(*out)[i], d - 1.0) << i;
  }
  // Integers in [-3, 7): -3 + word % 10.
  out = runKernel("StatelessRandomUniformIntV2", AttrMap{{"dtype", DType::I32}},
                  {i32({1}, {4}), u64({1}, {key}), u64({2}, {c0, c1}),
                   i32({}, {3}), i32({}, {-3}), i32({}, {7})},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(valuesOf<int32_t>(*out)[i], -3 + int32_t(w[i] % 10)) << i;
  // Box-Muller on word pairs, against a double-precision evaluation.
  out = runV2("StatelessRandomNormalV2", DType::F32, 4, key, c0, c1);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 4; i += 2) {
    const double u1 = std::max<double>(toFloat(w[i]), 1e-7);
    const double v1 = 2 * M_PI * toFloat(w[i + 1]);
    const double r = std::sqrt(-2 * std::log(u1));
    EXPECT_NEAR(valuesOf<float>(*out)[i], r * std::sin(v1), 1e-5);
    EXPECT_NEAR(valuesOf<float>(*out)[i + 1], r * std::cos(v1), 1e-5);
  }
  // A fifth value comes from the next call (counter + 1).
  out = runV2("StatelessRandomUniformFullIntV2", DType::U32, 5, key, c0, c1);
  ASSERT_TRUE(out.ok()) << out.status();
  const auto next = philox({0x243f6a89, 0x85a308d3, 0x13198a2e, 0x03707344},
                           {0xa4093822, 0x299f31d0});
  EXPECT_EQ(valuesOf<uint32_t>(*out)[4], next[0]);
  auto bad = runKernel(
      "StatelessRandomUniformV2", AttrMap{{"dtype", DType::F32}},
      {i32({1}, {4}), u64({1}, {key}), u64({2}, {c0, c1}), i32({}, {2})},
      DType::F32);
  EXPECT_EQ(bad.status().message(),
            opError("StatelessRandomUniformV2", "Unsupported algorithm id: 2"));
}

TEST(StatelessRandom, SeedMixing) {
  // seed [7, -1] -> one Philox call on counter (7, 0, 0xffffffff,
  // 0xffffffff) with key (0x3ec8f720, 0x02461e29) gives the V2 key and
  // counter.
  const auto mix =
      philox({7, 0, 0xffffffff, 0xffffffff}, {0x3ec8f720, 0x02461e29});
  auto kc = runKernelN("StatelessRandomGetKeyCounterAlg",
                       AttrMap{{"Tseed", DType::I64}}, {i64({2}, {7, -1})},
                       {DType::U64, DType::U64, DType::I32});
  ASSERT_TRUE(kc.ok()) << kc.status();
  EXPECT_EQ(valuesOf<uint64_t>((*kc)[0])[0], mix[0] | uint64_t(mix[1]) << 32);
  EXPECT_EQ(valuesOf<uint64_t>((*kc)[1]),
            (std::vector<uint64_t>{0, mix[2] | uint64_t(mix[3]) << 32}));
  EXPECT_EQ(valuesOf<int32_t>((*kc)[2])[0], 1);
  // The V1 op's first values are the stream's first words.
  const auto words = philox({0, 0, mix[2], mix[3]}, {mix[0], mix[1]});
  auto out = runKernel("StatelessRandomUniform",
                       AttrMap{{"dtype", DType::F32}, {"T", DType::I32}},
                       {i32({2}, {2, 2}), i64({2}, {7, -1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(valuesOf<float>(*out)[i], toFloat(words[i])) << i;
  // int32 seeds mean the same numbers.
  auto out32 = runKernel("StatelessRandomUniform",
                         AttrMap{{"dtype", DType::F32}, {"T", DType::I32}},
                         {i32({2}, {2, 2}), i32({2}, {7, -1})}, DType::F32);
  ASSERT_TRUE(out32.ok()) << out32.status();
  EXPECT_EQ(valuesOf<float>(*out32), valuesOf<float>(*out));
  auto bad = runKernel("StatelessRandomNormal",
                       AttrMap{{"dtype", DType::F32}, {"T", DType::I32}},
                       {i32({1}, {2}), i64({3}, {1, 2, 3})}, DType::F32);
  EXPECT_EQ(
      bad.status().message(),
      opError("StatelessRandomNormal", "seed must have shape [2], not [3]"));
}

TEST(StatelessRandom, TruncatedNormalAndRanges) {
  auto out = runKernel("StatelessTruncatedNormal",
                       AttrMap{{"dtype", DType::F64}, {"T", DType::I32}},
                       {i32({1}, {1000}), i64({2}, {1, 2})}, DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  double sum = 0;
  for (double v : valuesOf<double>(*out)) {
    EXPECT_LT(std::abs(v), 2.0);
    sum += v;
  }
  EXPECT_LT(std::abs(sum / 1000), 0.1);
  auto ints = runKernel(
      "StatelessRandomUniformInt",
      AttrMap{{"dtype", DType::I64}, {"T", DType::I32}},
      {i32({1}, {100}), i64({2}, {3, 4}), i64({}, {-5}), i64({}, {5})},
      DType::I64);
  ASSERT_TRUE(ints.ok()) << ints.status();
  for (int64_t v : valuesOf<int64_t>(*ints)) {
    EXPECT_GE(v, -5);
    EXPECT_LT(v, 5);
  }
  auto bad =
      runKernel("StatelessRandomUniformInt",
                AttrMap{{"dtype", DType::I32}, {"T", DType::I32}},
                {i32({1}, {2}), i64({2}, {3, 4}), i32({}, {5}), i32({}, {5})},
                DType::I32);
  EXPECT_EQ(
      bad.status().message(),
      opError("StatelessRandomUniformInt", "Need minval < maxval, got 5 >= 5"));
}

TEST(StatefulRandom, StartsAtSeedAndSeed2) {
  // seed 5, seed2 9: key (5, 0), counter (0, 0, 9, 0), the same stream as
  // the V2 op with key 5 and counter [0, 9].
  auto out = runKernel(
      "RandomUniform",
      AttrMap{
          {"dtype", DType::F32}, {"T", DType::I32}, {"seed", 5}, {"seed2", 9}},
      {i32({1}, {6})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  auto ref = runV2("StatelessRandomUniformV2", DType::F32, 6, 5, 0, 9);
  ASSERT_TRUE(ref.ok()) << ref.status();
  EXPECT_EQ(valuesOf<float>(*out), valuesOf<float>(*ref));
  auto ints = runKernel(
      "RandomUniformInt",
      AttrMap{
          {"Tout", DType::I32}, {"T", DType::I32}, {"seed", 5}, {"seed2", 9}},
      {i32({1}, {3}), i32({}, {0}), i32({}, {4})}, DType::I32);
  ASSERT_TRUE(ints.ok()) << ints.status();
  const auto words = philox({0, 0, 9, 0}, {5, 0});
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(valuesOf<int32_t>(*ints)[i], int32_t(words[i] % 4));
}

TEST(Multinomial, SamplesFromTheCdf) {
  // Logits log(1), log(3): P(class 1) = 3/4. Sample s uses words 2s, 2s+1
  // as a double u; class 1 iff u * 4 >= 1.
  Tensor logits = f32({1, 2}, {0, std::log(3.0f)});
  auto out = runKernel("StatelessMultinomial",
                       AttrMap{{"T", DType::F32}, {"output_dtype", DType::I64}},
                       {logits, i32({}, {2}), i64({2}, {7, -1})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  const auto mix =
      philox({7, 0, 0xffffffff, 0xffffffff}, {0x3ec8f720, 0x02461e29});
  const auto w = philox({0, 0, mix[2], mix[3]}, {mix[0], mix[1]});
  for (int s = 0; s < 2; ++s) {
    const uint64_t bits = (uint64_t(1023) << 52) |
                          (uint64_t(w[2 * s] & 0xfffff) << 32) | w[2 * s + 1];
    double u;
    std::memcpy(&u, &bits, 8);
    u -= 1.0;
    const double total = 1.0 + std::exp(double(std::log(3.0f)));
    EXPECT_EQ(valuesOf<int64_t>(*out)[s], u * total >= 1.0 ? 1 : 0) << s;
  }
  auto bad = runKernel("Multinomial",
                       AttrMap{{"T", DType::F32}, {"seed", 1}, {"seed2", 1}},
                       {f32({2}, {0, 0}), i32({}, {1})}, DType::I64);
  EXPECT_EQ(bad.status().message(),
            opError("Multinomial", "logits should be a matrix, got shape [2]"));
}

} // namespace

//===- RandomDistributionKernelsTest.cpp - Gamma, Poisson, ... --*- C++ -*-===//
//
// RandomDistributionKernels.cpp through the executor. Exact values are
// derived here from a reference Philox (the Random123 one of
// RandomKernelsTest) and TF's documented use of its words: output i of a
// stateful op starts at counter word 0 = 256 * i on key = seed, counter
// words 2, 3 = seed2; double uniforms take two words each, the second of a
// call first. The samplers' other values are checked by their moments
// (mean and variance within five standard errors), shuffles by the
// permutation property, crops by their geometry.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// Philox4x32-10 from the Random123 paper.
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

/// TF's Uint64ToDouble: 52 mantissa bits, 20 from x0 and 32 from x1.
double toDouble(uint32_t x0, uint32_t x1) {
  const uint64_t bits =
      (uint64_t(1023) << 52) | (uint64_t(x0 & 0xfffff) << 32) | x1;
  double d;
  std::memcpy(&d, &bits, 8);
  return d - 1.0;
}

/// The first double uniform of stateful output `i` (seed, seed2 < 2^32):
/// words 2 and 3 of call 256 * i.
double firstUniform(uint32_t seed, uint32_t seed2, uint32_t i) {
  const auto w = philox({256 * i, 0, seed2, 0}, {seed, 0});
  return toDouble(w[2], w[3]);
}

Tensor str(TensorShape shape, std::vector<std::string> values) {
  std::vector<std::string_view> views(values.begin(), values.end());
  return *makeStringTensor(shape, views);
}

struct Moments {
  double mean = 0, variance = 0;
};

template <typename T> Moments momentsOf(const std::vector<T> &v) {
  Moments m;
  for (T x : v)
    m.mean += static_cast<double>(x);
  m.mean /= v.size();
  for (T x : v)
    m.variance +=
        (static_cast<double>(x) - m.mean) * (static_cast<double>(x) - m.mean);
  m.variance /= v.size() - 1;
  return m;
}

/// Column `c` of a [n, k] row-major vector.
template <typename T>
std::vector<T> column(const std::vector<T> &v, int k, int c) {
  std::vector<T> out;
  for (size_t i = c; i < v.size(); i += k)
    out.push_back(v[i]);
  return out;
}

/// Mean and variance of n samples of a distribution with `mean` and
/// `variance` (and fourth central moment about 3 variance^2 + `excess`),
/// within five standard errors.
template <typename T>
void expectMoments(const std::vector<T> &v, double mean, double variance,
                   double kurtosis) {
  const double n = static_cast<double>(v.size());
  const Moments m = momentsOf(v);
  EXPECT_NEAR(m.mean, mean, 5 * std::sqrt(variance / n));
  // Var(sample variance) ~ (mu4 - variance^2) / n, mu4 = kurtosis * var^2.
  EXPECT_NEAR(m.variance, variance,
              5 * variance * std::sqrt((kurtosis - 1) / n));
}

AttrMap seeds(AttrMap attrs, int64_t seed, int64_t seed2) {
  attrs.set("seed", seed);
  attrs.set("seed2", seed2);
  return attrs;
}

//===----------------------------------------------------------------------===//
// Gamma
//===----------------------------------------------------------------------===//

TEST(RandomGamma, AlphaOneIsAnExponentialOfTheFirstUniform) {
  // alpha 1: -log1p(-u), u the first double uniform of each output's
  // stream; output [3, 2] for shape [3] and alpha [2] holds sample s of
  // alpha a at s * 2 + a, stream index a * 3 + s.
  auto out = runKernel(
      "RandomGamma",
      seeds(AttrMap{{"T", DType::F64}, {"S", DType::I32}}, 11, 22),
      {i32({1}, {3}), makeTensor<double>({2}, {1.0, 1.0})}, DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), (TensorShape{3, 2}));
  const std::vector<double> v = valuesOf<double>(*out);
  for (uint32_t a = 0; a < 2; ++a)
    for (uint32_t s = 0; s < 3; ++s)
      EXPECT_DOUBLE_EQ(v[s * 2 + a],
                       -std::log1p(-firstUniform(11, 22, a * 3 + s)))
          << a << " " << s;
}

TEST(RandomGamma, MomentsOfEachAlpha) {
  // Gamma(alpha, 1): mean alpha, variance alpha, kurtosis 3 + 6 / alpha.
  const std::vector<float> alphas = {0.5f, 2.0f, 7.5f};
  auto out = runKernel(
      "RandomGamma", seeds(AttrMap{{"T", DType::F32}, {"S", DType::I64}}, 3, 4),
      {i64({1}, {4000}), f32({3}, alphas)}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> v = valuesOf<float>(*out);
  for (int a = 0; a < 3; ++a) {
    const std::vector<float> col = column(v, 3, a);
    EXPECT_TRUE(
        std::all_of(col.begin(), col.end(), [](float x) { return x >= 0; }));
    expectMoments(col, alphas[a], alphas[a], 3 + 6 / alphas[a]);
  }
  // Half works the same way.
  auto h = runKernel(
      "RandomGamma", seeds(AttrMap{{"T", DType::F16}, {"S", DType::I32}}, 3, 4),
      {i32({1}, {2000}), makeTensorFrom<half>({}, {3.0})}, DType::F16);
  ASSERT_TRUE(h.ok()) << h.status();
  std::vector<double> hv;
  for (half x : valuesOf<half>(*h))
    hv.push_back(static_cast<float>(x));
  expectMoments(hv, 3.0, 3.0, 5.0);
}

TEST(RandomGamma, MatchesAReferenceImplementation) {
  // The first sample of each alpha (0.3 and 2.5 by Marsaglia-Tsang, 40 too)
  // and rate (Knuth below 10, Hormann's PTRS from 10 on) for seed 17, seed2
  // 4242, from a Python port of TF's RandomGammaOp and PoissonFunctor
  // (its own Philox, Python's libm functions). Bit-identical here; 4 ulps
  // allowed for another C library's log and sin.
  auto g =
      runKernel("RandomGamma",
                seeds(AttrMap{{"T", DType::F64}, {"S", DType::I32}}, 17, 4242),
                {i32({1}, {6}), makeTensor<double>({4}, {0.3, 1.0, 2.5, 40.0})},
                DType::F64);
  ASSERT_TRUE(g.ok()) << g.status();
  const std::vector<double> gamma = {0.014016444936586287, 0.6967212701081351,
                                     0.3494903496187552, 31.92344700815914};
  for (int a = 0; a < 4; ++a)
    EXPECT_DOUBLE_EQ(valuesOf<double>(*g)[a], gamma[a]) << a;
  auto p = runKernel(
      "RandomPoissonV2",
      seeds(
          AttrMap{{"R", DType::F64}, {"dtype", DType::I64}, {"S", DType::I32}},
          17, 4242),
      {i32({1}, {6}),
       makeTensor<double>({7}, {0.5, 3.0, 9.99, 10.0, 25.0, 1000.0, 123456.0})},
      DType::I64);
  ASSERT_TRUE(p.ok()) << p.status();
  const std::vector<int64_t> counts = {2, 2, 7, 10, 20, 1003, 123907};
  for (int r = 0; r < 7; ++r)
    EXPECT_EQ(valuesOf<int64_t>(*p)[r], counts[r]) << r;
}

TEST(RandomGamma, EmptyAndErrors) {
  auto empty = runKernel(
      "RandomGamma", seeds(AttrMap{{"T", DType::F32}, {"S", DType::I32}}, 1, 1),
      {i32({2}, {0, 5}), f32({2}, {1, 2})}, DType::F32);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), (TensorShape{0, 5, 2}));
  auto bad = runKernel(
      "RandomGamma", seeds(AttrMap{{"T", DType::F32}, {"S", DType::I32}}, 1, 1),
      {i32({2, 1}, {2, 2}), f32({1}, {1})}, DType::F32);
  EXPECT_EQ(bad.status().message(),
            opError("RandomGamma", "shape must be a vector of {int32,int64}, "
                                   "got shape: Tensor<type: int32 shape: "
                                   "[2,1] values: [2][2]>"));
  auto negative = runKernel(
      "RandomGamma", seeds(AttrMap{{"T", DType::F32}, {"S", DType::I32}}, 1, 1),
      {i32({1}, {-2}), f32({1}, {1})}, DType::F32);
  EXPECT_EQ(negative.status().message(),
            opError("RandomGamma", "Dimension -2 must be >= 0"));
}

TEST(StatelessRandomGamma, SeedAndKeyCounterFormsAgree) {
  // alpha 1 from seed [7, -1]: the key and counter of one Philox call on
  // the seed (RandomKernelsTest's seed mixing), output i from call 256 * i.
  const auto mix =
      philox({7, 0, 0xffffffff, 0xffffffff}, {0x3ec8f720, 0x02461e29});
  auto v2 = runKernel(
      "StatelessRandomGammaV2",
      AttrMap{{"dtype", DType::F64}, {"T", DType::I32}, {"Tseed", DType::I64}},
      {i32({1}, {3}), i64({2}, {7, -1}), makeTensor<double>({}, {1.0})},
      DType::F64);
  ASSERT_TRUE(v2.ok()) << v2.status();
  for (uint32_t i = 0; i < 3; ++i) {
    const auto w = philox({256 * i, 0, mix[2], mix[3]}, {mix[0], mix[1]});
    EXPECT_DOUBLE_EQ(valuesOf<double>(*v2)[i],
                     -std::log1p(-toDouble(w[2], w[3])))
        << i;
  }
  // V3 on the same key and counter gives the same samples for any alpha.
  const uint64_t key = mix[0] | uint64_t(mix[1]) << 32;
  const uint64_t c1 = mix[2] | uint64_t(mix[3]) << 32;
  Tensor alpha = makeTensor<float>({2}, {0.3f, 4.0f});
  auto a = runKernel(
      "StatelessRandomGammaV2",
      AttrMap{{"dtype", DType::F32}, {"T", DType::I32}, {"Tseed", DType::I64}},
      {i32({2}, {5, 2}), i64({2}, {7, -1}), alpha}, DType::F32);
  auto b =
      runKernel("StatelessRandomGammaV3",
                AttrMap{{"dtype", DType::F32}, {"shape_dtype", DType::I32}},
                {i32({2}, {5, 2}), makeTensor<uint64_t>({1}, {key}),
                 makeTensor<uint64_t>({2}, {0, c1}), i32({}, {1}), alpha},
                DType::F32);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(valuesOf<float>(*a), valuesOf<float>(*b));
}

TEST(StatelessRandomGamma, MomentsAndErrors) {
  auto out = runKernel(
      "StatelessRandomGammaV2",
      AttrMap{{"dtype", DType::F64}, {"T", DType::I32}, {"Tseed", DType::I32}},
      {i32({2}, {5000, 2}), i32({2}, {1, 2}),
       makeTensor<double>({2}, {0.25, 12.0})},
      DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<double> v = valuesOf<double>(*out);
  expectMoments(column(v, 2, 0), 0.25, 0.25, 3 + 6 / 0.25);
  expectMoments(column(v, 2, 1), 12.0, 12.0, 3 + 6 / 12.0);
  auto bad = runKernel(
      "StatelessRandomGammaV2",
      AttrMap{{"dtype", DType::F32}, {"T", DType::I32}, {"Tseed", DType::I32}},
      {i32({2}, {2, 3}), i32({2}, {1, 2}), f32({2}, {1, 2})}, DType::F32);
  EXPECT_EQ(bad.status().message(),
            opError("StatelessRandomGammaV2",
                    "Shape passed in must end with broadcasted shape."));
  auto seed = runKernel(
      "StatelessRandomGammaV2",
      AttrMap{{"dtype", DType::F32}, {"T", DType::I32}, {"Tseed", DType::I32}},
      {i32({1}, {2}), i32({1}, {1}), f32({}, {1})}, DType::F32);
  EXPECT_EQ(
      seed.status().message(),
      opError("StatelessRandomGammaV2", "seed must have shape [2], not [1]"));
  auto alg =
      runKernel("StatelessRandomGammaV3",
                AttrMap{{"dtype", DType::F32}, {"shape_dtype", DType::I32}},
                {i32({1}, {2}), makeTensor<uint64_t>({1}, {1}),
                 makeTensor<uint64_t>({2}, {0, 0}), i32({}, {2}), f32({}, {1})},
                DType::F32);
  EXPECT_EQ(alg.status().message(),
            opError("StatelessRandomGammaV3", "Unsupported algorithm id: 2"));
}

//===----------------------------------------------------------------------===//
// Poisson
//===----------------------------------------------------------------------===//

/// Knuth's Poisson count for `rate` on the stream whose call c is
/// philox(counter(c), key): double uniforms (words 2, 3 then 0, 1 of each
/// call) multiplied until the product drops to exp(-rate); the count of
/// those before the last.
template <typename CounterOf>
int64_t knuthCount(double rate, CounterOf counter,
                   std::array<uint32_t, 2> key) {
  const double limit = std::exp(-rate);
  double prod = 1;
  for (uint32_t call = 0;; ++call) {
    const auto w = philox(counter(call), key);
    const double us[2] = {toDouble(w[2], w[3]), toDouble(w[0], w[1])};
    for (int k = 0; k < 2; ++k) {
      prod *= us[k];
      if (prod <= limit)
        return call * 2 + k;
    }
  }
}

TEST(RandomPoisson, SmallRatesCountUniforms) {
  // Rate 4 (Knuth): the number of uniforms before their product drops to
  // exp(-4), minus one.
  auto out = runKernel(
      "RandomPoissonV2",
      seeds(
          AttrMap{{"R", DType::F64}, {"dtype", DType::I64}, {"S", DType::I32}},
          5, 6),
      {i32({1}, {8}), makeTensor<double>({}, {4.0})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  for (uint32_t i = 0; i < 8; ++i)
    EXPECT_EQ(valuesOf<int64_t>(*out)[i],
              knuthCount(4.0,
                         [&](uint32_t c) {
                           return std::array<uint32_t, 4>{256 * i + c, 0, 6, 0};
                         },
                         {5, 0}))
        << i;
}

TEST(RandomPoisson, Moments) {
  // Poisson(rate): mean and variance rate, kurtosis 3 + 1 / rate. Rates 2.5
  // (Knuth) and 40, 1000 (Hormann's rejection).
  const std::vector<float> rates = {2.5f, 40.0f, 1000.0f};
  auto out =
      runKernel("RandomPoisson",
                seeds(AttrMap{{"dtype", DType::F32}, {"S", DType::I32}}, 8, 9),
                {i32({1}, {4000}), f32({3}, rates)}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> v = valuesOf<float>(*out);
  for (int r = 0; r < 3; ++r) {
    const std::vector<float> col = column(v, 3, r);
    EXPECT_TRUE(std::all_of(col.begin(), col.end(), [](float x) {
      return x >= 0 && x == std::floor(x);
    }));
    expectMoments(col, rates[r], rates[r], 3 + 1 / rates[r]);
  }
  // int32 rates, int32 samples.
  auto ints = runKernel(
      "RandomPoissonV2",
      seeds(
          AttrMap{{"R", DType::I32}, {"dtype", DType::I32}, {"S", DType::I64}},
          8, 9),
      {i64({1}, {4000}), i32({}, {30})}, DType::I32);
  ASSERT_TRUE(ints.ok()) << ints.status();
  expectMoments(valuesOf<int32_t>(*ints), 30, 30, 3 + 1 / 30.0);
}

TEST(RandomPoisson, EdgeRatesAndTheBound) {
  // Rate 0 and negative rates give 0 (exp(-rate) >= 1); +inf gives inf for
  // floats and 0 for integers (NumTraits<int>::infinity()).
  auto out = runKernel(
      "RandomPoissonV2",
      seeds(
          AttrMap{{"R", DType::F32}, {"dtype", DType::F64}, {"S", DType::I32}},
          1, 2),
      {i32({1}, {2}), f32({3}, {0.0f, -3.0f, INFINITY})}, DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<double>(*out),
            (std::vector<double>{0, 0, INFINITY, 0, 0, INFINITY}));
  auto ints = runKernel(
      "RandomPoissonV2",
      seeds(
          AttrMap{{"R", DType::F32}, {"dtype", DType::I64}, {"S", DType::I32}},
          1, 2),
      {i32({1}, {1}), f32({1}, {INFINITY})}, DType::I64);
  ASSERT_TRUE(ints.ok()) << ints.status();
  EXPECT_EQ(valuesOf<int64_t>(*ints)[0], 0);
  // Samples of rate 1e6 exceed half's 65504: TF retries forever, here the
  // sample fails.
  auto bound = runKernel(
      "RandomPoissonV2",
      seeds(
          AttrMap{{"R", DType::F32}, {"dtype", DType::F16}, {"S", DType::I32}},
          1, 2),
      {i32({1}, {1}), f32({}, {1e6f})}, DType::F16);
  EXPECT_EQ(bound.status().message(),
            opError("RandomPoissonV2",
                    "Poisson sampling for rate 1e+06 did not accept a sample "
                    "in 10000 attempts (are its samples beyond f16?)"));
}

TEST(StatelessRandomPoisson, SeedStreamAndErrors) {
  // Rate 4 on seed [7, -1]: Knuth's count on the mixed key and counter.
  const auto mix =
      philox({7, 0, 0xffffffff, 0xffffffff}, {0x3ec8f720, 0x02461e29});
  auto out = runKernel(
      "StatelessRandomPoisson",
      AttrMap{{"Rtype", DType::F64},
              {"dtype", DType::I32},
              {"T", DType::I32},
              {"Tseed", DType::I64}},
      {i32({1}, {4}), i64({2}, {7, -1}), makeTensor<double>({}, {4.0})},
      DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  for (uint32_t i = 0; i < 4; ++i)
    EXPECT_EQ(valuesOf<int32_t>(*out)[i],
              knuthCount(4.0,
                         [&](uint32_t c) {
                           return std::array<uint32_t, 4>{256 * i + c, 0,
                                                          mix[2], mix[3]};
                         },
                         {mix[0], mix[1]}))
        << i;
  auto bad = runKernel("StatelessRandomPoisson",
                       AttrMap{{"Rtype", DType::F32},
                               {"dtype", DType::F32},
                               {"T", DType::I32},
                               {"Tseed", DType::I64}},
                       {i32({1}, {4}), i64({2}, {7, -1}), f32({2}, {1, 2})},
                       DType::F32);
  EXPECT_EQ(bad.status().message(),
            opError("StatelessRandomPoisson",
                    "Shape passed in must end with broadcasted shape."));
}

//===----------------------------------------------------------------------===//
// RandomShuffle
//===----------------------------------------------------------------------===//

TEST(RandomShuffle, SwapsFromTheStream) {
  // Two rows: one word (call 0's word 0), rows swapped iff it is odd.
  const auto w = philox({0, 0, 9, 0}, {5, 0});
  auto out = runKernel("RandomShuffle", seeds(AttrMap{{"T", DType::I32}}, 5, 9),
                       {i32({2, 2}, {1, 2, 3, 4})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<int32_t>(*out),
            (w[0] % 2 ? std::vector<int32_t>{3, 4, 1, 2}
                      : std::vector<int32_t>{1, 2, 3, 4}));
  // Five rows: ShuffleRange with words 0..3 of call 0.
  std::vector<int32_t> expected = {0, 1, 2, 3, 4};
  for (int i = 0; i < 4; ++i)
    std::swap(expected[i], expected[i + w[i] % (5 - i)]);
  auto five =
      runKernel("RandomShuffle", seeds(AttrMap{{"T", DType::I32}}, 5, 9),
                {i32({5}, {0, 1, 2, 3, 4})}, DType::I32);
  ASSERT_TRUE(five.ok()) << five.status();
  EXPECT_EQ(valuesOf<int32_t>(*five), expected);
}

TEST(RandomShuffle, PermutesRowsOfEveryDtype) {
  std::vector<double> values(200 * 3);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<double>(i);
  auto out = runKernel("RandomShuffle", seeds(AttrMap{{"T", DType::F64}}, 1, 2),
                       {makeTensor<double>({200, 3}, values)}, DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<double> v = valuesOf<double>(*out);
  std::vector<int> rows;
  for (int r = 0; r < 200; ++r) {
    // Rows stay whole: (3k, 3k+1, 3k+2).
    EXPECT_EQ(v[r * 3 + 1], v[r * 3] + 1);
    EXPECT_EQ(v[r * 3 + 2], v[r * 3] + 2);
    rows.push_back(static_cast<int>(v[r * 3]) / 3);
  }
  EXPECT_NE(rows[0] + rows[1] * 200, 0 + 1 * 200); // Not the identity.
  std::sort(rows.begin(), rows.end());
  for (int r = 0; r < 200; ++r)
    EXPECT_EQ(rows[r], r);
  // Strings, bools; one row or a scalar comes back unchanged.
  auto s =
      runKernel("RandomShuffle", seeds(AttrMap{{"T", DType::String}}, 1, 2),
                {str({4}, {"a", "bb", "", "ccc"})}, DType::String);
  ASSERT_TRUE(s.ok()) << s.status();
  std::vector<std::string> got;
  for (std::string_view e : stringElements(*s))
    got.emplace_back(e);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"", "a", "bb", "ccc"}));
  auto one = runKernel("RandomShuffle", seeds(AttrMap{{"T", DType::I64}}, 1, 2),
                       {i64({1, 3}, {4, 5, 6})}, DType::I64);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(valuesOf<int64_t>(*one), (std::vector<int64_t>{4, 5, 6}));
  auto scalar =
      runKernel("RandomShuffle", seeds(AttrMap{{"T", DType::Bool}}, 1, 2),
                {makeTensor<bool>({}, {true})}, DType::Bool);
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_EQ(scalar->shape(), TensorShape());
}

//===----------------------------------------------------------------------===//
// Bounding boxes
//===----------------------------------------------------------------------===//

AttrMap boxAttrs(DType t, std::vector<float> area, std::vector<float> aspect) {
  return AttrMap{{"T", t},
                 {"seed", int64_t(3)},
                 {"seed2", int64_t(4)},
                 {"area_range", std::move(area)},
                 {"aspect_ratio_range", std::move(aspect)},
                 {"max_attempts", int64_t(100)},
                 {"use_image_if_no_bounding_boxes", true}};
}

TEST(SampleDistortedBoundingBox, WholeImageWhenTheAreaMustBeOne) {
  // area_range [1, 1], aspect 1 on a 10 x 10 image: height sqrt(100) = 10,
  // the only crop is the image.
  AttrMap attrs = boxAttrs(DType::I32, {1.0f, 1.0f}, {1.0f, 1.0f});
  attrs.set("min_object_covered", 0.1f);
  auto out = runKernelN(
      "SampleDistortedBoundingBox", attrs,
      {i32({3}, {10, 10, 3}), f32({1, 1, 4}, {0.1f, 0.2f, 0.5f, 0.6f})},
      {DType::I32, DType::I32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{0, 0, 0}));
  EXPECT_EQ(valuesOf<int32_t>((*out)[1]), (std::vector<int32_t>{10, 10, -1}));
  EXPECT_EQ((*out)[2].shape(), (TensorShape{1, 1, 4}));
  EXPECT_EQ(valuesOf<float>((*out)[2]),
            (std::vector<float>{0.0f, 0.0f, 1.0f, 1.0f}));
}

TEST(SampleDistortedBoundingBox, MatchesAReferenceImplementation) {
  // Seed [1, 2], a 100 x 200 image, box [0.4, 0.4, 0.6, 0.6] half covered,
  // area [0.1, 0.5], aspect [0.5, 2]: a Python port of TF's
  // GenerateRandomCrop (float32 rounding emulated, its own Philox and
  // ExactUniformInt) accepts its first attempt, the crop x 13..124,
  // y 19..82.
  auto out = runKernelN(
      "StatelessSampleDistortedBoundingBox",
      AttrMap{{"T", DType::I32},
              {"Tseed", DType::I64},
              {"area_range", std::vector<float>{0.1f, 0.5f}},
              {"aspect_ratio_range", std::vector<float>{0.5f, 2.0f}},
              {"max_attempts", int64_t(100)}},
      {i32({3}, {100, 200, 3}), f32({1, 1, 4}, {0.4f, 0.4f, 0.6f, 0.6f}),
       f32({}, {0.5f}), i64({2}, {1, 2})},
      {DType::I32, DType::I32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<int32_t>((*out)[0]), (std::vector<int32_t>{19, 13, 0}));
  EXPECT_EQ(valuesOf<int32_t>((*out)[1]), (std::vector<int32_t>{63, 111, -1}));
  EXPECT_EQ(valuesOf<float>((*out)[2]),
            (std::vector<float>{19 / 100.0f, 13 / 200.0f, 82 / 100.0f,
                                124 / 200.0f}));
}

TEST(SampleDistortedBoundingBox, ExtremeAspectRatiosFallBackToTheImage) {
  // Aspect ratios 1e-30 and 1e30 make heights and widths far outside int
  // (TF's int arithmetic overflows there): no crop fits, every attempt
  // fails and the crop is the whole image.
  for (float aspect : {1e-30f, 1e30f}) {
    auto out = runKernelN(
        "StatelessSampleDistortedBoundingBox",
        AttrMap{{"T", DType::I64},
                {"Tseed", DType::I32},
                {"area_range", std::vector<float>{0.05f, 1.0f}},
                {"aspect_ratio_range", std::vector<float>{aspect, aspect}},
                {"max_attempts", int64_t(10)}},
        {i64({3}, {10, 20, 3}), f32({1, 1, 4}, {0, 0, 1, 1}), f32({}, {0.1f}),
         i32({2}, {3, 4})},
        {DType::I64, DType::I64, DType::F32});
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(valuesOf<int64_t>((*out)[0]), (std::vector<int64_t>{0, 0, 0}));
    EXPECT_EQ(valuesOf<int64_t>((*out)[1]), (std::vector<int64_t>{10, 20, -1}));
  }
}

TEST(SampleDistortedBoundingBox, CropsRespectTheRanges) {
  // Area in [0.1, 0.5] of a 100 x 200 (h x w) image, aspect w/h in
  // [0.5, 2], covering all of the box [0.4, 0.4, 0.6, 0.6] (min 1.0): the
  // crop contains rows 40..60 and columns 80..120.
  for (int64_t seed = 1; seed <= 20; ++seed) {
    auto out = runKernelN(
        "StatelessSampleDistortedBoundingBox",
        AttrMap{{"T", DType::I64},
                {"Tseed", DType::I64},
                {"area_range", std::vector<float>{0.1f, 0.5f}},
                {"aspect_ratio_range", std::vector<float>{0.5f, 2.0f}},
                {"max_attempts", int64_t(1000)}},
        {i64({3}, {100, 200, 3}), f32({1, 1, 4}, {0.4f, 0.4f, 0.6f, 0.6f}),
         f32({}, {1.0f}), i64({2}, {seed, 0})},
        {DType::I64, DType::I64, DType::F32});
    ASSERT_TRUE(out.ok()) << out.status();
    const auto begin = valuesOf<int64_t>((*out)[0]);
    const auto size = valuesOf<int64_t>((*out)[1]);
    const auto box = valuesOf<float>((*out)[2]);
    EXPECT_EQ(begin[2], 0);
    EXPECT_EQ(size[2], -1);
    EXPECT_LE(begin[0], 40);
    EXPECT_GE(begin[0] + size[0], 60);
    EXPECT_LE(begin[1], 80);
    EXPECT_GE(begin[1] + size[1], 120);
    EXPECT_LE(begin[0] + size[0], 100);
    EXPECT_LE(begin[1] + size[1], 200);
    const double area = double(size[0]) * size[1] / (100.0 * 200.0);
    EXPECT_GE(area, 0.1 - 1e-6) << seed;
    EXPECT_LE(area, 0.5 + 1e-6) << seed;
    // width = round(aspect * height).
    EXPECT_GE(size[1], std::floor(0.5 * size[0]));
    EXPECT_LE(size[1], std::ceil(2.0 * size[0]));
    EXPECT_FLOAT_EQ(box[0], begin[0] / 100.0f);
    EXPECT_FLOAT_EQ(box[1], begin[1] / 200.0f);
    EXPECT_FLOAT_EQ(box[2], (begin[0] + size[0]) / 100.0f);
    EXPECT_FLOAT_EQ(box[3], (begin[1] + size[1]) / 200.0f);
  }
}

TEST(SampleDistortedBoundingBox, StatelessIsDeterministicV2IsStateful) {
  auto run = [](int64_t seed) {
    return runKernelN("StatelessSampleDistortedBoundingBox",
                      AttrMap{{"T", DType::U8}, {"Tseed", DType::I32}},
                      {makeTensor<uint8_t>({3}, {64, 64, 3}),
                       f32({1, 0, 4}, {}), f32({}, {0.1f}),
                       i32({2}, {static_cast<int32_t>(seed), 5})},
                      {DType::U8, DType::U8, DType::F32});
  };
  // No boxes and use_image_if_no_bounding_boxes false.
  EXPECT_EQ(run(1).status().message(),
            opError("StatelessSampleDistortedBoundingBox",
                    "No bounding boxes provided as input. One must enable "
                    "use_image_if_no_bounding_boxes if you wish to not "
                    "provide any bounding boxes."));
  auto withImage = [](int64_t seed) {
    return runKernelN("StatelessSampleDistortedBoundingBox",
                      AttrMap{{"T", DType::I16},
                              {"Tseed", DType::I32},
                              {"use_image_if_no_bounding_boxes", true}},
                      {makeTensor<int16_t>({3}, {64, 48, 3}),
                       f32({1, 0, 4}, {}), f32({}, {0.1f}),
                       i32({2}, {static_cast<int32_t>(seed), 5})},
                      {DType::I16, DType::I16, DType::F32});
  };
  auto a = withImage(1), b = withImage(1);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(valuesOf<int16_t>((*a)[0]), valuesOf<int16_t>((*b)[0]));
  EXPECT_EQ(valuesOf<int16_t>((*a)[1]), valuesOf<int16_t>((*b)[1]));
  auto v2 = runKernelN("SampleDistortedBoundingBoxV2",
                       boxAttrs(DType::I8, {0.05f, 1.0f}, {0.75f, 1.33f}),
                       {makeTensor<int8_t>({3}, {100, 100, 1}),
                        f32({1, 0, 4}, {}), f32({}, {0.5f})},
                       {DType::I8, DType::I8, DType::F32});
  ASSERT_TRUE(v2.ok()) << v2.status();
  const auto begin = valuesOf<int8_t>((*v2)[0]);
  const auto size = valuesOf<int8_t>((*v2)[1]);
  EXPECT_LE(begin[0] + size[0], 100);
  EXPECT_LE(begin[1] + size[1], 100);
  EXPECT_EQ(size[2], -1);
}

TEST(SampleDistortedBoundingBox, Errors) {
  auto run = [](const char *op, AttrMap attrs, Tensor size, Tensor boxes) {
    std::vector<Tensor> in = {std::move(size), std::move(boxes)};
    if (std::string(op) != "SampleDistortedBoundingBox")
      in.push_back(f32({}, {0.1f}));
    return runKernelN(op, attrs, in, {DType::I32, DType::I32, DType::F32});
  };
  const char *v1 = "SampleDistortedBoundingBox";
  AttrMap ok = boxAttrs(DType::I32, {0.05f, 1.0f}, {0.75f, 1.33f});
  Tensor box = f32({1, 1, 4}, {0, 0, 1, 1});
  EXPECT_EQ(run(v1, ok, i32({2}, {3, 3}), box).status().message(),
            opError(v1, "image_size must contain 3 elements[2]"));
  EXPECT_EQ(run(v1, ok, i32({3}, {-1, 3, 3}), box).status().message(),
            opError(v1, "image height cannot be >= int32 max"));
  EXPECT_EQ(run(v1, ok, i32({3}, {3, 3, 3}), f32({1, 4}, {0, 0, 1, 1}))
                .status()
                .message(),
            opError(v1, "input boxes must be 3-dimensional [batch, "
                        "num_boxes, coords]: [1,4]"));
  EXPECT_EQ(run(v1, ok, i32({3}, {3, 3, 3}), f32({1, 1, 4}, {0, 0, 1.5f, 1}))
                .status()
                .message(),
            opError(v1, "All bounding box coordinates must be in [0.0, "
                        "1.0]: 1.5"));
  EXPECT_EQ(run(v1, boxAttrs(DType::I32, {0.05f, 1.5f}, {0.75f, 1.33f}),
                i32({3}, {3, 3, 3}), box)
                .status()
                .message(),
            opError(v1, "Area range must be less then or equal to 1.0: "
                        "[0.05, 1.5]"));
  EXPECT_EQ(run(v1, boxAttrs(DType::I32, {0.05f, 1.0f}, {0.75f}),
                i32({3}, {3, 3, 3}), box)
                .status()
                .message(),
            opError(v1, "Aspect ratio range field must specify 2 dimensions"));
  const char *v2 = "SampleDistortedBoundingBoxV2";
  auto negative =
      runKernelN(v2, ok, {i32({3}, {3, 3, 3}), box, f32({}, {-0.5f})},
                 {DType::I32, DType::I32, DType::F32});
  EXPECT_EQ(negative.status().message(),
            opError(v2, "Min object covered must be non-negative: -0.5"));
  // The OpDef's fixed float inputs are checked by the kernel.
  auto wide = runKernelN(
      v2, ok, {i32({3}, {3, 3, 3}), box, makeTensor<double>({}, {0.5})},
      {DType::I32, DType::I32, DType::F32});
  EXPECT_EQ(
      wide.status().message(),
      "loc(test): op 'SampleDistortedBoundingBoxV2' takes a f32 tensor as "
      "input #2 (its OpDef fixes it) but the program gives f64");
}

} // namespace

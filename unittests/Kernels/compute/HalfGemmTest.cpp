//===- HalfGemmTest.cpp - The f16 GEMM against a reference loop -----------===//
//
// gemm::hgemm (AArch64 with FP16 arithmetic: qemu's -cpu max has it; other
// CPUs skip, naming why) against independent loops in double precision:
// exactly, on small integers whose every partial sum a half holds, over
// shapes with edge tiles in every dimension, k chunks, transposed B,
// strided C with sentinels and every epilogue; and within the f16 rounding
// bound on random values, on one and two threads.
//
//===----------------------------------------------------------------------===//

#include "compute/Gemm.h"

#include "tfrt_fallback/Runtime/HostContext.h"

#include "gtest/gtest.h"

#include <Eigen/Core>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace tfrt_fallback::rt::gemm {
namespace {

#if defined(__aarch64__)

using detail::TileActivation;

uint16_t toHalf(double x) {
  return Eigen::numext::bit_cast<uint16_t>(Eigen::half(static_cast<float>(x)));
}
double fromHalf(uint16_t bits) {
  return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits));
}

const Eigen::ThreadPoolDevice &device(int threads) {
  static HostContext *one = new HostContext(1);
  static HostContext *two = new HostContext(2);
  return (threads == 1 ? one : two)->eigenDevice();
}

enum class Ep { None, Bias, BiasRelu, BnRelu6, BiasLeaky, BiasPrelu, Addend };
constexpr Ep kAllEpilogues[] = {Ep::None,    Ep::Bias,      Ep::BiasRelu,
                                Ep::BnRelu6, Ep::BiasLeaky, Ep::BiasPrelu,
                                Ep::Addend};

/// One hgemm problem: operands as halves, the reference in double.
struct HalfCase {
  int64_t m, n, k, ldb, ldc;
  bool transB;
  Ep ep;
  std::vector<uint16_t> a, b, c, addend;
  std::vector<uint16_t> bias, mean, factor, offset, prelu;
  static constexpr uint16_t kSentinel = 0x7bff; // 65504, the largest half

  /// `value(rng)` draws every operand.
  template <typename Draw>
  HalfCase(int64_t m, int64_t n, int64_t k, bool transB, int64_t padC, Ep ep,
           Draw &&value)
      : m(m), n(n), k(k), ldb(transB ? k : n), ldc(n + padC), transB(transB),
        ep(ep) {
    a.resize(std::max<int64_t>(m * k, 1));
    b.resize(std::max<int64_t>(k * n, 1));
    for (uint16_t &x : a)
      x = toHalf(value());
    for (uint16_t &x : b)
      x = toHalf(value());
    for (std::vector<uint16_t> *v : {&bias, &mean, &offset, &prelu})
      for (int64_t j = 0; j < n; ++j)
        v->push_back(toHalf(value()));
    // Powers of two: the batch norm's product is exact.
    for (int64_t j = 0; j < n; ++j) {
      factor.push_back(toHalf(j % 2 ? 0.5 : 2.0));
      prelu[j] = toHalf(j % 2 ? 0.25 : 0.5);
    }
    c.assign(m * ldc + 16, kSentinel);
    addend.resize(m * ldc);
    for (uint16_t &x : addend)
      x = toHalf(value());
  }

  double aAt(int64_t i, int64_t q) const { return fromHalf(a[i * k + q]); }
  double bAt(int64_t q, int64_t j) const {
    return fromHalf(transB ? b[j * ldb + q] : b[q * ldb + j]);
  }

  GemmEpilogueOf<uint16_t> epilogue() const {
    GemmEpilogueOf<uint16_t> e;
    switch (ep) {
    case Ep::None:
      break;
    case Ep::Bias:
      e.tile.bias = bias.data();
      break;
    case Ep::BiasRelu:
      e.tile.bias = bias.data();
      e.tile.activation = TileActivation::Relu;
      break;
    case Ep::BnRelu6:
      e.tile.bnMean = mean.data();
      e.tile.bnFactor = factor.data();
      e.tile.bnOffset = offset.data();
      e.tile.activation = TileActivation::Relu6;
      break;
    case Ep::BiasLeaky:
      e.tile.bias = bias.data();
      e.tile.activation = TileActivation::LeakyRelu;
      e.tile.alpha = 0.5f;
      break;
    case Ep::BiasPrelu:
      e.tile.bias = bias.data();
      e.tile.activation = TileActivation::Prelu;
      e.tile.prelu = prelu.data();
      break;
    case Ep::Addend:
      e.tile.addend = true;
      e.tile.addendOffset = reinterpret_cast<const char *>(addend.data()) -
                            reinterpret_cast<const char *>(c.data());
      e.tile.activation = TileActivation::Relu;
      break;
    }
    return e;
  }

  /// C[i][j] in double, and the sum of the magnitudes it was made of.
  std::pair<double, double> expected(int64_t i, int64_t j) const {
    double x = 0, magnitude = 0;
    for (int64_t q = 0; q < k; ++q) {
      x += aAt(i, q) * bAt(q, j);
      magnitude += std::abs(aAt(i, q) * bAt(q, j));
    }
    switch (ep) {
    case Ep::None:
      break;
    case Ep::Bias:
      x += fromHalf(bias[j]);
      break;
    case Ep::BiasRelu:
      x = std::max(x + fromHalf(bias[j]), 0.0);
      break;
    case Ep::BnRelu6:
      x = (x - fromHalf(mean[j])) * fromHalf(factor[j]) + fromHalf(offset[j]);
      x = std::min(std::max(x, 0.0), 6.0);
      magnitude = 2 * magnitude + 4;
      break;
    case Ep::BiasLeaky:
      x += fromHalf(bias[j]);
      x = x > 0 ? x : 0.5 * x;
      break;
    case Ep::BiasPrelu:
      x += fromHalf(bias[j]);
      x = x > 0 ? x : fromHalf(prelu[j]) * x;
      break;
    case Ep::Addend:
      x = std::max(x + fromHalf(addend[i * ldc + j]), 0.0);
      break;
    }
    return {x, magnitude + 2};
  }

  void run(int threads, bool prepacked) {
    std::vector<uint16_t> packed;
    if (prepacked) {
      packed.resize(packedHalfBElements(k, n));
      packHalfB(b.data(), ldb, transB, k, n, packed.data());
    }
    hgemm(device(threads), m, n, k, a.data(), k, false, b.data(), ldb, transB,
          c.data(), ldc, epilogue(), prepacked ? packed.data() : nullptr);
  }

  /// Mismatches beyond `relative` times the magnitude of each sum (0:
  /// exact), and writes outside C's m x n.
  int check(const std::string &what, double relative) const {
    int bad = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < ldc; ++j) {
        const uint16_t bits = c[i * ldc + j];
        if (j >= n) {
          if (bits != kSentinel && bad++ < 3)
            ADD_FAILURE() << what << ": wrote C[" << i << "][" << j << "]";
          continue;
        }
        auto [want, magnitude] = expected(i, j);
        const double got = fromHalf(bits);
        if (!(std::abs(got - want) <= relative * magnitude) && bad++ < 3)
          ADD_FAILURE() << what << ": C[" << i << "][" << j << "] = " << got
                        << ", expected " << want;
      }
    for (size_t t = m * ldc; t < c.size(); ++t)
      if (c[t] != kSentinel && bad++ < 3)
        ADD_FAILURE() << what << ": wrote past C";
    return bad;
  }
};

class HalfGemmTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!isaSupported(Isa::NeonFp16))
      GTEST_SKIP() << "this CPU lacks the FP16 arithmetic (HWCAP_ASIMDHP)";
  }
};

std::string describe(int64_t m, int64_t n, int64_t k, bool transB, Ep ep) {
  return "m=" + std::to_string(m) + " n=" + std::to_string(n) +
         " k=" + std::to_string(k) + (transB ? " transB" : "") +
         " epilogue=" + std::to_string(static_cast<int>(ep));
}

TEST_F(HalfGemmTest, SmallIntegersExactlyOnEveryEdge) {
  // Integers in [-3, 3]: every partial sum (|x| <= 9 * 70 + 6) is a half,
  // so the f16 sums are exact whatever their order, and so is the
  // epilogue (powers of two as factors).
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> digit(-3, 3);
  const int64_t ms[] = {1, 2, 5, 7, 8, 9, 15, 16, 17, 33};
  const int64_t ns[] = {1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 50};
  const int64_t ks[] = {0, 1, 3, 7, 8, 9, 16, 17, 70};
  int index = 0;
  for (int64_t m : ms)
    for (int64_t n : ns)
      for (int64_t k : ks) {
        const bool transB = index % 2;
        const Ep ep = kAllEpilogues[index % 7];
        HalfCase c(m, n, k, transB, index % 3 ? 0 : 5, ep,
                   [&] { return digit(rng); });
        c.run(/*threads=*/1, /*prepacked=*/index % 4 == 1);
        ++index;
        ASSERT_EQ(c.check(describe(m, n, k, transB, ep), 0), 0);
      }
}

TEST_F(HalfGemmTest, ManyKChunksExactly) {
  // k = 1500 over the 512-deep chunks, accumulating in C between them:
  // values in {-1, 0, 1} keep every sum exact.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> unit(-1, 1);
  for (int threads : {1, 2}) {
    HalfCase c(37, 45, 1500, false, 3, Ep::Bias, [&] { return unit(rng); });
    c.run(threads, /*prepacked=*/false);
    EXPECT_EQ(c.check("k=1500 threads=" + std::to_string(threads), 0), 0);
  }
}

TEST_F(HalfGemmTest, RandomValuesWithinTheF16Bound) {
  // Each of the k f16 multiply-adds rounds once (relative 2^-11): the error
  // of a sum is at most about (k + 3) * 2^-11 times the sum of its terms'
  // magnitudes. A wrong operand or a lost term would be off by about one
  // term, far above that.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> dist(-1, 1);
  for (int threads : {1, 2})
    for (int64_t k : {5, 64, 300}) {
      HalfCase c(70, 90, k, k == 64, 0, Ep::BiasRelu,
                 [&] { return dist(rng); });
      c.run(threads, /*prepacked=*/true);
      EXPECT_EQ(c.check("random k=" + std::to_string(k),
                        (k + 3) * std::ldexp(1.0, -11)),
                0);
    }
}

TEST_F(HalfGemmTest, NanPropagatesThroughRelu) {
  const uint16_t nan = 0x7e00, one = toHalf(1), minusOne = toHalf(-1);
  std::vector<uint16_t> a = {nan, one, minusOne, one}, b(4, one), c(4);
  GemmEpilogueOf<uint16_t> e;
  e.tile.activation = TileActivation::Relu;
  hgemm(device(1), 2, 2, 2, a.data(), 2, false, b.data(), 2, false, c.data(), 2,
        e);
  EXPECT_TRUE(std::isnan(fromHalf(c[0])));
  EXPECT_TRUE(std::isnan(fromHalf(c[1])));
  EXPECT_EQ(fromHalf(c[2]), 0.0);
  EXPECT_EQ(fromHalf(c[3]), 0.0);
}

#else

TEST(HalfGemmTest, OnlyOnAArch64) {
  GTEST_SKIP() << "hgemm needs AArch64's FP16 arithmetic";
}

#endif

} // namespace
} // namespace tfrt_fallback::rt::gemm

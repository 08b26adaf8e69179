//===- GemmTest.cpp - The packed f32 GEMM against a naive reference -------===//
//
// gemm::sgemm on every microkernel this CPU runs (portable, AVX2, AVX-512;
// the ones it lacks are skipped and named), over many shapes with edge tiles
// in every dimension, k chunks, column blocks, transposed operands, strided
// C, both thread counts and every epilogue, against an independent double
// precision triple loop. The kernels' own paths (Conv2D, MatMul, ...) are
// tested in their families' tests, which ctest also runs with
// TFRT_FALLBACK_ISA=avx2 and =portable.
//
//===----------------------------------------------------------------------===//

#include "compute/Gemm.h"

#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace tfrt_fallback::rt::gemm {
namespace {

using detail::TileActivation;

/// The epilogues the tests cycle through.
enum class Ep { None, Bias, BiasRelu, BnRelu6, BiasLeaky, BiasPrelu, Row };
constexpr Ep kAllEpilogues[] = {Ep::None,    Ep::Bias,      Ep::BiasRelu,
                                Ep::BnRelu6, Ep::BiasLeaky, Ep::BiasPrelu,
                                Ep::Row};

struct Problem {
  int64_t m, n, k;
  bool transA = false, transB = false;
  int64_t padA = 0, padB = 0, padC = 0; // extra row stride
  Ep ep = Ep::None;
};

std::string describe(const Problem &p, Isa isa) {
  return std::string(isaName(isa)) + " m=" + std::to_string(p.m) +
         " n=" + std::to_string(p.n) + " k=" + std::to_string(p.k) +
         (p.transA ? " transA" : "") + (p.transB ? " transB" : "") +
         " pads=" + std::to_string(p.padA) + "," + std::to_string(p.padB) +
         "," + std::to_string(p.padC) +
         " epilogue=" + std::to_string(static_cast<int>(p.ep));
}

/// A row callback standing for the activations the microkernels lack:
/// x -> 2x + column.
void rowTwicePlusColumn(const void *, float *row, int64_t col0, int64_t count) {
  for (int64_t j = 0; j < count; ++j)
    row[j] = 2 * row[j] + static_cast<float>(col0 + j);
}

/// The operands, the reference and the result of one problem.
class Case {
public:
  Case(const Problem &p, uint32_t seed) : p_(p) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1, 1);
    lda_ = (p.transA ? p.m : p.k) + p.padA;
    ldb_ = (p.transB ? p.k : p.n) + p.padB;
    ldc_ = p.n + p.padC;
    a_.resize(std::max<int64_t>((p.transA ? p.k : p.m) * lda_, 1));
    b_.resize(std::max<int64_t>((p.transB ? p.n : p.k) * ldb_, 1));
    for (float &x : a_)
      x = dist(rng);
    for (float &x : b_)
      x = dist(rng);
    for (std::vector<float> *v : {&bias_, &mean_, &factor_, &offset_, &prelu_})
      for (int64_t j = 0; j < p.n; ++j)
        v->push_back(dist(rng));
    for (float &x : factor_)
      x += 1.5f;
    // Sentinels around and between the rows of C.
    c_.assign(p.m * ldc_ + 16, kSentinel);
  }

  double aAt(int64_t i, int64_t q) const {
    return p_.transA ? a_[q * lda_ + i] : a_[i * lda_ + q];
  }
  double bAt(int64_t q, int64_t j) const {
    return p_.transB ? b_[j * ldb_ + q] : b_[q * ldb_ + j];
  }

  GemmEpilogue epilogue() const {
    GemmEpilogue e;
    switch (p_.ep) {
    case Ep::None:
      break;
    case Ep::Bias:
      e.tile.bias = bias_.data();
      break;
    case Ep::BiasRelu:
      e.tile.bias = bias_.data();
      e.tile.activation = TileActivation::Relu;
      break;
    case Ep::BnRelu6:
      e.tile.bnMean = mean_.data();
      e.tile.bnFactor = factor_.data();
      e.tile.bnOffset = offset_.data();
      e.tile.activation = TileActivation::Relu6;
      break;
    case Ep::BiasLeaky:
      e.tile.bias = bias_.data();
      e.tile.activation = TileActivation::LeakyRelu;
      e.tile.alpha = 0.3f;
      break;
    case Ep::BiasPrelu:
      e.tile.bias = bias_.data();
      e.tile.activation = TileActivation::Prelu;
      e.tile.prelu = prelu_.data();
      break;
    case Ep::Row:
      e.tile.bias = bias_.data();
      e.rowFn = rowTwicePlusColumn;
      break;
    }
    return e;
  }

  /// The reference value of C[i][j] and a bound on its rounding error.
  std::pair<double, double> expected(int64_t i, int64_t j) const {
    double sum = 0, magnitude = 0;
    for (int64_t q = 0; q < p_.k; ++q) {
      sum += aAt(i, q) * bAt(q, j);
      magnitude += std::abs(aAt(i, q) * bAt(q, j));
    }
    double x = sum;
    switch (p_.ep) {
    case Ep::None:
      break;
    case Ep::Bias:
      x += bias_[j];
      break;
    case Ep::BiasRelu:
      x = std::max(x + bias_[j], 0.0);
      break;
    case Ep::BnRelu6:
      x = std::min(std::max((x - mean_[j]) * factor_[j] + offset_[j], 0.0),
                   6.0);
      magnitude = magnitude * std::abs(factor_[j]) + 1;
      break;
    case Ep::BiasLeaky:
      x += bias_[j];
      x = x > 0 ? x : 0.3 * x;
      break;
    case Ep::BiasPrelu:
      x += bias_[j];
      x = x > 0 ? x : prelu_[j] * x;
      break;
    case Ep::Row:
      x = 2 * (x + bias_[j]) + static_cast<double>(j);
      magnitude = 2 * magnitude + 1;
      break;
    }
    return {x, 1e-5 * (magnitude + 1)};
  }

  void run(const Eigen::ThreadPoolDevice &device, Isa isa,
           const PackedB *packed = nullptr) {
    const GemmEpilogue e = epilogue();
    sgemm(device, p_.m, p_.n, p_.k, a_.data(), lda_, p_.transA, b_.data(), ldb_,
          p_.transB, c_.data(), ldc_, e, packed, isa);
  }

  /// Checks C against the reference and the sentinels; returns the number
  /// of mismatches (reporting the first few).
  int check(const std::string &what) const {
    int bad = 0;
    for (int64_t i = 0; i < p_.m; ++i)
      for (int64_t j = 0; j < ldc_; ++j) {
        const float got = c_[i * ldc_ + j];
        if (j >= p_.n) {
          if (got != kSentinel && bad++ < 3)
            ADD_FAILURE() << what << ": wrote C[" << i << "][" << j
                          << "] past the row";
          continue;
        }
        auto [want, tolerance] = expected(i, j);
        if (!(std::abs(got - want) <= tolerance) && bad++ < 3)
          ADD_FAILURE() << what << ": C[" << i << "][" << j << "] = " << got
                        << ", expected " << want;
      }
    for (size_t t = p_.m * ldc_; t < c_.size(); ++t)
      if (c_[t] != kSentinel && bad++ < 3)
        ADD_FAILURE() << what << ": wrote past C";
    return bad;
  }

  const std::vector<float> &c() const { return c_; }
  const std::vector<float> &b() const { return b_; }
  int64_t ldb() const { return ldb_; }

private:
  static constexpr float kSentinel = -12345.0f;
  Problem p_;
  int64_t lda_, ldb_, ldc_;
  std::vector<float> a_, b_, c_;
  std::vector<float> bias_, mean_, factor_, offset_, prelu_;
};

/// One host per thread count, built once.
const Eigen::ThreadPoolDevice &device(int threads) {
  static HostContext *one = new HostContext(1);
  static HostContext *two = new HostContext(2);
  return (threads == 1 ? one : two)->eigenDevice();
}

class GemmIsaTest : public ::testing::TestWithParam<Isa> {
protected:
  void SetUp() override {
    if (!isaSupported(GetParam()))
      GTEST_SKIP() << "this CPU lacks " << isaName(GetParam());
  }

  void expectCorrect(const Problem &p, int threads = 1, uint32_t seed = 1) {
    Case c(p, seed);
    c.run(device(threads), GetParam());
    EXPECT_EQ(c.check(describe(p, GetParam())), 0);
  }
};

TEST_P(GemmIsaTest, SmallShapesEveryEdge) {
  // Every remainder of the tiles (MR up to 14, NR up to 32) on both sides,
  // with k short, odd and zero; epilogues and transpositions cycle.
  const int64_t ms[] = {1, 2, 3, 5, 6, 7, 12, 13, 14, 15, 16, 27, 28, 29, 70};
  const int64_t ns[] = {1, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 70};
  const int64_t ks[] = {0, 1, 2, 7, 16, 33, 70};
  int index = 0;
  for (int64_t m : ms)
    for (int64_t n : ns)
      for (int64_t k : ks) {
        Problem p{m, n, k};
        p.transB = index % 2;
        p.transA = index % 5 == 3;
        p.ep = kAllEpilogues[index % 7];
        ++index;
        expectCorrect(p);
        if (HasFailure())
          return;
      }
}

TEST_P(GemmIsaTest, EveryMAndN) {
  // m and n over 1..70 each (k fixed), so every row and column tail of every
  // microkernel shape occurs with a bias + Relu epilogue.
  for (int64_t m = 1; m <= 70; ++m) {
    Problem p{m, 70 - m + 1, 9};
    p.ep = Ep::BiasRelu;
    expectCorrect(p);
    Problem q{m, m, 5};
    q.ep = Ep::BnRelu6;
    q.transB = true;
    expectCorrect(q);
    if (HasFailure())
      return;
  }
}

TEST_P(GemmIsaTest, LargeKIsChunked) {
  // Across the k chunk sizes (256, 512) and beyond: C accumulates over
  // chunks and the epilogue runs once, after the last.
  for (int64_t k : {255, 256, 257, 511, 512, 513, 1000, 1300, 2100}) {
    for (Ep ep : {Ep::None, Ep::BiasRelu, Ep::Row}) {
      Problem p{17, 40, k};
      p.ep = ep;
      p.transB = k % 2;
      expectCorrect(p);
    }
  }
}

TEST_P(GemmIsaTest, ManyColumnBlocks) {
  // A deep k shrinks the L2 column block to a few panels, so n spans many.
  Problem p{23, 300, 3000};
  p.ep = Ep::BiasPrelu;
  expectCorrect(p);
}

TEST_P(GemmIsaTest, StridedOperands) {
  for (bool transA : {false, true})
    for (bool transB : {false, true}) {
      Problem p{19, 37, 29, transA, transB, 3, 5, 7, Ep::BiasLeaky};
      expectCorrect(p);
    }
}

TEST_P(GemmIsaTest, TwoThreadsSplitRowsAndColumns) {
  // Many rows (split by rows), one row with many columns, and more columns
  // than rows over several row tiles (split by columns first: MobileNetV2's
  // last 1x1 convolution, 49 x 448 -> 1792), on a two-thread device.
  for (Problem p :
       {Problem{1000, 70, 64, false, false, 0, 0, 0, Ep::BiasRelu},
        Problem{1, 1000, 300, false, true, 0, 0, 0, Ep::Bias},
        Problem{49, 1792, 448, false, false, 0, 0, 0, Ep::BnRelu6},
        Problem{30, 200, 33, false, false, 2, 3, 5, Ep::Row},
        Problem{3, 4000, 128, false, false, 0, 0, 0, Ep::Row},
        Problem{3136, 24, 144, false, false, 0, 0, 0, Ep::BnRelu6}}) {
    expectCorrect(p, /*threads=*/2);
    Case one(p, 7), two(p, 7);
    one.run(device(1), GetParam());
    two.run(device(2), GetParam());
    // The split changes which thread computes a tile, not its sums.
    EXPECT_EQ(one.c(), two.c()) << describe(p, GetParam());
  }
}

TEST_P(GemmIsaTest, PackedBGivesTheSameResult) {
  for (bool transB : {false, true}) {
    Problem p{33, 50, 70, false, transB, 0, 0, 0, Ep::BiasRelu};
    Case plain(p, 3), packed(p, 3);
    plain.run(device(1), GetParam());
    PackedB b(packed.b().data(), packed.ldb(), transB, p.k, p.n, GetParam());
    EXPECT_EQ(b.isa(), GetParam());
    packed.run(device(1), GetParam(), &b);
    EXPECT_EQ(plain.c(), packed.c());
    EXPECT_EQ(packed.check(describe(p, GetParam())), 0);
  }
}

TEST_P(GemmIsaTest, NanPropagatesThroughRelu) {
  std::vector<float> a = {std::numeric_limits<float>::quiet_NaN(), 1, -1, 1};
  std::vector<float> b = {1, 1, 1, 1};
  std::vector<float> c(4);
  GemmEpilogue e;
  e.tile.activation = TileActivation::Relu;
  sgemm(device(1), 2, 2, 2, a.data(), 2, false, b.data(), 2, false, c.data(), 2,
        e, nullptr, GetParam());
  EXPECT_TRUE(std::isnan(c[0]));
  EXPECT_TRUE(std::isnan(c[1]));
  EXPECT_EQ(c[2], 0.0f);
  EXPECT_EQ(c[3], 0.0f);
}

INSTANTIATE_TEST_SUITE_P(Isas, GemmIsaTest,
                         ::testing::Values(Isa::Portable, Isa::Neon,
                                           Isa::NeonFp16, Isa::Avx2,
                                           Isa::Avx512),
                         [](const ::testing::TestParamInfo<Isa> &info) {
                           // gtest's names are alphanumeric: neon_fp16.
                           std::string name = isaName(info.param);
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(Gemm, IsaNamesAndClamping) {
  for (Isa isa :
       {Isa::Portable, Isa::Neon, Isa::NeonFp16, Isa::Avx2, Isa::Avx512}) {
    Isa parsed;
    ASSERT_TRUE(parseIsa(isaName(isa), &parsed));
    EXPECT_EQ(parsed, isa);
    EXPECT_LE(clampIsa(isa), isa);
    EXPECT_TRUE(isaSupported(clampIsa(isa)));
  }
  Isa unchanged = Isa::Avx2;
  EXPECT_FALSE(parseIsa("sse9", &unchanged));
  EXPECT_EQ(unchanged, Isa::Avx2);
  EXPECT_TRUE(isaSupported(Isa::Portable));
  EXPECT_EQ(clampIsa(Isa::Portable), Isa::Portable);
  EXPECT_TRUE(isaSupported(activeIsa()));
  // The environment may lower the ISA, never raise it.
  if (const char *env = std::getenv("TFRT_FALLBACK_ISA")) {
    Isa requested;
    if (parseIsa(env, &requested))
      EXPECT_LE(activeIsa(), requested);
  } else {
    EXPECT_EQ(activeIsa(), clampIsa(Isa::Avx512));
  }
  // Unsupported requests fall back, so a sgemm call never runs code the CPU
  // lacks: exercised by sgemm's own clampIsa().
  std::vector<float> one = {1}, c = {0};
  sgemm(device(1), 1, 1, 1, one.data(), 1, false, one.data(), 1, false,
        c.data(), 1, GemmEpilogue(), nullptr, Isa::Avx512);
  EXPECT_EQ(c[0], 1.0f);
}

TEST(Gemm, PackedBCacheKeysOnDataShapeAndIsa) {
  std::vector<float> b1(64 * 64, 1.0f), b2(64 * 64, 2.0f);
  PackedBCache cache;
  const PackedB *p1 = cache.get(b1.data(), 64, false, 64, 64, Isa::Portable);
  ASSERT_NE(p1, nullptr);
  EXPECT_EQ(cache.get(b1.data(), 64, false, 64, 64, Isa::Portable), p1);
  const PackedB *p2 = cache.get(b2.data(), 64, false, 64, 64, Isa::Portable);
  ASSERT_NE(p2, nullptr);
  EXPECT_NE(p1, p2);
  EXPECT_EQ(cache.get(b1.data(), 64, false, 64, 64, Isa::Portable), p1);
  // Another shape, transposition or ISA of the same data is another entry.
  const PackedB *p3 = cache.get(b1.data(), 64, true, 64, 64, Isa::Portable);
  EXPECT_NE(p3, p1);
  const PackedB *p4 = cache.get(b1.data(), 64, false, 32, 64, Isa::Portable);
  EXPECT_NE(p4, p1);
  EXPECT_EQ(PackedBCache::kMaxEntries, 4u);
  // Full: a fifth key is not cached.
  EXPECT_EQ(cache.get(b2.data(), 64, true, 64, 64, Isa::Portable), nullptr);
  EXPECT_EQ(cache.get(b2.data(), 64, false, 64, 64, Isa::Portable), p2);
}

TEST(Gemm, PackedBCachesShareOnePacking) {
  // Two kernels packing one constant the same way (the steps of an unrolled
  // loop) hold one packing; another transposition is another packing. The
  // packing reads what the data says (the product with the second cache's
  // packing is the one with the data).
  std::vector<float> b(16 * 16);
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<float>(i % 7);
  auto first = std::make_unique<PackedBCache>();
  PackedBCache second;
  const PackedB *p = first->get(b.data(), 16, false, 16, 16, Isa::Portable);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(second.get(b.data(), 16, false, 16, 16, Isa::Portable), p);
  EXPECT_NE(second.get(b.data(), 16, true, 16, 16, Isa::Portable), p);
  // The packing outlives the first kernel while the second holds it.
  first.reset();
  const PackedB *held = second.get(b.data(), 16, false, 16, 16, Isa::Portable);
  std::vector<float> a(16 * 16, 0.0f), c(16 * 16, -1.0f);
  a[3] = 1.0f; // Row 0 of a picks row 3 of b.
  sgemm(device(1), 16, 16, 16, a.data(), 16, false, b.data(), 16, false,
        c.data(), 16, GemmEpilogue(), held, Isa::Portable);
  for (int j = 0; j < 16; ++j)
    EXPECT_EQ(c[j], b[3 * 16 + j]) << j;
}

TEST(Gemm, PackedBCacheIsSafeForConcurrentRuns) {
  std::vector<float> b(300 * 200, 0.5f);
  PackedBCache cache;
  std::vector<const PackedB *> seen(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i)
        seen[t] = cache.get(b.data(), 200, false, 300, 200, Isa::Portable);
    });
  for (std::thread &t : threads)
    t.join();
  for (const PackedB *p : seen)
    EXPECT_EQ(p, seen[0]);
}

} // namespace
} // namespace tfrt_fallback::rt::gemm

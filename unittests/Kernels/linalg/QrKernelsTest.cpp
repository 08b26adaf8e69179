//===- QrKernelsTest.cpp - Qr ----------------------------------*- C++ -*-===//
//
// Qr's factors checked against their definition (q * r reproduces the
// input, q has orthonormal columns, r is upper triangular) for tall, wide
// and batched inputs, both output sizes, and a hand-derived 2x1 case.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

void checkFactors(const std::vector<double> &a, int64_t batch, int64_t m,
                  int64_t n, bool full) {
  std::vector<float> in(a.begin(), a.end());
  Dims dims = {batch, m, n};
  auto out =
      runKernelN("Qr", AttrMap{{"T", DType::F32}, {"full_matrices", full}},
                 {f32(shapeOf(dims), in)}, {DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  const int64_t p = std::min(m, n), qc = full ? m : p, rr = full ? m : p;
  ASSERT_EQ((*out)[0].shape(), TensorShape({batch, m, qc}));
  ASSERT_EQ((*out)[1].shape(), TensorShape({batch, rr, n}));
  const float *q = (*out)[0].data<float>(), *r = (*out)[1].data<float>();
  for (int64_t b = 0; b < batch; ++b) {
    const float *qb = q + b * m * qc, *rb = r + b * rr * n;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t k = 0; k < std::min(qc, rr); ++k)
          s += double(qb[i * qc + k]) * rb[k * n + j];
        EXPECT_NEAR(s, a[(b * m + i) * n + j], 1e-5);
      }
    for (int64_t i = 0; i < qc; ++i)
      for (int64_t j = 0; j < qc; ++j) {
        double s = 0;
        for (int64_t k = 0; k < m; ++k)
          s += double(qb[k * qc + i]) * qb[k * qc + j];
        EXPECT_NEAR(s, i == j ? 1 : 0, 1e-5);
      }
    for (int64_t i = 0; i < rr; ++i)
      for (int64_t j = 0; j < std::min(i, n); ++j)
        EXPECT_EQ(rb[i * n + j], 0.0f);
  }
}

TEST(Qr, FactorsReproduceTheInput) {
  checkFactors({1, 2, 3, 4, 5, 6}, 1, 3, 2, false);
  checkFactors({1, 2, 3, 4, 5, 6}, 1, 3, 2, true);
  checkFactors({1, 2, 3, 4, 5, 7}, 1, 2, 3, false);
  checkFactors(patternValues(2 * 4 * 4), 2, 4, 4, false);
}

TEST(Qr, HandDerived) {
  // [[3], [4]]: one Householder reflection; |r| = 5, q = r's sign * [0.6,
  // 0.8].
  auto out = runKernelN("Qr", AttrMap{{"T", DType::F64}},
                        {makeTensor<double>({2, 1}, {3, 4})},
                        {DType::F64, DType::F64});
  ASSERT_TRUE(out.ok()) << out.status();
  const double r = valuesOf<double>((*out)[1])[0];
  EXPECT_NEAR(std::abs(r), 5, 1e-12);
  const double sign = r < 0 ? -1 : 1;
  expectValues<double>((*out)[0], {2, 1}, {0.6 * sign, 0.8 * sign});
  auto bad = runKernelN("Qr", AttrMap{{"T", DType::F32}}, {f32({3}, {1, 2, 3})},
                        {DType::F32, DType::F32});
  EXPECT_EQ(bad.status().message(),
            opError("Qr", "Input tensor 0 must have rank >= 2, got 1"));
}

TEST(BatchMatrixAliases, SameAsMatrixOps) {
  auto inv = runKernel("BatchMatrixInverse", AttrMap{{"T", DType::F32}},
                       {f32({2, 2}, {2, 0, 0, 4})}, DType::F32);
  ASSERT_TRUE(inv.ok()) << inv.status();
  expectValues<float>(*inv, {2, 2}, {0.5, 0, 0, 0.25});
  auto det = runKernel("BatchMatrixDeterminant", AttrMap{{"T", DType::F64}},
                       {makeTensor<double>({2, 2}, {1, 2, 3, 4})}, DType::F64);
  ASSERT_TRUE(det.ok()) << det.status();
  expectValues<double>(*det, {}, {-2});
  auto chol = runKernel("BatchCholesky", AttrMap{{"T", DType::F32}},
                        {f32({2, 2}, {4, 2, 2, 5})}, DType::F32);
  ASSERT_TRUE(chol.ok()) << chol.status();
  expectValues<float>(*chol, {2, 2}, {2, 0, 1, 2});
  auto solve =
      runKernel("BatchMatrixTriangularSolve", AttrMap{{"T", DType::F32}},
                {f32({2, 2}, {2, 0, 1, 1}), f32({2, 1}, {2, 3})}, DType::F32);
  ASSERT_TRUE(solve.ok()) << solve.status();
  expectValues<float>(*solve, {2, 1}, {1, 2});
  auto band = runKernel("BatchMatrixBandPart", AttrMap{{"T", DType::I32}},
                        {i32({2, 2}, {1, 2, 3, 4}), i64({}, {0}), i64({}, {0})},
                        DType::I32);
  ASSERT_TRUE(band.ok()) << band.status();
  expectValues<int32_t>(*band, {2, 2}, {1, 0, 0, 4});
  auto diag = runKernel("BatchMatrixDiag", AttrMap{{"T", DType::I32}},
                        {i32({2}, {5, 6})}, DType::I32);
  ASSERT_TRUE(diag.ok()) << diag.status();
  expectValues<int32_t>(*diag, {2, 2}, {5, 0, 0, 6});
  auto part = runKernel("BatchMatrixDiagPart", AttrMap{{"T", DType::I32}},
                        {i32({2, 2}, {1, 2, 3, 4})}, DType::I32);
  ASSERT_TRUE(part.ok()) << part.status();
  expectValues<int32_t>(*part, {2}, {1, 4});
  auto set =
      runKernel("BatchMatrixSetDiag", AttrMap{{"T", DType::I32}},
                {i32({2, 2}, {1, 2, 3, 4}), i32({2}, {0, 0})}, DType::I32);
  ASSERT_TRUE(set.ok()) << set.status();
  expectValues<int32_t>(*set, {2, 2}, {0, 2, 3, 0});
}

} // namespace

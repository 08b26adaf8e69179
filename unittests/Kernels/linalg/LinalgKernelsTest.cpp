//===- LinalgKernelsTest.cpp - Linear-algebra kernels -----------*- C++ -*-===//
//-*-===//
//
// The linalg family (LinalgKernels.cpp) through the executor: MatrixInverse
// (A * inverse(A) = I), MatrixDeterminant and LogMatrixDeterminant
// (triangular and permutation matrices by hand), Cholesky (L * L^T = A),
// MatrixSolve and MatrixTriangularSolve (A * x = b, broadcast batch dims),
// MatrixBandPart, Diag, DiagPart and MatrixDiag / MatrixDiagPart /
// MatrixSetDiag V1-V3 (TF's documented examples), over dtypes, attributes,
// batch dims and empty inputs, with TF's error messages.
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

template <typename T>
StatusOr<Tensor> run1(const std::string &op, AttrMap attrs, const Dims &dims,
                      const std::vector<double> &x) {
  attrs.set("T", dtypeOf<T>());
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<T>(shapeOf(dims), x));
  return runKernel(op, attrs, std::move(inputs), dtypeOf<T>());
}

template <typename T>
StatusOr<Tensor> run2(const std::string &op, AttrMap attrs, const Dims &da,
                      const std::vector<double> &a, const Dims &db,
                      const std::vector<double> &b) {
  attrs.set("T", dtypeOf<T>());
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<T>(shapeOf(da), a));
  inputs.push_back(makeTensorFrom<T>(shapeOf(db), b));
  return runKernel(op, attrs, std::move(inputs), dtypeOf<T>());
}

/// Row-major n x n matrix product of batch `b` of `a` (n x n) and `x` (n x
/// k).
std::vector<double> matmul(const std::vector<double> &a,
                           const std::vector<double> &x, int64_t n, int64_t k,
                           int64_t b = 0, bool transposeA = false) {
  std::vector<double> out(n * k, 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j)
      for (int64_t l = 0; l < n; ++l)
        out[i * k + j] +=
            (transposeA ? a[b * n * n + l * n + i] : a[b * n * n + i * n + l]) *
            x[b * n * k + l * k + j];
  return out;
}

template <typename T> std::vector<double> doublesOf(const Tensor &t) {
  std::vector<double> out;
  for (T v : valuesOf<T>(t))
    out.push_back(static_cast<double>(v));
  return out;
}

/// A well-conditioned n x n matrix per batch: pattern values plus n on the
/// diagonal.
std::vector<double> diagonallyDominant(int64_t batches, int64_t n,
                                       int seed = 1) {
  std::vector<double> a = patternValues(batches * n * n, 1, seed);
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < n; ++i)
      a[b * n * n + i * n + i] += 2.0 * n;
  return a;
}

//===----------------------------------------------------------------------===//
// MatrixInverse
//===----------------------------------------------------------------------===//

TEST(LinalgKernels, MatrixInverseByHand) {
  // [[4, 7], [2, 6]]^-1 = [[0.6, -0.7], [-0.2, 0.4]].
  auto out = run1<double>("MatrixInverse", {}, {2, 2}, {4, 7, 2, 6});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 2}, {0.6, -0.7, -0.2, 0.4});
  // adjoint: the inverse of the transpose is the transpose of the inverse.
  out =
      run1<double>("MatrixInverse", {{"adjoint", true}}, {2, 2}, {4, 7, 2, 6});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 2}, {0.6, -0.2, -0.7, 0.4});
}

template <typename T> void checkInverseTimesMatrix() {
  const int64_t batches = 3, n = 5;
  const std::vector<double> a = diagonallyDominant(batches, n);
  for (bool adjoint : {false, true}) {
    auto out =
        run1<T>("MatrixInverse", {{"adjoint", adjoint}}, {batches, n, n}, a);
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ(out->shape(), TensorShape({batches, n, n}));
    const std::vector<double> inv = doublesOf<T>(*out);
    for (int64_t b = 0; b < batches; ++b) {
      std::vector<double> invB(inv.begin() + b * n * n,
                               inv.begin() + (b + 1) * n * n);
      std::vector<double> aB(a.begin() + b * n * n,
                             a.begin() + (b + 1) * n * n);
      const std::vector<double> id = matmul(aB, invB, n, n, 0, adjoint);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          EXPECT_NEAR(id[i * n + j], i == j ? 1.0 : 0.0,
                      (std::is_same_v<T, float> ? 1e-5 : 1e-12))
              << "batch " << b << " (" << i << ", " << j << ")";
    }
  }
}

TEST(LinalgKernels, MatrixInverseTimesMatrixIsIdentity) {
  checkInverseTimesMatrix<float>();
  checkInverseTimesMatrix<double>();
}

TEST(LinalgKernels, MatrixInverseEmptyAndErrors) {
  auto out = run1<float>("MatrixInverse", {}, {2, 0, 0}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 0, 0}));
  out = run1<float>("MatrixInverse", {}, {0, 3, 3}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3, 3}));

  out = run1<float>("MatrixInverse", {}, {2, 2}, {1, 2, 2, 4});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(out.status().message(),
            opError("MatrixInverse", "Input is not invertible."));
  // One singular matrix in a batch fails the whole op.
  out = run1<double>("MatrixInverse", {}, {2, 2, 2}, {1, 0, 0, 1, 0, 0, 0, 0});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixInverse", "Input is not invertible."));
  out = run1<float>("MatrixInverse", {}, {2, 3}, std::vector<double>(6, 1));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixInverse", "Input matrix must be square."));
  out = run1<float>("MatrixInverse", {}, {3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(
      out.status().message(),
      opError("MatrixInverse", "Input tensor 0 must have rank >= 2, got 1"));
}

//===----------------------------------------------------------------------===//
// MatrixDeterminant, LogMatrixDeterminant
//===----------------------------------------------------------------------===//

template <typename T> void checkDeterminants() {
  // Batch: upper triangular (2 * 3 * 4 = 24), a permutation matrix (one
  // swap: -1), singular (0), lower triangular with a negative diagonal
  // entry (1 * -2 * 0.5 = -1).
  const std::vector<double> x = {2, 5, 7, 0, 3,  1, 0, 0, 4, //
                                 0, 1, 0, 1, 0,  0, 0, 0, 1, //
                                 1, 2, 3, 2, 4,  6, 0, 1, 1, //
                                 1, 0, 0, 9, -2, 0, 5, 6, 0.5};
  auto out = run1<T>("MatrixDeterminant", {}, {2, 2, 3, 3}, x);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, {2, 2}, {24, -1, 0, -1}, 1e-5);

  auto logs = runKernelN("LogMatrixDeterminant", {{"T", dtypeOf<T>()}},
                         {makeTensorFrom<T>({4, 3, 3}, x)},
                         {dtypeOf<T>(), dtypeOf<T>()});
  ASSERT_TRUE(logs.ok()) << logs.status();
  expectValues<T>((*logs)[0], {4}, {1, -1, 0, -1});
  expectValues<T>((*logs)[1], {4}, {std::log(24.0), 0, -kInf, 0}, 1e-6);
}

TEST(LinalgKernels, Determinants) {
  checkDeterminants<float>();
  checkDeterminants<double>();
}

TEST(LinalgKernels, DeterminantEdgeCases) {
  // An empty matrix has determinant 1; no matrices give an empty output.
  auto out = run1<float>("MatrixDeterminant", {}, {2, 0, 0}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {1, 1});
  out = run1<float>("MatrixDeterminant", {}, {0, 2, 2}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
  auto logs = runKernelN("LogMatrixDeterminant", {{"T", DType::F64}},
                         {makeTensorFrom<double>({0, 0}, {})},
                         {DType::F64, DType::F64});
  ASSERT_TRUE(logs.ok()) << logs.status();
  expectValues<double>((*logs)[0], {}, {1});
  expectValues<double>((*logs)[1], {}, {0});
  // 1e30^2 overflows f32 to inf (sign * exp(log_abs_det), no error), where
  // the log form is finite; NaN gives 0 (SLogDet's non-finite rule).
  out = run1<float>("MatrixDeterminant", {}, {2, 2, 2},
                    {1e30, 0, 0, -1e30, NAN, 0, 0, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {-kInf, 0});
  logs = runKernelN("LogMatrixDeterminant", {{"T", DType::F32}},
                    {makeTensorFrom<float>({2, 2}, {1e30, 0, 0, -1e30})},
                    {DType::F32, DType::F32});
  ASSERT_TRUE(logs.ok()) << logs.status();
  expectValues<float>((*logs)[0], {}, {-1});
  expectValues<float>((*logs)[1], {}, {2 * std::log(1e30)}, 1e-6);
  out = run1<double>("MatrixDeterminant", {}, {2, 3}, std::vector<double>(6));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDeterminant", "Input matrix must be square."));
}

//===----------------------------------------------------------------------===//
// Cholesky
//===----------------------------------------------------------------------===//

TEST(LinalgKernels, CholeskyByHand) {
  // [[4, 2], [2, 3]] = L L^T with L = [[2, 0], [1, sqrt(2)]]. The upper
  // triangle is not read: 99 there changes nothing.
  for (double upper : {2.0, 99.0}) {
    auto out = run1<double>("Cholesky", {}, {2, 2}, {4, upper, 2, 3});
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<double>(*out, {2, 2}, {2, 0, 1, std::sqrt(2.0)});
  }
}

template <typename T> void checkCholeskyReconstructs() {
  const int64_t batches = 2, n = 6;
  // A = B B^T + n I is symmetric positive definite.
  const std::vector<double> bm = patternValues(batches * n * n, 2, 3);
  std::vector<double> a(batches * n * n, 0.0);
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = i == j ? n : 0;
        for (int64_t l = 0; l < n; ++l)
          s += bm[b * n * n + i * n + l] * bm[b * n * n + j * n + l];
        a[b * n * n + i * n + j] = s;
      }
  auto out = run1<T>("Cholesky", {}, {batches, n, n}, a);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<double> l = doublesOf<T>(*out);
  for (int64_t b = 0; b < batches; ++b)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        if (j > i)
          EXPECT_EQ(l[b * n * n + i * n + j], 0.0);
        double s = 0;
        for (int64_t k = 0; k < n; ++k)
          s += l[b * n * n + i * n + k] * l[b * n * n + j * n + k];
        const double e = a[b * n * n + i * n + j];
        const double tol = std::is_same_v<T, float> ? 1e-5 : 1e-12;
        EXPECT_NEAR(s, e, tol * std::max(1.0, std::abs(e)));
      }
}

TEST(LinalgKernels, CholeskyReconstructs) {
  checkCholeskyReconstructs<float>();
  checkCholeskyReconstructs<double>();
}

TEST(LinalgKernels, CholeskyEmptyAndErrors) {
  auto out = run1<float>("Cholesky", {}, {3, 0, 0}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({3, 0, 0}));
  const std::string notPd = opError(
      "Cholesky", "Cholesky decomposition was not successful. The input might "
                  "not be valid.");
  // Indefinite, and negative definite.
  out = run1<float>("Cholesky", {}, {2, 2}, {1, 2, 2, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), notPd);
  out = run1<double>("Cholesky", {}, {2, 1, 1}, {4, -1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), notPd);
  out = run1<double>("Cholesky", {}, {1, 2}, {4, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Cholesky", "Input matrix must be square."));
}

//===----------------------------------------------------------------------===//
// MatrixSolve, MatrixTriangularSolve
//===----------------------------------------------------------------------===//

template <typename T> void checkMatrixSolve() {
  const int64_t batches = 2, n = 4, k = 3;
  const std::vector<double> a = diagonallyDominant(batches, n, 7);
  const std::vector<double> rhs = patternValues(batches * n * k, 4, 9);
  for (bool adjoint : {false, true}) {
    auto out = run2<T>("MatrixSolve", {{"adjoint", adjoint}}, {batches, n, n},
                       a, {batches, n, k}, rhs);
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ(out->shape(), TensorShape({batches, n, k}));
    const std::vector<double> x = doublesOf<T>(*out);
    for (int64_t b = 0; b < batches; ++b) {
      const std::vector<double> ax = matmul(a, x, n, k, b, adjoint);
      for (int64_t i = 0; i < n * k; ++i)
        EXPECT_NEAR(ax[i], rhs[b * n * k + i],
                    (std::is_same_v<T, float> ? 1e-5 : 1e-12));
    }
  }
}

TEST(LinalgKernels, MatrixSolve) {
  checkMatrixSolve<float>();
  checkMatrixSolve<double>();
  // [[2, 1], [1, 3]] x = [3, 5] -> x = [0.8, 1.4].
  auto out =
      run2<double>("MatrixSolve", {}, {2, 2}, {2, 1, 1, 3}, {2, 1}, {3, 5});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 1}, {0.8, 1.4});
}

TEST(LinalgKernels, MatrixSolveEmptyAndErrors) {
  auto out = run2<float>("MatrixSolve", {}, {2, 2}, {1, 0, 0, 1}, {2, 0}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 0}));
  out = run2<float>("MatrixSolve", {}, {2, 2}, {1, 2, 2, 4}, {2, 1}, {1, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixSolve", "Input matrix is not invertible."));
  out = run2<float>("MatrixSolve", {}, {2, 2}, {1, 0, 0, 1}, {3, 1}, {1, 1, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixSolve", "Input matrix and rhs are incompatible."));
  out = run2<float>("MatrixSolve", {}, {2, 3}, std::vector<double>(6), {2, 1},
                    {1, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixSolve", "First input (lhs) must be a square "
                                   "matrix."));
  out = run2<float>("MatrixSolve", {}, {2, 1, 1}, {1, 1}, {1, 1}, {1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixSolve", "All input tensors must have the same "
                                   "rank."));
  out = run2<float>("MatrixSolve", {}, {2, 1, 1}, {1, 1}, {3, 1, 1}, {1, 1, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixSolve", "All input tensors must have the same "
                                   "outer dimensions."));
}

TEST(LinalgKernels, MatrixTriangularSolveByHand) {
  // Lower triangle of [[2, 9], [1, 1]] is [[2, 0], [1, 1]]: x = [1, 2]
  // for b = [2, 3] (the 9 is ignored).
  const std::vector<double> a = {2, 9, 1, 1};
  auto out =
      run2<double>("MatrixTriangularSolve", {}, {2, 2}, a, {2, 1}, {2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 1}, {1, 2});
  // Upper triangle [[2, 9], [0, 1]]: x1 = 3, x0 = (2 - 27) / 2.
  out = run2<double>("MatrixTriangularSolve", {{"lower", false}}, {2, 2}, a,
                     {2, 1}, {2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 1}, {-12.5, 3});
  // Adjoint of the lower triangle: [[2, 1], [0, 1]]: x1 = 3, x0 = -0.5.
  out = run2<float>("MatrixTriangularSolve", {{"adjoint", true}}, {2, 2}, a,
                    {2, 1}, {2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1}, {-0.5, 3});
  // Adjoint of the upper triangle: [[2, 0], [9, 1]]: x0 = 1, x1 = -6.
  out = run2<float>("MatrixTriangularSolve",
                    {{"lower", false}, {"adjoint", true}}, {2, 2}, a, {2, 1},
                    {2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1}, {1, -6});
  // A zero diagonal entry is not checked: division by zero.
  out = run2<float>("MatrixTriangularSolve", {}, {1, 1}, {0}, {1, 1}, {1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1}, {kInf});
}

TEST(LinalgKernels, MatrixTriangularSolveBroadcastsBatches) {
  // a: [2, 1, 2, 2], b: [3, 2, 1] -> [2, 3, 2, 1].
  const std::vector<double> a = {1, 0, 1, 1,  // x0 = b0, x1 = b1 - b0
                                 2, 0, 0, 4}; // x0 = b0 / 2, x1 = b1 / 4
  const std::vector<double> b = {4, 8, 2, 6, 0, 4};
  auto out =
      run2<double>("MatrixTriangularSolve", {}, {2, 1, 2, 2}, a, {3, 2, 1}, b);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 3, 2, 1},
                       {4, 4, 2, 4, 0, 4, 2, 2, 1, 1.5, 0, 1});
  out = run2<double>("MatrixTriangularSolve", {}, {2, 2, 2},
                     std::vector<double>(8, 1), {3, 2, 1},
                     std::vector<double>(6, 1));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixTriangularSolve",
                    "In[0] and In[1] must have compatible batch dimensions: "
                    "[2,2,2] vs. [3,2,1]"));
  // Empty batch.
  out = run2<float>("MatrixTriangularSolve", {}, {0, 2, 2}, {}, {2, 3},
                    std::vector<double>(6, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 2, 3}));
}

TEST(LinalgKernels, MatrixTriangularSolveErrors) {
  auto out =
      run2<float>("MatrixTriangularSolve", {}, {2}, {1, 1}, {2, 1}, {1, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixTriangularSolve", "In[0] ndims must be >= 2: 1"));
  out = run2<float>("MatrixTriangularSolve", {}, {2, 2}, {1, 0, 0, 1}, {2},
                    {1, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixTriangularSolve", "In[1] ndims must be >= 2: 1"));
  out = run2<float>("MatrixTriangularSolve", {}, {3, 2},
                    std::vector<double>(6, 1), {3, 1}, {1, 1, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixTriangularSolve",
                    "In[0] matrices in the last dimensions must be square (2 "
                    "=/= 3)"));
  out = run2<float>("MatrixTriangularSolve", {{"lower", true}}, {2, 2},
                    {1, 0, 0, 1}, {3, 1}, {1, 1, 1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixTriangularSolve",
                    "In[0] mismatch In[1] shape: 2 vs. 3: [2,2] [3,1] 1 0"));
}

//===----------------------------------------------------------------------===//
// MatrixBandPart
//===----------------------------------------------------------------------===//

/// Runs MatrixBandPart on a T tensor of `dims` holding 1, 2, 3, ...
template <typename T>
StatusOr<Tensor> bandPart(const Dims &dims, int64_t lower, int64_t upper,
                          bool i64Bounds = false) {
  std::vector<double> x(product(dims));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<double>(i + 1);
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<T>(shapeOf(dims), x));
  if (i64Bounds) {
    inputs.push_back(i64({}, {lower}));
    inputs.push_back(i64({}, {upper}));
  } else {
    inputs.push_back(i32({}, {static_cast<int32_t>(lower)}));
    inputs.push_back(i32({}, {static_cast<int32_t>(upper)}));
  }
  return runKernel("MatrixBandPart", {{"T", dtypeOf<T>()}}, std::move(inputs),
                   dtypeOf<T>());
}

/// MatrixBandPart by definition on 1, 2, 3, ...
std::vector<double> naiveBand(const Dims &dims, int64_t lower, int64_t upper) {
  std::vector<double> out;
  forEachIndex(dims, [&](const std::vector<int64_t> &idx) {
    const int64_t m = idx[idx.size() - 2], n = idx.back();
    const bool keep =
        (lower < 0 || m - n <= lower) && (upper < 0 || n - m <= upper);
    out.push_back(keep ? static_cast<double>(out.size() + 1) : 0);
  });
  return out;
}

template <typename T> void checkBandParts() {
  const Dims dims = {2, 3, 4};
  for (int64_t lower : {-1, 0, 1, 3})
    for (int64_t upper : {-1, 0, 2, 4}) {
      SCOPED_TRACE("lower " + std::to_string(lower) + " upper " +
                   std::to_string(upper));
      auto out = bandPart<T>(dims, lower, upper, upper == 2);
      ASSERT_TRUE(out.ok()) << out.status();
      expectValues<T>(*out, shapeOf(dims), naiveBand(dims, lower, upper));
    }
}

TEST(LinalgKernels, MatrixBandPart) {
  // [[1, 2, 3], [4, 5, 6], [7, 8, 9]], tridiagonal band.
  auto out = bandPart<float>({3, 3}, 1, 1);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3, 3}, {1, 2, 0, 4, 5, 6, 0, 8, 9});
  checkBandParts<float>();
  checkBandParts<double>();
  checkBandParts<int32_t>();
  checkBandParts<uint8_t>();
  checkBandParts<half>();
  checkBandParts<int64_t>();
  // bool: the lower triangle of all-true.
  auto b = runKernel("MatrixBandPart", {{"T", DType::Bool}},
                     {makeTensor<bool>({2, 2}, {true, true, true, true}),
                      i64({}, {-1}), i64({}, {0})},
                     DType::Bool);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(valuesOf<bool>(*b), (std::vector<bool>{true, false, true, true}));
  out = bandPart<float>({0, 2, 2}, 0, 0);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 2, 2}));
}

TEST(LinalgKernels, MatrixBandPartErrors) {
  auto out = bandPart<float>({2, 3}, 3, 0);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixBandPart", "num_lower must be negative or less or "
                                      "equal to number of rows (2) got: 3"));
  out = bandPart<float>({2, 3}, 0, 4);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixBandPart", "num_upper must be negative or less or "
                                      "equal to number of columns (3) got: 4"));
  out = bandPart<float>({3}, 0, 0);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixBandPart",
                    "input must be at least 2-dim, received shape: [3]"));
  out = runKernel("MatrixBandPart", {{"T", DType::F32}},
                  {f32({1, 1}, {1}), i32({1}, {0}), i32({}, {0})}, DType::F32);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixBandPart", "num_lower must be scalar, got shape "
                                      "[1]"));
}

//===----------------------------------------------------------------------===//
// Diag, DiagPart
//===----------------------------------------------------------------------===//

TEST(LinalgKernels, DiagAndDiagPart) {
  auto out = run1<int32_t>("Diag", {}, {2}, {1, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 2}, {1, 0, 0, 2});
  // Rank 2 -> rank 4: out[i, j, i, j] = in[i, j].
  out = run1<int32_t>("Diag", {}, {1, 2}, {3, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {1, 2, 1, 2}, {3, 0, 0, 4});
  auto back = run1<int32_t>("DiagPart", {}, {1, 2, 1, 2}, {3, 0, 0, 4});
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<int32_t>(*back, {1, 2}, {3, 4});
  auto f = run1<half>("DiagPart", {}, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  ASSERT_TRUE(f.ok()) << f.status();
  expectValues<half>(*f, {3}, {1, 5, 9});
  auto d = run1<double>("Diag", {}, {0}, {});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->shape(), TensorShape({0, 0}));

  out = run1<float>("Diag", {}, {}, {1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("Diag", "Input must be at least rank 1, got 0"));
  out = run1<float>("DiagPart", {}, {3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("DiagPart", "The rank of the tensor should be even and "
                                "positive, got shape [3]"));
  out = run1<float>("DiagPart", {}, {2, 3}, std::vector<double>(6));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("DiagPart",
                    "Invalid shape [2,3]: dimensions 0 and 1 do not match."));
}

//===----------------------------------------------------------------------===//
// MatrixDiag, MatrixDiagPart, MatrixSetDiag
//===----------------------------------------------------------------------===//

TEST(LinalgKernels, MatrixDiagV1) {
  auto out = run1<float>("MatrixDiag", {}, {2, 2}, {1, 2, 3, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2, 2}, {1, 0, 0, 2, 3, 0, 0, 4});
  auto part = run1<int64_t>("MatrixDiagPart", {}, {2, 3}, {1, 2, 3, 4, 5, 6});
  ASSERT_TRUE(part.ok()) << part.status();
  expectValues<int64_t>(*part, {2}, {1, 5});
  auto set = run2<uint16_t>("MatrixSetDiag", {}, {3, 2}, {1, 2, 3, 4, 5, 6},
                            {2}, {8, 9});
  ASSERT_TRUE(set.ok()) << set.status();
  expectValues<uint16_t>(*set, {3, 2}, {8, 2, 3, 9, 5, 6});
  auto b = runKernel("MatrixDiag", {{"T", DType::Bool}},
                     {makeTensor<bool>({2}, {true, true})}, DType::Bool);
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(valuesOf<bool>(*b), (std::vector<bool>{true, false, false, true}));

  out = run1<float>("MatrixDiag", {}, {}, {1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDiag",
                    "diagonal must be at least 1-dim, received shape: []"));
  out = run1<float>("MatrixDiagPart", {}, {3}, {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDiagPart",
                    "input must be at least 2-dim, received shape: [3]"));
  out = run2<float>("MatrixSetDiag", {}, {2, 3}, std::vector<double>(6), {3},
                    {1, 2, 3});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixSetDiag",
                    "Either first dimensions of diagonal don't match "
                    "input.shape[:-2], or diagonal.shape[:-1] is not equal to "
                    "the longests diagonal in range "
                    "[lower_diag_index:upper_diag_index].\nInput shape: "
                    "[2,3]\nDiagonal shape: [3]\nExpected diagonal shape: "
                    "[2]"));
}

/// Runs MatrixDiagV2/V3 on int32 values.
StatusOr<Tensor> matrixDiag(const std::string &op, const Dims &dims,
                            const std::vector<int32_t> &diag,
                            std::vector<int32_t> k, int32_t rows = -1,
                            int32_t cols = -1, int32_t padding = 0,
                            const char *align = nullptr) {
  AttrMap attrs{{"T", DType::I32}};
  if (align)
    attrs.set("align", align);
  return runKernel(op, attrs,
                   {i32(shapeOf(dims), diag),
                    i32(k.size() == 1 ? TensorShape() : TensorShape({2}), k),
                    i32({}, {rows}), i32({}, {cols}), i32({}, {padding})},
                   DType::I32);
}

TEST(LinalgKernels, MatrixDiagV3DocumentedExamples) {
  // TF's tf.linalg.diag examples.
  auto out = matrixDiag("MatrixDiagV3", {2, 3}, {1, 2, 3, 4, 5, 6}, {1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 4, 4},
                        {0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0,
                         0, 4, 0, 0, 0, 0, 5, 0, 0, 0, 0, 6, 0, 0, 0, 0});
  // A tridiagonal band, RIGHT_LEFT (the default) and LEFT_RIGHT packing.
  const std::vector<double> band = {1, 8, 0, 4, 2, 9, 0, 5, 3,
                                    6, 2, 0, 9, 7, 3, 0, 1, 9};
  out = matrixDiag("MatrixDiagV3", {2, 3, 3},
                   {0, 8, 9, 1, 2, 3, 4, 5, 0, 0, 2, 3, 6, 7, 9, 9, 1, 0},
                   {-1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 3}, band);
  out = matrixDiag("MatrixDiagV3", {2, 3, 3},
                   {8, 9, 0, 1, 2, 3, 0, 4, 5, 2, 3, 0, 6, 7, 9, 0, 9, 1},
                   {-1, 1}, -1, -1, 0, "LEFT_RIGHT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 3}, band);
  // V2 packs LEFT_LEFT.
  out = matrixDiag("MatrixDiagV2", {2, 3, 3},
                   {8, 9, 0, 1, 2, 3, 4, 5, 0, 2, 3, 0, 6, 7, 9, 9, 1, 0},
                   {-1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 3}, band);
  // Rectangular: k = -1 in 3 x 4; num_cols inferred with padding 9.
  out = matrixDiag("MatrixDiagV3", {2}, {1, 2}, {-1}, 3, 4);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3, 4}, {0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0});
  out = matrixDiag("MatrixDiagV3", {2}, {1, 2}, {-1}, 3, -1, 9);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3, 2}, {9, 9, 1, 9, 9, 2});
}

TEST(LinalgKernels, MatrixDiagV3Errors) {
  auto out = matrixDiag("MatrixDiagV3", {3}, {1, 2, 3}, {1, 0});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDiagV3", "lower_diag_index must not be larger "
                                    "than upper_diag_index: 1 > 0"));
  out = matrixDiag("MatrixDiagV3", {2, 3}, {1, 2, 3, 4, 5, 6}, {-2, 0});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDiagV3",
                    "The number of diagonals provided in the input does not "
                    "match the lower_diag_index and upper_diag_index range."));
  out = matrixDiag("MatrixDiagV3", {3}, {1, 2, 3}, {0}, 2, 3);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDiagV3", "The number of rows is too small."));
  out = matrixDiag("MatrixDiagV3", {3}, {1, 2, 3}, {0}, 4, 4);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDiagV3",
                    "The number of rows or columns is not consistent with the "
                    "specified d_lower, d_upper, and diagonal."));
}

/// TF's tf.linalg.diag_part example input, shape [2, 3, 4].
const std::vector<int32_t> kPartInput = {1, 2, 3, 4, 5, 6, 7, 8, 9, 8, 7, 6,
                                         5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 8};

StatusOr<Tensor> diagPart(const std::string &op, std::vector<int32_t> k,
                          int32_t padding = 0, const char *align = nullptr) {
  AttrMap attrs{{"T", DType::I32}};
  if (align)
    attrs.set("align", align);
  return runKernel(op, attrs,
                   {i32({2, 3, 4}, kPartInput),
                    i32(k.size() == 1 ? TensorShape() : TensorShape({2}), k),
                    i32({}, {padding})},
                   DType::I32);
}

TEST(LinalgKernels, MatrixDiagPartV3DocumentedExamples) {
  auto out = diagPart("MatrixDiagPartV3", {0});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3}, {1, 6, 7, 5, 2, 7});
  out = diagPart("MatrixDiagPartV3", {1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3}, {2, 7, 6, 4, 3, 8});
  out = diagPart("MatrixDiagPartV3", {-1, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 4, 3}, {0, 3, 8, 2, 7, 6, 1, 6, 7, 5, 8, 0,
                                          0, 3, 4, 4, 3, 8, 5, 2, 7, 1, 6, 0});
  out = diagPart("MatrixDiagPartV3", {-1, 2}, 0, "LEFT_RIGHT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 4, 3}, {3, 8, 0, 2, 7, 6, 1, 6, 7, 0, 5, 8,
                                          3, 4, 0, 4, 3, 8, 5, 2, 7, 0, 1, 6});
  out = diagPart("MatrixDiagPartV3", {-2, -1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 2, 2}, {5, 8, 9, 0, 1, 6, 5, 0});
  out = diagPart("MatrixDiagPartV3", {1, 3}, 9);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 3},
                        {9, 9, 4, 9, 3, 8, 2, 7, 6, 9, 9, 2, 9, 3, 4, 4, 3, 8});
  // V2 packs LEFT_LEFT.
  out = diagPart("MatrixDiagPartV2", {1, 3}, 9);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 3},
                        {4, 9, 9, 3, 8, 9, 2, 7, 6, 2, 9, 9, 3, 4, 9, 4, 3, 8});

  out = diagPart("MatrixDiagPartV3", {3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 1}, {4, 2});
  out = diagPart("MatrixDiagPartV3", {4});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDiagPartV3", "lower_diag_index is out of bound: "
                                        "4. It must be between -3 and 4"));
  out = diagPart("MatrixDiagPartV3", {0, 5});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixDiagPartV3", "upper_diag_index is out of bound: 5 "
                                        "It must be between -3 and 4"));
}

TEST(LinalgKernels, MatrixSetDiagV3DocumentedExamples) {
  const std::vector<int32_t> sevens(24, 7);
  auto run = [&](const Dims &dims, const std::vector<int32_t> &diag,
                 std::vector<int32_t> k, const char *op = "MatrixSetDiagV3") {
    return runKernel(op, {{"T", DType::I32}},
                     {i32({2, 3, 4}, sevens), i32(shapeOf(dims), diag),
                      i32(k.size() == 1 ? TensorShape() : TensorShape({2}), k)},
                     DType::I32);
  };
  auto out = run({2, 3}, {1, 2, 3, 4, 5, 6}, {0});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 4}, {1, 7, 7, 7, 7, 2, 7, 7, 7, 7, 3, 7,
                                          4, 7, 7, 7, 7, 5, 7, 7, 7, 7, 6, 7});
  out = run({2, 3}, {1, 2, 3, 4, 5, 6}, {1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 4}, {7, 1, 7, 7, 7, 7, 2, 7, 7, 7, 7, 3,
                                          7, 4, 7, 7, 7, 7, 5, 7, 7, 7, 7, 6});
  out = run({2, 4, 3}, {0, 9, 1, 6, 5, 8, 1, 2, 3, 4, 5, 0,
                        0, 1, 2, 5, 6, 4, 6, 1, 2, 3, 4, 0},
            {-1, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 4}, {1, 6, 9, 7, 4, 2, 5, 1, 7, 5, 3, 8,
                                          6, 5, 1, 7, 3, 1, 6, 2, 7, 4, 2, 4});
  // V2 packs LEFT_LEFT: the d = 2 rows move left.
  out = run({2, 4, 3}, {9, 1, 0, 6, 5, 8, 1, 2, 3, 4, 5, 0,
                        1, 2, 0, 5, 6, 4, 6, 1, 2, 3, 4, 0},
            {-1, 2}, "MatrixSetDiagV2");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3, 4}, {1, 6, 9, 7, 4, 2, 5, 1, 7, 5, 3, 8,
                                          6, 5, 1, 7, 3, 1, 6, 2, 7, 4, 2, 4});
  out = run({2, 3}, {1, 2, 3, 4, 5, 6}, {-1, 0});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixSetDiagV3",
                    "The number of diagonals provided in `diag` is not "
                    "consistent with `lower_diag_index` and "
                    "`upper_diag_index`"));
  out = run({2, 2, 2}, std::vector<int32_t>(8, 1), {-1, 0});
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.status().message().find("Expected diagonal shape: [2,2,3]"),
            std::string::npos)
      << out.status().message();
  // MatrixSetDiag's bound message has no period.
  out = run({2, 3}, {1, 2, 3, 4, 5, 6}, {4});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatrixSetDiagV3", "lower_diag_index is out of bound: 4 "
                                       "It must be between -3 and 4"));
}

} // namespace

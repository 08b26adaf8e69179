//===- MatMulKernelsTest.cpp - MatMul kernel tests --------------*- C++ -*-===//
//
// MatMul against hand-derived products and a naive triple loop, for both
// dtypes and all four transpose combinations, plus its errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

template <typename T>
StatusOr<Tensor> runMatMul(TensorShape aShape, const std::vector<double> &a,
                           TensorShape bShape, const std::vector<double> &b,
                           bool transposeA = false, bool transposeB = false,
                           uint64_t constantInputs = 0) {
  AttrMap attrs{{"T", dtypeOf<T>()},
                {"transpose_a", transposeA},
                {"transpose_b", transposeB}};
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<T>(std::move(aShape), a));
  inputs.push_back(makeTensorFrom<T>(std::move(bShape), b));
  if (constantInputs)
    return runKernelWithConstants("MatMul", attrs, std::move(inputs),
                                  constantInputs, dtypeOf<T>());
  return runKernel("MatMul", attrs, std::move(inputs), dtypeOf<T>());
}

/// Naive reference: out[i][j] = sum_k A[i][k] * B[k][j] where A and B read
/// the stored row-major matrices through the transpose flags.
std::vector<double> refMatMul(const std::vector<double> &a, int64_t aRows,
                              int64_t aCols, const std::vector<double> &b,
                              int64_t bRows, int64_t bCols, bool ta, bool tb) {
  const int64_t m = ta ? aCols : aRows, k = ta ? aRows : aCols;
  const int64_t n = tb ? bRows : bCols;
  auto A = [&](int64_t i, int64_t p) {
    return ta ? a[p * aCols + i] : a[i * aCols + p];
  };
  auto B = [&](int64_t p, int64_t j) {
    return tb ? b[j * bCols + p] : b[p * bCols + j];
  };
  std::vector<double> out(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        out[i * n + j] += A(i, p) * B(p, j);
  return out;
}

TEST(MatMul, HandDerived) {
  // [[1,2,3],[4,5,6]] x [[7,8],[9,10],[11,12]] = [[58,64],[139,154]].
  auto out = runMatMul<float>({2, 3}, {1, 2, 3, 4, 5, 6}, {3, 2},
                              {7, 8, 9, 10, 11, 12});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {58, 64, 139, 154});
}

TEST(MatMul, HandDerivedTransposes) {
  // a^T with a = [[1,4],[2,5],[3,6]] is [[1,2,3],[4,5,6]].
  auto out = runMatMul<double>({3, 2}, {1, 4, 2, 5, 3, 6}, {3, 2},
                               {7, 8, 9, 10, 11, 12}, true, false);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 2}, {58, 64, 139, 154});
  // b^T with b = [[7,9,11],[8,10,12]].
  out = runMatMul<double>({2, 3}, {1, 2, 3, 4, 5, 6}, {2, 3},
                          {7, 9, 11, 8, 10, 12}, false, true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 2}, {58, 64, 139, 154});
  // Both: (a^T b^T) with the two transposed operands above.
  out = runMatMul<double>({3, 2}, {1, 4, 2, 5, 3, 6}, {2, 3},
                          {7, 9, 11, 8, 10, 12}, true, true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 2}, {58, 64, 139, 154});
}

template <typename T> class MatMulDTypeTest : public ::testing::Test {};
using MatMulTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MatMulDTypeTest, MatMulTypes);

TYPED_TEST(MatMulDTypeTest, AgainstTripleLoop) {
  using T = TypeParam;
  struct Size {
    int64_t m, k, n;
  };
  for (Size s : {Size{1, 1, 1}, Size{3, 4, 5}, Size{1, 17, 1}, Size{37, 53, 29},
                 Size{128, 64, 96}}) {
    for (bool ta : {false, true}) {
      for (bool tb : {false, true}) {
        SCOPED_TRACE(::testing::Message() << s.m << "x" << s.k << "x" << s.n
                                          << " ta=" << ta << " tb=" << tb);
        const int64_t aRows = ta ? s.k : s.m, aCols = ta ? s.m : s.k;
        const int64_t bRows = tb ? s.n : s.k, bCols = tb ? s.k : s.n;
        std::vector<double> a = patternValues(aRows * aCols, 4, 3);
        std::vector<double> b = patternValues(bRows * bCols, 4, 4);
        auto out = runMatMul<T>({aRows, aCols}, a, {bRows, bCols}, b, ta, tb);
        ASSERT_TRUE(out.ok()) << out.status();
        // Quarter-step inputs: products and sums are exact in double and
        // in float up to 2^24.
        expectValues<T>(*out, {s.m, s.n},
                        refMatMul(a, aRows, aCols, b, bRows, bCols, ta, tb),
                        1e-6);
      }
    }
  }
}

TYPED_TEST(MatMulDTypeTest, ConstantWeights) {
  // b a program constant (packed once for f32) or both operands constant,
  // run three times.
  using T = TypeParam;
  for (bool tb : {false, true})
    for (uint64_t constants : {0b10, 0b11}) {
      const int64_t m = 9, k = 75, n = 41;
      std::vector<double> a = patternValues(m * k, 4, 5);
      std::vector<double> b = patternValues(k * n, 4, 6);
      auto out =
          runMatMul<T>({m, k}, a, tb ? TensorShape{n, k} : TensorShape{k, n}, b,
                       false, tb, constants);
      ASSERT_TRUE(out.ok()) << out.status();
      expectValues<T>(*out, {m, n},
                      refMatMul(a, m, k, b, tb ? n : k, tb ? k : n, false, tb),
                      1e-6);
    }
}

TEST(MatMul, DefaultsWithoutTransposeAttrs) {
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<float>({1, 2}, {1, 2}));
  inputs.push_back(makeTensor<float>({2, 1}, {3, 4}));
  auto out = runKernel("MatMul", AttrMap{{"T", DType::F32}}, std::move(inputs),
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1}, {11});
}

TEST(MatMul, EmptyDims) {
  // k == 0: a [2,0] times b [0,3] is a [2,3] matrix of zeros.
  auto out = runMatMul<float>({2, 0}, {}, {0, 3}, {});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {0, 0, 0, 0, 0, 0});
  // m == 0.
  out = runMatMul<float>({0, 4}, {}, {4, 3}, std::vector<double>(12, 1));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3}));
}

TEST(MatMul, Errors) {
  auto out = runMatMul<float>({2, 3, 1}, std::vector<double>(6), {3, 2},
                              std::vector<double>(6));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(
      out.status().message(),
      opError("MatMul", "In[0] is not a matrix. Instead it has shape [2,3,1]"));
  out = runMatMul<float>({2, 3}, std::vector<double>(6), {3},
                         std::vector<double>(3));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(
      out.status().message(),
      opError("MatMul", "In[1] is not a matrix. Instead it has shape [3]"));
  out = runMatMul<float>({2, 3}, std::vector<double>(6), {2, 3},
                         std::vector<double>(6));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatMul",
                    "Matrix size-incompatible: In[0]: [2,3], In[1]: [2,3]"));
  // The flags decide which dims are contracted: valid without transpose_b
  // turns invalid with it.
  out = runMatMul<float>({2, 3}, std::vector<double>(6), {3, 4},
                         std::vector<double>(12), false, true);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(),
            opError("MatMul",
                    "Matrix size-incompatible: In[0]: [2,3], In[1]: [3,4]"));
}

TEST(MatMul, UnregisteredDType) {
  auto out = runMatMul<uint8_t>({1, 1}, {1}, {1, 1}, {1});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), StatusCode::kNotFound);
}

} // namespace

//===- BincountKernelsTest.cpp - Bincount family ----------------*- C++ -*-===//
//
// Bincount, DenseBincount (1-D and 2-D, binary_output), SparseBincount and
// RaggedBincount, with and without weights, against counts worked out by
// hand from tf.math.bincount's documentation.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(Bincount, CountsAndWeights) {
  // [1, 1, 2, 3, 2, 4, 4, 5], size 5 (5 is dropped).
  Tensor arr = i32({8}, {1, 1, 2, 3, 2, 4, 4, 5});
  auto out = runKernel("Bincount", AttrMap{{"T", DType::I32}},
                       {arr, i32({}, {5}), i32({0}, {})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {5}, {0, 2, 2, 1, 2});
  out = runKernel("Bincount", AttrMap{{"T", DType::F32}},
                  {arr, i32({}, {6}), f32({8}, {1, 2, 3, 4, 5, 6, 7, 8})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {6}, {0, 3, 8, 4, 13, 8});
  out = runKernel("Bincount", AttrMap{{"T", DType::I32}},
                  {i32({2}, {1, -1}), i32({}, {5}), i32({0}, {})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("Bincount", "Input arr must be non-negative!"));
  out = runKernel("Bincount", AttrMap{{"T", DType::I32}},
                  {arr, i32({}, {-1}), i32({0}, {})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("Bincount", "size (-1) must be non-negative"));
}

TEST(DenseBincount, RowsAndBinary) {
  Tensor in = i64({2, 3}, {0, 1, 1, 2, 2, 9});
  auto out = runKernel(
      "DenseBincount", AttrMap{{"T", DType::F64}, {"Tidx", DType::I64}},
      {in, i64({}, {3}), makeTensor<double>({2, 3}, {1, 2, 3, 4, 5, 6})},
      DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2, 3}, {1, 5, 0, 0, 0, 9});
  out = runKernel(
      "DenseBincount",
      AttrMap{{"T", DType::I64}, {"Tidx", DType::I64}, {"binary_output", true}},
      {in, i64({}, {3}), i64({0}, {})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {2, 3}, {1, 1, 0, 0, 0, 1});
  out = runKernel(
      "DenseBincount", AttrMap{{"T", DType::I32}, {"Tidx", DType::I32}},
      {i32({1, 2}, {0, -2}), i32({}, {3}), i32({0}, {})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("DenseBincount", "Input 'in' must be non-negative! "
                                     "Negative input value found: -2"));
}

TEST(SparseBincount, OneAndTwoD) {
  // 2-D sparse [2, 4]: (0,0)=1, (0,2)=1, (1,1)=3; size 4.
  auto out = runKernel("SparseBincount",
                       AttrMap{{"T", DType::I32}, {"Tidx", DType::I32}},
                       {i64({3, 2}, {0, 0, 0, 2, 1, 1}), i32({3}, {1, 1, 3}),
                        i64({2}, {2, 4}), i32({}, {4}), i32({0}, {})},
                       DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 4}, {0, 2, 0, 0, 0, 0, 0, 1});
  out = runKernel("SparseBincount",
                  AttrMap{{"T", DType::F32}, {"Tidx", DType::I64}},
                  {i64({2, 1}, {0, 3}), i64({2}, {2, 2}), i64({1}, {5}),
                   i64({}, {3}), f32({2}, {0.5, 0.25})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {0, 0, 0.75});
}

TEST(RaggedBincount, Rows) {
  // Rows [1, 1], [], [2, 0, 2].
  auto out = runKernel("RaggedBincount",
                       AttrMap{{"T", DType::I64}, {"Tidx", DType::I32}},
                       {i64({4}, {0, 2, 2, 5}), i32({5}, {1, 1, 2, 0, 2}),
                        i32({}, {3}), i64({0}, {})},
                       DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {3, 3}, {0, 2, 0, 0, 0, 0, 1, 0, 2});
  out = runKernel(
      "RaggedBincount", AttrMap{{"T", DType::I64}, {"Tidx", DType::I32}},
      {i64({2}, {0, 4}), i32({5}, {1, 1, 2, 0, 2}), i32({}, {3}), i64({0}, {})},
      DType::I64);
  EXPECT_EQ(out.status().message(),
            opError("RaggedBincount", "Splits must end with the number of "
                                      "values, got 4 instead of 5"));
}

} // namespace

//===- SparseKernelsTest.cpp - SparseReshape, Reorder, ... ------*- C++ -*-===//
//
// SparseReshape, SparseReorder, SparseFillEmptyRows and
// SparseTensorDenseMatMul against results worked out by hand from the ops'
// documentation (tf.sparse.reshape, tf.sparse.reorder,
// tf.sparse.fill_empty_rows, tf.sparse.sparse_dense_matmul), and TF's
// errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(SparseReshape, MapsEachIndexThroughItsPosition) {
  // Dense [2, 3, 4] -> [6, -1] = [6, 4]: (0,1,2) is position 6 -> (1, 2);
  // (1,2,3) is position 23 -> (5, 3); (1,0,0) is 12 -> (3, 0).
  auto out = runKernelN("SparseReshape", AttrMap{},
                        {i64({3, 3}, {0, 1, 2, 1, 2, 3, 1, 0, 0}),
                         i64({3}, {2, 3, 4}), i64({2}, {6, -1})},
                        {DType::I64, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3, 2}, {1, 2, 5, 3, 3, 0});
  expectValues<int64_t>((*out)[1], {2}, {6, 4});
  // To rank 1: positions.
  out = runKernelN("SparseReshape", AttrMap{},
                   {i64({2, 2}, {0, 1, 1, 0}), i64({2}, {2, 2}), i64({1}, {4})},
                   {DType::I64, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 1}, {1, 2});
  // The same shape gives the inputs back.
  out = runKernelN("SparseReshape", AttrMap{},
                   {i64({1, 2}, {1, 1}), i64({2}, {2, 2}), i64({2}, {2, -1})},
                   {DType::I64, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {1, 2}, {1, 1});
  expectValues<int64_t>((*out)[1], {2}, {2, 2});
}

TEST(SparseReshape, Errors) {
  auto run = [](Tensor shape, Tensor target) {
    return runKernelN(
               "SparseReshape", AttrMap{},
               {i64({1, 2}, {0, 0}), std::move(shape), std::move(target)},
               {DType::I64, DType::I64})
        .status();
  };
  EXPECT_EQ(run(i64({2}, {2, 3}), i64({2}, {-1, -1})).message(),
            opError("SparseReshape",
                    "only one output dimension may be -1, not both 0 and 1"));
  EXPECT_EQ(run(i64({2}, {2, 3}), i64({2}, {4, -1})).message(),
            opError("SparseReshape",
                    "Input to reshape is a SparseTensor with 6 dense values, "
                    "but the requested shape requires a multiple of 4. "
                    "input_shape=[2,3] output_shape=[4,1]"));
  EXPECT_EQ(run(i64({2}, {2, 3}), i64({1}, {5})).message(),
            opError("SparseReshape",
                    "Input to reshape is a tensor with 6 dense values, but "
                    "the requested shape has 5. input_shape=[2,3] "
                    "output_shape=[5]"));
  EXPECT_EQ(run(i64({2}, {2, 3}), i64({2}, {-2, 3})).message(),
            opError("SparseReshape", "size 0 must be non-negative, not -2"));
  // Our checks beyond TF's: index columns against the shape's rank, and an
  // index whose position overflows int64 (2^62 * 4).
  EXPECT_EQ(run(i64({3}, {2, 3, 1}), i64({1}, {6})).message(),
            opError("SparseReshape", "Input indices have 2 columns but the "
                                     "input shape has rank 3"));
  auto overflow = runKernelN(
      "SparseReshape", AttrMap{},
      {i64({1, 2}, {int64_t(1) << 62, 0}), i64({2}, {2, 4}), i64({1}, {8})},
      {DType::I64, DType::I64});
  EXPECT_EQ(overflow.status().message(),
            opError("SparseReshape", "Sparse index tuple indices[0, :] "
                                     "overflows the position in "
                                     "input_shape=[2,4]"));
}

TEST(SparseReorder, SortsRowMajorAndKeepsSortedInputs) {
  // (1,0)=a, (0,2)=b, (0,1)=c -> (0,1)=c, (0,2)=b, (1,0)=a.
  auto out = runKernelN(
      "SparseReorder", AttrMap{{"T", DType::F32}},
      {i64({3, 2}, {1, 0, 0, 2, 0, 1}), f32({3}, {1, 2, 3}), i64({2}, {2, 3})},
      {DType::I64, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3, 2}, {0, 1, 0, 2, 1, 0});
  expectValues<float>((*out)[1], {3}, {3, 2, 1});
  // int64 values, already in order.
  out = runKernelN("SparseReorder", AttrMap{{"T", DType::I64}},
                   {i64({2, 1}, {0, 4}), i64({2}, {7, 8}), i64({1}, {5})},
                   {DType::I64, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[1], {2}, {7, 8});
  auto bad = runKernelN(
      "SparseReorder", AttrMap{{"T", DType::F32}},
      {i64({2, 2}, {0, 0, 1, 1}), f32({3}, {1, 2, 3}), i64({2}, {2, 2})},
      {DType::I64, DType::F32});
  EXPECT_EQ(bad.status().message(),
            opError("SparseReorder",
                    "Number of elements in indices (2) and values (3) do not "
                    "match"));
}

TEST(SparseFillEmptyRows, FillsTheEmptyRows) {
  // The documentation's example: dense [5, 6], entries at (0,1)=a,
  // (0,3)=b, (2,0)=c, (3,1)=d; rows 1 and 4 are empty.
  auto out =
      runKernelN("SparseFillEmptyRows", AttrMap{{"T", DType::F32}},
                 {i64({4, 2}, {0, 1, 0, 3, 2, 0, 3, 1}),
                  f32({4}, {10, 11, 12, 13}), i64({2}, {5, 6}), f32({}, {-1})},
                 {DType::I64, DType::F32, DType::Bool, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {6, 2},
                        {0, 1, 0, 3, 1, 0, 2, 0, 3, 1, 4, 0});
  expectValues<float>((*out)[1], {6}, {10, 11, -1, 12, 13, -1});
  expectValues<bool>((*out)[2], {5}, {0, 1, 0, 0, 1});
  expectValues<int64_t>((*out)[3], {4}, {0, 1, 3, 4});
}

TEST(SparseFillEmptyRows, UnorderedRowsAndErrors) {
  // Rows out of order: (1,0)=5, (0,0)=6 in a [3, 1] shape: row 2 empty;
  // entries keep their order within rows, rows go in order.
  auto out = runKernelN("SparseFillEmptyRows", AttrMap{{"T", DType::I32}},
                        {i64({2, 2}, {1, 0, 0, 0}), i32({2}, {5, 6}),
                         i64({2}, {3, 1}), i32({}, {0})},
                        {DType::I64, DType::I32, DType::Bool, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3, 2}, {0, 0, 1, 0, 2, 0});
  expectValues<int32_t>((*out)[1], {3}, {6, 5, 0});
  expectValues<int64_t>((*out)[3], {2}, {1, 0});
  auto bad = runKernelN(
      "SparseFillEmptyRows", AttrMap{{"T", DType::I32}},
      {i64({1, 2}, {3, 0}), i32({1}, {5}), i64({2}, {3, 1}), i32({}, {0})},
      {DType::I64, DType::I32, DType::Bool, DType::I64});
  EXPECT_EQ(bad.status().message(),
            opError("SparseFillEmptyRows", "indices(0, 0) is invalid: 3 >= 3"));
  bad = runKernelN(
      "SparseFillEmptyRows", AttrMap{{"T", DType::I32}},
      {i64({1, 2}, {0, 0}), i32({1}, {5}), i64({2}, {3, 1}), i32({1}, {0})},
      {DType::I64, DType::I32, DType::Bool, DType::I64});
  EXPECT_EQ(bad.status().message(),
            opError("SparseFillEmptyRows",
                    "default_value must be a scalar, saw: [1]"));
  bad = runKernelN(
      "SparseFillEmptyRows", AttrMap{{"T", DType::I32}},
      {i64({0, 2}, {}), i32({0}, {}), i64({2}, {-1, 1}), i32({}, {0})},
      {DType::I64, DType::I32, DType::Bool, DType::I64});
  EXPECT_EQ(bad.status().message(),
            opError("SparseFillEmptyRows", "Dimension -1 must be >= 0"));
}

TEST(SparseTensorDenseMatMul, AgainstADenseProduct) {
  // A = [[0, 2, 0], [1, 0, 3]] as (0,1)=2, (1,0)=1, (1,2)=3;
  // B = [[1, 2], [3, 4], [5, 6]]; A * B = [[6, 8], [16, 20]].
  Tensor aIx = i64({3, 2}, {0, 1, 1, 0, 1, 2});
  Tensor aVal = f32({3}, {2, 1, 3});
  auto out =
      runKernel("SparseTensorDenseMatMul",
                AttrMap{{"T", DType::F32}, {"Tindices", DType::I64}},
                {aIx, aVal, i64({2}, {2, 3}), f32({3, 2}, {1, 2, 3, 4, 5, 6})},
                DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {6, 8, 16, 20});
  // adjoint_b: B given as B^T [2, 3].
  out = runKernel(
      "SparseTensorDenseMatMul",
      AttrMap{{"T", DType::F32}, {"Tindices", DType::I64}, {"adjoint_b", true}},
      {aIx, aVal, i64({2}, {2, 3}), f32({2, 3}, {1, 3, 5, 2, 4, 6})},
      DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2}, {6, 8, 16, 20});
  // adjoint_a: A given as A^T ([3, 2]: (1,0)=2, (0,1)=1, (2,1)=3), int32
  // indices and values.
  out = runKernel(
      "SparseTensorDenseMatMul",
      AttrMap{{"T", DType::I32}, {"Tindices", DType::I32}, {"adjoint_a", true}},
      {i32({3, 2}, {1, 0, 0, 1, 2, 1}), i32({3}, {2, 1, 3}), i64({2}, {3, 2}),
       i32({3, 2}, {1, 2, 3, 4, 5, 6})},
      DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 2}, {6, 8, 16, 20});
}

TEST(SparseTensorDenseMatMul, Errors) {
  auto out = runKernel("SparseTensorDenseMatMul",
                       AttrMap{{"T", DType::F32}, {"Tindices", DType::I64}},
                       {i64({1, 2}, {0, 5}), f32({1}, {1}), i64({2}, {2, 3}),
                        f32({3, 2}, {1, 2, 3, 4, 5, 6})},
                       DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("SparseTensorDenseMatMul",
                    "k (5) from index[0,1] out of bounds (>=3)"));
  out = runKernel("SparseTensorDenseMatMul",
                  AttrMap{{"T", DType::F32}, {"Tindices", DType::I64}},
                  {i64({1, 2}, {0, 0}), f32({1}, {1}), i64({2}, {2, 4}),
                   f32({3, 2}, {1, 2, 3, 4, 5, 6})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("SparseTensorDenseMatMul",
                    "Cannot multiply A and B because inner dimension does not "
                    "match: 4 vs. 3.  Did you forget a transpose?  Dimensions "
                    "of A: [2, 4).  Dimensions of B: [3,2]"));
}

} // namespace

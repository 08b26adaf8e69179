//===- SparseKernelsTest.cpp - SparseReshape, Reorder, ... ------*- C++ -*-===//
//
// SparseReshape, SparseReorder, SparseFillEmptyRows,
// SparseTensorDenseMatMul, SparseAdd, SparseSlice and SparseReduceSum
// against results worked out by hand from the ops' documentation
// (tf.sparse.reshape, tf.sparse.reorder, tf.sparse.fill_empty_rows,
// tf.sparse.sparse_dense_matmul, tf.sparse.add, tf.sparse.slice,
// tf.sparse.reduce_sum), and TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include "tfrt_fallback/Runtime/StringTensor.h"

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

TEST(SparseAdd, MergesInOrderAndDropsSmallSums) {
  // A: (0,1)=1, (1,0)=2; B: (0,1)=-1, (1,1)=3 in a [2, 2] tensor. The sums
  // of the shared (0,1) is 0: kept with thresh 0 (0 <= |0|), dropped with
  // thresh 0.5.
  auto run = [](float thresh) {
    return runKernelN("SparseAdd",
                      AttrMap{{"T", DType::F32}, {"Treal", DType::F32}},
                      {i64({2, 2}, {0, 1, 1, 0}), f32({2}, {1, 2}),
                       i64({2}, {2, 2}), i64({2, 2}, {0, 1, 1, 1}),
                       f32({2}, {-1, 3}), i64({2}, {2, 2}), f32({}, {thresh})},
                      {DType::I64, DType::F32, DType::I64});
  };
  auto out = run(0);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3, 2}, {0, 1, 1, 0, 1, 1});
  expectValues<float>((*out)[1], {3}, {0, 2, 3});
  expectValues<int64_t>((*out)[2], {2}, {2, 2});
  out = run(0.5);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 2}, {1, 0, 1, 1});
  expectValues<float>((*out)[1], {2}, {2, 3});
  // int32: |-5 + 1| = 4 reaches thresh 4; an empty B gives A back.
  auto ints =
      runKernelN("SparseAdd", AttrMap{{"T", DType::I32}, {"Treal", DType::I32}},
                 {i64({2, 1}, {0, 2}), i32({2}, {-5, 7}), i64({1}, {3}),
                  i64({1, 1}, {0}), i32({1}, {1}), i64({1}, {3}), i32({}, {4})},
                 {DType::I64, DType::I32, DType::I64});
  ASSERT_TRUE(ints.ok()) << ints.status();
  expectValues<int64_t>((*ints)[0], {2, 1}, {0, 2});
  expectValues<int32_t>((*ints)[1], {2}, {-4, 7});
}

TEST(SparseAdd, Errors) {
  auto run = [](Tensor aIx, Tensor aShape, Tensor bIx, Tensor bShape,
                Tensor thresh) -> std::string {
    const int64_t na = aIx.rank() == 2 ? aIx.dim(0) : 1;
    const int64_t nb = bIx.rank() == 2 ? bIx.dim(0) : 1;
    return std::string(
        runKernelN("SparseAdd",
                   AttrMap{{"T", DType::F32}, {"Treal", DType::F32}},
                   {std::move(aIx), f32({na}, std::vector<float>(na, 1)),
                    std::move(aShape), std::move(bIx),
                    f32({nb}, std::vector<float>(nb, 1)), std::move(bShape),
                    std::move(thresh)},
                   {DType::I64, DType::F32, DType::I64})
            .status()
            .message());
  };
  EXPECT_EQ(run(i64({1, 2}, {0, 0}), i64({2}, {2, 2}), i64({1, 1}, {0}),
                i64({1}, {2}), f32({}, {0})),
            opError("SparseAdd",
                    "Input indices must have the same dimension, got 2 and 1"));
  EXPECT_EQ(run(i64({1, 2}, {0, 0}), i64({2}, {2, 2}), i64({1, 2}, {0, 0}),
                i64({2}, {2, 3}), f32({}, {0})),
            opError("SparseAdd", "Operands' shapes do not match: got 2 and 3 "
                                 "for dimension 1"));
  EXPECT_EQ(run(i64({1, 2}, {0, 0}), i64({2}, {2, 2}), i64({1, 2}, {0, 0}),
                i64({2}, {2, 2}), f32({1}, {0})),
            opError("SparseAdd", "The magnitude threshold must be a scalar: "
                                 "got shape [1]"));
  EXPECT_EQ(run(i64({1, 2}, {0, 0}), i64({3}, {2, 2, 2}), i64({1, 2}, {0, 0}),
                i64({2}, {2, 2}), f32({}, {0})),
            opError("SparseAdd", "Second dimension of a_indices and length of "
                                 "a_shape must match, got 2 and 3"));
}

TEST(SparseAdd, ThreshMustHaveTheValuesDType) {
  // Treal is its own attribute; the kernel is registered for T alone.
  auto out = runKernelN(
      "SparseAdd", AttrMap{{"T", DType::F32}, {"Treal", DType::F64}},
      {i64({1, 1}, {0}), f32({1}, {1}), i64({1}, {2}), i64({1, 1}, {1}),
       f32({1}, {2}), i64({1}, {2}), makeTensor<double>({}, {0.5})},
      {DType::I64, DType::F32, DType::I64});
  EXPECT_EQ(
      out.status().message(),
      opError("SparseAdd", "thresh must be f32 like the values, got f64"));
}

TEST(SparseSlice, TheDocumentationsExample) {
  // tf.sparse.slice's example: a [2, 7] tensor with a=(0,1), d=(0,4),
  // e=(0,5), b=(1,0), c=(1,1) (values 1..5 in that order).
  auto slice = [](std::vector<int64_t> start, std::vector<int64_t> size) {
    return runKernelN("SparseSlice", AttrMap{{"T", DType::F32}},
                      {i64({5, 2}, {0, 1, 0, 4, 0, 5, 1, 0, 1, 1}),
                       f32({5}, {1, 2, 3, 4, 5}), i64({2}, {2, 7}),
                       i64({2}, start), i64({2}, size)},
                      {DType::I64, DType::F32, DType::I64});
  };
  auto out = slice({0, 0}, {2, 4});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3, 2}, {0, 1, 1, 0, 1, 1});
  expectValues<float>((*out)[1], {3}, {1, 4, 5});
  expectValues<int64_t>((*out)[2], {2}, {2, 4});
  out = slice({0, 4}, {2, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 2}, {0, 0, 0, 1});
  expectValues<float>((*out)[1], {2}, {2, 3});
  expectValues<int64_t>((*out)[2], {2}, {2, 3});
  // Past the end: cut to what is left ([1, 2]), or 0.
  out = slice({0, 5}, {1, 10});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {1, 2}, {0, 0});
  expectValues<float>((*out)[1], {1}, {3});
  expectValues<int64_t>((*out)[2], {2}, {1, 2});
  out = slice({3, 9}, {1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {0, 2}, {});
  expectValues<int64_t>((*out)[2], {2}, {0, 0});
}

TEST(SparseSlice, StringsAndErrors) {
  std::vector<std::string_view> views = {"x", "yy", "zzz"};
  Tensor strings = *makeStringTensor(TensorShape{3}, views);
  auto out = runKernelN("SparseSlice", AttrMap{{"T", DType::String}},
                        {i64({3, 1}, {0, 3, 5}), strings, i64({1}, {6}),
                         i64({1}, {2}), i64({1}, {4})},
                        {DType::I64, DType::String, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 1}, {1, 3});
  auto values = stringElements((*out)[1]);
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0], "yy");
  EXPECT_EQ(values[1], "zzz");
  auto run = [](Tensor start, Tensor size) -> std::string {
    return std::string(
        runKernelN("SparseSlice", AttrMap{{"T", DType::F32}},
                   {i64({1, 2}, {0, 0}), f32({1}, {1}), i64({2}, {2, 2}),
                    std::move(start), std::move(size)},
                   {DType::I64, DType::F32, DType::I64})
            .status()
            .message());
  };
  EXPECT_EQ(run(i64({1}, {0}), i64({2}, {1, 1})),
            opError("SparseSlice", "Expected start to be a vector of length 2 "
                                   "but got length 1"));
  EXPECT_EQ(run(i64({2}, {0, 0}), i64({2}, {1, -1})),
            opError("SparseSlice", "Expected a non-negative size, got -1"));
  EXPECT_EQ(run(i64({2, 1}, {0, 0}), i64({2}, {1, 1})),
            opError("SparseSlice", "Input start should be a vector but "
                                   "received shape [2,1]"));
}

TEST(SparseReduceSum, TheDocumentationsExample) {
  // tf.sparse.reduce_sum's x = [[1, ?, 1], [?, 1, ?]].
  auto reduce = [](Tensor axes, bool keepDims) {
    return runKernel("SparseReduceSum",
                     AttrMap{{"T", DType::F32}, {"keep_dims", keepDims}},
                     {i64({3, 2}, {0, 0, 0, 2, 1, 1}), f32({3}, {1, 1, 1}),
                      i64({2}, {2, 3}), std::move(axes)},
                     DType::F32);
  };
  auto out = reduce(i32({2}, {0, 1}), false);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {}, {3});
  out = reduce(i32({}, {0}), false);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {1, 1, 1});
  out = reduce(i32({}, {-1}), false);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {2, 1});
  out = reduce(i32({1}, {1}), true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1}, {2, 1});
  // No axes: the dense tensor.
  out = reduce(i32({0}, {}), false);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {1, 0, 1, 0, 1, 0});
  // Repeated entries add up; int8 wraps (100 + 100 = -56).
  auto ints =
      runKernel("SparseReduceSum", AttrMap{{"T", DType::I8}},
                {i64({2, 1}, {1, 1}), makeTensor<int8_t>({2}, {100, 100}),
                 i64({1}, {2}), i32({0}, {})},
                DType::I8);
  ASSERT_TRUE(ints.ok()) << ints.status();
  expectValues<int8_t>(*ints, {2}, {0, -56});
}

TEST(SparseReduceSum, Errors) {
  auto run = [](Tensor indices, Tensor axes) -> std::string {
    return std::string(runKernel("SparseReduceSum", AttrMap{{"T", DType::F32}},
                                 {std::move(indices), f32({1}, {1}),
                                  i64({2}, {2, 3}), std::move(axes)},
                                 DType::F32)
                           .status()
                           .message());
  };
  EXPECT_EQ(run(i64({1, 2}, {0, 0}), i32({1}, {2})),
            opError("SparseReduceSum", "Invalid reduction dimension 2, for "
                                       "input with 2 dimensions."));
  EXPECT_EQ(run(i64({1, 2}, {0, 0}), i32({1, 1}, {0})),
            opError("SparseReduceSum", "Expected reduction_axes to be a scalar "
                                       "or a vector; got shape: [1,1]"));
  // Ours: a kept coordinate outside the dense shape.
  EXPECT_EQ(run(i64({1, 2}, {0, 3}), i32({1}, {0})),
            opError("SparseReduceSum", "indices[0] = [0,3] is out of bounds: "
                                       "need 0 <= index < [2,3]"));
  EXPECT_EQ(
      run(i64({1, 3}, {0, 0, 0}), i32({1}, {0})),
      opError("SparseReduceSum", "Order length must be SparseTensor rank."));
}

} // namespace

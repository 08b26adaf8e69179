//===- PartitionKernelsTest.cpp - DynamicStitch, DynamicPartition -*- C++ -*-//
//
// Slices merged and split by index, duplicate and missing indices, every
// dtype width, and TF's errors. Expected values are worked out by hand
// from TF's documentation of tf.dynamic_stitch / tf.dynamic_partition.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

AttrMap stitchAttrs(DType t, int64_t n) { return {{"T", t}, {"N", n}}; }

TEST(DynamicStitch, MergesSlices) {
  // TF's doc example: indices [6], [4, 1], [[5, 2], [0, 3]] with
  // data [61, 62], [[41, 42], [11, 12]], [[[51, 52], [21, 22]],
  // [[1, 2], [31, 32]]] -> [[1, 2], [11, 12], ..., [61, 62]].
  for (const char *op : {"DynamicStitch", "ParallelDynamicStitch"}) {
    auto out =
        runKernel(op, stitchAttrs(DType::F32, 3),
                  {i32({1}, {6}), i32({2}, {4, 1}), i32({2, 2}, {5, 2, 0, 3}),
                   f32({1, 2}, {61, 62}), f32({2, 2}, {41, 42, 11, 12}),
                   f32({2, 2, 2}, {51, 52, 21, 22, 1, 2, 31, 32})},
                  DType::F32);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, {7, 2},
                        {1, 2, 11, 12, 21, 22, 31, 32, 41, 42, 51, 52, 61, 62});
  }
}

TEST(DynamicStitch, DuplicatesMissingAndEmpty) {
  // Later inputs win; row 1 is named by no index and is zero.
  auto out = runKernel(
      "DynamicStitch", stitchAttrs(DType::I64, 2),
      {i32({2}, {0, 2}), i32({1}, {0}), i64({2}, {5, 7}), i64({1}, {9})},
      DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {3}, {9, 0, 7});
  // Scalar indices with vector data: each datum is one row.
  out =
      runKernel("DynamicStitch", stitchAttrs(DType::U8, 1),
                {i32({}, {1}), makeTensor<uint8_t>({3}, {4, 5, 6})}, DType::U8);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {2, 3}, {0, 0, 0, 4, 5, 6});
  // No indices at all: zero rows.
  out = runKernel("DynamicStitch", stitchAttrs(DType::F32, 1),
                  {i32({0}, {}), f32({0, 3}, {})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3}));
  // 2-byte elements.
  out = runKernel("DynamicStitch", stitchAttrs(DType::F16, 1),
                  {i32({2}, {1, 0}), makeTensorFrom<half>({2}, {1.5, -2})},
                  DType::F16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<half>(*out, {2}, {-2, 1.5});
}

TEST(DynamicStitch, Errors) {
  auto out = runKernel("DynamicStitch", stitchAttrs(DType::F32, 1),
                       {i32({2}, {0, -1}), f32({2}, {1, 2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("DynamicStitch", "indices[1] is out of range"));
  out = runKernel("DynamicStitch", stitchAttrs(DType::F32, 1),
                  {i32({3}, {0, 1, 2}), f32({2}, {1, 2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("DynamicStitch", "data[0].shape = [2] does not start with "
                                     "indices[0].shape = [3]"));
  out = runKernel("DynamicStitch", stitchAttrs(DType::F32, 2),
                  {i32({1}, {0}), i32({1}, {1}), f32({1, 2}, {1, 2}),
                   f32({1, 3}, {1, 2, 3})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("DynamicStitch",
                    "Need data[0].shape[1:] = data[1].shape[1:], got "
                    "data[0].shape = [1,2], data[1].shape = [1,3], "
                    "indices[0].shape = [1], indices[1].shape = [1]"));
}

TEST(DynamicPartition, SplitsSlices) {
  // TF's doc example: data [10, 20, 30, 40, 50], partitions [0, 0, 1, 1, 0]
  // -> [10, 20, 50], [30, 40].
  auto out = runKernelN(
      "DynamicPartition", AttrMap{{"T", DType::F32}, {"num_partitions", 2}},
      {f32({5}, {10, 20, 30, 40, 50}), i32({5}, {0, 0, 1, 1, 0})},
      {DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {3}, {10, 20, 50});
  expectValues<float>((*out)[1], {2}, {30, 40});
  // Rows of a matrix by a 1-D partition, one partition left empty.
  out = runKernelN("DynamicPartition",
                   AttrMap{{"T", DType::I32}, {"num_partitions", 3}},
                   {i32({3, 2}, {1, 2, 3, 4, 5, 6}), i32({3}, {2, 0, 2})},
                   {DType::I32, DType::I32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>((*out)[0], {1, 2}, {3, 4});
  EXPECT_EQ((*out)[1].shape(), TensorShape({0, 2}));
  expectValues<int32_t>((*out)[2], {2, 2}, {1, 2, 5, 6});
  // 2-D partitions of a 2-D tensor flatten row-major.
  out = runKernelN("DynamicPartition",
                   AttrMap{{"T", DType::Bool}, {"num_partitions", 2}},
                   {makeTensor<bool>({2, 2}, {true, false, false, true}),
                    i32({2, 2}, {1, 1, 0, 1})},
                   {DType::Bool, DType::Bool});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<bool>((*out)[0], {1}, {0});
  expectValues<bool>((*out)[1], {3}, {1, 0, 1});
}

TEST(DynamicPartition, Errors) {
  auto out = runKernelN("DynamicPartition",
                        AttrMap{{"T", DType::F32}, {"num_partitions", 2}},
                        {f32({3}, {1, 2, 3}), i32({2, 2}, {0, 1, 1, 5})},
                        {DType::F32, DType::F32});
  EXPECT_EQ(out.status().message(),
            opError("DynamicPartition",
                    "data.shape must start with partitions.shape, got "
                    "data.shape = [3], partitions.shape = [2,2]"));
  out = runKernelN("DynamicPartition",
                   AttrMap{{"T", DType::F32}, {"num_partitions", 2}},
                   {f32({2, 2}, {1, 2, 3, 4}), i32({2, 2}, {0, 1, 1, 5})},
                   {DType::F32, DType::F32});
  EXPECT_EQ(
      out.status().message(),
      opError("DynamicPartition", "partitions[1,1] = 5 is not in [0, 2)"));
  out = runKernelN("DynamicPartition",
                   AttrMap{{"T", DType::F32}, {"num_partitions", 2}},
                   {f32({1}, {1}), i32({1}, {-1})}, {DType::F32, DType::F32});
  EXPECT_EQ(out.status().message(),
            opError("DynamicPartition", "partitions[0] = -1 is not in [0, 2)"));
}

} // namespace

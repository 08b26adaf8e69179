//===- UniqueKernelsTest.cpp - Unique, UniqueWithCounts, ListDiff -*- C++ -*-//
//
// First-occurrence order, idx and counts, V2 axes, value equality of floats
// (-0.0 == 0.0, NaN unique), index dtypes and TF's errors. Expected values
// are worked out by hand from tf.unique / tf.unique_with_counts /
// tf.compat.v1.setdiff1d documentation.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(Unique, FirstOccurrenceOrder) {
  // TF's doc example: [1, 1, 2, 4, 4, 4, 7, 8, 8] -> [1, 2, 4, 7, 8],
  // idx [0, 0, 1, 2, 2, 2, 3, 4, 4].
  auto out = runKernelN("Unique", AttrMap{{"T", DType::I32}},
                        {i32({9}, {1, 1, 2, 4, 4, 4, 7, 8, 8})},
                        {DType::I32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>((*out)[0], {5}, {1, 2, 4, 7, 8});
  expectValues<int32_t>((*out)[1], {9}, {0, 0, 1, 2, 2, 2, 3, 4, 4});
  // Not sorted: first occurrence wins; int64 idx.
  out =
      runKernelN("Unique", AttrMap{{"T", DType::F32}, {"out_idx", DType::I64}},
                 {f32({5}, {3, 1, 3, 2, 1})}, {DType::F32, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {3}, {3, 1, 2});
  expectValues<int64_t>((*out)[1], {5}, {0, 1, 0, 2, 1});
}

TEST(Unique, FloatEquality) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = runKernelN("Unique", AttrMap{{"T", DType::F32}},
                        {f32({5}, {0.0f, -0.0f, nan, nan, 1.0f})},
                        {DType::F32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  // -0.0 joins 0.0 (kept as the first, +0.0); each NaN is its own value.
  expectValues<float>((*out)[0], {4}, {0, NAN, NAN, 1});
  EXPECT_FALSE(std::signbit(valuesOf<float>((*out)[0])[0]));
  expectValues<int32_t>((*out)[1], {5}, {0, 0, 1, 2, 3});
}

TEST(UniqueWithCounts, Counts) {
  auto out = runKernelN("UniqueWithCounts", AttrMap{{"T", DType::I64}},
                        {i64({6}, {5, 5, 9, 5, 9, 1})},
                        {DType::I64, DType::I32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {3}, {5, 9, 1});
  expectValues<int32_t>((*out)[1], {6}, {0, 0, 1, 0, 1, 2});
  expectValues<int32_t>((*out)[2], {3}, {3, 2, 1});
}

TEST(UniqueV2, Axes) {
  // [[1, 0, 0], [1, 0, 0], [2, 0, 0]] along axis 0: rows [1,0,0], [2,0,0].
  Tensor x = i32({3, 3}, {1, 0, 0, 1, 0, 0, 2, 0, 0});
  auto out = runKernelN("UniqueV2", AttrMap{{"T", DType::I32}},
                        {x, i64({1}, {0})}, {DType::I32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>((*out)[0], {2, 3}, {1, 0, 0, 2, 0, 0});
  expectValues<int32_t>((*out)[1], {3}, {0, 0, 1});
  // Along axis 1 (and -1): columns [1,1,2], [0,0,0], [0,0,0].
  out = runKernelN("UniqueWithCountsV2", AttrMap{{"T", DType::I32}},
                   {x, i32({1}, {-1})}, {DType::I32, DType::I32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>((*out)[0], {3, 2}, {1, 0, 1, 0, 2, 0});
  expectValues<int32_t>((*out)[1], {3}, {0, 1, 1});
  expectValues<int32_t>((*out)[2], {2}, {1, 2});
  // An empty axis tensor means a 1-D input.
  out = runKernelN("UniqueV2", AttrMap{{"T", DType::U8}},
                   {makeTensor<uint8_t>({3}, {7, 7, 3}), i64({0}, {})},
                   {DType::U8, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>((*out)[0], {2}, {7, 3});
  // Middle axis of a 3-D tensor: slices [2, 1] along axis 1 of [2, 3, 1].
  out = runKernelN("UniqueV2", AttrMap{{"T", DType::F32}},
                   {f32({2, 3, 1}, {1, 2, 1, 4, 5, 4}), i64({1}, {1})},
                   {DType::F32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {2, 2, 1}, {1, 2, 4, 5});
  expectValues<int32_t>((*out)[1], {3}, {0, 1, 0});
}

TEST(Unique, Errors) {
  auto out = runKernelN("Unique", AttrMap{{"T", DType::F32}},
                        {f32({2, 2}, {1, 2, 3, 4})}, {DType::F32, DType::I32});
  EXPECT_EQ(out.status().message(),
            opError("Unique", "unique expects a 1D vector."));
  out = runKernelN("UniqueV2", AttrMap{{"T", DType::F32}},
                   {f32({2, 2}, {1, 2, 3, 4}), i64({1}, {2})},
                   {DType::F32, DType::I32});
  EXPECT_EQ(out.status().message(),
            opError("UniqueV2", "axis has to be between [0, 2)"));
  out = runKernelN("UniqueV2", AttrMap{{"T", DType::F32}},
                   {f32({2}, {1, 2}), i64({2}, {0, 0})},
                   {DType::F32, DType::I32});
  EXPECT_EQ(out.status().message(),
            opError("UniqueV2", "axis does not support input tensors larger "
                                "than 1 elements"));
}

TEST(ListDiff, KeepsOrderAndRepeats) {
  // TF's doc example: x = [1, 2, 3, 4, 5, 6], y = [1, 3, 5] -> [2, 4, 6],
  // idx [1, 3, 5].
  auto out = runKernelN("ListDiff", AttrMap{{"T", DType::I32}},
                        {i32({6}, {1, 2, 3, 4, 5, 6}), i32({3}, {1, 3, 5})},
                        {DType::I32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>((*out)[0], {3}, {2, 4, 6});
  expectValues<int32_t>((*out)[1], {3}, {1, 3, 5});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out = runKernelN("ListDiff",
                   AttrMap{{"T", DType::F64}, {"out_idx", DType::I64}},
                   {makeTensor<double>({5}, {2, -0.0, 2, nan, 7}),
                    makeTensor<double>({2}, {0.0, nan})},
                   {DType::F64, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  // -0.0 is in y (as 0.0); NaN never is.
  expectValues<double>((*out)[0], {4}, {2, 2, NAN, 7});
  expectValues<int64_t>((*out)[1], {4}, {0, 2, 3, 4});
  out = runKernelN("ListDiff", AttrMap{{"T", DType::I32}},
                   {i32({}, {1}), i32({1}, {1})}, {DType::I32, DType::I32});
  EXPECT_EQ(out.status().message(),
            opError("ListDiff", "x should be a 1D vector."));
}

} // namespace

//===- ArithmeticKernelsTest.cpp - TruncateDiv, Xdivy, clip, bounds -*- C++
//-*-//
//
// TruncateDiv (ints and floats, broadcasting, division by zero), Xdivy,
// ClipByValue (scalar and tensor bounds, NaN) and LowerBound / UpperBound
// against std::lower_bound / std::upper_bound semantics worked by hand.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(TruncateDiv, RoundsTowardZero) {
  auto out = runKernel("TruncateDiv", AttrMap{{"T", DType::I32}},
                       {i32({4}, {7, -7, 7, -7}), i32({4}, {2, 2, -2, -2})},
                       DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {4}, {3, -3, -3, 3});
  out = runKernel("TruncateDiv", AttrMap{{"T", DType::F32}},
                  {f32({3}, {7, -7, 1}), f32({}, {2})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {3, -3, 0});
  out =
      runKernel("TruncateDiv", AttrMap{{"T", DType::F64}},
                {makeTensor<double>({2}, {1, -1}), makeTensor<double>({}, {0})},
                DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {2}, {INFINITY, -INFINITY});
  // MIN / -1 wraps.
  const int64_t min = std::numeric_limits<int64_t>::min();
  out = runKernel("TruncateDiv", AttrMap{{"T", DType::I64}},
                  {i64({1}, {min}), i64({1}, {-1})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<int64_t>(*out)[0], min);
  out = runKernel("TruncateDiv", AttrMap{{"T", DType::I32}},
                  {i32({2}, {1, 2}), i32({2}, {1, 0})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("TruncateDiv", "Integer division by zero"));
}

TEST(Xdivy, ZeroNumerator) {
  auto out =
      runKernel("Xdivy", AttrMap{{"T", DType::F32}},
                {f32({3}, {0, 6, 0}), f32({3}, {0, 3, NAN})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {3}, {0, 2, 0});
}

TEST(ClipByValue, Bounds) {
  auto out = runKernel(
      "ClipByValue", AttrMap{{"T", DType::F32}},
      {f32({4}, {-2, 0.5, 3, NAN}), f32({}, {0}), f32({}, {1})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {0, 0.5, 1, NAN});
  out = runKernel("ClipByValue", AttrMap{{"T", DType::I32}},
                  {i32({3}, {-5, 5, 50}), i32({3}, {0, 6, 0}), i32({}, {10})},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {0, 6, 10});
  out = runKernel("ClipByValue", AttrMap{{"T", DType::F32}},
                  {f32({2}, {1, 2}), f32({3}, {0, 0, 0}), f32({}, {1})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ClipByValue",
                    "clip_value_min and clip_value_max must be either of the "
                    "same shape as input, or a scalar. input shape: "
                    "[2]clip_value_min shape: [3]clip_value_max shape: []"));
}

TEST(SearchSorted, LowerAndUpperBound) {
  // TF's doc example: sorted [[0, 3, 9, 9, 10], [1, 2, 3, 4, 5]], values
  // [[2, 4, 9], [0, 2, 6]]: lower [[1, 2, 2], [0, 1, 5]], upper
  // [[1, 2, 4], [0, 2, 5]].
  Tensor sorted = f32({2, 5}, {0, 3, 9, 9, 10, 1, 2, 3, 4, 5});
  Tensor values = f32({2, 3}, {2, 4, 9, 0, 2, 6});
  auto out = runKernel("LowerBound", AttrMap{{"T", DType::F32}},
                       {sorted, values}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 3}, {1, 2, 2, 0, 1, 5});
  out = runKernel("UpperBound",
                  AttrMap{{"T", DType::F32}, {"out_type", DType::I64}},
                  {sorted, values}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {2, 3}, {1, 2, 4, 0, 2, 5});
  out = runKernel("LowerBound", AttrMap{{"T", DType::F32}},
                  {f32({5}, {1, 2, 3, 4, 5}), values}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("LowerBound", "Shape must be rank 2 but is rank 1 for "
                                  "`sorted_inputs` argument"));
  out = runKernel("UpperBound", AttrMap{{"T", DType::F32}},
                  {sorted, f32({1, 1}, {1})}, DType::I32);
  EXPECT_EQ(
      out.status().message(),
      opError("UpperBound", "Leading dim_size of both tensors must match."));
}

} // namespace

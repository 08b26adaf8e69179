//===- ShapeVectorKernelsTest.cpp - ShapeN, BroadcastArgs, ... --*- C++ -*-===//
//
// ShapeN, BroadcastArgs, ConcatOffset, EnsureShape, DataFormatDimMap,
// DataFormatVecPermute and the identities PreventGradient and
// PlaceholderWithDefault. Expected values are worked out by hand from TF's
// documentation.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(ShapeN, Shapes) {
  auto out = runKernelN("ShapeN", AttrMap{{"T", DType::F32}, {"N", 2}},
                        {iota({2, 3}), iota({4})}, {DType::I32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>((*out)[0], {2}, {2, 3});
  expectValues<int32_t>((*out)[1], {1}, {4});
  out = runKernelN(
      "ShapeN", AttrMap{{"T", DType::F32}, {"N", 1}, {"out_type", DType::I64}},
      {f32({}, {1})}, {DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), TensorShape({0}));
}

TEST(BroadcastArgs, Shapes) {
  auto out = runKernel("BroadcastArgs", AttrMap{{"T", DType::I32}},
                       {i32({3}, {2, 1, 3}), i32({2}, {4, 1})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {2, 4, 3});
  // 1 vs. 0 gives 0.
  out = runKernel("BroadcastArgs", AttrMap{{"T", DType::I64}},
                  {i64({1}, {1}), i64({1}, {0})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {1}, {0});
  out = runKernel("BroadcastArgs", AttrMap{{"T", DType::I32}},
                  {i32({2}, {2, 3}), i32({1}, {4})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("BroadcastArgs", "Incompatible shapes: [2,3] vs. [4]"));
}

TEST(ConcatOffset, Offsets) {
  // TF's doc example: concat_dim 1, shapes [2, 3, 7], [2, 9, 7], [2, 5, 7]
  // -> [0, 0, 0], [0, 3, 0], [0, 12, 0].
  auto out =
      runKernelN("ConcatOffset", AttrMap{{"N", 3}, {"shape_type", DType::I32}},
                 {i32({}, {1}), i32({3}, {2, 3, 7}), i32({3}, {2, 9, 7}),
                  i32({3}, {2, 5, 7})},
                 {DType::I32, DType::I32, DType::I32});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>((*out)[0], {3}, {0, 0, 0});
  expectValues<int32_t>((*out)[1], {3}, {0, 3, 0});
  expectValues<int32_t>((*out)[2], {3}, {0, 12, 0});
  out =
      runKernelN("ConcatOffset", AttrMap{{"N", 2}, {"shape_type", DType::I32}},
                 {i32({}, {-1}), i32({2}, {3, 4}), i32({2}, {2, 4})},
                 {DType::I32, DType::I32});
  EXPECT_EQ(out.status().message(),
            opError("ConcatOffset",
                    "All dimensions except 1 must match. Input 1 has shape [2 "
                    "4] and doesn't match input 0 with shape [3 4]."));
  out =
      runKernelN("ConcatOffset", AttrMap{{"N", 2}, {"shape_type", DType::I32}},
                 {i32({}, {2}), i32({2}, {3, 4}), i32({2}, {3, 4})},
                 {DType::I32, DType::I32});
  EXPECT_EQ(out.status().message(),
            opError("ConcatOffset", "Concat dim is out of range: 2 vs. 2"));
}

TEST(EnsureShape, ChecksPartialShape) {
  auto out =
      runKernel("EnsureShape",
                AttrMap{{"T", DType::F32}, {"shape", PartialShape({-1, 3})}},
                {iota({2, 3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {0, 1, 2, 3, 4, 5});
  out = runKernel("EnsureShape",
                  AttrMap{{"T", DType::F32}, {"shape", PartialShape({-1, 4})}},
                  {iota({2, 3})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("EnsureShape", "Shape of tensor input [2,3] is not "
                                   "compatible with expected shape [?,4]."));
}

TEST(DataFormatDimMap, NhwcToNchw) {
  // NHWC -> NCHW: N 0 -> 0, H 1 -> 2, W 2 -> 3, C 3 -> 1; -1 is C.
  auto out = runKernel("DataFormatDimMap", AttrMap{{"T", DType::I32}},
                       {i32({5}, {0, 1, 2, 3, -1})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {5}, {0, 2, 3, 1, 1});
  out = runKernel("DataFormatDimMap",
                  AttrMap{{"T", DType::I64},
                          {"src_format", std::string("NCDHW")},
                          {"dst_format", std::string("NDHWC")}},
                  {i64({2}, {1, -4})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  // C (1) -> 4; -4 is C too (index 1 of 5).
  expectValues<int64_t>(*out, {2}, {4, 4});
  out = runKernel("DataFormatDimMap",
                  AttrMap{{"T", DType::I32},
                          {"src_format", std::string("NHWC")},
                          {"dst_format", std::string("NCHH")}},
                  {i32({1}, {0})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("DataFormatDimMap", "Destination and source format must "
                                        "determine a permutation, got NHWC "
                                        "and NCHH"));
}

TEST(DataFormatVecPermute, Permutes) {
  // TF's doc example: NHWC -> NCHW maps [4, 2, 3, 1]... as values
  // [n, h, w, c] -> [n, c, h, w].
  auto out = runKernel("DataFormatVecPermute", AttrMap{{"T", DType::I32}},
                       {i32({4}, {1, 2, 3, 4})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {4}, {1, 4, 2, 3});
  // [4, 2] paddings rows move together.
  out = runKernel("DataFormatVecPermute", AttrMap{{"T", DType::I64}},
                  {i64({4, 2}, {0, 0, 1, 1, 2, 2, 3, 3})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {4, 2}, {0, 0, 3, 3, 1, 1, 2, 2});
  // Spatial only: NHWC -> NWHC swaps H and W.
  out = runKernel("DataFormatVecPermute",
                  AttrMap{{"T", DType::I32},
                          {"src_format", std::string("NHWC")},
                          {"dst_format", std::string("NWHC")}},
                  {i32({2}, {7, 9})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {9, 7});
  out = runKernel("DataFormatVecPermute", AttrMap{{"T", DType::I32}},
                  {i32({3}, {1, 2, 3})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("DataFormatVecPermute",
                    "1D input must be of size 2 or 4, but got shape [3]"));
}

TEST(Identities, PreventGradientAndPlaceholderWithDefault) {
  Tensor x = f32({2}, {1, 2});
  auto out =
      runKernel("PreventGradient", AttrMap{{"T", DType::F32}}, {x}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), x.rawData());
  out = runKernel("PlaceholderWithDefault",
                  AttrMap{{"dtype", DType::F32}, {"shape", PartialShape({2})}},
                  {x}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {1, 2});
}

} // namespace

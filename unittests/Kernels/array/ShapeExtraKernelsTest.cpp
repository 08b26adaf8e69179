//===- ShapeExtraKernelsTest.cpp - Shape, ExpandDims, Range, ... -*- C++
//-*-===//
//
// Shape, Size, Rank, ExpandDims, Squeeze, Fill, Range, BroadcastTo,
// IdentityN and StopGradient.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(Shape, OutTypes) {
  Tensor in = iota({2, 0, 3});
  auto out = runKernel("Shape", AttrMap{{"T", DType::F32}}, {in}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {2, 0, 3});
  out = runKernel("Shape", AttrMap{{"T", DType::F32}, {"out_type", DType::I64}},
                  {iota({})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {0}, {});
  out = runKernel("Shape", AttrMap{{"T", DType::F32}}, {in}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Shape", "out_type must be int32 or int64, got f32"));
}

TEST(Size, AndRank) {
  auto out = runKernel("Size", AttrMap{}, {iota({2, 3})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {}, {6});
  out = runKernel("Size", AttrMap{}, {iota({0, 3})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {}, {0});
  out = runKernel("Rank", AttrMap{}, {iota({2, 3, 1})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {}, {3});
}

TEST(ExpandDims, AxesAndSharing) {
  Tensor in = iota({2, 3});
  for (auto [dim, shape] :
       std::vector<std::pair<int, TensorShape>>{{0, TensorShape{1, 2, 3}},
                                                {2, TensorShape{2, 3, 1}},
                                                {-1, TensorShape{2, 3, 1}},
                                                {-3, TensorShape{1, 2, 3}},
                                                {1, TensorShape{2, 1, 3}}}) {
    auto out =
        runKernel("ExpandDims", AttrMap{}, {in, i32({}, {dim})}, DType::F32);
    ASSERT_TRUE(out.ok()) << out.status();
    EXPECT_EQ(out->shape(), shape) << dim;
    EXPECT_EQ(out->rawData(), in.rawData());
  }
  auto out =
      runKernel("ExpandDims", AttrMap{}, {iota({}), i64({1}, {0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({1}));
  out = runKernel("ExpandDims", AttrMap{}, {in, i32({}, {3})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("ExpandDims", "Tried to expand dim index 3 for tensor with "
                                  "2 dimensions."));
  out = runKernel("ExpandDims", AttrMap{}, {in, i32({2}, {0, 1})}, DType::F32);
  EXPECT_EQ(
      out.status().message(),
      opError("ExpandDims", "'dim' must be a tensor with a single value"));
}

TEST(Squeeze, DimsAndAll) {
  Tensor in = iota({1, 2, 1, 3, 1});
  auto out = runKernel("Squeeze", AttrMap{}, {in}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 3}));
  EXPECT_EQ(out->rawData(), in.rawData());
  out = runKernel("Squeeze",
                  AttrMap{{"squeeze_dims", std::vector<int64_t>{0, -1}}}, {in},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 1, 3}));
  out = runKernel("Squeeze", AttrMap{{"squeeze_dims", std::vector<int64_t>{1}}},
                  {in}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Squeeze", "Can not squeeze dim[1], expected a dimension "
                               "of 1, got 2"));
  out = runKernel("Squeeze", AttrMap{{"squeeze_dims", std::vector<int64_t>{5}}},
                  {in}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Squeeze", "Tried to squeeze dim index 5 for tensor with "
                               "5 dimensions."));
}

TEST(Fill, DTypes) {
  auto out = runKernel("Fill", AttrMap{{"T", DType::F32}},
                       {i32({2}, {2, 3}), f32({}, {1.5f})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {1.5, 1.5, 1.5, 1.5, 1.5, 1.5});
  out = runKernel("Fill", AttrMap{{"T", DType::Bool}},
                  {i64({1}, {2}), makeTensor<bool>({}, {true})}, DType::Bool);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(valuesOf<bool>(*out), (std::vector<bool>{true, true}));
  // T is required (TensorFlow's OpDef has no default; the lowering derives
  // it): it picks the numeric or the string kernel.
  out = runKernel("Fill", AttrMap{{"T", DType::F32}},
                  {i32({1}, {-1}), f32({}, {1})}, DType::F32);
  ASSERT_FALSE(out.ok());
  out = runKernel("Fill", AttrMap{{"T", DType::F32}},
                  {i32({1}, {2}), f32({1}, {1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Fill", "value must be a scalar, got shape [1]"));
}

TEST(Range, IntAndFloat) {
  auto out = runKernel("Range", AttrMap{{"Tidx", DType::I32}},
                       {i32({}, {0}), i32({}, {10}), i32({}, {3})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {4}, {0, 3, 6, 9});
  out = runKernel("Range", AttrMap{{"Tidx", DType::I64}},
                  {i64({}, {5}), i64({}, {1}), i64({}, {-2})}, DType::I64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>(*out, {2}, {5, 3});
  out = runKernel("Range", AttrMap{{"Tidx", DType::F32}},
                  {f32({}, {0}), f32({}, {1}), f32({}, {0.25f})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4}, {0, 0.25, 0.5, 0.75});
  out = runKernel("Range", AttrMap{{"Tidx", DType::F64}},
                  {makeTensor<double>({}, {1}), makeTensor<double>({}, {1}),
                   makeTensor<double>({}, {1})},
                  DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
  out = runKernel("Range", AttrMap{},
                  {i32({}, {0}), i32({}, {10}), i32({}, {0})}, DType::I32);
  EXPECT_EQ(out.status().message(), opError("Range", "Requires delta != 0: 0"));
  out = runKernel("Range", AttrMap{},
                  {i32({}, {5}), i32({}, {1}), i32({}, {1})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("Range", "Requires start <= limit when delta > 0: 5/1"));
  out = runKernel("Range", AttrMap{},
                  {i32({}, {1}), i32({}, {5}), i32({}, {-1})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("Range", "Requires start >= limit when delta < 0: 1/5"));
}

TEST(BroadcastTo, Shapes) {
  auto out = runKernel("BroadcastTo", AttrMap{{"T", DType::F32}},
                       {f32({3}, {1, 2, 3}), i32({2}, {2, 3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {1, 2, 3, 1, 2, 3});
  out = runKernel("BroadcastTo", AttrMap{{"T", DType::I32}},
                  {i32({2, 1}, {1, 2}), i64({3}, {2, 2, 3})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2, 2, 3}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2});
  Tensor same = iota({2, 2});
  out =
      runKernel("BroadcastTo", AttrMap{}, {same, i32({2}, {2, 2})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), same.rawData());
  out = runKernel("BroadcastTo", AttrMap{}, {iota({}), i32({2}, {2, 0})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({2, 0}));
  out = runKernel("BroadcastTo", AttrMap{}, {iota({2}), i32({1}, {3})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("BroadcastTo", "Incompatible shapes: [2] vs. [3]"));
  out = runKernel("BroadcastTo", AttrMap{}, {iota({3}), i32({1}, {1})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("BroadcastTo", "Unable to broadcast tensor of shape [3] to "
                                   "tensor of shape [1]"));
  out = runKernel("BroadcastTo", AttrMap{}, {iota({1, 3}), i32({1}, {3})},
                  DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("BroadcastTo", "Rank of input (2) must be no greater than "
                                   "rank of output shape (1)."));
}

TEST(IdentityN, SharesEachInput) {
  Tensor a = iota({2}), b = i64({1}, {7});
  auto outs =
      runKernelN("IdentityN", AttrMap{}, {a, b}, {DType::F32, DType::I64});
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ((*outs)[0].rawData(), a.rawData());
  EXPECT_EQ((*outs)[1].rawData(), b.rawData());
  auto out = runKernel("StopGradient", AttrMap{}, {a}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->rawData(), a.rawData());
}

} // namespace

//===- SpatialKernelsTest.cpp - Depth/space/batch rearrangements -*- C++
//-*-===//
//
// DepthToSpace, SpaceToDepth, SpaceToBatchND and BatchToSpaceND against
// hand-derived values (TF's documented examples), reference loops and
// round trips, plus errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

template <typename T>
StatusOr<Tensor> depthSpace(const std::string &op, TensorShape shape,
                            const std::vector<double> &v, int64_t block) {
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<T>(std::move(shape), v));
  return runKernel(op, {{"T", dtypeOf<T>()}, {"block_size", block}}, in,
                   dtypeOf<T>());
}

TEST(DepthToSpace, HandDerived) {
  auto out = depthSpace<float>("DepthToSpace", {1, 1, 1, 4}, {1, 2, 3, 4}, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 2, 1}, {1, 2, 3, 4});
  // TF doc example: [1, 2, 2, 4] -> [1, 4, 4, 1].
  std::vector<double> v;
  for (int i = 1; i <= 16; ++i)
    v.push_back(i);
  auto o2 = depthSpace<int32_t>("DepthToSpace", {1, 2, 2, 4}, v, 2);
  ASSERT_TRUE(o2.ok()) << o2.status();
  expectValues<int32_t>(
      *o2, {1, 4, 4, 1},
      {1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16});
  auto back = depthSpace<int32_t>(
      "SpaceToDepth", {1, 4, 4, 1},
      {1, 2, 5, 6, 3, 4, 7, 8, 9, 10, 13, 14, 11, 12, 15, 16}, 2);
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<int32_t>(*back, {1, 2, 2, 4}, v);
  // Round trip with channels and batch, bool.
  auto big = patternValues(2 * 6 * 9 * 2, 1, 3);
  for (double &x : big)
    x = x > 0;
  auto s2d = depthSpace<bool>("SpaceToDepth", {2, 6, 9, 2}, big, 3);
  ASSERT_TRUE(s2d.ok()) << s2d.status();
  EXPECT_EQ(s2d->shape(), TensorShape({2, 2, 3, 18}));
  std::vector<Tensor> in;
  in.push_back(*s2d);
  auto d2s = runKernel("DepthToSpace", {{"T", DType::Bool}, {"block_size", 3}},
                       in, DType::Bool);
  ASSERT_TRUE(d2s.ok()) << d2s.status();
  expectValues<bool>(*d2s, {2, 6, 9, 2}, big);
}

TEST(DepthToSpace, Errors) {
  EXPECT_EQ(depthSpace<float>("DepthToSpace", {1, 1, 1, 3}, {1, 2, 3}, 2)
                .status()
                .message(),
            opError("DepthToSpace",
                    "Input depth dimension 3 should be divisible by: 4"));
  EXPECT_EQ(
      depthSpace<float>("SpaceToDepth", {1, 3, 2, 1}, {1, 2, 3, 4, 5, 6}, 2)
          .status()
          .message(),
      opError("SpaceToDepth", "Image width 2 and height 3 should be "
                              "divisible by block_size: 2"));
  EXPECT_EQ(depthSpace<float>("SpaceToDepth", {1, 2, 2, 1}, {1, 2, 3, 4}, 1)
                .status()
                .message(),
            opError("SpaceToDepth", "Block size should be > 1, but was: 1"));
  EXPECT_EQ(depthSpace<float>("SpaceToDepth", {2, 2, 1}, {1, 2, 3, 4}, 2)
                .status()
                .message(),
            opError("SpaceToDepth", "Input rank should be: 4 instead of: 3"));
}

template <typename T>
StatusOr<Tensor> spaceBatch(const std::string &op, const Tensor &x,
                            std::vector<int32_t> block,
                            std::vector<int64_t> pads) {
  std::vector<Tensor> in;
  in.push_back(x);
  in.push_back(
      makeTensor<int32_t>({static_cast<int64_t>(block.size())}, block));
  in.push_back(
      makeTensor<int64_t>({static_cast<int64_t>(block.size()), 2}, pads));
  return runKernel(op, {{"T", dtypeOf<T>()}}, in, dtypeOf<T>());
}

TEST(SpaceToBatchND, HandDerived) {
  // TF doc example 1: [1, 2, 2, 1] block [2, 2] -> [4, 1, 1, 1].
  auto out = spaceBatch<float>(
      "SpaceToBatchND", makeTensorFrom<float>({1, 2, 2, 1}, {1, 2, 3, 4}),
      {2, 2}, {0, 0, 0, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {4, 1, 1, 1}, {1, 2, 3, 4});
  // TF doc example 4: [2, 2, 4, 1], block [2, 2], paddings [[0, 0], [2, 0]]
  // -> [8, 1, 3, 1].
  std::vector<double> v;
  for (int i = 1; i <= 16; ++i)
    v.push_back(i);
  out = spaceBatch<float>("SpaceToBatchND",
                          makeTensorFrom<float>({2, 2, 4, 1}, v), {2, 2},
                          {0, 0, 2, 0});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {8, 1, 3, 1},
                      {0, 1, 3, 0, 9,  11, 0, 2, 4, 0, 10, 12,
                       0, 5, 7, 0, 13, 15, 0, 6, 8, 0, 14, 16});
  // And back with the same crops.
  auto back = spaceBatch<float>("BatchToSpaceND", *out, {2, 2}, {0, 0, 2, 0});
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<float>(*back, {2, 2, 4, 1}, v);
}

TEST(SpaceToBatchND, RoundTrips) {
  // 1-D block over [3, 5, 2, 3] with padding, int64 and half.
  auto v = patternValues(3 * 5 * 2 * 3, 8, 4);
  auto x = makeTensorFrom<int64_t>({3, 5, 2, 3}, v);
  auto s = spaceBatch<int64_t>("SpaceToBatchND", x, {3}, {1, 0});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->shape(), TensorShape({9, 2, 2, 3}));
  auto b = spaceBatch<int64_t>("BatchToSpaceND", *s, {3}, {1, 0});
  ASSERT_TRUE(b.ok()) << b.status();
  std::vector<double> rounded;
  for (double d : v)
    rounded.push_back(static_cast<double>(static_cast<int64_t>(d)));
  expectValues<int64_t>(*b, {3, 5, 2, 3}, rounded);
  auto xh = makeTensorFrom<Eigen::half>({1, 4, 6, 2}, patternValues(48, 8, 5));
  auto sh = spaceBatch<Eigen::half>("SpaceToBatchND", xh, {2, 3}, {1, 1, 0, 3});
  ASSERT_TRUE(sh.ok()) << sh.status();
  EXPECT_EQ(sh->shape(), TensorShape({6, 3, 3, 2}));
  auto bh =
      spaceBatch<Eigen::half>("BatchToSpaceND", *sh, {2, 3}, {1, 1, 0, 3});
  ASSERT_TRUE(bh.ok()) << bh.status();
  expectValues<Eigen::half>(*bh, {1, 4, 6, 2}, patternValues(48, 8, 5));
  // Empty block shape: identity.
  auto e = spaceBatch<float>(
      "SpaceToBatchND", makeTensorFrom<float>({2, 2}, {1, 2, 3, 4}), {}, {});
  ASSERT_TRUE(e.ok()) << e.status();
  expectValues<float>(*e, {2, 2}, {1, 2, 3, 4});
}

TEST(SpaceToBatchND, Errors) {
  auto x = makeTensorFrom<float>({1, 3, 2, 1}, patternValues(6));
  EXPECT_EQ(spaceBatch<float>("SpaceToBatchND", x, {2, 2}, {0, 0, 0, 0})
                .status()
                .message(),
            opError("SpaceToBatchND", "padded_shape[0]=3 is not divisible by "
                                      "block_shape[0]=2"));
  EXPECT_EQ(spaceBatch<float>("SpaceToBatchND", x, {0, 2}, {0, 0, 0, 0})
                .status()
                .message(),
            opError("SpaceToBatchND", "All values in block_shape must be "
                                      "positive, got value, 0 at index 0."));
  EXPECT_EQ(spaceBatch<float>("SpaceToBatchND", x, {1, 2}, {0, -1, 0, 0})
                .status()
                .message(),
            opError("SpaceToBatchND", "All values in paddings must be "
                                      "non-negative, got 0 and -1 at index 0"));
  EXPECT_EQ(
      spaceBatch<float>("SpaceToBatchND", x, {1, 1, 1, 1},
                        {0, 0, 0, 0, 0, 0, 0, 0})
          .status()
          .message(),
      opError("SpaceToBatchND", "input rank should be >= 5 instead of 4"));
  EXPECT_EQ(spaceBatch<float>("BatchToSpaceND", x, {2, 1}, {0, 0, 0, 0})
                .status()
                .message(),
            opError("BatchToSpaceND", "Input batch dimension (1) is not "
                                      "divisible by product of block sizes "
                                      "(2)"));
  EXPECT_EQ(spaceBatch<float>("BatchToSpaceND", x, {1, 1}, {2, 2, 0, 0})
                .status()
                .message(),
            opError("BatchToSpaceND", "crops must not exceed the uncropped "
                                      "size: 2 + 2 > 3 at index 0"));
  std::vector<Tensor> in = {x, makeTensor<int32_t>({2}, {1, 1}),
                            makeTensor<int32_t>({2}, {0, 0})};
  EXPECT_EQ(runKernel("SpaceToBatchND", {{"T", DType::F32}}, in, DType::F32)
                .status()
                .message(),
            opError("SpaceToBatchND",
                    "paddings should have shape [2, 2] instead of [2]"));
}

} // namespace

namespace {

TEST(SpaceToBatchV1, MatchesTheNdForm) {
  // TF doc example 4 again through the v1 ops: block_size 2 on both
  // spatial dims, paddings [[0, 0], [2, 0]].
  std::vector<double> v;
  for (int i = 1; i <= 16; ++i)
    v.push_back(i);
  auto out = runKernel(
      "SpaceToBatch", AttrMap{{"T", DType::F32}, {"block_size", 2}},
      {makeTensorFrom<float>({2, 2, 4, 1}, v), i32({2, 2}, {0, 0, 2, 0})},
      DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {8, 1, 3, 1},
                      {0, 1, 3, 0, 9,  11, 0, 2, 4, 0, 10, 12,
                       0, 5, 7, 0, 13, 15, 0, 6, 8, 0, 14, 16});
  auto back =
      runKernel("BatchToSpace", AttrMap{{"T", DType::F32}, {"block_size", 2}},
                {*out, i64({2, 2}, {0, 0, 2, 0})}, DType::F32);
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<float>(*back, {2, 2, 4, 1}, v);
  out = runKernel("SpaceToBatch", AttrMap{{"T", DType::F32}, {"block_size", 2}},
                  {iota({2, 2, 2}), i32({2, 2}, {0, 0, 0, 0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("SpaceToBatch", "Input rank should be: 4instead of: 3"));
  out = runKernel("BatchToSpace", AttrMap{{"T", DType::F32}, {"block_size", 1}},
                  {iota({4, 1, 1, 1}), i32({2, 2}, {0, 0, 0, 0})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("BatchToSpace", "Block size should be > 1: 1"));
}

} // namespace

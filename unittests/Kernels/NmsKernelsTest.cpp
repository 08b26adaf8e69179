//===- NmsKernelsTest.cpp - NonMaxSuppressionV3 / V5 tests ------*- C++ -*-===//
//
// Hard NMS with flipped corners, ties, thresholds and max_output_size;
// V5 padding, valid_outputs and Gaussian soft-NMS; every error.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

Tensor boxes4() {
  return f32({4, 4}, {0, 0, 1, 1,       // 0
                      0, 0.1f, 1, 1.1f, // 1: IoU 0.818 with 0 and 3
                      0, 10, 1, 11,     // 2: disjoint
                      1, 1, 0, 0});     // 3: box 0 with flipped corners
}
Tensor scores4() { return f32({4}, {0.9f, 0.75f, 0.6f, 0.95f}); }

StatusOr<Tensor> nmsV3(Tensor boxes, Tensor scores, int maxOut, float iou,
                       float scoreThreshold) {
  return runKernel("NonMaxSuppressionV3", AttrMap{{"T", DType::F32}},
                   {boxes, scores, i32({}, {maxOut}), f32({}, {iou}),
                    f32({}, {scoreThreshold})},
                   DType::I32);
}

TEST(NonMaxSuppressionV3, GreedyHardSuppression) {
  auto out = nmsV3(boxes4(), scores4(), 10, 0.5f, 0);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {3, 2});
  out = nmsV3(boxes4(), scores4(), 1, 0.5f, 0);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {1}, {3});
  out = nmsV3(boxes4(), scores4(), 10, 0.9f, 0);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {3, 1, 2});
  out = nmsV3(boxes4(), scores4(), 10, 0.5f, 0.7f);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {1}, {3});
  out = nmsV3(boxes4(), scores4(), 0, 0.5f, 0);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
  out = nmsV3(f32({0, 4}, {}), f32({0}, {}), 5, 0.5f, 0);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0}));
}

TEST(NonMaxSuppressionV3, TiesKeepLowerIndexFirst) {
  auto out = nmsV3(f32({3, 4}, {0, 0, 1, 1, 0, 5, 1, 6, 0, 10, 1, 11}),
                   f32({3}, {0.5f, 0.8f, 0.8f}), 10, 0.5f, 0);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {1, 2, 0});
  // Zero-area boxes never suppress.
  out = nmsV3(f32({2, 4}, {0, 0, 0, 1, 0, 0, 0, 1}), f32({2}, {0.5f, 0.4f}), 10,
              0.0f, 0);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {0, 1});
}

TEST(NonMaxSuppressionV3, Errors) {
  auto out = nmsV3(boxes4(), scores4(), 10, 1.5f, 0);
  EXPECT_EQ(out.status().message(),
            opError("NonMaxSuppressionV3", "iou_threshold must be in [0, 1]"));
  out = nmsV3(f32({1, 3}, {0, 0, 1}), f32({1}, {1}), 10, 0.5f, 0);
  EXPECT_EQ(out.status().message(),
            opError("NonMaxSuppressionV3", "boxes must have 4 columns "
                                           "(Dimension must be 4 but is 3)"));
  out = nmsV3(boxes4(), f32({3}, {1, 2, 3}), 10, 0.5f, 0);
  EXPECT_EQ(out.status().message(),
            opError("NonMaxSuppressionV3",
                    "scores has incompatible shape (Dimensions must be equal, "
                    "but are 4 and 3)"));
  out = nmsV3(boxes4(), scores4(), -1, 0.5f, 0);
  EXPECT_EQ(out.status().message(),
            opError("NonMaxSuppressionV3", "output size must be non-negative"));
  out = nmsV3(f32({4}, {0, 0, 1, 1}), f32({1}, {1}), 10, 0.5f, 0);
  EXPECT_EQ(out.status().message(),
            opError("NonMaxSuppressionV3",
                    "boxes must be 2-D[4] (Shape must be rank 2 but is rank "
                    "1)"));
}

StatusOr<std::vector<Tensor>> nmsV5(Tensor boxes, Tensor scores, int maxOut,
                                    float iou, float scoreThreshold,
                                    float sigma, bool pad) {
  return runKernelN("NonMaxSuppressionV5",
                    AttrMap{{"T", DType::F32}, {"pad_to_max_output_size", pad}},
                    {boxes, scores, i32({}, {maxOut}), f32({}, {iou}),
                     f32({}, {scoreThreshold}), f32({}, {sigma})},
                    {DType::I32, DType::F32, DType::I32});
}

TEST(NonMaxSuppressionV5, PaddingAndScores) {
  auto outs = nmsV5(boxes4(), scores4(), 4, 0.5f, 0, 0, true);
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<int32_t>((*outs)[0], {4}, {3, 2, 0, 0});
  expectValues<float>((*outs)[1], {4}, {0.95, 0.6, 0, 0});
  expectValues<int32_t>((*outs)[2], {}, {2});
  outs = nmsV5(boxes4(), scores4(), 4, 0.5f, 0, 0, false);
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<int32_t>((*outs)[0], {2}, {3, 2});
  expectValues<int32_t>((*outs)[2], {}, {2});
}

TEST(NonMaxSuppressionV5, SoftNms) {
  // IoU(0, 1) = 0.5; sigma 0.5 scales box 1 by exp(-0.5 / 0.5 * 0.25).
  Tensor boxes = f32({2, 4}, {0, 0, 1, 1, 0, 0, 1, 0.5f});
  auto outs = nmsV5(boxes, f32({2}, {1.0f, 0.9f}), 5, 1.0f, 0, 0.5f, false);
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<int32_t>((*outs)[0], {2}, {0, 1});
  expectValues<float>((*outs)[1], {2}, {1.0, 0.9 * std::exp(-0.25)}, 1e-6);
  // A score threshold above the decayed score drops the box.
  outs = nmsV5(boxes, f32({2}, {1.0f, 0.9f}), 5, 1.0f, 0.75f, 0.5f, false);
  ASSERT_TRUE(outs.ok()) << outs.status();
  expectValues<int32_t>((*outs)[0], {1}, {0});
  outs = nmsV5(boxes, f32({2}, {1.0f, 0.9f}), 5, 1.0f, 0, -1, false);
  EXPECT_EQ(outs.status().message(),
            opError("NonMaxSuppressionV5", "soft_nms_sigma_val must be >= 0"));
}

} // namespace

namespace {

TEST(NonMaxSuppressionV1V2V4, VariantsOfV3) {
  // V1 (threshold attribute) and V2 (threshold operand) take every box as
  // a candidate: box 2 comes back with a negative score.
  Tensor scores = f32({4}, {0.9f, 0.75f, -0.6f, 0.95f});
  auto out = runKernel("NonMaxSuppression", AttrMap{{"iou_threshold", 0.5f}},
                       {boxes4(), scores, i32({}, {10})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {3, 2});
  out =
      runKernel("NonMaxSuppressionV2", AttrMap{{"T", DType::F32}},
                {boxes4(), scores, i32({}, {10}), f32({}, {0.9f})}, DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {3}, {3, 1, 2});
  out = runKernel("NonMaxSuppression", AttrMap{{"iou_threshold", 1.5f}},
                  {boxes4(), scores, i32({}, {10})}, DType::I32);
  EXPECT_EQ(out.status().message(),
            opError("NonMaxSuppression", "iou_threshold must be in [0, 1]"));
  // V4 pads to max_output_size and counts the valid entries.
  auto v4 = runKernelN(
      "NonMaxSuppressionV4",
      AttrMap{{"T", DType::F32}, {"pad_to_max_output_size", true}},
      {boxes4(), scores4(), i32({}, {4}), f32({}, {0.5f}), f32({}, {0.0f})},
      {DType::I32, DType::I32});
  ASSERT_TRUE(v4.ok()) << v4.status();
  expectValues<int32_t>((*v4)[0], {4}, {3, 2, 0, 0});
  expectValues<int32_t>((*v4)[1], {}, {2});
}

TEST(NonMaxSuppressionWithOverlaps, UsesTheMatrix) {
  // Box 0 overlaps 1 by 0.8 and 2 by 0.2; 1 and 2 by 0.6.
  Tensor overlaps = f32({3, 3}, {1, 0.8f, 0.2f, 0.8f, 1, 0.6f, 0.2f, 0.6f, 1});
  auto run = [&](float threshold, float scoreThreshold) {
    return runKernel("NonMaxSuppressionWithOverlaps", AttrMap{},
                     {overlaps, f32({3}, {0.9f, 0.8f, 0.7f}), i32({}, {3}),
                      f32({}, {threshold}), f32({}, {scoreThreshold})},
                     DType::I32);
  };
  auto out = run(0.5f, 0.0f);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {0, 2});
  out = run(0.1f, 0.0f);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {1}, {0});
  out = run(0.9f, 0.75f);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {2}, {0, 1});
  out = runKernel("NonMaxSuppressionWithOverlaps", AttrMap{},
                  {f32({2, 3}, {0, 0, 0, 0, 0, 0}), f32({2}, {1, 1}),
                   i32({}, {3}), f32({}, {0.5f}), f32({}, {0.0f})},
                  DType::I32);
  EXPECT_EQ(out.status().message(), opError("NonMaxSuppressionWithOverlaps",
                                            "overlaps must be square[2,3]"));
}

} // namespace

//===- NmsKernelsTest.cpp - NonMaxSuppressionV3 / V5 tests ------*- C++ -*-===//
//
// Hard NMS with flipped corners, ties, thresholds and max_output_size;
// V5 padding, valid_outputs and Gaussian soft-NMS; every error.
// CombinedNonMaxSuppression against selections worked out by hand from
// tf.image.combined_non_max_suppression's documentation.
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

/// Four boxes shared by two classes (q = 1): 0 and 1 overlap (IoU 0.818),
/// 2 is disjoint, 3 overlaps 1 by 0.176 and sticks out of [0, 1].
Tensor combinedBoxes() {
  return f32({1, 4, 1, 4}, {0, 0, 1, 1,       //
                            0, 0.1f, 1, 1.1f, //
                            0, 2, 1, 3,       //
                            0.5f, 0.5f, 1.5f, 1.5f});
}
/// Class 0: 0.9, 0.8, 0.7, 0.1; class 1: 0.2, 0.85, 0.3, 0.6.
Tensor combinedScores() {
  return f32({1, 4, 2}, {0.9f, 0.2f, 0.8f, 0.85f, 0.7f, 0.3f, 0.1f, 0.6f});
}

StatusOr<std::vector<Tensor>>
combinedNms(Tensor boxes, Tensor scores, int perClass, int total, float iou,
            float scoreThreshold, bool padPerClass = false, bool clip = true) {
  return runKernelN(
      "CombinedNonMaxSuppression",
      AttrMap{{"pad_per_class", padPerClass}, {"clip_boxes", clip}},
      {std::move(boxes), std::move(scores), i32({}, {perClass}),
       i32({}, {total}), f32({}, {iou}), f32({}, {scoreThreshold})},
      {DType::F32, DType::F32, DType::F32, DType::I32});
}

TEST(CombinedNonMaxSuppression, PerClassThenMergedByScore) {
  // Class 0 (threshold 0.15 drops box 3): 0 kept, 1 suppressed by 0, 2
  // kept. Class 1: 1 (0.85), then 3 (0.6, IoU 0.176 with 1); 2 per class.
  // Merged: 0.9 (c0, box 0), 0.85 (c1, box 1), 0.7 (c0, box 2), 0.6 (c1,
  // box 3). Clipped to [0, 1].
  auto out = combinedNms(combinedBoxes(), combinedScores(), 2, 4, 0.5f, 0.15f);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {1, 4, 4},
                      {0, 0, 1, 1, 0, 0.1, 1, 1, 0, 1, 1, 1, 0.5, 0.5, 1, 1});
  expectValues<float>((*out)[1], {1, 4}, {0.9, 0.85, 0.7, 0.6});
  expectValues<float>((*out)[2], {1, 4}, {0, 1, 0, 1});
  expectValues<int32_t>((*out)[3], {1}, {4});

  // max_total_size 3 keeps the best three; 6 pads two zero rows.
  out = combinedNms(combinedBoxes(), combinedScores(), 2, 3, 0.5f, 0.15f);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[1], {1, 3}, {0.9, 0.85, 0.7});
  expectValues<int32_t>((*out)[3], {1}, {3});
  out = combinedNms(combinedBoxes(), combinedScores(), 2, 6, 0.5f, 0.15f,
                    /*padPerClass=*/false, /*clip=*/false);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[1], {1, 6}, {0.9, 0.85, 0.7, 0.6, 0, 0});
  expectValues<float>((*out)[0], {1, 6, 4},
                      {0,   0,   1,   1,   0, 0.1, 1, 1.1, 0, 2, 1, 3,
                       0.5, 0.5, 1.5, 1.5, 0, 0,   0, 0,   0, 0, 0, 0});
  expectValues<int32_t>((*out)[3], {1}, {4});
  // pad_per_class: min(max_total_size, per class * classes) = 4 rows.
  out = combinedNms(combinedBoxes(), combinedScores(), 2, 10, 0.5f, 0.15f,
                    /*padPerClass=*/true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[1], {1, 4}, {0.9, 0.85, 0.7, 0.6});
  // One per class: 0.9 (c0, box 0) and 0.85 (c1, box 1).
  out = combinedNms(combinedBoxes(), combinedScores(), 1, 4, 0.5f, 0.15f);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[1], {1, 4}, {0.9, 0.85, 0, 0});
  expectValues<float>((*out)[2], {1, 4}, {0, 1, 0, 0});
  expectValues<int32_t>((*out)[3], {1}, {2});
}

TEST(CombinedNonMaxSuppression, BoxesPerClassAndBatches) {
  // q = 2: class 1 has its own boxes. Two batch entries, one box each:
  // entry 0 scores (0.5, 0.6), entry 1 (0.4, 0.1) under threshold 0.2.
  Tensor boxes = f32({2, 1, 2, 4}, {0, 0, 1, 1, 0.2f, 0.2f, 0.4f, 0.4f, //
                                    0, 0, 0.5f, 0.5f, 1, 1, 2, 2});
  Tensor scores = f32({2, 1, 2}, {0.5f, 0.6f, 0.4f, 0.1f});
  auto out = combinedNms(boxes, scores, 1, 2, 0.5f, 0.2f);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {2, 2, 4},
                      {0.2, 0.2, 0.4, 0.4, 0, 0, 1, 1, //
                       0, 0, 0.5, 0.5, 0, 0, 0, 0});
  expectValues<float>((*out)[1], {2, 2}, {0.6, 0.5, 0.4, 0});
  expectValues<float>((*out)[2], {2, 2}, {1, 0, 0, 0});
  expectValues<int32_t>((*out)[3], {2}, {2, 1});
}

TEST(CombinedNonMaxSuppression, Errors) {
  auto message = [](StatusOr<std::vector<Tensor>> out) {
    return std::string(out.status().message());
  };
  EXPECT_EQ(
      message(combinedNms(combinedBoxes(), combinedScores(), 0, 4, 0.5f, 0)),
      opError("CombinedNonMaxSuppression",
              "max_size_per_class must be positive"));
  EXPECT_EQ(
      message(combinedNms(combinedBoxes(), combinedScores(), 2, 0, 0.5f, 0)),
      opError("CombinedNonMaxSuppression", "max_total_size must be > 0"));
  EXPECT_EQ(
      message(combinedNms(combinedBoxes(), combinedScores(), 2, 4, 1.5f, 0)),
      opError("CombinedNonMaxSuppression", "iou_threshold must be in [0, 1]"));
  EXPECT_EQ(message(combinedNms(f32({1, 4, 3, 4}, std::vector<float>(48)),
                                combinedScores(), 2, 4, 0.5f, 0)),
            opError("CombinedNonMaxSuppression",
                    "third dimension of boxes must be either 1 or num "
                    "classes"));
  EXPECT_EQ(message(combinedNms(f32({2, 4, 1, 4}, std::vector<float>(32)),
                                combinedScores(), 2, 4, 0.5f, 0)),
            opError("CombinedNonMaxSuppression",
                    "boxes and scores must have same batch size"));
  EXPECT_EQ(
      message(combinedNms(combinedBoxes(),
                          f32({1, 3, 2}, std::vector<float>(6)), 2, 4, 0.5f,
                          0)),
      opError("CombinedNonMaxSuppression", "scores has incompatible shape"));
  EXPECT_EQ(message(combinedNms(f32({4, 4}, std::vector<float>(16)),
                                combinedScores(), 2, 4, 0.5f, 0)),
            opError("CombinedNonMaxSuppression", "boxes must be 4-D[4,4]"));
}

} // namespace

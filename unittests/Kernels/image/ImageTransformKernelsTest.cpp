//===- ImageTransformKernelsTest.cpp - ImageProjectiveTransformV2/V3 -----===//
//
// Translations, a projective row and per-image transforms of small images,
// with every fill mode and both interpolations, against values worked out
// by hand from tf.raw_ops.ImageProjectiveTransformV3's documentation
// (output (x, y) reads the input at ((a0 x + a1 y + a2) / k, (b0 x + b1 y +
// b2) / k), k = c0 x + c1 y + 1; REFLECT d c b a | a b c d | d c b a, WRAP
// a b c d | a b c d, NEAREST clamps, CONSTANT fills); TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// A [1, 1, 4, 1] row 1, 2, 3, 4.
Tensor row4() { return f32({1, 1, 4, 1}, {1, 2, 3, 4}); }

/// Translation reading input x + dx.
Tensor shiftX(float dx) { return f32({1, 8}, {1, 0, dx, 0, 1, 0, 0, 0}); }

StatusOr<Tensor> transformV3(Tensor images, Tensor transforms,
                             std::vector<int32_t> shape, float fill,
                             const char *interpolation, const char *mode,
                             DType dtype = DType::F32) {
  return runKernel("ImageProjectiveTransformV3",
                   AttrMap{{"dtype", dtype},
                           {"interpolation", interpolation},
                           {"fill_mode", mode}},
                   {std::move(images), std::move(transforms),
                    i32({2}, std::move(shape)), f32({}, {fill})},
                   dtype);
}

TEST(ImageProjectiveTransformV3, FillModes) {
  // Reading x - 1: output x = 0 reads -1.
  auto out = transformV3(row4(), shiftX(-1), {1, 4}, 9, "NEAREST", "CONSTANT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {9, 1, 2, 3});
  out = transformV3(row4(), shiftX(-1), {1, 4}, 9, "NEAREST", "REFLECT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {1, 1, 2, 3});
  out = transformV3(row4(), shiftX(-1), {1, 4}, 9, "NEAREST", "WRAP");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {4, 1, 2, 3});
  out = transformV3(row4(), shiftX(-1), {1, 4}, 9, "NEAREST", "NEAREST");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {1, 1, 2, 3});
  // Reading x + 1: output x = 3 reads 4.
  out = transformV3(row4(), shiftX(1), {1, 4}, 9, "NEAREST", "REFLECT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {2, 3, 4, 4});
  out = transformV3(row4(), shiftX(1), {1, 4}, 9, "NEAREST", "WRAP");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {2, 3, 4, 1});
  // Reading x - 6: REFLECT over 2 * 4: -6 -> 5 -> 2 (value 3), -5 -> 4 ->
  // 3 (4), -4 -> 3 (4), -3 -> 2 (3).
  out = transformV3(row4(), shiftX(-6), {1, 4}, 9, "NEAREST", "REFLECT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {3, 4, 4, 3});
}

TEST(ImageProjectiveTransformV3, Bilinear) {
  // Reading x + 0.5: halfway between neighbours; output 3 reads 3.5,
  // between 4 and the fill value (CONSTANT) or 4 and 4 (NEAREST clamps
  // 3.5 to 3).
  auto out =
      transformV3(row4(), shiftX(0.5f), {1, 4}, 0, "BILINEAR", "CONSTANT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {1.5, 2.5, 3.5, 2});
  out = transformV3(row4(), shiftX(0.5f), {1, 4}, 0, "BILINEAR", "NEAREST");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {1.5, 2.5, 3.5, 4});
  // 2-D: a [1, 2, 2, 1] image read at (x + 0.5, y + 0.5) at output (0, 0):
  // the mean 2.5 of 1..4; output [1, 1].
  out = transformV3(f32({1, 2, 2, 1}, {1, 2, 3, 4}),
                    f32({1, 8}, {1, 0, 0.5f, 0, 1, 0.5f, 0, 0}), {1, 1}, 0,
                    "BILINEAR", "CONSTANT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 1, 1}, {2.5});
  // uint8: 10 * 0.75 + 20 * 0.25 = 12.5 converts to 12 (truncation).
  out =
      transformV3(makeTensorFrom<uint8_t>({1, 1, 2, 1}, {10, 20}),
                  shiftX(0.25f), {1, 1}, 0, "BILINEAR", "CONSTANT", DType::U8);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 1, 1, 1}, {12});
}

TEST(ImageProjectiveTransformV3, ProjectiveRowAndPerImageTransforms) {
  // c0 = 1: k = x + 1, input x = x / (x + 1) = 0, 0.5, 0.67, 0.75, rounded
  // half away from zero to 0, 1, 1, 1.
  auto out = transformV3(row4(), f32({1, 8}, {1, 0, 0, 0, 1, 0, 1, 0}), {1, 4},
                         0, "NEAREST", "CONSTANT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {1, 2, 2, 2});
  // c0 = -1: k = 1 - x is 0 at x = 1: the fill value there.
  out = transformV3(row4(), f32({1, 8}, {1, 0, 0, 0, 1, 0, -1, 0}), {1, 2}, 7,
                    "NEAREST", "CONSTANT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 2, 1}, {1, 7});
  // Two images, two channels, one transform each: identity and x + 1.
  out = transformV3(f32({2, 1, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40}),
                    f32({2, 8}, {1, 0, 0, 0, 1, 0, 0, 0, //
                                 1, 0, 1, 0, 1, 0, 0, 0}),
                    {1, 2}, -1, "NEAREST", "CONSTANT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 1, 2, 2}, {1, 10, 2, 20, 4, 40, -1, -1});
}

TEST(ImageProjectiveTransformV2, FillsWithZeroAndOtherDTypes) {
  auto out =
      runKernel("ImageProjectiveTransformV2",
                AttrMap{{"dtype", DType::I32},
                        {"interpolation", "NEAREST"},
                        {"fill_mode", "CONSTANT"}},
                {i32({1, 1, 4, 1}, {1, 2, 3, 4}), shiftX(-2), i32({2}, {1, 4})},
                DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int32_t>(*out, {1, 1, 4, 1}, {0, 0, 1, 2});
  // fill_mode defaults to CONSTANT; half.
  out = runKernel("ImageProjectiveTransformV2",
                  AttrMap{{"dtype", DType::F16}, {"interpolation", "BILINEAR"}},
                  {makeTensorFrom<half>({1, 1, 2, 1}, {2, 4}), shiftX(0.5f),
                   i32({2}, {1, 2})},
                  DType::F16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<half>(*out, {1, 1, 2, 1}, {3, 2});
}

TEST(ImageProjectiveTransformV3, DefinedWhereTFIsNot) {
  // A NaN transform reads the fill value; a fill value below uint8's range
  // saturates to 0.
  auto out = transformV3(row4(), shiftX(std::nanf("")), {1, 2}, 5, "BILINEAR",
                         "REFLECT");
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 2, 1}, {5, 5});
  out = transformV3(makeTensorFrom<uint8_t>({1, 1, 1, 1}, {10}), shiftX(-3),
                    {1, 1}, -1, "NEAREST", "CONSTANT", DType::U8);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 1, 1, 1}, {0});
  // Huge coordinates in every mode.
  for (const char *mode : {"REFLECT", "WRAP", "CONSTANT", "NEAREST"}) {
    out = transformV3(row4(), shiftX(3e30f), {1, 1}, 5, "BILINEAR", mode);
    ASSERT_TRUE(out.ok()) << out.status();
  }
}

TEST(ImageProjectiveTransformV3, Errors) {
  auto run = [](Tensor images, Tensor transforms, Tensor shape, Tensor fill) {
    return runKernel("ImageProjectiveTransformV3",
                     AttrMap{{"dtype", DType::F32},
                             {"interpolation", "NEAREST"},
                             {"fill_mode", "CONSTANT"}},
                     {std::move(images), std::move(transforms),
                      std::move(shape), std::move(fill)},
                     DType::F32)
        .status();
  };
  const char *op = "ImageProjectiveTransformV3";
  EXPECT_EQ(run(f32({1, 4, 1}, {1, 2, 3, 4}), shiftX(0), i32({2}, {1, 1}),
                f32({}, {0}))
                .message(),
            opError(op, "Input images must have rank 4"));
  EXPECT_EQ(run(row4(), f32({1, 7}, std::vector<float>(7)), i32({2}, {1, 1}),
                f32({}, {0}))
                .message(),
            opError(op, "Input transform should be num_images x 8 or 1 x 8"));
  EXPECT_EQ(run(row4(), f32({2, 8}, std::vector<float>(16)), i32({2}, {1, 1}),
                f32({}, {0}))
                .message(),
            opError(op, "Input transform should be num_images x 8 or 1 x 8"));
  EXPECT_EQ(run(row4(), shiftX(0), i32({3}, {1, 1, 1}), f32({}, {0})).message(),
            opError(op, "output shape must have two elements[3]"));
  EXPECT_EQ(run(row4(), shiftX(0), i32({2}, {0, 1}), f32({}, {0})).message(),
            opError(op, "output dimensions must be positive"));
  EXPECT_EQ(run(row4(), shiftX(0), i32({2}, {1, 1}), f32({1}, {0})).message(),
            opError(op, "fill_value must be a scalar[1]"));
  auto bad = transformV3(row4(), shiftX(0), {1, 1}, 0, "BICUBIC", "CONSTANT");
  EXPECT_NE(bad.status().message().find(
                "Invalid interpolation BICUBIC. Supported types: NEAREST, "
                "BILINEAR"),
            std::string::npos)
      << bad.status();
  bad = transformV3(row4(), shiftX(0), {1, 1}, 0, "NEAREST", "MIRROR");
  EXPECT_NE(bad.status().message().find(
                "Invalid mode MIRROR. Supported types: REFLECT, WRAP, "
                "CONSTANT, NEAREST"),
            std::string::npos)
      << bad.status();
}

} // namespace

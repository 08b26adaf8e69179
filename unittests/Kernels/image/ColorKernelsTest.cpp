//===- ColorKernelsTest.cpp - RGB/HSV and image adjustments -----*- C++ -*-===//
//
// RGBToHSV / HSVToRGB on primaries, grey and a round trip; AdjustHue,
// AdjustSaturation, AdjustContrastv2 and AdjustContrast against values
// worked out by hand from the definitions in TF's kernels.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(RGBToHSV, PrimariesAndGrey) {
  // red, green, blue, grey 0.5, [1, 0.5, 0] (hue 30 degrees = 1/12).
  Tensor rgb =
      f32({5, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5f, 0.5f, 0.5f, 1, 0.5f, 0});
  auto out =
      runKernel("RGBToHSV", AttrMap{{"T", DType::F32}}, {rgb}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(
      *out, {5, 3},
      {0, 1, 1, 1.0 / 3, 1, 1, 2.0 / 3, 1, 1, 0, 0, 0.5, 1.0 / 12, 1, 1}, 1e-6);
  auto back =
      runKernel("HSVToRGB", AttrMap{{"T", DType::F32}}, {*out}, DType::F32);
  ASSERT_TRUE(back.ok()) << back.status();
  expectValues<float>(*back, {5, 3},
                      {1, 0, 0, 0, 1, 0, 0, 0, 1, 0.5, 0.5, 0.5, 1, 0.5, 0},
                      1e-6);
  auto bad = runKernel("RGBToHSV", AttrMap{{"T", DType::F64}},
                       {makeTensor<double>({1, 4}, {0, 0, 0, 0})}, DType::F64);
  EXPECT_EQ(bad.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(bad.status().message(),
            opError("RGBToHSV", "input must have 3 channels but input only "
                                "has 4 channels."));
}

TEST(AdjustHueAndSaturation, HandDerived) {
  // Red turned by a third is green, by -1/6 magenta-ish [1, 0, 1].
  Tensor red = f32({1, 1, 1, 3}, {1, 0, 0});
  auto out = runKernel("AdjustHue", AttrMap{{"T", DType::F32}},
                       {red, f32({}, {1.0f / 3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 1, 3}, {0, 1, 0}, 1e-6);
  out = runKernel("AdjustHue", AttrMap{{"T", DType::F32}},
                  {red, f32({}, {-1.0f / 6})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 1, 3}, {1, 0, 1}, 1e-6);
  // A huge delta still terminates.
  out = runKernel("AdjustHue", AttrMap{{"T", DType::F32}},
                  {red, f32({}, {1e30f})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  // [1, 0.5, 0] with saturation 0 is its value, grey 1; with 0.5 it is
  // [1, 0.75, 0.5].
  Tensor orange = f32({1, 1, 3}, {1, 0.5f, 0});
  out = runKernel("AdjustSaturation", AttrMap{{"T", DType::F32}},
                  {orange, f32({}, {0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 3}, {1, 1, 1}, 1e-6);
  out = runKernel("AdjustSaturation", AttrMap{{"T", DType::F32}},
                  {orange, f32({}, {0.5f})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 3}, {1, 0.75, 0.5}, 1e-6);
  out = runKernel("AdjustSaturation", AttrMap{{"T", DType::F32}},
                  {f32({1, 3}, {1, 0, 0}), f32({}, {0.5f})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("AdjustSaturation",
                    "input must be at least 3-D, got shape[1,3]"));
}

TEST(AdjustContrast, V2AndV1) {
  // One 1x3 image of 2 channels: means 2 and 10.
  Tensor img = f32({1, 3, 2}, {1, 10, 2, 20, 3, 0});
  auto out = runKernel("AdjustContrastv2", AttrMap{{"T", DType::F32}},
                       {img, f32({}, {2})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3, 2}, {0, 10, 2, 30, 4, -10});
  // v1 on uint8, clamped to [0, 25].
  out = runKernel("AdjustContrast", AttrMap{{"T", DType::U8}},
                  {makeTensor<uint8_t>({1, 3, 2}, {1, 10, 2, 20, 3, 0}),
                   f32({}, {2}), f32({}, {0}), f32({}, {25})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3, 2}, {0, 10, 2, 25, 4, 0});
  out = runKernel("AdjustContrastv2", AttrMap{{"T", DType::F32}},
                  {img, f32({1}, {2})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("AdjustContrastv2", "contrast_factor must be scalar: [1]"));
}

} // namespace

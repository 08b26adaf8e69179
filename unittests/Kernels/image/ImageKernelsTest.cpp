//===- ImageKernelsTest.cpp - ResizeBilinear / NearestNeighbor ---*- C++
//-*-===//
//
// ResizeBilinear and ResizeNearestNeighbor against hand-derived values for
// each coordinate transform, a reference loop for larger images, dtypes and
// errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

template <typename T>
StatusOr<Tensor> resize(const std::string &op, TensorShape shape,
                        const std::vector<double> &v, int32_t h, int32_t w,
                        bool align = false, bool half = false) {
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<T>(std::move(shape), v));
  in.push_back(makeTensor<int32_t>({2}, {h, w}));
  AttrMap attrs{{"T", dtypeOf<T>()},
                {"align_corners", align},
                {"half_pixel_centers", half}};
  return runKernel(op, attrs, in,
                   op == "ResizeBilinear" ? DType::F32 : dtypeOf<T>());
}

TEST(ResizeBilinear, HandDerived) {
  auto out =
      resize<float>("ResizeBilinear", {1, 2, 2, 1}, {0, 1, 2, 3}, 3, 3, true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3, 3, 1}, {0, 0.5, 1, 1, 1.5, 2, 2, 2.5, 3});
  out =
      resize<float>("ResizeBilinear", {1, 1, 2, 1}, {0, 1}, 1, 4, false, true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {0, 0.25, 0.75, 1});
  // Legacy: scale 0.5, coordinates 0, 0.5, 1 (clamped), 1.5 (clamped).
  out = resize<int32_t>("ResizeBilinear", {1, 1, 2, 2}, {0, 10, 4, 20}, 1, 4);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 2}, {0, 10, 2, 15, 4, 20, 4, 20});
  // Downscale with half pixel centers: 4 -> 2, coordinates 0.5 and 2.5.
  out = resize<uint8_t>("ResizeBilinear", {1, 1, 4, 1}, {0, 10, 20, 30}, 1, 2,
                        false, true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 2, 1}, {5, 25});
}

TEST(ResizeBilinear, AgainstReference) {
  // Reference written from the documented transform, in double.
  for (bool align : {false, true})
    for (bool half : {false, true}) {
      if (align && half)
        continue;
      const int64_t n = 2, h = 5, w = 4, c = 3, oh = 7, ow = 3;
      auto v = patternValues(n * h * w * c, 8, 9);
      auto coord = [&](int64_t i, int64_t in, int64_t out) {
        double scale =
            (align && out > 1) ? double(in - 1) / (out - 1) : double(in) / out;
        double s = half ? (i + 0.5) * scale - 0.5 : i * scale;
        int64_t lo = std::max<int64_t>(int64_t(std::floor(s)), 0);
        int64_t hi = std::min<int64_t>(int64_t(std::ceil(s)), in - 1);
        return std::tuple<int64_t, int64_t, double>(lo, hi, s - std::floor(s));
      };
      std::vector<double> expected;
      for (int64_t b = 0; b < n; ++b)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t x = 0; x < ow; ++x)
            for (int64_t ch = 0; ch < c; ++ch) {
              auto [y0, y1, ly] = coord(y, h, oh);
              auto [x0, x1, lx] = coord(x, w, ow);
              auto at = [&](int64_t yy, int64_t xx) {
                return v[((b * h + yy) * w + xx) * c + ch];
              };
              double top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * lx;
              double bot = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * lx;
              expected.push_back(top + (bot - top) * ly);
            }
      auto out =
          resize<float>("ResizeBilinear", {n, h, w, c}, v, oh, ow, align, half);
      ASSERT_TRUE(out.ok()) << out.status();
      expectValues<float>(*out, {n, oh, ow, c}, expected, 1e-5);
      auto outD = resize<double>("ResizeBilinear", {n, h, w, c}, v, oh, ow,
                                 align, half);
      ASSERT_TRUE(outD.ok()) << outD.status();
      expectValues<float>(*outD, {n, oh, ow, c}, expected, 1e-5);
    }
  auto empty = resize<float>("ResizeBilinear", {0, 2, 2, 1}, {}, 3, 3);
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->shape(), TensorShape({0, 3, 3, 1}));
}

TEST(ResizeNearestNeighbor, HandDerived) {
  const std::vector<double> row3 = {7, 8, 9};
  auto out = resize<float>("ResizeNearestNeighbor", {1, 1, 2, 1}, {0, 1}, 1, 4);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {0, 0, 1, 1});
  out = resize<float>("ResizeNearestNeighbor", {1, 1, 2, 1}, {0, 1}, 1, 4,
                      false, true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 4, 1}, {0, 0, 1, 1});
  // 3 -> 2: legacy floor(0, 1.5) = 0, 1; half pixel floor(0.75, 2.25) = 0, 2;
  // align_corners round(0, 2) = 0, 2.
  out = resize<float>("ResizeNearestNeighbor", {1, 1, 3, 1}, row3, 1, 2);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 2, 1}, {7, 8});
  out = resize<float>("ResizeNearestNeighbor", {1, 1, 3, 1}, row3, 1, 2, false,
                      true);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 2, 1}, {7, 9});
  auto outI =
      resize<int32_t>("ResizeNearestNeighbor", {1, 1, 3, 1}, row3, 1, 2, true);
  ASSERT_TRUE(outI.ok()) << outI.status();
  expectValues<int32_t>(*outI, {1, 1, 2, 1}, {7, 9});
  // 2x2 -> 3x3 align_corners: scale 0.5, round(0, 0.5, 1) = 0, 1, 1.
  auto outH = resize<Eigen::half>("ResizeNearestNeighbor", {1, 2, 2, 1},
                                  {1, 2, 3, 4}, 3, 3, true);
  ASSERT_TRUE(outH.ok()) << outH.status();
  expectValues<Eigen::half>(*outH, {1, 3, 3, 1}, {1, 2, 2, 3, 4, 4, 3, 4, 4});
}

TEST(ResizeBilinear, Errors) {
  for (const char *op : {"ResizeBilinear", "ResizeNearestNeighbor"}) {
    EXPECT_EQ(resize<float>(op, {1, 2, 2, 1}, {1, 2, 3, 4}, 2, 2, true, true)
                  .status()
                  .message(),
              opError(op, "If half_pixel_centers is True, align_corners must "
                          "be False."));
    EXPECT_EQ(
        resize<float>(op, {2, 2, 1}, {1, 2, 3, 4}, 2, 2).status().message(),
        opError(op, "input must be 4-dimensional[2,2,1]"));
    EXPECT_EQ(
        resize<float>(op, {1, 2, 2, 1}, {1, 2, 3, 4}, 0, 2).status().message(),
        opError(op, "output dimensions must be positive"));
    EXPECT_EQ(resize<float>(op, {1, 0, 2, 1}, {}, 2, 2).status().ok(), true);
    EXPECT_EQ(resize<float>(op, {1, 0, 2, 1}, {}, 2, 2)->shape(),
              TensorShape({1, 2, 2, 1}));
    std::vector<Tensor> in;
    in.push_back(makeTensorFrom<float>({1, 2, 2, 1}, {1, 2, 3, 4}));
    in.push_back(makeTensor<int32_t>({3}, {1, 2, 3}));
    EXPECT_EQ(
        runKernel(op, {{"T", DType::F32}}, in, DType::F32).status().message(),
        opError(op, "shape_t must have two elements [3]"));
  }
}

} // namespace

namespace {

TEST(ResizeBicubic, HandDerivedWeights) {
  // Legacy kernel (a = -0.75): at a half-pixel offset the taps weigh
  // -0.09375, 0.59375, 0.59375, -0.09375; a 1x4 row [0, 1, 4, 9] doubled
  // (scale 0.5) samples 0, 0.5, 1, 1.5, ...; the left tap of 0.5 clamps to
  // column 0.
  auto out = runKernel("ResizeBicubic", AttrMap{{"T", DType::F32}},
                       {f32({1, 1, 4, 1}, {0, 1, 4, 9}), i32({2}, {1, 8})},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  const std::vector<float> v = valuesOf<float>(*out);
  EXPECT_NEAR(v[0], 0, 1e-6);
  EXPECT_NEAR(v[1], 0.59375 * 1 - 0.09375 * 4, 1e-6);
  EXPECT_NEAR(v[2], 1, 1e-6);
  EXPECT_NEAR(v[3], -0.09375 * 0 + 0.59375 * (1 + 4) - 0.09375 * 9, 1e-6);
  EXPECT_NEAR(v[4], 4, 1e-6);
  // Same size with half-pixel centers (Keys kernel) is the identity, for
  // an integer input too.
  out = runKernel(
      "ResizeBicubic", AttrMap{{"T", DType::I32}, {"half_pixel_centers", true}},
      {i32({1, 2, 3, 1}, {1, 2, 3, 4, 5, 6}), i32({2}, {2, 3})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 3, 1}, {1, 2, 3, 4, 5, 6}, 1e-6);
  // A constant image stays constant (the weights sum to 1).
  out = runKernel(
      "ResizeBicubic", AttrMap{{"T", DType::F32}, {"align_corners", true}},
      {f32({1, 2, 2, 2}, {3, -1, 3, -1, 3, -1, 3, -1}), i32({2}, {3, 5})},
      DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  for (int64_t i = 0; i < out->numElements(); ++i)
    EXPECT_NEAR(out->data<float>()[i], i % 2 ? -1 : 3, 1e-5) << i;
}

TEST(CropAndResize, BilinearNearestAndExtrapolation) {
  Tensor image = iota({1, 3, 3, 1}); // 0..8
  auto run = [&](const char *method, std::vector<float> boxes,
                 std::vector<int32_t> crop) {
    const int64_t n = static_cast<int64_t>(boxes.size() / 4);
    return runKernel("CropAndResize",
                     AttrMap{{"T", DType::F32},
                             {"method", std::string(method)},
                             {"extrapolation_value", -1.0f}},
                     {image, f32({n, 4}, boxes),
                      i32({n}, std::vector<int32_t>(n, 0)), i32({2}, crop)},
                     DType::F32);
  };
  // The whole image at its own size; the top-left quarter at 2x2; one
  // sample at the centre.
  auto out = run("bilinear", {0, 0, 1, 1}, {3, 3});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3, 3, 1}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  out = run("bilinear", {0, 0, 0.5f, 0.5f, 0, 0, 1, 1}, {2, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 2, 2, 1}, {0, 1, 3, 4, 0, 2, 6, 8});
  out = run("bilinear", {0, 0, 1, 1}, {1, 1});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 1, 1}, {4});
  // y from -0.5 to 0.5 of the image: the first row is outside; x from 0
  // to 0.25 lerps columns 0 and 0.5.
  out = run("bilinear", {-0.5f, 0, 0.5f, 0.25f}, {2, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 2, 1}, {-1, -1, 3, 3.5});
  // Nearest rounds 0.5 up.
  out = run("nearest", {0, 0, 0.25f, 0.25f}, {2, 2});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 2, 1}, {0, 1, 3, 4});
  auto bad = runKernel(
      "CropAndResize", AttrMap{{"T", DType::F32}},
      {image, f32({1, 4}, {0, 0, 1, 1}), i32({1}, {1}), i32({2}, {2, 2})},
      DType::F32);
  EXPECT_EQ(bad.status().code(), StatusCode::kOutOfRange);
  EXPECT_EQ(
      bad.status().message(),
      opError("CropAndResize", "box_index has values outside [0, batch_size)"));
}

TEST(ExtractImagePatches, TfDocExample) {
  // 10x10 image of 1..100, 3x3 patches, stride 5, VALID: patches start at
  // (0, 0), (0, 5), (5, 0), (5, 5).
  std::vector<float> img(100);
  for (int i = 0; i < 100; ++i)
    img[i] = i + 1;
  AttrMap attrs{{"T", DType::F32},
                {"ksizes", std::vector<int64_t>{1, 3, 3, 1}},
                {"strides", std::vector<int64_t>{1, 5, 5, 1}},
                {"rates", std::vector<int64_t>{1, 1, 1, 1}},
                {"padding", std::string("VALID")}};
  auto out = runKernel("ExtractImagePatches", attrs, {f32({1, 10, 10, 1}, img)},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->shape(), TensorShape({1, 2, 2, 9}));
  const std::vector<float> v = valuesOf<float>(*out);
  const std::vector<float> first(v.begin(), v.begin() + 9);
  EXPECT_EQ(first, (std::vector<float>{1, 2, 3, 11, 12, 13, 21, 22, 23}));
  const std::vector<float> last(v.end() - 9, v.end());
  EXPECT_EQ(last, (std::vector<float>{56, 57, 58, 66, 67, 68, 76, 77, 78}));
  // Rate 2, SAME on a 3x3 image with 2 channels: the effective 3x3 kernel
  // is centred, taps outside are 0.
  AttrMap same{{"T", DType::I32},
               {"ksizes", std::vector<int64_t>{1, 2, 2, 1}},
               {"strides", std::vector<int64_t>{1, 2, 2, 1}},
               {"rates", std::vector<int64_t>{1, 2, 2, 1}},
               {"padding", std::string("SAME")}};
  std::vector<int32_t> v2(18);
  for (int i = 0; i < 18; ++i)
    v2[i] = i;
  out = runKernel("ExtractImagePatches", same, {i32({1, 3, 3, 2}, v2)},
                  DType::I32);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->shape(), TensorShape({1, 2, 2, 8}));
  // out (0, 0): pad_top = ((2 - 1) * 2 + 3 - 3) / 2 = 1: taps (-1, -1),
  // (-1, 1), (1, -1), (1, 1) -> 0, 0, 0, pixel (1, 1) = [8, 9].
  const std::vector<int32_t> o = valuesOf<int32_t>(*out);
  EXPECT_EQ(std::vector<int32_t>(o.begin(), o.begin() + 8),
            (std::vector<int32_t>{0, 0, 0, 0, 0, 0, 8, 9}));
  attrs.set("ksizes", std::vector<int64_t>{2, 3, 3, 1});
  out = runKernel("ExtractImagePatches", attrs, {f32({1, 10, 10, 1}, img)},
                  DType::F32);
  EXPECT_EQ(out.status().code(), StatusCode::kUnimplemented);
}

} // namespace

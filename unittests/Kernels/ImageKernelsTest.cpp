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

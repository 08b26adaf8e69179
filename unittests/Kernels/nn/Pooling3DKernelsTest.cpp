//===- Pooling3DKernelsTest.cpp - AvgPool3D, MaxPool3D, argmax, dilation --===//
//
// AvgPool3D / MaxPool3D against naive window loops, MaxPoolWithArgmax's
// flat indices (with and without the batch) and Dilation2D, hand-derived.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

AttrMap poolAttrs(DType t, Dims k, Dims s, bool same) {
  return {{"T", t},
          {"ksize", k},
          {"strides", s},
          {"padding", std::string(same ? "SAME" : "VALID")}};
}

TEST(Pool3D, MatchesNaiveLoop) {
  // [1, 3, 4, 3, 2] with 2x2x2 windows, stride (1, 2, 2), SAME: windows at
  // the far edges are cut; the average counts in-bounds elements only.
  const Dims in = {1, 3, 4, 3, 2};
  const auto x = patternValues(product(in), 8, 7);
  const int64_t od = 3, oh = 2, ow = 2; // ceil(3/1), ceil(4/2), ceil(3/2)
  // Padding before: d: (2 - 1 + 2 - 3) / 2 = 0; h: (1*2 + 2 - 4) / 2 = 0;
  // w: (1*2 + 2 - 3) / 2 = 0.
  std::vector<double> avg, mx;
  for (int64_t z = 0; z < od; ++z)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xo = 0; xo < ow; ++xo)
        for (int64_t c = 0; c < 2; ++c) {
          double sum = 0, best = -1e30;
          int count = 0;
          for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < 2; ++j)
              for (int64_t k = 0; k < 2; ++k) {
                const int64_t zz = z + i, yy = y * 2 + j, xx = xo * 2 + k;
                if (zz >= 3 || yy >= 4 || xx >= 3)
                  continue;
                const double v = x[((zz * 4 + yy) * 3 + xx) * 2 + c];
                sum += v;
                best = std::max(best, v);
                ++count;
              }
          avg.push_back(sum / count);
          mx.push_back(best);
        }
  auto out =
      runKernel("AvgPool3D",
                poolAttrs(DType::F32, {1, 2, 2, 2, 1}, {1, 1, 2, 2, 1}, true),
                {makeTensorFrom<float>(shapeOf(in), x)}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, od, oh, ow, 2}, avg, 1e-6);
  out = runKernel("MaxPool3D",
                  poolAttrs(DType::F32, {1, 2, 2, 2, 1}, {1, 1, 2, 2, 1}, true),
                  {makeTensorFrom<float>(shapeOf(in), x)}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, od, oh, ow, 2}, mx);
  out = runKernel("AvgPool3D",
                  poolAttrs(DType::F32, {2, 2, 2, 2, 1}, {1, 1, 2, 2, 1}, true),
                  {makeTensorFrom<float>(shapeOf(in), x)}, DType::F32);
  EXPECT_EQ(out.status().code(), StatusCode::kUnimplemented);
}

TEST(Pool3D, PaddingIsReadAsEveryWindowOpReadsIt) {
  // One reader of the "padding" attribute (common/Window.h readPadding): the
  // 3-D pools, which take no EXPLICIT padding, give the 2-D pools' text.
  for (const char *padding : {"FULL", "EXPLICIT"}) {
    AttrMap attrs =
        poolAttrs(DType::F32, {1, 1, 1, 1, 1}, {1, 1, 1, 1, 1}, true);
    attrs.set("padding", std::string(padding));
    auto out =
        runKernel("MaxPool3D", attrs,
                  {makeTensorFrom<float>({1, 1, 1, 1, 1}, {1})}, DType::F32);
    EXPECT_EQ(
        out.status().message(),
        opError("MaxPool3D", std::string("Invalid padding '") + padding + "'"));
  }
}

TEST(MaxPoolWithArgmax, FlatIndices) {
  // Two images [2, 2, 2, 1]: 2x2 window, one output each; ties keep the
  // first (row-major) position.
  Tensor x = f32({2, 2, 2, 1}, {1, 5, 5, 2, 7, 0, 0, 7});
  auto out =
      runKernelN("MaxPoolWithArgmax",
                 poolAttrs(DType::F32, {1, 2, 2, 1}, {1, 2, 2, 1}, false), {x},
                 {DType::F32, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>((*out)[0], {2, 1, 1, 1}, {5, 7});
  expectValues<int64_t>((*out)[1], {2, 1, 1, 1}, {1, 0});
  AttrMap batch = poolAttrs(DType::F32, {1, 2, 2, 1}, {1, 2, 2, 1}, false);
  batch.set("include_batch_in_index", true);
  out = runKernelN("MaxPoolWithArgmax", batch, {x}, {DType::F32, DType::I64});
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[1], {2, 1, 1, 1}, {1, 4});
}

TEST(Dilation2D, HandDerived) {
  // 1x3x3x1 input 0..8, 2x2 filter [[0, 1], [1, 0]] at rate 2 (effective
  // 3x3), VALID: one output, max(0 + 0, 2 + 1, 6 + 1, 8 + 0) = 8.
  AttrMap attrs{{"T", DType::F32},
                {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                {"rates", std::vector<int64_t>{1, 2, 2, 1}},
                {"padding", std::string("VALID")}};
  auto out =
      runKernel("Dilation2D", attrs,
                {iota({1, 3, 3, 1}), f32({2, 2, 1}, {0, 1, 1, 0})}, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 1, 1}, {8});
  // Rate 1, SAME on a 1x2x2x1 input with a 2x2 filter of -1 except 5 at
  // (1, 1): output (0, 0) sees all 4 pixels: max(0-1, 1-1, 2-1, 3+5) = 8.
  attrs.set("rates", std::vector<int64_t>{1, 1, 1, 1});
  attrs.set("padding", std::string("SAME"));
  out = runKernel("Dilation2D", attrs,
                  {iota({1, 2, 2, 1}), f32({2, 2, 1}, {-1, -1, -1, 5})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 2, 1}, {8, 2, 2, 2});
}

} // namespace

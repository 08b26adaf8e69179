//===- FusedPadConvKernelsTest.cpp - FusedPadConv2D, ... --------*- C++ -*-===//
//
// FusedPadConv2D and FusedResizeAndPadConv2D against a naive reference in
// this file: tf.image.resize's legacy bilinear formula (align_corners),
// tf.pad's REFLECT / SYMMETRIC rules and a direct Conv2D loop, composed as
// the ops' documentation says; a hand-derived case of TF's window offset
// with a stride larger than the filter; TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// An NHWC image as doubles.
struct Image {
  int64_t n, h, w, c;
  std::vector<double> v;
  double at(int64_t b, int64_t y, int64_t x, int64_t ch) const {
    return v[((b * h + y) * w + x) * c + ch];
  }
};

/// Legacy bilinear resize (no half-pixel centers): source = out * scale,
/// scale (in - 1) / (out - 1) with align_corners, in / out otherwise.
Image resizeBilinear(const Image &in, int64_t outH, int64_t outW,
                     bool alignCorners) {
  auto scale = [&](int64_t i, int64_t o) {
    return alignCorners && o > 1 ? double(i - 1) / double(o - 1)
                                 : double(i) / double(o);
  };
  const double sh = scale(in.h, outH), sw = scale(in.w, outW);
  Image out{in.n, outH, outW, in.c, {}};
  for (int64_t b = 0; b < in.n; ++b)
    for (int64_t y = 0; y < outH; ++y)
      for (int64_t x = 0; x < outW; ++x)
        for (int64_t ch = 0; ch < in.c; ++ch) {
          const double fy = y * sh, fx = x * sw;
          const int64_t y0 = int64_t(std::floor(fy)),
                        x0 = int64_t(std::floor(fx));
          const int64_t y1 = std::min(y0 + 1, in.h - 1),
                        x1 = std::min(x0 + 1, in.w - 1);
          const double dy = fy - y0, dx = fx - x0;
          const double top =
              in.at(b, y0, x0, ch) * (1 - dx) + in.at(b, y0, x1, ch) * dx;
          const double bottom =
              in.at(b, y1, x0, ch) * (1 - dx) + in.at(b, y1, x1, ch) * dx;
          out.v.push_back(top * (1 - dy) + bottom * dy);
        }
  return out;
}

/// tf.pad with mode REFLECT (edge not repeated) or SYMMETRIC (repeated) on
/// the spatial dims.
Image mirrorPad(const Image &in, int64_t top, int64_t bottom, int64_t left,
                int64_t right, bool reflect) {
  auto source = [&](int64_t i, int64_t size) {
    if (i < 0)
      return reflect ? -i : -i - 1;
    if (i >= size)
      return reflect ? 2 * size - i - 2 : 2 * size - i - 1;
    return i;
  };
  Image out{in.n, in.h + top + bottom, in.w + left + right, in.c, {}};
  for (int64_t b = 0; b < out.n; ++b)
    for (int64_t y = 0; y < out.h; ++y)
      for (int64_t x = 0; x < out.w; ++x)
        for (int64_t ch = 0; ch < out.c; ++ch)
          out.v.push_back(
              in.at(b, source(y - top, in.h), source(x - left, in.w), ch));
  return out;
}

/// Conv2D: filter [kh, kw, c, oc], SAME or VALID, with TF's window offsets.
std::vector<double> conv2d(const Image &in, const std::vector<double> &f,
                           int64_t kh, int64_t kw, int64_t oc, int64_t stride,
                           bool same, Dims *shape) {
  const int64_t oh =
      same ? (in.h + stride - 1) / stride : (in.h - kh + stride) / stride;
  const int64_t ow =
      same ? (in.w + stride - 1) / stride : (in.w - kw + stride) / stride;
  const int64_t padTop =
      same ? std::max<int64_t>(0, (oh - 1) * stride + kh - in.h) / 2 : 0;
  const int64_t padLeft =
      same ? std::max<int64_t>(0, (ow - 1) * stride + kw - in.w) / 2 : 0;
  *shape = {in.n, oh, ow, oc};
  std::vector<double> out;
  for (int64_t b = 0; b < in.n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t o = 0; o < oc; ++o) {
          double sum = 0;
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j)
              for (int64_t ch = 0; ch < in.c; ++ch) {
                const int64_t yy = y * stride - padTop + i,
                              xx = x * stride - padLeft + j;
                if (yy < 0 || yy >= in.h || xx < 0 || xx >= in.w)
                  continue;
                sum += in.at(b, yy, xx, ch) *
                       f[((i * kw + j) * in.c + ch) * oc + o];
              }
          out.push_back(sum);
        }
  return out;
}

AttrMap attrs(const char *mode, int64_t stride, const char *padding) {
  return AttrMap{{"T", DType::F32},
                 {"mode", mode},
                 {"strides", std::vector<int64_t>{1, stride, stride, 1}},
                 {"padding", padding}};
}

TEST(FusedPadConv2D, MatchesMirrorPadThenConv2D) {
  const Image in{2, 4, 5, 3, patternValues(2 * 4 * 5 * 3, 4, 3)};
  const std::vector<double> filter = patternValues(3 * 3 * 3 * 2, 2, 5);
  struct Case {
    const char *mode;
    int64_t stride;
    const char *padding;
  };
  for (const Case &c :
       {Case{"REFLECT", 1, "VALID"}, Case{"REFLECT", 2, "SAME"},
        Case{"SYMMETRIC", 1, "SAME"}, Case{"SYMMETRIC", 2, "VALID"}}) {
    SCOPED_TRACE(std::string(c.mode) + " " + c.padding + " stride " +
                 std::to_string(c.stride));
    const bool reflect = std::string(c.mode) == "REFLECT";
    Dims shape;
    const std::vector<double> expected =
        conv2d(mirrorPad(in, 1, 2, 2, 1, reflect), filter, 3, 3, 2, c.stride,
               std::string(c.padding) == "SAME", &shape);
    auto out = runKernel("FusedPadConv2D", attrs(c.mode, c.stride, c.padding),
                         {makeTensorFrom<float>({2, 4, 5, 3}, in.v),
                          i32({4, 2}, {0, 0, 1, 2, 2, 1, 0, 0}),
                          makeTensorFrom<float>({3, 3, 3, 2}, filter)},
                         DType::F32);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, shapeOf(shape), expected, 1e-5);
  }
}

TEST(FusedPadConv2D, Double) {
  const Image in{1, 3, 3, 1, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  AttrMap a = attrs("SYMMETRIC", 1, "VALID");
  a.set("T", DType::F64);
  // SYMMETRIC by 1 then a 1x1 filter of 2: twice the padded image.
  auto out = runKernel("FusedPadConv2D", a,
                       {makeTensorFrom<double>({1, 3, 3, 1}, in.v),
                        i32({4, 2}, {0, 0, 1, 0, 0, 1, 0, 0}),
                        makeTensorFrom<double>({1, 1, 1, 1}, {2})},
                       DType::F64);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<double>(*out, {1, 4, 4, 1},
                       {2, 4, 6, 6, 2, 4, 6, 6, 8, 10, 12, 12, 14, 16, 18, 18});
}

TEST(FusedPadConv2D, HalfAndBfloat16) {
  // Values exact in both types; the reference in double.
  const Image in{1, 3, 4, 2, patternValues(3 * 4 * 2, 2, 17)};
  const std::vector<double> filter = patternValues(2 * 2 * 2 * 2, 1, 19);
  Dims shape;
  const std::vector<double> expected = conv2d(
      mirrorPad(in, 1, 1, 1, 1, true), filter, 2, 2, 2, 1, false, &shape);
  AttrMap a = attrs("REFLECT", 1, "VALID");
  a.set("T", DType::F16);
  auto out = runKernel("FusedPadConv2D", a,
                       {makeTensorFrom<half>({1, 3, 4, 2}, in.v),
                        i32({4, 2}, {0, 0, 1, 1, 1, 1, 0, 0}),
                        makeTensorFrom<half>({2, 2, 2, 2}, filter)},
                       DType::F16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<half>(*out, shapeOf(shape), expected);
  a.set("T", DType::BF16);
  out = runKernel("FusedPadConv2D", a,
                  {makeTensorFrom<bf16>({1, 3, 4, 2}, in.v),
                   i32({4, 2}, {0, 0, 1, 1, 1, 1, 0, 0}),
                   makeTensorFrom<bf16>({2, 2, 2, 2}, filter)},
                  DType::BF16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<bf16>(*out, shapeOf(shape), expected);
  // FusedResizeAndPadConv2D in half: [1, 3] resized to width 3 with
  // align_corners is [1, 2, 3]; SYMMETRIC by 1 on the right [1, 2, 3, 3];
  // a [1, 2] filter of ones: 3, 5, 6.
  AttrMap r = attrs("SYMMETRIC", 1, "VALID");
  r.set("T", DType::F16);
  r.set("resize_align_corners", true);
  out = runKernel("FusedResizeAndPadConv2D", r,
                  {makeTensorFrom<half>({1, 1, 2, 1}, {1, 3}), i32({2}, {1, 3}),
                   i32({4, 2}, {0, 0, 0, 0, 0, 1, 0, 0}),
                   makeTensorFrom<half>({1, 2, 1, 1}, {1, 1})},
                  DType::F16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<half>(*out, {1, 1, 3, 1}, {3, 5, 6});
}

TEST(FusedPadConv2D, StrideBeyondTheFilterShiftsTheWindows) {
  // Width 5 REFLECT-padded by 1 and 1: [2, 1, 2, 3, 4, 5, 4] (7 wide); a
  // 1x1 filter with stride 4, SAME: 2 outputs; TF's fused kernel starts
  // the windows at ((2 - 1) * 4 + 1 - 7) / 2 = -1, i.e. columns 1 and 5
  // (values 1 and 5; Conv2D would read columns 0 and 4).
  auto out =
      runKernel("FusedPadConv2D", attrs("REFLECT", 4, "SAME"),
                {f32({1, 1, 5, 1}, {1, 2, 3, 4, 5}),
                 i32({4, 2}, {0, 0, 0, 0, 1, 1, 0, 0}), f32({1, 1, 1, 1}, {1})},
                DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 2, 1}, {1, 5});
}

TEST(FusedResizeAndPadConv2D, MatchesResizeThenMirrorPadThenConv2D) {
  const Image in{1, 3, 4, 2, patternValues(3 * 4 * 2, 4, 11)};
  const std::vector<double> filter = patternValues(2 * 3 * 2 * 3, 2, 13);
  for (bool align : {true, false}) {
    SCOPED_TRACE(align ? "align_corners" : "no align_corners");
    Dims shape;
    const std::vector<double> expected =
        conv2d(mirrorPad(resizeBilinear(in, 5, 7, align), 2, 1, 0, 3, false),
               filter, 2, 3, 3, 1, true, &shape);
    AttrMap a = attrs("SYMMETRIC", 1, "SAME");
    a.set("resize_align_corners", align);
    auto out =
        runKernel("FusedResizeAndPadConv2D", a,
                  {makeTensorFrom<float>({1, 3, 4, 2}, in.v), i32({2}, {5, 7}),
                   i32({4, 2}, {0, 0, 2, 1, 0, 3, 0, 0}),
                   makeTensorFrom<float>({2, 3, 2, 3}, filter)},
                  DType::F32);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<float>(*out, shapeOf(shape), expected, 1e-5);
  }
}

TEST(FusedPadConv2D, Errors) {
  auto run = [](AttrMap a, Tensor input, Tensor paddings, Tensor filter) {
    return runKernel("FusedPadConv2D", a,
                     {std::move(input), std::move(paddings), std::move(filter)},
                     DType::F32)
        .status();
  };
  const AttrMap ok = attrs("REFLECT", 1, "VALID");
  Tensor image = f32({1, 3, 3, 1}, std::vector<float>(9, 1));
  Tensor pads = i32({4, 2}, {0, 0, 1, 1, 1, 1, 0, 0});
  Tensor filter = f32({1, 1, 1, 1}, {1});
  const char *op = "FusedPadConv2D";
  EXPECT_EQ(run(ok, f32({1, 0, 3, 1}, {}), pads, filter).message(),
            opError(op, "Input tensor can't be empty"));
  EXPECT_EQ(
      run(ok, image, i32({4, 2}, {0, 0, 3, 0, 0, 0, 0, 0}), filter).message(),
      opError(op, "paddings must be less than the dimension size: 3, 0 "
                  "not less than 3"));
  EXPECT_EQ(run(attrs("SYMMETRIC", 1, "VALID"), image,
                i32({4, 2}, {0, 0, 4, 0, 0, 0, 0, 0}), filter)
                .message(),
            opError(op, "paddings must be no greater than the dimension "
                        "size: 4, 0 greater than 3"));
  EXPECT_EQ(
      run(ok, image, i32({4, 2}, {0, 0, -1, 0, 0, 0, 0, 0}), filter).message(),
      opError(op, "paddings must be non-negative: -1 0"));
  EXPECT_EQ(run(attrs("SYMMETRIC", 1, "VALID"), image,
                i32({4, 2}, {1, 0, 0, 0, 0, 0, 0, 0}), filter)
                .message(),
            opError(op, "Fused mirror padding only support spatial padding, "
                        "not batches: 1,0,0,0,0,0,0,0"));
  EXPECT_EQ(run(ok, image, i32({3, 2}, {0, 0, 0, 0, 0, 0}), filter).message(),
            opError(op, "The first dimension of paddings must be the rank of "
                        "inputs: 4 [3,2] [1,3,3,1]"));
  EXPECT_EQ(run(ok, image, pads, f32({1, 1, 2, 1}, {1, 1})).message(),
            opError(op, "input and filter must have the same depth: 1 vs 2"));
  EXPECT_EQ(run(ok, image, pads, f32({1, 1, 1, 0}, {})).message(),
            opError(op, "Output tensor can't be empty"));
  Status bad = run(attrs("CONSTANT", 1, "VALID"), image, pads, filter);
  EXPECT_NE(bad.message().find("mode must be either REFLECT or SYMMETRIC."),
            std::string::npos)
      << bad;
}

} // namespace

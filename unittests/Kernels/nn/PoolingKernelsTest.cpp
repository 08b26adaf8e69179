//===- PoolingKernelsTest.cpp - MaxPool / AvgPool tests ---------*- C++ -*-===//
//
// MaxPool, MaxPoolV2 and AvgPool against hand-derived values and a naive
// window loop written here, over paddings, strides, layouts and dtypes,
// plus their errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <algorithm>
#include <limits>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

struct PoolCfg {
  int64_t n, h, w, c, kh, kw, sh, sw;
  std::string padding;
  std::vector<int64_t> pads = {}; // explicit: top, bottom, left, right
};

/// Reference pooling (NHWC); returns the output dims in `oh`/`ow`.
std::vector<double> refPool(const PoolCfg &p, const std::vector<double> &in,
                            bool max, int64_t *oh, int64_t *ow) {
  int64_t padT = 0, padL = 0;
  if (p.padding == "VALID") {
    *oh = (p.h - p.kh + p.sh) / p.sh;
    *ow = (p.w - p.kw + p.sw) / p.sw;
  } else if (p.padding == "SAME") {
    *oh = (p.h + p.sh - 1) / p.sh;
    *ow = (p.w + p.sw - 1) / p.sw;
    padT = std::max<int64_t>(0, (*oh - 1) * p.sh + p.kh - p.h) / 2;
    padL = std::max<int64_t>(0, (*ow - 1) * p.sw + p.kw - p.w) / 2;
  } else {
    *oh = (p.h + p.pads[0] + p.pads[1] - p.kh + p.sh) / p.sh;
    *ow = (p.w + p.pads[2] + p.pads[3] - p.kw + p.sw) / p.sw;
    padT = p.pads[0];
    padL = p.pads[2];
  }
  std::vector<double> out;
  for (int64_t b = 0; b < p.n; ++b)
    for (int64_t y = 0; y < *oh; ++y)
      for (int64_t x = 0; x < *ow; ++x)
        for (int64_t ch = 0; ch < p.c; ++ch) {
          double best = -std::numeric_limits<double>::infinity(), sum = 0;
          int count = 0;
          for (int64_t i = 0; i < p.kh; ++i)
            for (int64_t j = 0; j < p.kw; ++j) {
              int64_t iy = y * p.sh - padT + i, ix = x * p.sw - padL + j;
              if (iy < 0 || iy >= p.h || ix < 0 || ix >= p.w)
                continue;
              double v = in[((b * p.h + iy) * p.w + ix) * p.c + ch];
              best = std::max(best, v);
              sum += v;
              ++count;
            }
          out.push_back(max ? best : sum / count);
        }
  return out;
}

AttrMap poolAttrs(const PoolCfg &p, DType t, bool nchw) {
  AttrMap attrs{{"T", t}, {"padding", p.padding}};
  if (nchw) {
    attrs.set("ksize", std::vector<int64_t>{1, 1, p.kh, p.kw});
    attrs.set("strides", std::vector<int64_t>{1, 1, p.sh, p.sw});
    attrs.set("data_format", "NCHW");
  } else {
    attrs.set("ksize", std::vector<int64_t>{1, p.kh, p.kw, 1});
    attrs.set("strides", std::vector<int64_t>{1, p.sh, p.sw, 1});
  }
  if (p.padding == "EXPLICIT")
    attrs.set("explicit_paddings",
              nchw ? std::vector<int64_t>{0, 0, 0, 0, p.pads[0], p.pads[1],
                                          p.pads[2], p.pads[3]}
                   : std::vector<int64_t>{0, 0, p.pads[0], p.pads[1], p.pads[2],
                                          p.pads[3], 0, 0});
  return attrs;
}

std::vector<double> nhwcToNchw(const std::vector<double> &v, int64_t n,
                               int64_t h, int64_t w, int64_t c) {
  std::vector<double> out(v.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t ch = 0; ch < c; ++ch)
          out[((b * c + ch) * h + y) * w + x] =
              v[((b * h + y) * w + x) * c + ch];
  return out;
}

template <typename T>
void checkPool(const std::string &op, const PoolCfg &p, bool nchw = false) {
  auto in = patternValues(p.n * p.h * p.w * p.c, 8, 3);
  for (double &v : in)
    v = toDouble(static_cast<T>(v));
  int64_t oh, ow;
  auto expected = refPool(p, in, op != "AvgPool", &oh, &ow);
  std::vector<Tensor> inputs;
  if (nchw)
    inputs.push_back(makeTensorFrom<T>({p.n, p.c, p.h, p.w},
                                       nhwcToNchw(in, p.n, p.h, p.w, p.c)));
  else
    inputs.push_back(makeTensorFrom<T>({p.n, p.h, p.w, p.c}, in));
  AttrMap attrs = poolAttrs(p, dtypeOf<T>(), nchw);
  if (op == "MaxPoolV2") {
    inputs.push_back(
        makeTensor<int32_t>({4}, {1, int32_t(p.kh), int32_t(p.kw), 1}));
    inputs.push_back(
        makeTensor<int32_t>({4}, {1, int32_t(p.sh), int32_t(p.sw), 1}));
  }
  auto out = runKernel(op, attrs, std::move(inputs), dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  SCOPED_TRACE(op + " " + p.padding);
  if (nchw)
    expectValues<T>(*out, {p.n, p.c, oh, ow},
                    nhwcToNchw(expected, p.n, oh, ow, p.c));
  else
    expectValues<T>(*out, {p.n, oh, ow, p.c}, expected);
}

TEST(MaxPool, HandDerived) {
  std::vector<Tensor> inputs;
  inputs.push_back(
      makeTensorFrom<float>({1, 3, 3, 1}, {1, 5, 2, -3, 4, 9, 0, -1, 6}));
  AttrMap attrs{{"T", DType::F32},
                {"ksize", std::vector<int64_t>{1, 2, 2, 1}},
                {"strides", std::vector<int64_t>{1, 2, 2, 1}},
                {"padding", "SAME"}};
  auto out = runKernel("MaxPool", attrs, inputs, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 2, 1}, {5, 9, 0, 6});
  // AvgPool SAME: the padded windows divide by their valid count.
  out = runKernel("AvgPool", attrs, inputs, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 2, 1}, {7 / 4.0, 5.5, -0.5, 6});
}

TEST(MaxPool, AgainstReference) {
  for (const char *op : {"MaxPool", "AvgPool", "MaxPoolV2"}) {
    checkPool<float>(op, {2, 5, 6, 3, 2, 2, 2, 2, "VALID"});
    checkPool<float>(op, {2, 5, 6, 3, 3, 3, 2, 2, "SAME"});
    checkPool<float>(op, {1, 7, 7, 17, 3, 2, 1, 2, "SAME"});
    checkPool<float>(op, {1, 4, 4, 1, 4, 4, 1, 1, "VALID"});
    checkPool<float>(op, {1, 1, 1, 1, 1, 1, 1, 1, "SAME"});
    checkPool<float>(op, {0, 4, 4, 3, 2, 2, 1, 1, "SAME"});
    checkPool<float>(op, {1, 4, 4, 0, 2, 2, 1, 1, "SAME"});
    checkPool<double>(op, {1, 5, 5, 2, 3, 3, 2, 2, "SAME"});
    checkPool<Eigen::half>(op, {1, 5, 5, 2, 3, 3, 2, 2, "SAME"});
    checkPool<Eigen::bfloat16>(op, {1, 5, 5, 2, 3, 3, 2, 2, "SAME"});
  }
  checkPool<float>("MaxPool", {2, 5, 6, 3, 3, 3, 2, 1, "SAME"}, true);
  checkPool<float>("AvgPool", {2, 5, 6, 3, 3, 3, 2, 1, "SAME"}, true);
  checkPool<float>("MaxPool",
                   {1, 5, 6, 2, 3, 3, 2, 2, "EXPLICIT", {1, 2, 0, 1}});
  checkPool<float>("MaxPool",
                   {1, 5, 6, 2, 3, 3, 2, 2, "EXPLICIT", {1, 2, 0, 1}}, true);
  for (const char *op : {"MaxPool", "MaxPoolV2"}) {
    checkPool<int32_t>(op, {1, 5, 5, 2, 3, 3, 2, 2, "SAME"});
    checkPool<int64_t>(op, {1, 5, 5, 2, 3, 3, 2, 2, "SAME"});
    checkPool<int8_t>(op, {1, 5, 5, 2, 3, 3, 2, 2, "SAME"});
  }
  // uint8 values must be nonnegative.
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<uint8_t>({1, 2, 2, 1}, {3, 200, 7, 1}));
  auto out = runKernel(
      "MaxPool", poolAttrs({1, 2, 2, 1, 2, 2, 1, 1, "VALID"}, DType::U8, false),
      inputs, DType::U8);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<uint8_t>(*out, {1, 1, 1, 1}, {200});
}

TEST(MaxPool, Errors) {
  auto run = [](const std::string &op, AttrMap attrs, TensorShape shape) {
    std::vector<Tensor> inputs;
    inputs.push_back(makeTensorFrom<float>(
        shape, std::vector<double>(shape.numElements(), 1.0)));
    return runKernel(op, attrs, inputs, DType::F32).status();
  };
  AttrMap ok = poolAttrs({1, 2, 2, 1, 2, 2, 1, 1, "VALID"}, DType::F32, false);
  EXPECT_EQ(run("MaxPool", ok, {2, 2, 1}).message(),
            opError("MaxPool", "tensor_in must be 4-dimensional: [2,2,1]"));
  AttrMap bad = ok;
  bad.set("ksize", std::vector<int64_t>{1, 2, 2});
  EXPECT_EQ(run("MaxPool", bad, {1, 2, 2, 1}).message(),
            opError("MaxPool",
                    "Sliding window ksize field must specify 4 dimensions"));
  bad = ok;
  bad.set("strides", std::vector<int64_t>{1, 2, 2});
  EXPECT_EQ(run("AvgPool", bad, {1, 2, 2, 1}).message(),
            opError("AvgPool",
                    "Sliding window stride field must specify 4 dimensions"));
  bad = ok;
  bad.set("ksize", std::vector<int64_t>{2, 2, 2, 1});
  EXPECT_EQ(run("MaxPool", bad, {1, 2, 2, 1}).message(),
            opError("MaxPool",
                    "Pooling is not yet supported on the batch dimension."));
  bad = ok;
  bad.set("ksize", std::vector<int64_t>{1, 1, 1, 2});
  EXPECT_EQ(run("MaxPool", bad, {1, 2, 2, 1}).message(),
            opError("MaxPool", "Pooling across depth is not supported"));
  bad = ok;
  bad.set("ksize", std::vector<int64_t>{1, 0, 1, 1});
  EXPECT_EQ(run("MaxPool", bad, {1, 2, 2, 1}).message(),
            opError("MaxPool",
                    "Sliding window ksize for dimension must be positive"));
  bad = ok;
  bad.set("strides", std::vector<int64_t>{1, 0, 1, 1});
  EXPECT_EQ(run("MaxPool", bad, {1, 2, 2, 1}).message(),
            opError("MaxPool",
                    "Sliding window stride for dimension must be positive"));
  bad = ok;
  bad.set("padding", "EXPLICIT");
  EXPECT_EQ(run("AvgPool", bad, {1, 2, 2, 1}).message(),
            opError("AvgPool", "Invalid padding 'EXPLICIT'"));
  EXPECT_EQ(run("MaxPool", bad, {1, 2, 2, 1}).message(),
            opError("MaxPool", "explicit_paddings attribute must contain 8 "
                               "values, but got: 0"));
  bad = ok;
  bad.set("data_format", "NCHW_VECT_C");
  EXPECT_EQ(run("MaxPool", bad, {1, 2, 2, 1}).message(),
            opError("MaxPool", "Invalid data format"));
  bad = ok;
  bad.set("ksize", std::vector<int64_t>{1, 3, 1, 1});
  EXPECT_EQ(run("MaxPool", bad, {1, 1, 2, 1}).message(),
            opError("MaxPool", "Computed output size would be negative: -1 "
                               "[input_size: 1, effective_filter_size: 3, "
                               "stride: 1]"));
}

} // namespace

//===- ConvKernelsTest.cpp - Convolution kernel tests -----------*- C++ -*-===//
//
// Conv2D, _FusedConv2D, DepthwiseConv2dNative (and fused forms) and
// Conv2DBackpropInput against hand-derived values and naive reference loops
// written here, over paddings, strides, dilations and layouts, plus their
// errors. bench/KernelTimingBench.cpp times MobileNet-shaped layers.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// A convolution configuration in NHWC terms.
struct Cfg {
  int64_t n, h, w, c, kh, kw, outC; // outC: filter out depth / multiplier
  int64_t sh = 1, sw = 1, dh = 1, dw = 1;
  std::string padding = "VALID";
  std::vector<int64_t> explicitPads = {}; // top, bottom, left, right
};

struct Geometry {
  int64_t oh, ow, padT, padL;
};

/// Output size and leading padding, derived independently from TF's docs.
Geometry geometry(const Cfg &c) {
  auto one = [&](int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb,
                 int64_t pa, int64_t *out, int64_t *pad) {
    const int64_t eff = (k - 1) * d + 1;
    if (c.padding == "VALID") {
      *out = (in - eff + s) / s;
      *pad = 0;
    } else if (c.padding == "SAME") {
      *out = (in + s - 1) / s;
      int64_t total = std::max<int64_t>(0, (*out - 1) * s + eff - in);
      *pad = total / 2;
    } else {
      *out = (in + pb + pa - eff + s) / s;
      *pad = pb;
    }
  };
  Geometry g;
  int64_t pt = c.explicitPads.empty() ? 0 : c.explicitPads[0];
  int64_t pb = c.explicitPads.empty() ? 0 : c.explicitPads[1];
  int64_t pl = c.explicitPads.empty() ? 0 : c.explicitPads[2];
  int64_t pr = c.explicitPads.empty() ? 0 : c.explicitPads[3];
  one(c.h, c.kh, c.sh, c.dh, pt, pb, &g.oh, &g.padT);
  one(c.w, c.kw, c.sw, c.dw, pl, pr, &g.ow, &g.padL);
  return g;
}

/// 7-deep loop reference convolution (NHWC, HWIO filter). With
/// `depthwise`, outC is the channel multiplier.
std::vector<double> refConv(const Cfg &c, const std::vector<double> &in,
                            const std::vector<double> &f, bool depthwise) {
  Geometry g = geometry(c);
  const int64_t oc = depthwise ? c.c * c.outC : c.outC;
  std::vector<double> out(c.n * g.oh * g.ow * oc, 0.0);
  for (int64_t b = 0; b < c.n; ++b)
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t x = 0; x < g.ow; ++x)
        for (int64_t o = 0; o < oc; ++o) {
          double sum = 0;
          for (int64_t i = 0; i < c.kh; ++i)
            for (int64_t j = 0; j < c.kw; ++j) {
              int64_t iy = y * c.sh - g.padT + i * c.dh;
              int64_t ix = x * c.sw - g.padL + j * c.dw;
              if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w)
                continue;
              const double *px = in.data() + ((b * c.h + iy) * c.w + ix) * c.c;
              if (depthwise) {
                int64_t ch = o / c.outC, m = o % c.outC;
                sum += px[ch] * f[((i * c.kw + j) * c.c + ch) * c.outC + m];
              } else {
                for (int64_t ch = 0; ch < c.c; ++ch)
                  sum += px[ch] * f[((i * c.kw + j) * c.c + ch) * c.outC + o];
              }
            }
          out[((b * g.oh + y) * g.ow + x) * oc + o] = sum;
        }
  return out;
}

AttrMap convAttrs(const Cfg &c, DType t, bool nchw = false) {
  AttrMap attrs{{"T", t}, {"padding", c.padding}};
  if (nchw) {
    attrs.set("strides", std::vector<int64_t>{1, 1, c.sh, c.sw});
    attrs.set("dilations", std::vector<int64_t>{1, 1, c.dh, c.dw});
    attrs.set("data_format", "NCHW");
  } else {
    attrs.set("strides", std::vector<int64_t>{1, c.sh, c.sw, 1});
    attrs.set("dilations", std::vector<int64_t>{1, c.dh, c.dw, 1});
  }
  if (c.padding == "EXPLICIT") {
    const auto &p = c.explicitPads;
    attrs.set("explicit_paddings",
              nchw ? std::vector<int64_t>{0, 0, 0, 0, p[0], p[1], p[2], p[3]}
                   : std::vector<int64_t>{0, 0, p[0], p[1], p[2], p[3], 0, 0});
  }
  return attrs;
}

std::vector<double> toNchw(const std::vector<double> &v, int64_t n, int64_t h,
                           int64_t w, int64_t c) {
  std::vector<double> out(v.size());
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t ch = 0; ch < c; ++ch)
          out[((b * c + ch) * h + y) * w + x] =
              v[((b * h + y) * w + x) * c + ch];
  return out;
}

/// Runs `op` on `inputs`, those with a bit of `constantInputs` as program
/// constants (run several times, so a kernel's cached packing is used).
StatusOr<Tensor> runMaybeConstant(const std::string &op, const AttrMap &attrs,
                                  std::vector<Tensor> inputs,
                                  uint64_t constantInputs, DType outDType) {
  if (constantInputs)
    return runKernelWithConstants(op, attrs, std::move(inputs), constantInputs,
                                  outDType);
  return runKernel(op, attrs, std::move(inputs), outDType);
}

template <typename T>
void checkConv(const Cfg &c, const std::string &op = "Conv2D",
               bool nchw = false, uint64_t constantInputs = 0) {
  const bool depthwise = op != "Conv2D";
  auto in = patternValues(c.n * c.h * c.w * c.c, 4, 1);
  auto f = patternValues(c.kh * c.kw * c.c * c.outC, 4, 2);
  Geometry g = geometry(c);
  const int64_t oc = depthwise ? c.c * c.outC : c.outC;
  auto expected = refConv(c, in, f, depthwise);
  std::vector<Tensor> inputs;
  if (nchw)
    inputs.push_back(makeTensorFrom<T>({c.n, c.c, c.h, c.w},
                                       toNchw(in, c.n, c.h, c.w, c.c)));
  else
    inputs.push_back(makeTensorFrom<T>({c.n, c.h, c.w, c.c}, in));
  inputs.push_back(makeTensorFrom<T>({c.kh, c.kw, c.c, c.outC}, f));
  auto out = runMaybeConstant(op, convAttrs(c, dtypeOf<T>(), nchw),
                              std::move(inputs), constantInputs, dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  if (nchw)
    expectValues<T>(*out, {c.n, oc, g.oh, g.ow},
                    toNchw(expected, c.n, g.oh, g.ow, oc), 1e-5);
  else
    expectValues<T>(*out, {c.n, g.oh, g.ow, oc}, expected, 1e-5);
}

TEST(Conv2D, HandDerived) {
  // 3x3 input 1..9, 2x2 filter of ones, VALID: sums of 2x2 windows.
  std::vector<Tensor> inputs;
  inputs.push_back(
      makeTensorFrom<float>({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9}));
  inputs.push_back(makeTensorFrom<float>({2, 2, 1, 1}, {1, 1, 1, 1}));
  AttrMap attrs{{"T", DType::F32},
                {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                {"padding", "VALID"}};
  auto out = runKernel("Conv2D", attrs, inputs, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 2, 2, 1}, {12, 16, 24, 28});
  // SAME pads bottom/right by one: the last row/col sums fewer values.
  attrs.set("padding", "SAME");
  out = runKernel("Conv2D", attrs, inputs, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3, 3, 1}, {12, 16, 9, 24, 28, 15, 15, 17, 9});
}

TEST(Conv2D, AgainstReference) {
  checkConv<float>({2, 5, 6, 3, 3, 3, 4});                     // VALID 3x3
  checkConv<float>({1, 7, 7, 4, 3, 3, 5, 2, 2, 1, 1, "SAME"}); // strided
  checkConv<float>({1, 8, 6, 3, 3, 2, 2, 1, 1, 2, 2, "SAME"}); // dilated
  checkConv<float>({1, 6, 6, 2, 3, 3, 3, 2, 1, 1, 1, "EXPLICIT", {1, 2, 0, 3}});
  checkConv<float>({2, 4, 5, 6, 1, 1, 7});                     // pointwise
  checkConv<float>({1, 6, 6, 3, 1, 1, 2, 2, 2, 1, 1, "SAME"}); // strided 1x1
  checkConv<float>({3, 3, 4, 2, 3, 4, 5});                     // whole input
  checkConv<float>({1, 1, 1, 1, 1, 1, 1});                     // size 1
  checkConv<float>({1, 2, 2, 3, 5, 5, 2, 1, 1, 1, 1, "SAME"}); // big filter
  // Enough rows for several im2col chunks.
  checkConv<float>({1, 40, 40, 40, 3, 3, 8, 1, 1, 1, 1, "SAME"});
  checkConv<float>({2, 5, 6, 5, 3, 3, 4}); // im2col in one chunk
  // At most 4 input channels: the direct convolution (DirectConv.h). Rows
  // wide enough for its blocks of pixels between the padded borders, and
  // output channels that fill one to four vectors of 8 or 16 (blocks of
  // three, two and one vectors of 8), or part of one.
  checkConv<float>({1, 9, 37, 3, 5, 5, 24, 2, 2, 1, 1, "SAME"}); // blazeface
  checkConv<float>({1, 7, 41, 3, 3, 3, 32, 2, 2, 1, 1, "SAME"}); // MobileNet
  checkConv<float>({1, 9, 33, 3, 3, 3, 16, 2, 2, 1, 1, "SAME"}); // selfie
  checkConv<float>({2, 5, 30, 1, 3, 3, 40});
  checkConv<float>({1, 6, 29, 4, 3, 3, 64, 1, 1, 2, 2, "SAME"});
  checkConv<float>(
      {1, 8, 26, 2, 4, 4, 9, 1, 3, 1, 1, "EXPLICIT", {2, 1, 3, 0}});
  checkConv<double>({2, 5, 5, 3, 3, 3, 4, 1, 2, 1, 1, "SAME"});
}

TEST(Conv2D, ConstantFilterIsPackedOnce) {
  // A constant filter is packed at the first run and reused by the next
  // ones (runKernelWithConstants checks that every run agrees): pointwise,
  // im2col in one and in several chunks, NCHW, whole input, and a constant
  // input as well.
  constexpr uint64_t kFilter = 0b10;
  checkConv<float>({2, 4, 5, 6, 1, 1, 7}, "Conv2D", false, kFilter);
  checkConv<float>({2, 5, 6, 3, 3, 3, 4}, "Conv2D", false, kFilter);
  checkConv<float>({1, 40, 40, 40, 3, 3, 8, 1, 1, 1, 1, "SAME"}, "Conv2D",
                   false, kFilter);
  checkConv<float>({2, 5, 6, 3, 3, 3, 4, 2, 1, 1, 1, "SAME"}, "Conv2D", true,
                   kFilter);
  checkConv<float>({3, 3, 4, 2, 3, 4, 5}, "Conv2D", false, kFilter);
  checkConv<float>({1, 7, 7, 33, 1, 1, 70}, "Conv2D", false, 0b11);
  // The direct convolution reads a constant filter as it is (not packed).
  checkConv<float>({1, 9, 37, 3, 5, 5, 24, 2, 2, 1, 1, "SAME"}, "Conv2D", false,
                   kFilter);
  checkConv<double>({2, 5, 5, 3, 3, 3, 4, 1, 2, 1, 1, "SAME"}, "Conv2D", false,
                    kFilter);
}

TEST(Conv2D, Nchw) {
  checkConv<float>({2, 5, 6, 3, 3, 3, 4, 2, 1, 1, 1, "SAME"}, "Conv2D", true);
  checkConv<float>({1, 6, 6, 2, 3, 3, 3, 1, 1, 2, 1, "EXPLICIT", {1, 2, 0, 3}},
                   "Conv2D", true);
}

TEST(Conv2D, EmptyTensors) {
  checkConv<float>({0, 4, 4, 3, 3, 3, 2});
  checkConv<float>({1, 4, 4, 0, 3, 3, 2}); // zero depth: zeros
  checkConv<float>({1, 4, 4, 3, 3, 3, 0});
  checkConv<float>({1, 2, 2, 1, 3, 3, 1, 3, 3}); // VALID -> 0 rows
}

TEST(Conv2D, Errors) {
  auto run = [](AttrMap attrs, TensorShape in, TensorShape f) {
    std::vector<Tensor> inputs;
    inputs.push_back(
        makeTensorFrom<float>(in, std::vector<double>(in.numElements(), 1.0)));
    inputs.push_back(
        makeTensorFrom<float>(f, std::vector<double>(f.numElements(), 1.0)));
    return runKernel("Conv2D", attrs, inputs, DType::F32).status();
  };
  AttrMap ok{{"T", DType::F32},
             {"strides", std::vector<int64_t>{1, 1, 1, 1}},
             {"padding", "VALID"}};
  EXPECT_EQ(run(ok, {1, 3, 3}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "input must be 4-dimensional: [1,3,3]"));
  EXPECT_EQ(run(ok, {1, 3, 3, 1}, {1, 1, 1}).message(),
            opError("Conv2D", "filter must be 4-dimensional: [1,1,1]"));
  EXPECT_EQ(run(ok, {1, 3, 3, 2}, {1, 1, 3, 1}).message(),
            opError("Conv2D", "input depth must equal filter depth (grouped "
                              "convolutions are not supported): 2 vs 3"));
  EXPECT_EQ(run(ok, {1, 2, 2, 1}, {4, 4, 1, 1}).message(),
            opError("Conv2D", "Computed output size would be negative: -1 "
                              "[input_size: 2, effective_filter_size: 4, "
                              "stride: 1]"));
  AttrMap bad = ok;
  bad.set("strides", std::vector<int64_t>{1, 1, 1});
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D",
                    "Sliding window strides field must specify 4 dimensions"));
  bad = ok;
  bad.set("strides", std::vector<int64_t>{2, 1, 1, 1});
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "Current implementation does not yet support "
                              "strides in the batch and depth dimensions."));
  bad = ok;
  bad.set("strides", std::vector<int64_t>{1, 0, 1, 1});
  EXPECT_EQ(
      run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
      opError("Conv2D", "Row and column strides should be larger than 0."));
  bad = ok;
  bad.set("dilations", std::vector<int64_t>{1, 1, 1});
  EXPECT_EQ(
      run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
      opError("Conv2D",
              "Sliding window dilations field must specify 4 dimensions"));
  bad = ok;
  bad.set("dilations", std::vector<int64_t>{1, 1, 1, 2});
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "Current implementation does not yet support "
                              "dilations in the batch and depth dimensions."));
  bad = ok;
  bad.set("dilations", std::vector<int64_t>{1, 0, 1, 1});
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "Dilated rates should be larger than 0."));
  bad = ok;
  bad.set("padding", "FULL");
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "Invalid padding 'FULL'"));
  bad = ok;
  bad.set("data_format", "NCWH");
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "Invalid data format"));
  bad = ok;
  bad.set("explicit_paddings", std::vector<int64_t>{0, 0, 1, 1, 1, 1, 0, 0});
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "explicit_paddings attribute must be empty if "
                              "the padding attribute is not EXPLICIT"));
  bad.set("padding", "EXPLICIT");
  bad.set("explicit_paddings", std::vector<int64_t>{0, 0, 1, 1});
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "explicit_paddings attribute must contain 8 "
                              "values, but got: 4"));
  bad.set("explicit_paddings", std::vector<int64_t>{0, 0, -1, 1, 1, 1, 0, 0});
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D",
                    "All elements of explicit_paddings must be nonnegative"));
  bad.set("explicit_paddings", std::vector<int64_t>{0, 0, 1, 1, 1, 1, 0, 1});
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            opError("Conv2D", "Nonzero explicit padding in the batch or depth "
                              "dimensions is not supported"));
  // A getter's error already names the attribute, op and node.
  bad = ok;
  bad.set("strides", "1111");
  EXPECT_EQ(run(bad, {1, 3, 3, 1}, {1, 1, 1, 1}).message(),
            "attribute 'strides' of Conv2D 'loc(test)' is a string, expected "
            "a list of ints");
}

//===----------------------------------------------------------------------===//
// Fused convolutions
//===----------------------------------------------------------------------===//

double applyAct(const std::string &act, double x, double alpha) {
  if (act == "Relu")
    return std::max(x, 0.0);
  if (act == "Relu6")
    return std::min(std::max(x, 0.0), 6.0);
  if (act == "Elu")
    return x < 0 ? std::exp(x) - 1 : x;
  if (act == "LeakyRelu" || act == "Prelu")
    return x > 0 ? x : x * alpha;
  if (act == "Sigmoid")
    return 1 / (1 + std::exp(-x));
  if (act == "Tanh")
    return std::tanh(x);
  return x;
}

/// Runs `op` (fused) with ops {first, act} against the reference.
void checkFused(const std::string &op, const Cfg &c,
                const std::vector<std::string> &fusedOps,
                uint64_t constantInputs = 0) {
  const bool depthwise = op != "_FusedConv2D";
  auto in = patternValues(c.n * c.h * c.w * c.c, 4, 3);
  auto f = patternValues(c.kh * c.kw * c.c * c.outC, 2, 4);
  const int64_t oc = depthwise ? c.c * c.outC : c.outC;
  auto expected = refConv(c, in, f, depthwise);
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<float>({c.n, c.h, c.w, c.c}, in));
  inputs.push_back(makeTensorFrom<float>({c.kh, c.kw, c.c, c.outC}, f));
  auto bias = patternValues(oc, 2, 5);
  auto scale = patternValues(oc, 2, 6);
  auto offset = patternValues(oc, 2, 7);
  auto mean = patternValues(oc, 2, 8);
  std::vector<double> var(oc), alpha = patternValues(oc, 1, 9);
  for (int64_t i = 0; i < oc; ++i)
    var[i] = 0.25 + i % 3;
  const float epsilon = 0.001f;
  int numArgs = 0;
  if (fusedOps[0] == "BiasAdd") {
    inputs.push_back(makeTensorFrom<float>({oc}, bias));
    numArgs = 1;
    for (size_t i = 0; i < expected.size(); ++i)
      expected[i] += bias[i % oc];
  } else if (fusedOps[0] == "FusedBatchNorm") {
    for (auto *v : {&scale, &offset, &mean, &var})
      inputs.push_back(makeTensorFrom<float>({oc}, *v));
    numArgs = 4;
    for (size_t i = 0; i < expected.size(); ++i) {
      int64_t ch = i % oc;
      expected[i] = (expected[i] - mean[ch]) * scale[ch] /
                        std::sqrt(var[ch] + double(epsilon)) +
                    offset[ch];
    }
  }
  // A residual "Add" (after BiasAdd) takes a tensor shaped like the output.
  const bool add = fusedOps.size() > 1 && fusedOps[1] == "Add";
  const size_t actIndex = add ? 2 : 1;
  std::string act = fusedOps.size() > actIndex ? fusedOps[actIndex] : "";
  Geometry g = geometry(c);
  if (add) {
    auto residual = patternValues(expected.size(), 3, 11);
    inputs.push_back(makeTensorFrom<float>({c.n, g.oh, g.ow, oc}, residual));
    ++numArgs;
    for (size_t i = 0; i < expected.size(); ++i)
      expected[i] += residual[i];
  }
  if (act == "Prelu") {
    inputs.push_back(makeTensorFrom<float>({oc}, alpha));
    ++numArgs;
  }
  for (size_t i = 0; i < expected.size(); ++i)
    expected[i] =
        applyAct(act, expected[i], act == "Prelu" ? alpha[i % oc] : 0.3);
  AttrMap attrs = convAttrs(c, DType::F32);
  std::vector<std::string> attrOps;
  for (const std::string &o : fusedOps)
    if (!o.empty())
      attrOps.push_back(o);
  attrs.set("fused_ops", attrOps);
  attrs.set("num_args", int64_t(numArgs));
  attrs.set("epsilon", epsilon);
  attrs.set("leakyrelu_alpha", 0.3f);
  auto out = runMaybeConstant(op, attrs, std::move(inputs), constantInputs,
                              DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  SCOPED_TRACE(op + " " + fusedOps[0] + " " + act);
  expectValues<float>(*out, {c.n, g.oh, g.ow, oc}, expected, 1e-5);
}

TEST(FusedConv, AllEpilogues) {
  const Cfg im2col{2, 5, 5, 3, 3, 3, 6, 1, 1, 1, 1, "SAME"};
  const Cfg pointwise{1, 4, 4, 5, 1, 1, 7};
  const Cfg dw{1, 5, 5, 20, 3, 3, 1, 2, 2, 1, 1, "SAME"};
  const Cfg dwWide{1, 4, 15, 20, 3, 3, 1, 1, 1, 1, 1, "SAME"};
  // Rows longer than one chunk of interior pixels: the epilogue runs on
  // each chunk (48 channels: the AVX-512 rows where the CPU has them; 28:
  // overlapping channel blocks).
  const Cfg dwLong{1, 3, 40, 48, 3, 3, 1, 1, 1, 1, 1, "SAME"};
  const Cfg dwLongOdd{1, 3, 40, 28, 3, 3, 1, 1, 1, 1, 1, "SAME"};
  // 24 channels at stride 2: no pixel groups; the AVX2 rows, also on an
  // AVX-512 CPU, where the epilogue fits their registers.
  const Cfg dwStride2{1, 5, 81, 24, 3, 3, 1, 2, 2, 1, 1, "SAME"};
  // A first layer (3 input channels): the direct convolution, with bias
  // and Relu/Relu6 in its registers and the rest after.
  const Cfg firstLayer{1, 5, 21, 3, 5, 5, 24, 2, 2, 1, 1, "SAME"};
  for (const char *first : {"BiasAdd", "FusedBatchNorm"})
    for (const char *act : {"", "Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid",
                            "Tanh", "Prelu"}) {
      std::vector<std::string> ops = {first};
      if (*act)
        ops.push_back(act);
      checkFused("_FusedConv2D", im2col, ops);
      checkFused("_FusedConv2D", firstLayer, ops);
      checkFused("_FusedConv2D", pointwise, ops);
      checkFused("_FusedDepthwiseConv2dNative", dw, ops);
      checkFused("FusedDepthwiseConv2dNative", dw, ops);
      checkFused("_FusedDepthwiseConv2dNative", dwWide, ops);
      checkFused("_FusedDepthwiseConv2dNative", dwLong, ops);
      checkFused("_FusedDepthwiseConv2dNative", dwLongOdd, ops);
      checkFused("_FusedDepthwiseConv2dNative", dwStride2, ops);
    }
  // TF.js emits an activation alone, too.
  checkFused("_FusedConv2D", im2col, {"", "Relu"});
}

TEST(FusedConv, ResidualAdd) {
  // The addend joins in the GEMM's registers (pointwise, im2col, and a k of
  // 300 that the GEMM takes in two chunks) and per pixel (depthwise).
  const Cfg im2col{2, 5, 5, 3, 3, 3, 6, 1, 1, 1, 1, "SAME"};
  const Cfg pointwise{1, 4, 4, 5, 1, 1, 7};
  const Cfg deep{1, 3, 5, 300, 1, 1, 70};
  const Cfg dw{1, 5, 5, 20, 3, 3, 1, 2, 2, 1, 1, "SAME"};
  const Cfg dwLong{1, 3, 40, 48, 3, 3, 1, 1, 1, 1, 1, "SAME"};
  for (const char *act : {"", "Relu", "Relu6", "Elu", "Sigmoid", "Prelu"}) {
    std::vector<std::string> ops = {"BiasAdd", "Add"};
    if (*act)
      ops.push_back(act);
    checkFused("_FusedConv2D", im2col, ops);
    checkFused("_FusedConv2D", pointwise, ops);
    checkFused("_FusedConv2D", deep, ops);
    checkFused("_FusedDepthwiseConv2dNative", dw, ops);
    checkFused("FusedDepthwiseConv2dNative", dw, ops);
    checkFused("_FusedDepthwiseConv2dNative", dwLong, ops);
  }
  // Constant filter and bias (packed once), the addend computed.
  checkFused("_FusedConv2D", deep, {"BiasAdd", "Add", "Relu"}, 0b110);
}

TEST(FusedConv, ConstantFilterAndArguments) {
  checkFused("_FusedConv2D", {1, 6, 6, 5, 3, 3, 19, 1, 1, 1, 1, "SAME"},
             {"BiasAdd", "Relu6"}, 0b110);
  checkFused("_FusedConv2D", {1, 6, 6, 5, 1, 1, 33}, {"FusedBatchNorm", "Elu"},
             0b111110);
  checkFused("_FusedConv2D", {2, 9, 9, 4, 1, 1, 40}, {"BiasAdd", "Prelu"},
             0b1110);
}

TEST(FusedConv, Errors) {
  auto run = [](const std::vector<std::string> &ops, int64_t numArgs,
                std::vector<Tensor> args) {
    AttrMap attrs{{"T", DType::F32},
                  {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                  {"padding", "VALID"},
                  {"fused_ops", ops},
                  {"num_args", numArgs}};
    std::vector<Tensor> inputs;
    inputs.push_back(makeTensorFrom<float>({1, 2, 2, 1}, {1, 2, 3, 4}));
    inputs.push_back(makeTensorFrom<float>({1, 1, 1, 2}, {1, 2}));
    for (Tensor &t : args)
      inputs.push_back(t);
    return runKernel("_FusedConv2D", attrs, inputs, DType::F32).status();
  };
  EXPECT_EQ(
      run({"BiasAdd", "Gelu"}, 1, {}).message(),
      opError("_FusedConv2D", "Fusion is not implemented: [BiasAdd,Gelu]"));
  EXPECT_EQ(run({}, 0, {}).message(),
            opError("_FusedConv2D", "Fusion is not implemented: []"));
  EXPECT_EQ(run({"BiasAdd"}, 2, {}).message(),
            opError("_FusedConv2D", "fused_ops [BiasAdd] need 1 extra "
                                    "arguments, num_args is 2"));
  EXPECT_EQ(run({"BiasAdd"}, 1, {}).message(),
            opError("_FusedConv2D", "expected 1 extra arguments, got 0"));
  EXPECT_EQ(
      run({"BiasAdd"}, 1, {makeTensorFrom<float>({3}, {1, 2, 3})}).message(),
      opError("_FusedConv2D", "bias must have 2 elements of the output "
                              "type, got shape [3]"));
  EXPECT_EQ(run({"BiasAdd", "Prelu"}, 2,
                {makeTensorFrom<float>({2}, {1, 2}),
                 makeTensorFrom<float>({3}, {1, 2, 3})})
                .message(),
            opError("_FusedConv2D", "prelu alpha must have 1 or 2 elements, "
                                    "got shape [3]"));
  // The residual Add's addend: another dtype, or a shape that does not
  // broadcast with the output [1, 2, 2, 2]. "Add" needs a BiasAdd first.
  EXPECT_EQ(run({"BiasAdd", "Add"}, 2,
                {makeTensorFrom<float>({2}, {1, 2}),
                 makeTensorFrom<int32_t>({2}, {1, 2})})
                .message(),
            opError("_FusedConv2D", "the fused Add's addend must be f32, got "
                                    "i32"));
  EXPECT_EQ(run({"BiasAdd", "Add"}, 2,
                {makeTensorFrom<float>({2}, {1, 2}),
                 makeTensorFrom<float>({3}, {1, 2, 3})})
                .message(),
            opError("_FusedConv2D", "Incompatible shapes: [1,2,2,2] vs. [3]"));
  EXPECT_EQ(run({"Add"}, 1, {makeTensorFrom<float>({2}, {1, 2})}).message(),
            opError("_FusedConv2D", "Fusion is not implemented: [Add]"));
  // A scalar prelu alpha broadcasts.
  auto ok = [&] {
    AttrMap attrs{{"T", DType::F32},
                  {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                  {"padding", "VALID"},
                  {"fused_ops", std::vector<std::string>{"BiasAdd", "Prelu"}},
                  {"num_args", int64_t(2)}};
    std::vector<Tensor> inputs;
    inputs.push_back(makeTensorFrom<float>({1, 1, 2, 1}, {1, -2}));
    inputs.push_back(makeTensorFrom<float>({1, 1, 1, 2}, {1, 2}));
    inputs.push_back(makeTensorFrom<float>({2}, {0, 0}));
    inputs.push_back(makeTensorFrom<float>({}, {0.5}));
    return runKernel("_FusedConv2D", attrs, inputs, DType::F32);
  }();
  ASSERT_TRUE(ok.ok()) << ok.status();
  expectValues<float>(*ok, {1, 1, 2, 2}, {1, 2, -1, -2});
}

//===----------------------------------------------------------------------===//
// DepthwiseConv2dNative
//===----------------------------------------------------------------------===//

TEST(DepthwiseConv2dNative, HandDerived) {
  // Two channels, 2x2 filter: channel 0 weights 1, channel 1 weights 10.
  std::vector<Tensor> inputs;
  inputs.push_back(
      makeTensorFrom<float>({1, 2, 2, 2}, {1, -1, 2, -2, 3, -3, 4, -4}));
  inputs.push_back(
      makeTensorFrom<float>({2, 2, 2, 1}, {1, 10, 1, 10, 1, 10, 1, 10}));
  AttrMap attrs{{"T", DType::F32},
                {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                {"padding", "VALID"}};
  auto out = runKernel("DepthwiseConv2dNative", attrs, inputs, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 1, 2}, {10, -100});
}

TEST(DepthwiseConv2dNative, AgainstReference) {
  const std::string op = "DepthwiseConv2dNative";
  checkConv<float>({2, 7, 6, 5, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<float>({1, 9, 9, 37, 3, 3, 1, 2, 2, 1, 1, "SAME"}, op);
  checkConv<float>({1, 7, 7, 3, 3, 3, 2, 1, 1, 1, 1, "SAME"}, op); // mult 2
  checkConv<float>({1, 9, 8, 4, 3, 2, 1, 1, 1, 2, 3, "SAME"}, op); // dilated
  checkConv<float>({1, 6, 6, 16, 3, 3, 1, 1, 2, 1, 1, "EXPLICIT", {0, 2, 1, 1}},
                   op);
  checkConv<float>({1, 5, 5, 3, 5, 5, 3}, op);
  checkConv<double>({1, 5, 6, 17, 3, 3, 1, 2, 1, 1, 1, "SAME"}, op);
  checkConv<float>({2, 5, 6, 3, 3, 3, 2, 2, 1, 1, 1, "SAME"}, op, true);
  checkConv<float>({0, 5, 6, 3, 3, 3, 2, 2, 1, 1, 1, "SAME"}, op);
  checkConv<float>({1, 5, 6, 0, 3, 3, 2, 2, 1, 1, 1, "SAME"}, op);
  // Rows wide enough for the interior pixels' groups of 4, with remainders,
  // channel blocks of 16, 8, 4 and 1, 5x5, strides, dilations, VALID.
  checkConv<float>({1, 12, 23, 53, 5, 5, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<float>({2, 10, 21, 24, 3, 3, 1, 2, 2, 1, 1, "SAME"}, op);
  checkConv<float>({1, 9, 17, 29, 3, 3, 1, 1, 1, 2, 2, "VALID"}, op);
  checkConv<float>({1, 8, 19, 8, 3, 3, 1, 1, 3, 1, 1, "VALID"}, op);
  checkConv<float>({1, 6, 30, 7, 1, 1, 1}, op);
  checkConv<double>({1, 7, 16, 19, 5, 5, 1, 1, 1, 1, 1, "SAME"}, op);
}

TEST(DepthwiseConv2dNative, LongRowsEveryChannelBlock) {
  // Rows of more interior pixels than one chunk (32), so that chunks,
  // pixel groups and leftover pixels all occur. Multiples of 16 channels
  // (the AVX-512 rows where the CPU has them: pairs of vectors, an odd last
  // vector); 16 + 8 channels (blazeface's 24) and blocks of 8 or 4 that
  // overlap the block before (28, 12, 6); fewer than 4 channels (3);
  // strided and 5x5.
  const std::string op = "DepthwiseConv2dNative";
  checkConv<float>({1, 4, 70, 48, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<float>({1, 3, 41, 32, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<float>({1, 3, 38, 144, 5, 5, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<float>({1, 5, 77, 64, 3, 3, 1, 2, 2, 1, 1, "SAME"}, op);
  checkConv<float>({2, 4, 45, 24, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<float>({1, 4, 45, 28, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<float>({1, 4, 40, 12, 3, 3, 1, 1, 1, 1, 1, "VALID"}, op);
  checkConv<float>({1, 4, 40, 6, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<float>({1, 4, 40, 3, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
  checkConv<double>({1, 3, 40, 28, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
}

TEST(DepthwiseConv2dNative, PixelGroups) {
  // Stride 1 with a channel count that is not a multiple of 16: on AVX-512
  // the interior pixels go in groups whose channels fill whole vectors
  // (24 and 40 channels: pairs; 20 and 28: fours; 42: eights; 1, 3 and 9:
  // sixteens), the pixels past the last group on the portable path. Rows
  // of one chunk and a remainder, of several chunks, dilated, 5x5, two
  // images; the same sums on every path (ctest runs this on the AVX2 and
  // portable paths too).
  const std::string op = "DepthwiseConv2dNative";
  for (int64_t c : {1, 3, 9, 20, 24, 28, 40, 42})
    for (int64_t w : {5, 19, 35, 83}) {
      SCOPED_TRACE(std::to_string(c) + " channels, " + std::to_string(w) +
                   " columns");
      checkConv<float>({1, 3, w, c, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op);
    }
  checkConv<float>({2, 5, 50, 24, 3, 3, 1, 2, 1, 1, 2, "SAME"}, op);
  checkConv<float>({1, 6, 61, 28, 5, 5, 1, 1, 1, 1, 1, "VALID"}, op);
  checkConv<float>({1, 4, 40, 24, 3, 3, 1, 1, 1, 1, 1, "SAME"}, op,
                   /*nchw=*/false, /*constantInputs=*/0b10);
}

TEST(DepthwiseConv2dNative, FusedActivationKeepsNaN) {
  // Relu(NaN) and Relu6(NaN) are NaN (TF's Eigen max and min), also where
  // the vector rows apply the epilogue in registers: 48 channels (AVX-512
  // rows), 24 (pixel pairs on AVX-512, AVX2 rows), 5 (the portable path).
  for (const char *act : {"Relu", "Relu6"})
    for (int64_t c : {48, 24, 5}) {
      SCOPED_TRACE(std::string(act) + ", " + std::to_string(c) + " channels");
      const int64_t w = 40;
      std::vector<double> in(w * c);
      for (int64_t i = 0; i < w * c; ++i)
        in[i] = (i % 7) - 3.0 + 4.0 * (i % 2);
      in[10 * c + 3] = std::nan("");
      std::vector<double> filter(c, 2.0), bias(c, 0.5), expected(w * c);
      for (int64_t i = 0; i < w * c; ++i)
        expected[i] = applyAct(act, in[i] * 2.0 + 0.5, 0);
      AttrMap attrs{{"T", DType::F32},
                    {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                    {"padding", "SAME"},
                    {"fused_ops", std::vector<std::string>{"BiasAdd", act}},
                    {"num_args", int64_t(1)}};
      std::vector<Tensor> inputs;
      inputs.push_back(makeTensorFrom<float>({1, 1, w, c}, in));
      inputs.push_back(makeTensorFrom<float>({1, 1, c, 1}, filter));
      inputs.push_back(makeTensorFrom<float>({c}, bias));
      auto out =
          runKernel("_FusedDepthwiseConv2dNative", attrs, inputs, DType::F32);
      ASSERT_TRUE(out.ok()) << out.status();
      const float *o = out->data<float>();
      for (int64_t i = 0; i < w * c; ++i) {
        if (i == 10 * c + 3)
          EXPECT_TRUE(std::isnan(o[i])) << o[i];
        else
          EXPECT_EQ(o[i], static_cast<float>(expected[i])) << "at " << i;
      }
    }
}

TEST(DepthwiseConv2dNative, Errors) {
  AttrMap attrs{{"T", DType::F32},
                {"strides", std::vector<int64_t>{1, 1, 1, 1}},
                {"padding", "VALID"}};
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensorFrom<float>({1, 2, 2, 2}, patternValues(8)));
  inputs.push_back(makeTensorFrom<float>({1, 1, 3, 1}, {1, 2, 3}));
  EXPECT_EQ(runKernel("DepthwiseConv2dNative", attrs, inputs, DType::F32)
                .status()
                .message(),
            opError("DepthwiseConv2dNative",
                    "input and filter must have the same depth: 2 vs 3"));
  inputs[1] = makeTensorFrom<float>({1, 3, 1}, {1, 2, 3});
  EXPECT_EQ(runKernel("DepthwiseConv2dNative", attrs, inputs, DType::F32)
                .status()
                .message(),
            opError("DepthwiseConv2dNative",
                    "filter must be 4-dimensional: [1,3,1]"));
}

//===----------------------------------------------------------------------===//
// Conv2DBackpropInput
//===----------------------------------------------------------------------===//

/// Reference: dx[pixel in window] += dy[o] * f[tap, ci, o].
template <typename T>
void checkBackprop(const Cfg &c, bool twoSizes = false, bool nchw = false) {
  Geometry g = geometry(c);
  auto dy = patternValues(c.n * g.oh * g.ow * c.outC, 4, 11);
  auto f = patternValues(c.kh * c.kw * c.c * c.outC, 4, 12);
  std::vector<double> dx(c.n * c.h * c.w * c.c, 0.0);
  for (int64_t b = 0; b < c.n; ++b)
    for (int64_t y = 0; y < g.oh; ++y)
      for (int64_t x = 0; x < g.ow; ++x)
        for (int64_t i = 0; i < c.kh; ++i)
          for (int64_t j = 0; j < c.kw; ++j) {
            int64_t iy = y * c.sh - g.padT + i * c.dh;
            int64_t ix = x * c.sw - g.padL + j * c.dw;
            if (iy < 0 || iy >= c.h || ix < 0 || ix >= c.w)
              continue;
            for (int64_t ci = 0; ci < c.c; ++ci)
              for (int64_t o = 0; o < c.outC; ++o)
                dx[((b * c.h + iy) * c.w + ix) * c.c + ci] +=
                    dy[((b * g.oh + y) * g.ow + x) * c.outC + o] *
                    f[((i * c.kw + j) * c.c + ci) * c.outC + o];
          }
  std::vector<Tensor> inputs;
  if (twoSizes)
    inputs.push_back(makeTensor<int32_t>({2}, {int32_t(c.h), int32_t(c.w)}));
  else if (nchw)
    inputs.push_back(makeTensor<int64_t>({4}, {c.n, c.c, c.h, c.w}));
  else
    inputs.push_back(makeTensor<int32_t>(
        {4}, {int32_t(c.n), int32_t(c.h), int32_t(c.w), int32_t(c.c)}));
  inputs.push_back(makeTensorFrom<T>({c.kh, c.kw, c.c, c.outC}, f));
  if (nchw)
    inputs.push_back(makeTensorFrom<T>({c.n, c.outC, g.oh, g.ow},
                                       toNchw(dy, c.n, g.oh, g.ow, c.outC)));
  else
    inputs.push_back(makeTensorFrom<T>({c.n, g.oh, g.ow, c.outC}, dy));
  auto out = runKernel("Conv2DBackpropInput", convAttrs(c, dtypeOf<T>(), nchw),
                       std::move(inputs), dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  if (nchw)
    expectValues<T>(*out, {c.n, c.c, c.h, c.w}, toNchw(dx, c.n, c.h, c.w, c.c),
                    1e-5);
  else
    expectValues<T>(*out, {c.n, c.h, c.w, c.c}, dx, 1e-5);
}

TEST(Conv2DBackpropInput, AgainstReference) {
  checkBackprop<float>({1, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, "SAME"});
  checkBackprop<float>({2, 5, 6, 2, 3, 3, 4});
  checkBackprop<float>({1, 7, 7, 2, 4, 4, 3, 2, 2, 1, 1, "SAME"}, true);
  checkBackprop<float>({1, 8, 8, 2, 3, 3, 3, 1, 1, 2, 2, "SAME"});
  checkBackprop<float>(
      {1, 6, 6, 2, 3, 3, 3, 2, 1, 1, 1, "EXPLICIT", {1, 0, 2, 1}});
  checkBackprop<double>({1, 5, 5, 3, 2, 2, 2, 2, 2, 1, 1, "VALID"});
  checkBackprop<float>({1, 5, 5, 3, 2, 2, 2, 2, 2, 1, 1, "SAME"}, false, true);
  checkBackprop<float>({0, 5, 5, 3, 2, 2, 2, 2, 2, 1, 1, "SAME"});
}

// At most 8 filter columns (kh * kw * in_depth) take the dot-product path:
// a one-channel mask upsampled 2x (selfie's last layer, whose windows tile
// the input: written in place), two channels tiled in two batches,
// overlapping taps with an out_depth that is no multiple of 8, batches with
// dilation, f64 with windows past the input.
TEST(Conv2DBackpropInput, NarrowFilters) {
  checkBackprop<float>({1, 8, 8, 1, 2, 2, 16, 2, 2, 1, 1, "SAME"});
  checkBackprop<float>({2, 6, 8, 2, 2, 2, 3, 2, 2, 1, 1, "VALID"});
  checkBackprop<float>({1, 6, 7, 2, 2, 2, 5, 1, 1, 1, 1, "SAME"});
  checkBackprop<float>({2, 9, 8, 1, 3, 2, 3, 2, 1, 2, 1, "VALID"});
  checkBackprop<double>({1, 5, 5, 1, 2, 2, 7, 2, 2, 1, 1, "SAME"});
}

TEST(Conv2DBackpropInput, HandDerived) {
  // Transposed 1x1 stride-2 conv of a 2x2 input into 3x3 (VALID): the
  // values land on the even positions, scaled by the filter (2).
  std::vector<Tensor> inputs;
  inputs.push_back(makeTensor<int32_t>({4}, {1, 3, 3, 1}));
  inputs.push_back(makeTensorFrom<float>({1, 1, 1, 1}, {2}));
  inputs.push_back(makeTensorFrom<float>({1, 2, 2, 1}, {1, 2, 3, 4}));
  AttrMap attrs{{"T", DType::F32},
                {"strides", std::vector<int64_t>{1, 2, 2, 1}},
                {"padding", "VALID"}};
  auto out = runKernel("Conv2DBackpropInput", attrs, inputs, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 3, 3, 1}, {2, 0, 4, 0, 0, 0, 6, 0, 8});
  // Errors.
  inputs[2] = makeTensorFrom<float>({1, 3, 3, 1}, patternValues(9));
  EXPECT_EQ(runKernel("Conv2DBackpropInput", attrs, inputs, DType::F32)
                .status()
                .message(),
            opError("Conv2DBackpropInput",
                    "Conv2DCustomBackpropInput: Size of out_backprop doesn't "
                    "match computed: out_backprop [1,3,3,1], expected [1,2,2] "
                    "(batch, rows, cols)"));
  inputs[0] = makeTensor<int32_t>({3}, {1, 3, 3});
  EXPECT_EQ(runKernel("Conv2DBackpropInput", attrs, inputs, DType::F32)
                .status()
                .message(),
            opError("Conv2DBackpropInput",
                    "input_sizes must be a 1-D int32/int64 tensor of 4 or 2 "
                    "elements, got [3]"));
  inputs[0] = makeTensor<int32_t>({4}, {1, 3, -3, 1});
  EXPECT_EQ(runKernel("Conv2DBackpropInput", attrs, inputs, DType::F32)
                .status()
                .message(),
            opError("Conv2DBackpropInput",
                    "input_sizes must be nonnegative, got -3"));
  inputs[0] = makeTensor<int32_t>({4}, {1, 3, 3, 2});
  EXPECT_EQ(runKernel("Conv2DBackpropInput", attrs, inputs, DType::F32)
                .status()
                .message(),
            opError("Conv2DBackpropInput",
                    "input and filter must have the same depth: 2 vs 1"));
}

} // namespace

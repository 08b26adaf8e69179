//===- Conv3DKernelsTest.cpp - Conv3D and transposed convolutions -*- C++ -*-//
//
// Conv3D, Conv3DBackpropInput(V2) and DepthwiseConv2dNativeBackpropInput
// against naive reference loops written from the definitions (strides,
// SAME and VALID padding), and TF's CPU limits.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

struct Geometry {
  Dims in, filter; // [n, d, h, w, c], [kd, kh, kw, c, o]
  Dims strides;    // 3 spatial
  bool same;
  Dims out, pad; // spatial out sizes, pad before
};

Geometry geometry(Dims in, Dims filter, Dims strides, bool same) {
  Geometry g{in, filter, strides, same, {}, {}};
  for (int i = 0; i < 3; ++i) {
    const int64_t n = in[1 + i], k = filter[i], s = strides[i];
    const int64_t out = same ? (n + s - 1) / s : (n - k + s) / s;
    const int64_t needed = std::max<int64_t>(0, (out - 1) * s + k - n);
    g.out.push_back(out);
    g.pad.push_back(same ? needed / 2 : 0);
  }
  return g;
}

/// y[b, z, y, x, o] = sum x[b, z*s - p + i, ...] * w[i, j, k, c, o].
std::vector<double> naiveConv3D(const Geometry &g, const std::vector<double> &x,
                                const std::vector<double> &w) {
  const int64_t n = g.in[0], c = g.in[4], o = g.filter[4];
  std::vector<double> y(n * g.out[0] * g.out[1] * g.out[2] * o, 0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oz = 0; oz < g.out[0]; ++oz)
      for (int64_t oy = 0; oy < g.out[1]; ++oy)
        for (int64_t ox = 0; ox < g.out[2]; ++ox)
          for (int64_t i = 0; i < g.filter[0]; ++i)
            for (int64_t j = 0; j < g.filter[1]; ++j)
              for (int64_t k = 0; k < g.filter[2]; ++k) {
                const int64_t z = oz * g.strides[0] - g.pad[0] + i;
                const int64_t yy = oy * g.strides[1] - g.pad[1] + j;
                const int64_t xx = ox * g.strides[2] - g.pad[2] + k;
                if (z < 0 || z >= g.in[1] || yy < 0 || yy >= g.in[2] ||
                    xx < 0 || xx >= g.in[3])
                  continue;
                for (int64_t ci = 0; ci < c; ++ci)
                  for (int64_t co = 0; co < o; ++co)
                    y[(((b * g.out[0] + oz) * g.out[1] + oy) * g.out[2] + ox) *
                          o +
                      co] +=
                        x[(((b * g.in[1] + z) * g.in[2] + yy) * g.in[3] + xx) *
                              c +
                          ci] *
                        w[(((i * g.filter[1] + j) * g.filter[2] + k) * c + ci) *
                              o +
                          co];
              }
  return y;
}

/// The transposed convolution: dx = sum over outputs of dy * w scattered.
std::vector<double> naiveConv3DInputGrad(const Geometry &g,
                                         const std::vector<double> &dy,
                                         const std::vector<double> &w) {
  const int64_t n = g.in[0], c = g.in[4], o = g.filter[4];
  std::vector<double> dx(product(g.in), 0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oz = 0; oz < g.out[0]; ++oz)
      for (int64_t oy = 0; oy < g.out[1]; ++oy)
        for (int64_t ox = 0; ox < g.out[2]; ++ox)
          for (int64_t i = 0; i < g.filter[0]; ++i)
            for (int64_t j = 0; j < g.filter[1]; ++j)
              for (int64_t k = 0; k < g.filter[2]; ++k) {
                const int64_t z = oz * g.strides[0] - g.pad[0] + i;
                const int64_t yy = oy * g.strides[1] - g.pad[1] + j;
                const int64_t xx = ox * g.strides[2] - g.pad[2] + k;
                if (z < 0 || z >= g.in[1] || yy < 0 || yy >= g.in[2] ||
                    xx < 0 || xx >= g.in[3])
                  continue;
                for (int64_t ci = 0; ci < c; ++ci)
                  for (int64_t co = 0; co < o; ++co)
                    dx[(((b * g.in[1] + z) * g.in[2] + yy) * g.in[3] + xx) * c +
                       ci] +=
                        dy[(((b * g.out[0] + oz) * g.out[1] + oy) * g.out[2] +
                            ox) *
                               o +
                           co] *
                        w[(((i * g.filter[1] + j) * g.filter[2] + k) * c + ci) *
                              o +
                          co];
              }
  return dx;
}

AttrMap conv3DAttrs(DType t, Dims strides, bool same) {
  return {{"T", t},
          {"strides",
           std::vector<int64_t>{1, strides[0], strides[1], strides[2], 1}},
          {"padding", std::string(same ? "SAME" : "VALID")}};
}

TEST(Conv3D, MatchesNaiveLoop) {
  for (bool same : {false, true}) {
    for (Dims strides : {Dims{1, 1, 1}, Dims{2, 1, 2}}) {
      const Geometry g =
          geometry({2, 4, 5, 3, 2}, {2, 3, 2, 2, 3}, strides, same);
      const auto x = patternValues(product(g.in), 4, 1);
      const auto w = patternValues(product(g.filter), 4, 2);
      auto out = runKernel("Conv3D", conv3DAttrs(DType::F32, strides, same),
                           {makeTensorFrom<float>(shapeOf(g.in), x),
                            makeTensorFrom<float>(shapeOf(g.filter), w)},
                           DType::F32);
      ASSERT_TRUE(out.ok()) << out.status();
      expectValues<float>(
          *out, shapeOf({g.in[0], g.out[0], g.out[1], g.out[2], g.filter[4]}),
          naiveConv3D(g, x, w), 1e-5);
    }
  }
}

TEST(Conv3DBackpropInput, MatchesNaiveLoop) {
  for (bool same : {false, true}) {
    const Dims strides = {2, 1, 2};
    const Geometry g =
        geometry({1, 5, 4, 5, 2}, {3, 2, 3, 2, 3}, strides, same);
    const Dims outDims = {1, g.out[0], g.out[1], g.out[2], 3};
    const auto dy = patternValues(product(outDims), 4, 3);
    const auto w = patternValues(product(g.filter), 4, 4);
    auto out = runKernel("Conv3DBackpropInputV2",
                         conv3DAttrs(DType::F64, strides, same),
                         {i32({5}, {1, 5, 4, 5, 2}),
                          makeTensorFrom<double>(shapeOf(g.filter), w),
                          makeTensorFrom<double>(shapeOf(outDims), dy)},
                         DType::F64);
    ASSERT_TRUE(out.ok()) << out.status();
    expectValues<double>(*out, shapeOf(g.in), naiveConv3DInputGrad(g, dy, w));
    // V1 takes the shape from an input tensor.
    auto v1 =
        runKernel("Conv3DBackpropInput", conv3DAttrs(DType::F64, strides, same),
                  {makeTensorFrom<double>(
                       shapeOf(g.in), std::vector<double>(product(g.in), 0)),
                   makeTensorFrom<double>(shapeOf(g.filter), w),
                   makeTensorFrom<double>(shapeOf(outDims), dy)},
                  DType::F64);
    ASSERT_TRUE(v1.ok()) << v1.status();
    expectValues<double>(*v1, shapeOf(g.in), naiveConv3DInputGrad(g, dy, w));
  }
}

TEST(Conv3D, CpuLimits) {
  AttrMap attrs = conv3DAttrs(DType::F32, {1, 1, 1}, false);
  attrs.set("dilations", std::vector<int64_t>{1, 2, 1, 1, 1});
  auto out =
      runKernel("Conv3D", attrs, {iota({1, 3, 3, 3, 1}), iota({1, 1, 1, 1, 1})},
                DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Conv3D", "Current CPU implementation does not yet "
                              "support dilation rates larger than 1."));
  out = runKernel("Conv3D", conv3DAttrs(DType::F32, {1, 1, 1}, false),
                  {iota({1, 3, 3, 3, 2}), iota({1, 1, 1, 1, 1})}, DType::F32);
  EXPECT_EQ(out.status().message(),
            opError("Conv3D", "Number of channels in filter (1) must match "
                              "last dimension of input (2)"));
}

TEST(DepthwiseConv2dNativeBackpropInput, MatchesNaiveLoop) {
  // input [2, 5, 4, 2], filter [3, 2, 2, 2] (multiplier 2), stride 2, SAME.
  const int64_t n = 2, h = 5, w = 4, c = 2, kh = 3, kw = 2, m = 2, s = 2;
  const int64_t oh = (h + s - 1) / s, ow = (w + s - 1) / s;
  const int64_t padT = std::max<int64_t>(0, (oh - 1) * s + kh - h) / 2;
  const int64_t padL = std::max<int64_t>(0, (ow - 1) * s + kw - w) / 2;
  const auto dy = patternValues(n * oh * ow * c * m, 4, 5);
  const auto f = patternValues(kh * kw * c * m, 4, 6);
  std::vector<double> dx(n * h * w * c, 0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t x = 0; x < ow; ++x)
        for (int64_t i = 0; i < kh; ++i)
          for (int64_t j = 0; j < kw; ++j) {
            const int64_t yy = y * s - padT + i, xx = x * s - padL + j;
            if (yy < 0 || yy >= h || xx < 0 || xx >= w)
              continue;
            for (int64_t ch = 0; ch < c; ++ch)
              for (int64_t k = 0; k < m; ++k)
                dx[((b * h + yy) * w + xx) * c + ch] +=
                    dy[((b * oh + y) * ow + x) * c * m + ch * m + k] *
                    f[((i * kw + j) * c + ch) * m + k];
          }
  auto out = runKernel("DepthwiseConv2dNativeBackpropInput",
                       AttrMap{{"T", DType::F32},
                               {"strides", std::vector<int64_t>{1, s, s, 1}},
                               {"padding", std::string("SAME")}},
                       {i32({4}, {2, 5, 4, 2}),
                        makeTensorFrom<float>({kh, kw, c, m}, f),
                        makeTensorFrom<float>({n, oh, ow, c * m}, dy)},
                       DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {n, h, w, c}, dx, 1e-5);
}

} // namespace

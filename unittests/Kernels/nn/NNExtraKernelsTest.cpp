//===- NNExtraKernelsTest.cpp - Prelu, batch norms, LRN, ... ----*- C++ -*-===//
//
// Prelu, LogSoftmax, FusedBatchNorm / V2 / V3,
// BatchNormWithGlobalNormalization, Softsign and LRN against hand-derived
// values and reference loops written here, plus their errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <algorithm>
#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

TEST(Prelu, Broadcasts) {
  // Per-channel alpha [3] over [2, 3].
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<float>({2, 3}, {-1, 2, -3, 4, -5, 0}));
  in.push_back(makeTensorFrom<float>({3}, {0.5, 2, 0.1}));
  auto out = runKernel("Prelu", {{"T", DType::F32}}, in, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {-0.5, 2, -0.3, 4, -10, 0});
  // Scalar alpha.
  in[1] = makeTensorFrom<float>({}, {0.25});
  out = runKernel("Prelu", {{"T", DType::F32}}, in, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2, 3}, {-0.25, 2, -0.75, 4, -1.25, 0});
  // General broadcast: alpha [2, 1] over [2, 3] (per row).
  in[1] = makeTensorFrom<float>({2, 1}, {0.5, 3});
  auto d = runKernel("Prelu", {{"T", DType::F32}}, in, DType::F32);
  ASSERT_TRUE(d.ok()) << d.status();
  expectValues<float>(*d, {2, 3}, {-0.5, 2, -1.5, 4, -15, 0});
  // [1, 1, 3] alpha over NHWC, double.
  std::vector<Tensor> in4;
  in4.push_back(makeTensorFrom<double>({1, 2, 1, 3}, {-1, 1, -1, -2, 2, -2}));
  in4.push_back(makeTensorFrom<double>({1, 1, 3}, {1, 2, 3}));
  auto o4 = runKernel("Prelu", {{"T", DType::F64}}, in4, DType::F64);
  ASSERT_TRUE(o4.ok()) << o4.status();
  expectValues<double>(*o4, {1, 2, 1, 3}, {-1, 1, -3, -2, 2, -6});
  // Empty.
  in[0] = makeTensorFrom<float>({0, 3}, {});
  in[1] = makeTensorFrom<float>({3}, {1, 2, 3});
  out = runKernel("Prelu", {{"T", DType::F32}}, in, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 3}));
  // Error.
  in[0] = makeTensorFrom<float>({2, 3}, patternValues(6));
  in[1] = makeTensorFrom<float>({2}, {1, 2});
  EXPECT_EQ(runKernel("Prelu", {{"T", DType::F32}}, in, DType::F32)
                .status()
                .message(),
            opError("Prelu", "alpha of shape [2] does not broadcast to x of "
                             "shape [2,3]"));
}

template <typename T> void checkLogSoftmax() {
  auto v = patternValues(12, 4, 5);
  for (double &x : v)
    x = toDouble(static_cast<T>(x));
  std::vector<double> expected(12);
  for (int r = 0; r < 3; ++r) {
    double mx = *std::max_element(v.begin() + 4 * r, v.begin() + 4 * r + 4);
    double sum = 0;
    for (int i = 0; i < 4; ++i)
      sum += std::exp(v[4 * r + i] - mx);
    for (int i = 0; i < 4; ++i)
      expected[4 * r + i] = v[4 * r + i] - mx - std::log(sum);
  }
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<T>({3, 4}, v));
  auto out = runKernel("LogSoftmax", {{"T", dtypeOf<T>()}}, in, dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, {3, 4}, expected, 4 * tolerance<T>());
}

TEST(LogSoftmax, AgainstReference) {
  checkLogSoftmax<float>();
  checkLogSoftmax<double>();
  checkLogSoftmax<Eigen::half>();
  checkLogSoftmax<Eigen::bfloat16>();
  // Hand-derived: two equal logits -> log(1/2).
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<float>({2}, {3, 3}));
  auto out = runKernel("LogSoftmax", {{"T", DType::F32}}, in, DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {2}, {std::log(0.5), std::log(0.5)});
  in[0] = makeTensorFrom<float>({}, {1});
  EXPECT_EQ(runKernel("LogSoftmax", {{"T", DType::F32}}, in, DType::F32)
                .status()
                .message(),
            opError("LogSoftmax", "logits must have >= 1 dimension, got []"));
}

/// FusedBatchNorm reference over NHWC x [n*h*w, c].
template <typename T>
void checkBatchNorm(const std::string &op, bool training, bool nchw) {
  const int64_t n = 2, h = 2, w = 3, c = 3;
  auto x = patternValues(n * h * w * c, 4, 7);
  std::vector<double> scale = {1, 0.5, 2}, offset = {0, 1, -1},
                      mean = {0.5, -1, 0}, var = {1, 4, 0.25};
  const double eps = 0.001;
  std::vector<double> bm(c, 0), bv(c, 0);
  if (training) {
    for (size_t i = 0; i < x.size(); ++i)
      bm[i % c] += x[i] / (n * h * w);
    for (size_t i = 0; i < x.size(); ++i)
      bv[i % c] += (x[i] - bm[i % c]) * (x[i] - bm[i % c]) / (n * h * w);
  }
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t ch = i % c;
    double m = training ? bm[ch] : mean[ch], v = training ? bv[ch] : var[ch];
    y[i] = (x[i] - m) * scale[ch] / std::sqrt(v + eps) + offset[ch];
  }
  std::vector<Tensor> in;
  if (nchw) {
    std::vector<double> xt(x.size()), yt(x.size());
    for (int64_t b = 0; b < n; ++b)
      for (int64_t p = 0; p < h * w; ++p)
        for (int64_t ch = 0; ch < c; ++ch) {
          xt[(b * c + ch) * h * w + p] = x[(b * h * w + p) * c + ch];
          yt[(b * c + ch) * h * w + p] = y[(b * h * w + p) * c + ch];
        }
    in.push_back(makeTensorFrom<T>({n, c, h, w}, xt));
    y = yt;
  } else {
    in.push_back(makeTensorFrom<T>({n, h, w, c}, x));
  }
  using U = std::conditional_t<std::is_same_v<T, double>, double, float>;
  for (auto *p : {&scale, &offset, &mean, &var})
    in.push_back(makeTensorFrom<U>({c}, *p));
  AttrMap attrs{
      {"T", dtypeOf<T>()}, {"epsilon", float(eps)}, {"is_training", training}};
  if (op != "FusedBatchNorm")
    attrs.set("U", DType::F32);
  if (nchw)
    attrs.set("data_format", "NCHW");
  auto out = runKernel(op, attrs, in, dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  SCOPED_TRACE(op);
  expectValues<T>(*out,
                  nchw ? TensorShape{n, c, h, w} : TensorShape{n, h, w, c}, y,
                  std::max(1e-5, 4 * tolerance<T>()));
}

TEST(FusedBatchNorm, InferenceAndTraining) {
  for (const char *op :
       {"FusedBatchNorm", "FusedBatchNormV2", "FusedBatchNormV3"})
    for (bool training : {false, true})
      for (bool nchw : {false, true})
        checkBatchNorm<float>(op, training, nchw);
  checkBatchNorm<double>("FusedBatchNorm", false, false);
  checkBatchNorm<Eigen::half>("FusedBatchNormV3", false, false);
  checkBatchNorm<Eigen::bfloat16>("FusedBatchNormV3", false, true);
}

TEST(FusedBatchNorm, AllOutputs) {
  // Run through a 6-output context and check the statistics outputs.
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<float>({1, 1, 2, 2}, {1, 2, 3, 6}));
  in.push_back(makeTensorFrom<float>({2}, {1, 1}));
  in.push_back(makeTensorFrom<float>({2}, {0, 0}));
  in.push_back(makeTensorFrom<float>({0}, {}));
  in.push_back(makeTensorFrom<float>({0}, {}));
  AttrMap attrs{{"T", DType::F32}, {"epsilon", 0.0f}, {"is_training", true}};
  auto out = runKernelN("FusedBatchNormV3", attrs, std::move(in),
                        std::vector<DType>(6, DType::F32));
  ASSERT_TRUE(out.ok()) << out.status();
  // Channel 0: {1, 3} mean 2 var 1; channel 1: {2, 6} mean 4 var 4.
  expectValues<float>((*out)[0], {1, 1, 2, 2}, {-1, -1, 1, 1});
  expectValues<float>((*out)[1], {2}, {2, 4});
  expectValues<float>((*out)[2], {2}, {2, 8}); // unbiased
  expectValues<float>((*out)[3], {2}, {2, 4});
  expectValues<float>((*out)[4], {2}, {1, 4});
  EXPECT_EQ((*out)[5].shape(), TensorShape({0}));
}

TEST(FusedBatchNorm, Errors) {
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<float>({2, 2, 3}, patternValues(12)));
  for (int i = 0; i < 4; ++i)
    in.push_back(makeTensorFrom<float>({3}, {1, 1, 1}));
  AttrMap attrs{{"T", DType::F32}, {"is_training", false}};
  EXPECT_EQ(
      runKernel("FusedBatchNormV3", attrs, in, DType::F32).status().message(),
      opError("FusedBatchNormV3", "input must be 4-dimensional: [2,2,3]"));
  in[0] = makeTensorFrom<float>({1, 2, 2, 3}, patternValues(12));
  in[3] = makeTensorFrom<float>({2}, {1, 1});
  EXPECT_EQ(
      runKernel("FusedBatchNormV3", attrs, in, DType::F32).status().message(),
      opError("FusedBatchNormV3",
              "mean must be a 1-D tensor of 3 elements, got [2]"));
  attrs.set("data_format", "NCDHW");
  EXPECT_EQ(
      runKernel("FusedBatchNormV3", attrs, in, DType::F32).status().message(),
      opError("FusedBatchNormV3", "Invalid data format 'NCDHW'"));
}

//===----------------------------------------------------------------------===//
// Softsign, LRN, BatchNormWithGlobalNormalization
//===----------------------------------------------------------------------===//

template <typename T> void checkSoftsign() {
  auto out =
      runKernel("Softsign", {{"T", dtypeOf<T>()}},
                {makeTensorFrom<T>({5}, {-3, -1, 0, 1, 3})}, dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<T>(*out, {5}, {-0.75, -0.5, 0, 0.5, 0.75});
}

TEST(Softsign, Values) {
  checkSoftsign<float>();
  checkSoftsign<double>();
  checkSoftsign<half>();
  checkSoftsign<bf16>();
  auto inf = runKernel("Softsign", {{"T", DType::F32}},
                       {f32({2}, {-INFINITY, NAN})}, DType::F32);
  ASSERT_TRUE(inf.ok()) << inf.status();
  // inf / inf is NaN, as TF's expression.
  EXPECT_TRUE(std::isnan(inf->data<float>()[0]));
  EXPECT_TRUE(std::isnan(inf->data<float>()[1]));
}

StatusOr<Tensor> runLrn(const Dims &dims, const std::vector<double> &x,
                        int64_t radius, float bias, float alpha, float beta,
                        DType t = DType::F32) {
  AttrMap attrs{{"T", t},
                {"depth_radius", radius},
                {"bias", bias},
                {"alpha", alpha},
                {"beta", beta}};
  return runKernel("LRN", attrs,
                   {t == DType::F32 ? makeTensorFrom<float>(shapeOf(dims), x)
                                    : makeTensorFrom<half>(shapeOf(dims), x)},
                   t);
}

TEST(LRN, ByHand) {
  // Squares 1, 4, 9; radius 1 sums 5, 14, 13; beta 1 divides by 1 + sum.
  auto out = runLrn({1, 1, 1, 3}, {1, 2, 3}, 1, 1, 1, 1);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, {1, 1, 1, 3}, {1.0 / 6, 2.0 / 15, 3.0 / 14});
  // The TF defaults (radius 5, bias 1, alpha 1, beta 0.5): every sum is 14.
  out = runKernel("LRN", {{"T", DType::F32}}, {f32({1, 1, 1, 3}, {1, 2, 3})},
                  DType::F32);
  ASSERT_TRUE(out.ok()) << out.status();
  const double r = 1 / std::sqrt(15.0);
  expectValues<float>(*out, {1, 1, 1, 3}, {r, 2 * r, 3 * r});
  out = runLrn({1, 1, 1, 3}, {1, 2, 3}, 1, 1, 1, 0.75, DType::F16);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<half>(*out, {1, 1, 1, 3},
                     {std::pow(6.0, -0.75), 2 * std::pow(15.0, -0.75),
                      3 * std::pow(14.0, -0.75)});
}

TEST(LRN, MatchesReference) {
  const Dims dims = {2, 2, 3, 7};
  const std::vector<double> x = patternValues(product(dims), 2, 4);
  const int64_t radius = 2;
  const double bias = 2, alpha = 0.1, beta = 0.75;
  std::vector<double> expected;
  for (int64_t i = 0; i < product(dims); ++i) {
    const int64_t c = i % 7, row = i - c;
    double sum = 0;
    for (int64_t k = std::max<int64_t>(0, c - radius);
         k <= std::min<int64_t>(6, c + radius); ++k)
      sum += x[row + k] * x[row + k];
    expected.push_back(x[i] * std::pow(bias + alpha * sum, -beta));
  }
  auto out = runLrn(dims, x, radius, bias, alpha, beta);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<float>(*out, shapeOf(dims), expected, 1e-5);
}

TEST(LRN, Errors) {
  auto out = runLrn({1, 3}, {1, 2, 3}, 1, 1, 1, 1);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().message(), opError("LRN", "in must be 4-dimensional"));
  out = runLrn({1, 1, 1, 3}, {1, 2, 3}, -1, 1, 1, 1);
  ASSERT_FALSE(out.ok());
  EXPECT_NE(
      out.status().message().find("depth_radius = -1 larger than int max"),
      std::string::npos)
      << out.status().message();
  out = runLrn({0, 1, 1, 3}, {}, 1, 1, 1, 1);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->shape(), TensorShape({0, 1, 1, 3}));
}

template <typename T> void checkGlobalNormalization() {
  // factor = rsqrt(v + 1) = [0.5, 0.25], times gamma [2, 4] = [1, 1].
  for (bool scale : {true, false}) {
    AttrMap attrs{{"T", dtypeOf<T>()},
                  {"variance_epsilon", 1.0f},
                  {"scale_after_normalization", scale}};
    auto out = runKernel(
        "BatchNormWithGlobalNormalization", attrs,
        {makeTensorFrom<T>({1, 1, 2, 2}, {1, 2, 3, 4}),
         makeTensorFrom<T>({2}, {1, 2}), makeTensorFrom<T>({2}, {3, 15}),
         makeTensorFrom<T>({2}, {10, 20}), makeTensorFrom<T>({2}, {2, 4})},
        dtypeOf<T>());
    ASSERT_TRUE(out.ok()) << out.status();
    if (scale)
      expectValues<T>(*out, {1, 1, 2, 2}, {10, 20, 12, 22});
    else
      expectValues<T>(*out, {1, 1, 2, 2}, {10, 20, 11, 20.5});
  }
}

TEST(BatchNormWithGlobalNormalization, Values) {
  checkGlobalNormalization<float>();
  checkGlobalNormalization<double>();
  checkGlobalNormalization<half>();
}

TEST(BatchNormWithGlobalNormalization, Errors) {
  AttrMap attrs{{"T", DType::F32},
                {"variance_epsilon", 0.001f},
                {"scale_after_normalization", true}};
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<float>({1, 2, 2}, patternValues(4)));
  for (int i = 0; i < 4; ++i)
    in.push_back(makeTensorFrom<float>({2}, {1, 1}));
  const std::string op = "BatchNormWithGlobalNormalization";
  EXPECT_EQ(runKernel(op, attrs, in, DType::F32).status().message(),
            opError(op, "input must be 4-dimensional[1,2,2]"));
  in[0] = makeTensorFrom<float>({1, 1, 2, 2}, patternValues(4));
  in[1] = makeTensorFrom<float>({1, 2}, {1, 1});
  EXPECT_EQ(runKernel(op, attrs, in, DType::F32).status().message(),
            opError(op, "mean must be 1-dimensional[1,2]"));
  in[1] = makeTensorFrom<float>({3}, {1, 1, 1});
  EXPECT_EQ(runKernel(op, attrs, in, DType::F32).status().message(),
            opError(op, "mean must have 2 elements, got [3]"));
}

} // namespace

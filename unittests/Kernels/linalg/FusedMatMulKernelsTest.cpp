//===- FusedMatMulKernelsTest.cpp - _FusedMatMul, BatchMatMul ----*- C++
//-*-===//
//
// _FusedMatMul with every epilogue and BatchMatMul / V2 / V3 (adjoints,
// batch broadcasting) against naive loops written here, plus errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

double act(const std::string &a, double x, double alpha) {
  if (a == "Relu")
    return std::max(x, 0.0);
  if (a == "Relu6")
    return std::min(std::max(x, 0.0), 6.0);
  if (a == "Elu")
    return x < 0 ? std::exp(x) - 1 : x;
  if (a == "LeakyRelu" || a == "Prelu")
    return x > 0 ? x : alpha * x;
  if (a == "Sigmoid")
    return 1 / (1 + std::exp(-x));
  if (a == "Tanh")
    return std::tanh(x);
  return x;
}

template <typename T>
void checkFusedMatMul(int64_t m, int64_t k, int64_t n, bool ta, bool tb,
                      const std::string &first, const std::string &a,
                      uint64_t constantInputs = 0) {
  auto av = patternValues(m * k, 2, 1), bv = patternValues(k * n, 2, 2);
  auto bias = patternValues(n, 2, 3), alpha = patternValues(n, 1, 4);
  std::vector<double> scale(n, 0.5), offset = patternValues(n, 1, 5),
                                     mean = patternValues(n, 1, 6), var(n, 2.0);
  std::vector<double> expected(m * n, 0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += (ta ? av[p * m + i] : av[i * k + p]) *
             (tb ? bv[j * k + p] : bv[p * n + j]);
      if (first == "BiasAdd")
        s += bias[j];
      else
        s = (s - mean[j]) * scale[j] / std::sqrt(var[j] + 0.01) + offset[j];
      expected[i * n + j] = act(a, s, a == "Prelu" ? alpha[j] : 0.1);
    }
  std::vector<Tensor> in;
  in.push_back(
      makeTensorFrom<T>(ta ? TensorShape{k, m} : TensorShape{m, k}, av));
  in.push_back(
      makeTensorFrom<T>(tb ? TensorShape{n, k} : TensorShape{k, n}, bv));
  std::vector<std::string> ops = {first};
  if (first == "BiasAdd") {
    in.push_back(makeTensorFrom<T>({n}, bias));
  } else {
    for (auto *p : {&scale, &offset, &mean, &var})
      in.push_back(makeTensorFrom<T>({n}, *p));
  }
  if (!a.empty())
    ops.push_back(a);
  if (a == "Prelu")
    in.push_back(makeTensorFrom<T>({n}, alpha));
  AttrMap attrs{{"T", dtypeOf<T>()},
                {"transpose_a", ta},
                {"transpose_b", tb},
                {"fused_ops", ops},
                {"num_args", int64_t(in.size() - 2)},
                {"epsilon", 0.01f},
                {"leakyrelu_alpha", 0.1f}};
  // Constant inputs run several times (the packed weights are reused).
  auto out = constantInputs
                 ? runKernelWithConstants("_FusedMatMul", attrs, in,
                                          constantInputs, dtypeOf<T>())
                 : runKernel("_FusedMatMul", attrs, in, dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  SCOPED_TRACE(first + " " + a);
  expectValues<T>(*out, {m, n}, expected, 1e-5);
}

TEST(FusedMatMul, AllEpilogues) {
  for (const char *first : {"BiasAdd", "FusedBatchNorm"})
    for (const char *a : {"", "Relu", "Relu6", "Elu", "LeakyRelu", "Sigmoid",
                          "Tanh", "Prelu"}) {
      checkFusedMatMul<float>(5, 7, 6, false, false, first, a);
      checkFusedMatMul<float>(70, 40, 90, true, true, first, a);
    }
  checkFusedMatMul<double>(4, 3, 5, false, true, "BiasAdd", "Relu");
  checkFusedMatMul<float>(4, 0, 5, false, false, "BiasAdd", "Relu");
  checkFusedMatMul<float>(0, 3, 5, false, false, "BiasAdd", "Relu");
}

TEST(FusedMatMul, ConstantWeights) {
  // b (and the bias) program constants: packed once, reused by later runs.
  for (bool tb : {false, true}) {
    checkFusedMatMul<float>(1, 300, 70, false, tb, "BiasAdd", "Relu", 0b110);
    checkFusedMatMul<float>(37, 65, 90, true, tb, "BiasAdd", "Sigmoid", 0b10);
    checkFusedMatMul<float>(5, 0, 6, false, tb, "BiasAdd", "Relu6", 0b110);
    checkFusedMatMul<double>(4, 3, 5, false, tb, "BiasAdd", "Relu", 0b10);
  }
}

TEST(FusedMatMul, Errors) {
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<float>({2, 3}, patternValues(6)));
  in.push_back(makeTensorFrom<float>({2, 3}, patternValues(6)));
  in.push_back(makeTensorFrom<float>({3}, {1, 2, 3}));
  AttrMap attrs{{"T", DType::F32},
                {"fused_ops", std::vector<std::string>{"BiasAdd"}},
                {"num_args", int64_t(1)}};
  EXPECT_EQ(runKernel("_FusedMatMul", attrs, in, DType::F32).status().message(),
            opError("_FusedMatMul", "Matrix size-incompatible: In[0]: [2,3], "
                                    "In[1]: [2,3]"));
  attrs.set("transpose_b", true);
  EXPECT_EQ(runKernel("_FusedMatMul", attrs, in, DType::F32).status().message(),
            opError("_FusedMatMul", "bias must have 2 elements of the output "
                                    "type, got shape [3]"));
  attrs.set("fused_ops", std::vector<std::string>{"Relu", "BiasAdd"});
  EXPECT_EQ(
      runKernel("_FusedMatMul", attrs, in, DType::F32).status().message(),
      opError("_FusedMatMul", "Fusion is not implemented: [Relu,BiasAdd]"));
  // The residual Add is a convolution's (TF's CPU _FusedMatMul has none).
  attrs.set("fused_ops", std::vector<std::string>{"BiasAdd", "Add"});
  attrs.set("num_args", int64_t(2));
  EXPECT_EQ(
      runKernel("_FusedMatMul", attrs, in, DType::F32).status().message(),
      opError("_FusedMatMul", "Fusion is not implemented: [BiasAdd,Add]"));
}

/// BatchMatMul reference with broadcasting over rank-3 (or lower) shapes.
template <typename T>
void checkBatchMatMul(const std::string &op, TensorShape xs, TensorShape ys,
                      bool adjX, bool adjY) {
  auto xv = patternValues(xs.numElements(), 3, 1);
  auto yv = patternValues(ys.numElements(), 3, 2);
  for (auto *v : {&xv, &yv})
    for (double &d : *v)
      d = toDouble(static_cast<T>(d));
  const int xr = xs.rank(), yr = ys.rank();
  const int64_t xR = xs.dim(xr - 2), xC = xs.dim(xr - 1);
  const int64_t yR = ys.dim(yr - 2), yC = ys.dim(yr - 1);
  const int64_t m = adjX ? xC : xR, k = adjX ? xR : xC, n = adjY ? yR : yC;
  const int64_t xb = xr == 3 ? xs.dim(0) : 1, yb = yr == 3 ? ys.dim(0) : 1;
  const int64_t batch = xb == 1 ? yb : xb;
  std::vector<double> expected;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const double *X = xv.data() + (xb == 1 ? 0 : b) * xR * xC;
        const double *Y = yv.data() + (yb == 1 ? 0 : b) * yR * yC;
        double s = 0;
        for (int64_t p = 0; p < k; ++p)
          s += (adjX ? X[p * xC + i] : X[i * xC + p]) *
               (adjY ? Y[j * yC + p] : Y[p * yC + j]);
        expected.push_back(s);
      }
  std::vector<Tensor> in;
  in.push_back(makeTensorFrom<T>(xs, xv));
  in.push_back(makeTensorFrom<T>(ys, yv));
  AttrMap attrs{{"adj_x", adjX}, {"adj_y", adjY}};
  if (op == "BatchMatMulV3") {
    attrs.set("Ta", dtypeOf<T>());
    attrs.set("Tb", dtypeOf<T>());
    attrs.set("Tout", dtypeOf<T>());
  } else {
    attrs.set("T", dtypeOf<T>());
  }
  auto out = runKernel(op, attrs, in, dtypeOf<T>());
  ASSERT_TRUE(out.ok()) << out.status();
  TensorShape outShape =
      (xr == 3 || yr == 3) ? TensorShape{batch, m, n} : TensorShape{m, n};
  expectValues<T>(*out, outShape, expected, 1e-5);
}

TEST(BatchMatMul, AgainstReference) {
  for (bool ax : {false, true})
    for (bool ay : {false, true}) {
      // m = 4, k = 5, n = 6 (small) and m = 40, k = 36, n = 33 (large).
      checkBatchMatMul<float>(
          "BatchMatMulV2", ax ? TensorShape{3, 5, 4} : TensorShape{3, 4, 5},
          ay ? TensorShape{3, 6, 5} : TensorShape{3, 5, 6}, ax, ay);
      checkBatchMatMul<float>(
          "BatchMatMul", ax ? TensorShape{2, 36, 40} : TensorShape{2, 40, 36},
          ay ? TensorShape{2, 33, 36} : TensorShape{2, 36, 33}, ax, ay);
    }
  checkBatchMatMul<float>("BatchMatMulV2", {1, 4, 5}, {3, 5, 2}, false, false);
  // Broadcast batches on the GEMM path (m * n * k >= 32^3).
  checkBatchMatMul<float>("BatchMatMulV2", {1, 40, 36}, {3, 33, 36}, false,
                          true);
  checkBatchMatMul<float>("BatchMatMulV2", {3, 36, 40}, {1, 36, 70}, true,
                          false);
  checkBatchMatMul<float>("BatchMatMulV2", {3, 4, 5}, {5, 2}, false, false);
  checkBatchMatMul<float>("BatchMatMulV2", {4, 5}, {3, 2, 5}, false, true);
  checkBatchMatMul<double>("BatchMatMulV3", {2, 33, 34}, {1, 34, 35}, false,
                           false);
  checkBatchMatMul<float>("BatchMatMulV3", {2, 3, 4}, {2, 4, 2}, false, false);
  checkBatchMatMul<int32_t>("BatchMatMulV2", {2, 3, 4}, {2, 4, 2}, false,
                            false);
  checkBatchMatMul<float>("BatchMatMulV2", {0, 3, 4}, {1, 4, 2}, false, false);
  checkBatchMatMul<float>("BatchMatMulV2", {2, 3, 0}, {2, 0, 2}, false, false);
}

TEST(BatchMatMul, Errors) {
  auto run = [](const std::string &op, TensorShape xs, TensorShape ys) {
    std::vector<Tensor> in;
    in.push_back(makeTensorFrom<float>(xs, patternValues(xs.numElements())));
    in.push_back(makeTensorFrom<float>(ys, patternValues(ys.numElements())));
    StatusOr<Tensor> result =
        runKernel(op, {{"T", DType::F32}}, in, DType::F32);
    return std::string(result.status().message());
  };
  EXPECT_EQ(run("BatchMatMulV2", {3}, {3, 2}),
            opError("BatchMatMulV2", "In[0] ndims must be >= 2: 1"));
  EXPECT_EQ(run("BatchMatMulV2", {2, 3}, {3}),
            opError("BatchMatMulV2", "In[1] ndims must be >= 2: 1"));
  EXPECT_EQ(run("BatchMatMulV2", {2, 2, 3}, {3, 3, 2}),
            opError("BatchMatMulV2",
                    "In[0] and In[1] must have compatible batch dimensions: "
                    "[2,2,3] vs. [3,3,2]"));
  EXPECT_EQ(run("BatchMatMul", {1, 2, 3}, {3, 3, 2}),
            opError("BatchMatMul",
                    "In[0] and In[1] must have compatible batch dimensions: "
                    "[1,2,3] vs. [3,3,2]"));
  EXPECT_EQ(run("BatchMatMulV2", {2, 2, 3}, {2, 2, 2}),
            opError("BatchMatMulV2", "Matrix size-incompatible: In[0]: "
                                     "[2,2,3], In[1]: [2,2,2]"));
}

} // namespace

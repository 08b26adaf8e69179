//===- XentKernelsTest.cpp - Softmax cross-entropy --------------*- C++ -*-===//
//
// SoftmaxCrossEntropyWithLogits (with broadcast labels) and
// SparseSoftmaxCrossEntropyWithLogits against a reference computed here in
// double from the definition (loss = -sum(labels * log(softmax(logits))),
// backprop = softmax - labels), plus TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <cmath>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

/// The reference for one row.
void referenceRow(const std::vector<double> &logits,
                  const std::vector<double> &labels, double *loss,
                  std::vector<double> *backprop) {
  double sum = 0;
  for (double l : logits)
    sum += std::exp(l);
  *loss = 0;
  backprop->clear();
  for (size_t c = 0; c < logits.size(); ++c) {
    const double p = std::exp(logits[c]) / sum;
    *loss -= labels[c] * std::log(p);
    backprop->push_back(p - labels[c]);
  }
}

TEST(SoftmaxCrossEntropyWithLogits, MatchesReference) {
  const std::vector<double> l0 = {1, 2, 3}, l1 = {-1, 0, 4};
  const std::vector<double> y = {0.25, 0.25, 0.5};
  // labels [1, 3] broadcast over the batch of 2.
  auto out = runKernelN(
      "SoftmaxCrossEntropyWithLogits", AttrMap{{"T", DType::F32}},
      {f32({2, 3}, {1, 2, 3, -1, 0, 4}), f32({1, 3}, {0.25f, 0.25f, 0.5f})},
      {DType::F32, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  double loss0, loss1;
  std::vector<double> b0, b1;
  referenceRow(l0, y, &loss0, &b0);
  referenceRow(l1, y, &loss1, &b1);
  expectValues<float>((*out)[0], {2}, {loss0, loss1}, 1e-6);
  b0.insert(b0.end(), b1.begin(), b1.end());
  expectValues<float>((*out)[1], {2, 3}, b0, 1e-6);
  auto bad = runKernelN(
      "SoftmaxCrossEntropyWithLogits", AttrMap{{"T", DType::F32}},
      {f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({4, 3}, std::vector<float>(12, 0))},
      {DType::F32, DType::F32});
  EXPECT_EQ(bad.status().message(),
            opError("SoftmaxCrossEntropyWithLogits",
                    "logits and labels must be broadcastable: "
                    "logits_size=[2,3] labels_size=[4,3]"));
}

TEST(SparseSoftmaxCrossEntropyWithLogits, MatchesReference) {
  auto out = runKernelN(
      "SparseSoftmaxCrossEntropyWithLogits",
      AttrMap{{"T", DType::F64}, {"Tlabels", DType::I32}},
      {makeTensor<double>({2, 3}, {1, 2, 3, 0, 0, 0}), i32({2}, {2, 0})},
      {DType::F64, DType::F64});
  ASSERT_TRUE(out.ok()) << out.status();
  double loss0, loss1;
  std::vector<double> b0, b1;
  referenceRow({1, 2, 3}, {0, 0, 1}, &loss0, &b0);
  referenceRow({0, 0, 0}, {1, 0, 0}, &loss1, &b1);
  expectValues<double>((*out)[0], {2}, {loss0, loss1});
  b0.insert(b0.end(), b1.begin(), b1.end());
  expectValues<double>((*out)[1], {2, 3}, b0);
  auto bad = runKernelN("SparseSoftmaxCrossEntropyWithLogits",
                        AttrMap{{"T", DType::F32}, {"Tlabels", DType::I64}},
                        {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64({2}, {0, 5})},
                        {DType::F32, DType::F32});
  EXPECT_EQ(bad.status().message(),
            opError("SparseSoftmaxCrossEntropyWithLogits",
                    "Received a label value of 5 which is outside the valid "
                    "range of [0, 3).  Label values: 0 5"));
}

} // namespace

//===- CtcKernelsTest.cpp - CTCGreedyDecoder, CTCBeamSearchDecoder -------===//
//
// The greedy decoder against paths worked out by hand from
// tf.nn.ctc_greedy_decoder's documentation (argmax per step, merge
// repeats, drop blanks); the beam search decoder, with a beam wide enough
// to keep every prefix, against a brute-force reference in this file that
// sums the softmax probabilities of every alignment of every labeling (the
// exact CTC labeling probabilities the prefix search computes then); and
// TF's errors.
//
//===----------------------------------------------------------------------===//

#include "KernelTestUtils.h"

#include <algorithm>
#include <cmath>
#include <map>

using namespace tfrt_fallback::rt;
using namespace tfrt_fallback::rt::testing;

namespace {

const std::vector<DType> kGreedyOut = {DType::I64, DType::I64, DType::I64,
                                       DType::F32};

/// [max_time 4, batch 2, classes 3] logits; the blank is class 2 by
/// default. Entry 0's argmax per step: 0, 0, 2, 0 (maxima 0.5, 0.6, 0.7,
/// 0.9); entry 1 (length 2): 1, 1 (0.8, 0.3), then large logits beyond its
/// length that must not count.
Tensor greedyLogits() {
  return f32({4, 2, 3}, {0.5f, 0.1f, 0.2f, /**/ 0.1f, 0.8f, 0.1f,   // t0
                         0.6f, 0.1f, 0.1f, /**/ 0.2f, 0.3f, 0.1f,   // t1
                         0.1f, 0.2f, 0.7f, /**/ 9.0f, 0.0f, 0.0f,   // t2
                         0.9f, 0.0f, 0.0f, /**/ 0.0f, 9.0f, 0.0f}); // t3
}

TEST(CTCGreedyDecoder, MergesRepeatsAndDropsBlanks) {
  auto out = runKernelN("CTCGreedyDecoder",
                        AttrMap{{"T", DType::F32}, {"merge_repeated", true}},
                        {greedyLogits(), i32({2}, {4, 2})}, kGreedyOut);
  ASSERT_TRUE(out.ok()) << out.status();
  // Entry 0: 0, (0 merged), blank, 0 -> [0, 0]; entry 1: 1, (1) -> [1].
  expectValues<int64_t>((*out)[0], {3, 2}, {0, 0, 0, 1, 1, 0});
  expectValues<int64_t>((*out)[1], {3}, {0, 0, 1});
  expectValues<int64_t>((*out)[2], {2}, {2, 2});
  expectValues<float>((*out)[3], {2, 1}, {-2.7, -1.1});

  // Without merging: [0, 0, 0] and [1, 1].
  out = runKernelN("CTCGreedyDecoder",
                   AttrMap{{"T", DType::F32}, {"merge_repeated", false}},
                   {greedyLogits(), i32({2}, {4, 2})}, kGreedyOut);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {5, 2}, {0, 0, 0, 1, 0, 2, 1, 0, 1, 1});
  expectValues<int64_t>((*out)[1], {5}, {0, 0, 0, 1, 1});
  expectValues<int64_t>((*out)[2], {2}, {2, 3});

  // blank_index 0: class 0 is the blank; entry 0 keeps its step-2 class 2,
  // entry 1 its 1 (merged).
  out = runKernelN("CTCGreedyDecoder",
                   AttrMap{{"T", DType::F32},
                           {"merge_repeated", true},
                           {"blank_index", int64_t(0)}},
                   {greedyLogits(), i32({2}, {4, 2})}, kGreedyOut);
  ASSERT_TRUE(out.ok()) << out.status();
  expectValues<int64_t>((*out)[0], {2, 2}, {0, 0, 1, 0});
  expectValues<int64_t>((*out)[1], {2}, {2, 1});
  expectValues<int64_t>((*out)[2], {2}, {2, 1});
}

TEST(CTCGreedyDecoder, DoubleAndEmptyPaths) {
  // One step whose argmax is the blank: an empty path, shape [1, 0]; ties
  // pick the first class (0.5 at 0 and 2 -> class 0).
  auto out = runKernelN(
      "CTCGreedyDecoder", AttrMap{{"T", DType::F64}},
      {makeTensorFrom<double>({2, 2, 3}, {0.1, 0.2, 0.9, 0.5, 0.1, 0.5, //
                                          0.0, 0.0, 0.0, 0.0, 0.0, 0.0}),
       i32({2}, {1, 0})},
      {DType::I64, DType::I64, DType::I64, DType::F64});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].shape(), TensorShape({0, 2}));
  expectValues<int64_t>((*out)[2], {2}, {2, 0});
  expectValues<double>((*out)[3], {2, 1}, {-0.9, 0.0});
}

TEST(CTCGreedyDecoder, Errors) {
  auto run = [](Tensor inputs, Tensor lengths, AttrMap attrs = {}) {
    attrs.set("T", DType::F32);
    return runKernelN("CTCGreedyDecoder", attrs,
                      {std::move(inputs), std::move(lengths)}, kGreedyOut)
        .status();
  };
  EXPECT_EQ(run(f32({2, 3}, {0, 0, 0, 0, 0, 0}), i32({2}, {1, 1})).message(),
            opError("CTCGreedyDecoder", "inputs is not a 3-Tensor"));
  EXPECT_EQ(run(f32({0, 2, 3}, {}), i32({2}, {0, 0})).message(),
            opError("CTCGreedyDecoder", "inputs must not be empty"));
  EXPECT_EQ(run(greedyLogits(), i32({1, 2}, {1, 1})).message(),
            opError("CTCGreedyDecoder", "sequence_length is not a vector"));
  Status s = run(greedyLogits(), i32({3}, {1, 1, 1}));
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(),
            opError("CTCGreedyDecoder", "len(sequence_length) != batch_size.  "
                                        "len(sequence_length):  3 batch_size: "
                                        "2"));
  s = run(greedyLogits(), i32({2}, {4, 5}));
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(s.message(),
            opError("CTCGreedyDecoder", "sequence_length(1) <= 4"));
  EXPECT_EQ(run(greedyLogits(), i32({2}, {1, 1}),
                AttrMap{{"blank_index", int64_t(3)}})
                .message(),
            opError("CTCGreedyDecoder",
                    "blank_index expected to be between -3 and 2 but was 3"));
  EXPECT_EQ(run(greedyLogits(), i32({2}, {1, 1}),
                AttrMap{{"blank_index", int64_t(-4)}})
                .message(),
            opError("CTCGreedyDecoder",
                    "blank_index expected to be between -3 and 2 but was -4"));
}

/// Every labeling of the [T, classes] logits `x` (blank last) with its
/// probability: the sum over the alignments that collapse to it (merge
/// repeats, drop blanks) of the product of the per-step softmax
/// probabilities. Brute force over classes^T alignments.
std::map<std::vector<int>, double>
labelingProbabilities(const std::vector<double> &x, int steps, int classes) {
  std::vector<std::vector<double>> p(steps, std::vector<double>(classes));
  for (int t = 0; t < steps; ++t) {
    double sum = 0;
    for (int c = 0; c < classes; ++c)
      sum += std::exp(x[t * classes + c]);
    for (int c = 0; c < classes; ++c)
      p[t][c] = std::exp(x[t * classes + c]) / sum;
  }
  std::map<std::vector<int>, double> out;
  std::vector<int> align(steps, 0);
  while (true) {
    double prob = 1;
    std::vector<int> label;
    int previous = -1;
    for (int t = 0; t < steps; ++t) {
      prob *= p[t][align[t]];
      if (align[t] != classes - 1 && align[t] != previous)
        label.push_back(align[t]);
      previous = align[t];
    }
    out[label] += prob;
    int t = steps - 1;
    while (t >= 0 && ++align[t] == classes)
      align[t--] = 0;
    if (t < 0)
      break;
  }
  return out;
}

TEST(CTCBeamSearchDecoder, WideBeamFindsTheMostProbableLabelings) {
  // T = 4, batch 2, 3 classes (labels 0, 1 and the blank); entry 1 has
  // length 3. Beam 100 keeps every prefix (at most 1 + 2 + 4 + 8 + 16).
  const int steps = 4, classes = 3;
  const std::vector<double> logits = patternValues(steps * 2 * classes, 2, 7);
  std::vector<float> x(logits.begin(), logits.end());
  auto out =
      runKernelN("CTCBeamSearchDecoder",
                 AttrMap{{"T", DType::F32},
                         {"beam_width", int64_t(100)},
                         {"top_paths", int64_t(3)},
                         {"merge_repeated", false}},
                 {f32({steps, 2, classes}, x), i32({2}, {4, 3})},
                 {DType::I64, DType::I64, DType::I64, DType::I64, DType::I64,
                  DType::I64, DType::I64, DType::I64, DType::I64, DType::F32});
  ASSERT_TRUE(out.ok()) << out.status();
  const Tensor &logProb = (*out)[9];
  ASSERT_EQ(logProb.shape(), TensorShape({2, 3}));
  for (int b = 0; b < 2; ++b) {
    const int length = b == 0 ? 4 : 3;
    std::vector<double> xb;
    for (int t = 0; t < length; ++t)
      for (int c = 0; c < classes; ++c)
        xb.push_back(x[(t * 2 + b) * classes + c]);
    auto probs = labelingProbabilities(xb, length, classes);
    std::vector<std::pair<double, std::vector<int>>> ranked;
    for (const auto &[label, prob] : probs)
      ranked.push_back({prob, label});
    std::sort(ranked.rbegin(), ranked.rend());
    for (int p = 0; p < 3; ++p) {
      SCOPED_TRACE("batch " + std::to_string(b) + " path " + std::to_string(p));
      EXPECT_NEAR(logProb.data<float>()[b * 3 + p], std::log(ranked[p].first),
                  1e-4);
      // Path p's entries for batch entry b.
      const Tensor &indices = (*out)[p];
      const Tensor &values = (*out)[3 + p];
      std::vector<int> got;
      for (int64_t i = 0; i < values.numElements(); ++i)
        if (indices.data<int64_t>()[2 * i] == b) {
          EXPECT_EQ(indices.data<int64_t>()[2 * i + 1],
                    static_cast<int64_t>(got.size()));
          got.push_back(static_cast<int>(values.data<int64_t>()[i]));
        }
      EXPECT_EQ(got, ranked[p].second);
    }
  }
}

TEST(CTCBeamSearchDecoder, MergeRepeatedCollapsesTheReturnedLabels) {
  // One entry, 3 steps: label 0, blank, label 0 dominate; the best
  // labeling is [0, 0], returned as [0] with merge_repeated (TF's
  // LabelSeq), with the same log probability.
  std::vector<float> x = {5, 0, 0, /**/ 0, 0, 5, /**/ 5, 0, 0};
  auto run = [&](bool merge) {
    return runKernelN("CTCBeamSearchDecoder",
                      AttrMap{{"T", DType::F32},
                              {"beam_width", int64_t(10)},
                              {"top_paths", int64_t(1)},
                              {"merge_repeated", merge}},
                      {f32({3, 1, 3}, x), i32({1}, {3})},
                      {DType::I64, DType::I64, DType::I64, DType::F32});
  };
  auto merged = run(true), plain = run(false);
  ASSERT_TRUE(merged.ok()) << merged.status();
  ASSERT_TRUE(plain.ok()) << plain.status();
  expectValues<int64_t>((*plain)[1], {2}, {0, 0});
  expectValues<int64_t>((*plain)[2], {2}, {1, 2});
  expectValues<int64_t>((*merged)[1], {1}, {0});
  expectValues<int64_t>((*merged)[2], {2}, {1, 1});
  auto probs = labelingProbabilities({5, 0, 0, 0, 0, 5, 5, 0, 0}, 3, 3);
  expectValues<float>((*merged)[3], {1, 1}, {std::log(probs[{0, 0}])}, 1e-4);
  expectValues<float>((*plain)[3], {1, 1}, {std::log(probs[{0, 0}])}, 1e-4);
}

TEST(CTCBeamSearchDecoder, Errors) {
  auto run = [](int64_t beam, int64_t top, Tensor lengths) {
    std::vector<DType> outs(3 * top, DType::I64);
    outs.push_back(DType::F64);
    return runKernelN(
               "CTCBeamSearchDecoder",
               AttrMap{
                   {"T", DType::F64}, {"beam_width", beam}, {"top_paths", top}},
               {makeTensorFrom<double>({1, 1, 3}, {1, 2, 3}), lengths}, outs)
        .status();
  };
  EXPECT_EQ(run(1, 2, i32({1}, {1})).message(),
            opError("CTCBeamSearchDecoder",
                    "requested more paths than the beam width."));
  // A zero-length sequence leaves the root alone in the beam.
  EXPECT_EQ(run(2, 2, i32({1}, {0})).message(),
            opError("CTCBeamSearchDecoder",
                    "Less leaves in the beam search than requested."));
  EXPECT_EQ(run(2, 1, i32({1}, {2})).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(run(0, 1, i32({1}, {1})).message(),
            opError("CTCBeamSearchDecoder", "beam_width must be >= 1, got 0"));
}

} // namespace

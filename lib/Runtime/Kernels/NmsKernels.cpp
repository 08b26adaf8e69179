//===- NmsKernels.cpp - Non-max suppression ---------------------*- C++ -*-===//
//
// NonMaxSuppression (V1 to V5) and NonMaxSuppressionWithOverlaps with TF's
// CPU algorithm
// (tensorflow/core/kernels/image/non_max_suppression_op.cc):
//
//  * boxes [num_boxes, 4] hold two opposite corners in any order; IoU uses
//    the min/max of each coordinate pair, is 0 if either box has area <= 0,
//    and is computed in float.
//  * Candidates with score > score_threshold enter a max-heap ordered by
//    score, then by lower box index on equal scores.
//  * The top candidate is compared with the boxes selected so far, newest
//    first (only those it was not compared with before). Without soft-NMS
//    (sigma == 0) an IoU > iou_threshold drops it. With soft-NMS its score
//    is multiplied by exp(-0.5 / sigma * iou^2) for each comparison; a
//    candidate whose score changed goes back into the heap if it is still
//    above score_threshold, and one whose score did not change is selected.
//  * Selection stops after max_output_size boxes (must be >= 0).
//
// V1(boxes, scores, max_output_size; iou_threshold = 0.5) and
// V2(boxes, scores, max_output_size, iou_threshold) -> selected_indices
//   int32 [num_selected], every score a candidate (threshold: lowest float).
// V3(boxes, scores, max_output_size, iou_threshold, score_threshold) ->
//   selected_indices int32 [num_selected].
// V4(...V3...; pad_to_max_output_size) -> selected_indices, valid_outputs.
// WithOverlaps(overlaps [n, n], scores, max_output_size, overlap_threshold,
//   score_threshold): V3 with the given similarity matrix in place of IoU
//   (no [0, 1] check on the threshold).
// V5(..., soft_nms_sigma; pad_to_max_output_size) -> selected_indices,
//   selected_scores [num_selected] (both zero-padded to max_output_size
//   when pad_to_max_output_size), valid_outputs int32 scalar.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <queue>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// IoU of boxes i and j of `boxes` ([n, 4], row-major), TF's IOU().
template <typename T> float iou(const T *boxes, int64_t i, int64_t j) {
  const T *a = boxes + 4 * i, *b = boxes + 4 * j;
  auto f = [](T v) { return static_cast<float>(v); };
  const float yminI = std::min(f(a[0]), f(a[2]));
  const float xminI = std::min(f(a[1]), f(a[3]));
  const float ymaxI = std::max(f(a[0]), f(a[2]));
  const float xmaxI = std::max(f(a[1]), f(a[3]));
  const float yminJ = std::min(f(b[0]), f(b[2]));
  const float xminJ = std::min(f(b[1]), f(b[3]));
  const float ymaxJ = std::max(f(b[0]), f(b[2]));
  const float xmaxJ = std::max(f(b[1]), f(b[3]));
  const float areaI = (ymaxI - yminI) * (xmaxI - xminI);
  const float areaJ = (ymaxJ - yminJ) * (xmaxJ - xminJ);
  if (areaI <= 0 || areaJ <= 0)
    return 0.0f;
  const float iymin = std::max(yminI, yminJ);
  const float ixmin = std::max(xminI, xminJ);
  const float iymax = std::min(ymaxI, ymaxJ);
  const float ixmax = std::min(xmaxI, xmaxJ);
  const float inter =
      std::max(iymax - iymin, 0.0f) * std::max(ixmax - ixmin, 0.0f);
  return inter / (areaI + areaJ - inter);
}

/// Which op a kernel implements; they differ in their operands (see the
/// file header).
enum class NmsVersion { V1, V2, V3, V4, V5, Overlaps };

/// T is float: TF registers half too, which models do not use. The dtype
/// attributes (T, T_threshold) default to float and may be absent, so the
/// operands are checked here rather than by registration constraints.
template <NmsVersion V> class NmsKernel final : public OpKernel {
  using T = float;
  static constexpr bool kV5 = V == NmsVersion::V5;
  static constexpr bool kPadded = V == NmsVersion::V4 || kV5;
  static constexpr bool kHasScoreThreshold =
      V != NmsVersion::V1 && V != NmsVersion::V2;

public:
  explicit NmsKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    if (kPadded)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "pad_to_max_output_size", &pad_));
    if (V == NmsVersion::V1)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "iou_threshold", &iouAttr_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &boxes = ctx->input(0);
    const Tensor &scores = ctx->input(1);
    const Tensor &maxOut = ctx->input(2);
    for (int i = 0; i < ctx->numInputs(); ++i)
      if (i != 2)
        TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(i).dtype() == DType::F32,
                                  errorf("input %d must be float, got %s", i,
                                         dtypeName(ctx->input(i).dtype())));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, maxOut.rank() == 0 && maxOut.dtype() == DType::I32,
        errorf("max_output_size must be 0-D, got shape %s",
               maxOut.shape().toString()));
    const char *thresholdName =
        V == NmsVersion::Overlaps ? "overlap_threshold" : "iou_threshold";
    T iouThreshold = iouAttr_;
    if (V != NmsVersion::V1) {
      const Tensor &iouT = ctx->input(3);
      TFRT_FALLBACK_OP_REQUIRES(ctx, iouT.rank() == 0,
                                errorf("%s must be 0-D, got shape %s",
                                       thresholdName, iouT.shape().toString()));
      iouThreshold = iouT.data<T>()[0];
    }
    if (V != NmsVersion::Overlaps)
      TFRT_FALLBACK_OP_REQUIRES(ctx,
                                iouThreshold >= T(0) && iouThreshold <= T(1),
                                errorf("iou_threshold must be in [0, 1]"));
    T scoreThreshold = std::numeric_limits<T>::lowest();
    if (kHasScoreThreshold) {
      const Tensor &scoreT = ctx->input(4);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, scoreT.rank() == 0,
          errorf("score_threshold must be 0-D, got shape %s",
                 scoreT.shape().toString()));
      scoreThreshold = scoreT.data<T>()[0];
    }
    T sigma = T(0);
    if constexpr (kV5) {
      const Tensor &sigmaT = ctx->input(5);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, sigmaT.rank() == 0,
          errorf("soft_nms_sigma must be 0-D, got shape %s",
                 sigmaT.shape().toString()));
      sigma = sigmaT.data<T>()[0];
      TFRT_FALLBACK_OP_REQUIRES(ctx, sigma >= T(0),
                                errorf("soft_nms_sigma_val must be >= 0"));
    }
    int64_t numBoxes = 0;
    if (V == NmsVersion::Overlaps) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, boxes.rank() == 2,
          errorf("overlaps must be 2-D%s", boxes.shape().toString()));
      numBoxes = boxes.dim(0);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, boxes.dim(1) == numBoxes,
          errorf("overlaps must be square%s", boxes.shape().toString()));
    } else {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, boxes.rank() == 2,
          errorf("boxes must be 2-D%s (Shape must be rank 2 but is rank %d)",
                 boxes.shape().toString(), boxes.rank()));
      numBoxes = boxes.dim(0);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, boxes.dim(1) == 4,
          errorf("boxes must have 4 columns (Dimension must be 4 but is %d)",
                 boxes.dim(1)));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, scores.rank() == 1,
        errorf("scores must be 1-D%s (Shape must be rank 1 but is rank %d)",
               scores.shape().toString(), scores.rank()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, scores.dim(0) == numBoxes,
        errorf("scores has incompatible shape (Dimensions must be equal, but "
               "are %d and %d)",
               numBoxes, scores.dim(0)));
    const int32_t outputSize = maxOut.data<int32_t>()[0];
    TFRT_FALLBACK_OP_REQUIRES(ctx, outputSize >= 0,
                              errorf("output size must be non-negative"));
    if (pad_)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkHostAllocation(static_cast<uint64_t>(outputSize),
                                   sizeof(int32_t) + sizeof(T)));

    std::vector<int32_t> selected;
    std::vector<T> selectedScores;
    const T *boxData = boxes.data<T>();
    auto similarity = [&](int64_t i, int64_t j) -> T {
      if (V == NmsVersion::Overlaps)
        return boxData[i * numBoxes + j];
      return static_cast<T>(iou(boxData, i, j));
    };
    select(similarity, scores.data<T>(), numBoxes, outputSize, iouThreshold,
           scoreThreshold, sigma, &selected, &selectedScores);
    const int32_t numValid = static_cast<int32_t>(selected.size());
    if (pad_) {
      selected.resize(outputSize, 0);
      selectedScores.resize(outputSize, T(0));
    }
    const TensorShape shape{static_cast<int64_t>(selected.size())};
    Tensor *indices = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &indices));
    std::copy(selected.begin(), selected.end(), indices->data<int32_t>());
    int next = 1;
    if (kV5) {
      Tensor *outScores = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(next++, shape, &outScores));
      std::copy(selectedScores.begin(), selectedScores.end(),
                outScores->data<T>());
    }
    if (kPadded) {
      Tensor *valid = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(next, TensorShape(), &valid));
      valid->data<int32_t>()[0] = numValid;
    }
  }

private:
  struct Candidate {
    int32_t boxIndex;
    T score;
    int32_t suppressBeginIndex;
  };

  template <typename Similarity>
  static void select(Similarity similarity, const T *scores, int64_t numBoxes,
                     int32_t outputSize, T iouThreshold, T scoreThreshold,
                     T sigma, std::vector<int32_t> *selected,
                     std::vector<T> *selectedScores) {
    auto cmp = [](const Candidate &a, const Candidate &b) {
      return (a.score == b.score && a.boxIndex > b.boxIndex) ||
             a.score < b.score;
    };
    std::priority_queue<Candidate, std::deque<Candidate>, decltype(cmp)> queue(
        cmp);
    for (int64_t i = 0; i < numBoxes; ++i)
      if (scores[i] > scoreThreshold)
        queue.push(Candidate{static_cast<int32_t>(i), scores[i], 0});
    const bool soft = sigma > T(0);
    const T scale = soft ? T(-0.5) / sigma : T(0);
    auto weight = [&](T sim) {
      const T w = static_cast<T>(std::exp(scale * sim * sim));
      return soft || sim <= iouThreshold ? w : T(0);
    };
    while (static_cast<int32_t>(selected->size()) < outputSize &&
           !queue.empty()) {
      Candidate next = queue.top();
      const T original = next.score;
      queue.pop();
      bool hardSuppress = false;
      for (int j = static_cast<int>(selected->size()) - 1;
           j >= next.suppressBeginIndex; --j) {
        const T sim = similarity(next.boxIndex, (*selected)[j]);
        next.score *= weight(sim);
        if (!soft && sim > iouThreshold) {
          hardSuppress = true;
          break;
        }
        if (next.score <= scoreThreshold)
          break;
      }
      next.suppressBeginIndex = static_cast<int32_t>(selected->size());
      if (hardSuppress)
        continue;
      if (next.score == original) {
        selected->push_back(next.boxIndex);
        selectedScores->push_back(next.score);
        continue;
      }
      if (next.score > scoreThreshold)
        queue.push(next);
    }
  }

  bool pad_ = false;
  float iouAttr_ = 0.5f;
};

} // namespace

void registerNmsKernels(KernelRegistry &registry) {
  registerKernel<OpId::kNonMaxSuppression, NmsKernel<NmsVersion::V1>>(registry);
  registerKernel<OpId::kNonMaxSuppressionV2, NmsKernel<NmsVersion::V2>>(
      registry);
  registerKernel<OpId::kNonMaxSuppressionV3, NmsKernel<NmsVersion::V3>>(
      registry);
  registerKernel<OpId::kNonMaxSuppressionV4, NmsKernel<NmsVersion::V4>>(
      registry);
  registerKernel<OpId::kNonMaxSuppressionV5, NmsKernel<NmsVersion::V5>>(
      registry);
  registerKernel<OpId::kNonMaxSuppressionWithOverlaps,
                 NmsKernel<NmsVersion::Overlaps>>(registry);
}

} // namespace tfrt_fallback::rt

//===- NmsKernels.cpp - Non-max suppression ---------------------*- C++ -*-===//
//
// NonMaxSuppression (V1 to V5), NonMaxSuppressionWithOverlaps and
// CombinedNonMaxSuppression with TF's
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
// CombinedNonMaxSuppression(boxes [batch, num_boxes, q, 4], scores [batch,
//   num_boxes, num_classes], max_output_size_per_class, max_total_size,
//   iou_threshold, score_threshold; pad_per_class, clip_boxes): per batch
//   entry and class, hard NMS of that class's scores (boxes of that class
//   when q == num_classes, the shared ones when q == 1), at most
//   min(max_output_size_per_class, num_boxes) boxes each; then the
//   selected boxes of all classes sorted by score (descending) and the
//   first max_total_size kept (min(max_total_size, max_output_size_per_class
//   * num_classes) slots with pad_per_class), coordinates clipped to [0, 1]
//   with clip_boxes, zero-padded -> nmsed_boxes, nmsed_scores,
//   nmsed_classes (float), valid_detections int32 [batch].
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"

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

//===----------------------------------------------------------------------===//
// CombinedNonMaxSuppression
//===----------------------------------------------------------------------===//

/// CombinedNonMaxSuppression (file header), TF's BatchedNonMaxSuppressionOp:
/// a class's candidates come from a score-ordered std::priority_queue as
/// in TF (so equal scores resolve alike); the per-batch merge sorts equal
/// scores in class order, then by rank within the class (TF's std::sort
/// leaves their order unspecified). As in TF the merge also sorts the
/// unfilled slots (score -1): with a score_threshold below -1, selected
/// boxes scoring below -1 rank after them and the output takes the empty
/// slots' zero boxes and class -1 in their place.
class CombinedNmsKernel final : public OpKernel {
public:
  explicit CombinedNmsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "pad_per_class", &padPerClass_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "clip_boxes", &clip_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &boxes = ctx->input(0);
    const Tensor &scores = ctx->input(1);
    // TF reads dim 0 of both before checking ranks (a CHECK failure for a
    // scalar there); the ranks are checked first here.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, boxes.rank() == 4,
        errorf("boxes must be 4-D%s", boxes.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, scores.rank() == 3,
        errorf("scores must be 3-D%s", scores.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, boxes.dim(0) == scores.dim(0),
        errorf("boxes and scores must have same batch size"));
    const Tensor *scalars[4] = {&ctx->input(2), &ctx->input(3), &ctx->input(4),
                                &ctx->input(5)};
    static constexpr const char *kNames[4] = {"max_size_per_class",
                                              "max_total_size", "iou_threshold",
                                              "score_threshold"};
    for (int i = 0; i < 4; ++i)
      TFRT_FALLBACK_OP_REQUIRES(ctx, scalars[i]->rank() == 0,
                                errorf("%s must be 0-D, got shape %s",
                                       kNames[i],
                                       scalars[i]->shape().toString()));
    const int32_t maxPerClass = scalars[0]->data<int32_t>()[0];
    TFRT_FALLBACK_OP_REQUIRES(ctx, maxPerClass > 0,
                              errorf("max_size_per_class must be positive"));
    const int32_t maxTotal = scalars[1]->data<int32_t>()[0];
    TFRT_FALLBACK_OP_REQUIRES(ctx, maxTotal > 0,
                              errorf("max_total_size must be > 0"));
    const float iouThreshold = scalars[2]->data<float>()[0];
    const float scoreThreshold = scalars[3]->data<float>()[0];
    TFRT_FALLBACK_OP_REQUIRES(ctx, iouThreshold >= 0 && iouThreshold <= 1,
                              errorf("iou_threshold must be in [0, 1]"));
    const int64_t numClasses = scores.dim(2);
    const int64_t q = boxes.dim(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, q == 1 || q == numClasses,
        errorf("third dimension of boxes must be either 1 or num classes"));
    const int64_t numBoxes = boxes.dim(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, boxes.dim(3) == 4,
                              errorf("boxes must have 4 columns"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, scores.dim(1) == numBoxes,
                              errorf("scores has incompatible shape"));
    // TF keeps these counts in int.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        numBoxes <= std::numeric_limits<int32_t>::max() &&
            numClasses <= std::numeric_limits<int32_t>::max(),
        errorf("num_boxes and num_classes must fit in int32"));
    const int64_t batches = boxes.dim(0);
    const int64_t sizePerClass = std::min<int64_t>(maxPerClass, numBoxes);
    const int64_t maxTotalSize = std::min<int64_t>(
        std::numeric_limits<int32_t>::max(), int64_t(maxPerClass) * numClasses);
    const int64_t perBatch =
        padPerClass_ ? std::min<int64_t>(maxTotal, maxTotalSize) : maxTotal;
    // The candidates of a batch entry, and the padded outputs.
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkHostAllocation(static_cast<uint64_t>(sizePerClass) *
                                     static_cast<uint64_t>(numClasses),
                                 sizeof(Candidate)));
    const int64_t outDims[] = {batches, perBatch, 4};
    Tensor *outBoxes = nullptr, *outScores = nullptr, *outClasses = nullptr,
           *valid = nullptr;
    const TensorShape scoresShape{batches, perBatch};
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, outDims, &outBoxes));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, scoresShape, &outScores));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2, scoresShape, &outClasses));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(3, TensorShape{batches}, &valid));
    float *ob = outBoxes->data<float>();
    float *os = outScores->data<float>();
    float *oc = outClasses->data<float>();
    int32_t *ov = valid->data<int32_t>();
    std::fill(ob, ob + outBoxes->numElements(), 0.0f);
    std::fill(os, os + outScores->numElements(), 0.0f);
    std::fill(oc, oc + outClasses->numElements(), 0.0f);

    const float *boxData = boxes.data<float>();
    const float *scoreData = scores.data<float>();
    std::vector<Candidate> candidates;
    for (int64_t b = 0; b < batches; ++b) {
      candidates.assign(sizePerClass * numClasses, Candidate());
      const float *batchBoxes = boxData + b * numBoxes * q * 4;
      const float *batchScores = scoreData + b * numBoxes * numClasses;
      for (int64_t c = 0; c < numClasses; ++c)
        nmsPerClass(batchBoxes, batchScores, numBoxes, q, numClasses, c,
                    sizePerClass, scoreThreshold, iouThreshold,
                    candidates.data() + c * sizePerClass);
      for (size_t i = 0; i < candidates.size(); ++i)
        candidates[i].position = static_cast<int64_t>(i);
      std::sort(candidates.begin(), candidates.end(),
                [](const Candidate &x, const Candidate &y) {
                  return x.score > y.score ||
                         (x.score == y.score && x.position < y.position);
                });
      const int64_t found =
          std::count_if(candidates.begin(), candidates.end(),
                        [](const Candidate &x) { return x.boxIndex > -1; });
      const int64_t keep = std::min<int64_t>(
          found, padPerClass_ ? perBatch : static_cast<int64_t>(maxTotal));
      ov[b] = static_cast<int32_t>(keep);
      for (int64_t i = 0; i < keep; ++i) {
        const Candidate &x = candidates[i];
        for (int k = 0; k < 4; ++k)
          ob[(b * perBatch + i) * 4 + k] =
              clip_ ? std::max(std::min(x.box[k], 1.0f), 0.0f) : x.box[k];
        os[b * perBatch + i] = x.score;
        oc[b * perBatch + i] = static_cast<float>(x.classIndex);
      }
    }
  }

private:
  struct Candidate {
    int64_t boxIndex = -1;
    float score = -1.0f;
    int64_t classIndex = -1;
    float box[4] = {0, 0, 0, 0};
    /// The slot before sorting (class, then rank in the class): the
    /// merge's tie-break.
    int64_t position = 0;
  };

  /// TF's DoNMSPerClass: writes the boxes of class `c` it selects, in
  /// selection order, to `out` (sizePerClass slots).
  static void nmsPerClass(const float *boxes, const float *scores,
                          int64_t numBoxes, int64_t q, int64_t numClasses,
                          int64_t c, int64_t sizePerClass, float scoreThreshold,
                          float iouThreshold, Candidate *out) {
    struct Entry {
      int64_t boxIndex;
      float score;
    };
    auto cmp = [](const Entry &x, const Entry &y) { return x.score < y.score; };
    std::priority_queue<Entry, std::vector<Entry>, decltype(cmp)> queue(cmp);
    for (int64_t i = 0; i < numBoxes; ++i) {
      const float s = scores[i * numClasses + c];
      if (s > scoreThreshold)
        queue.push(Entry{i, s});
    }
    const int64_t classBox = q > 1 ? c : 0;
    std::vector<int64_t> selected;
    while (static_cast<int64_t>(selected.size()) < sizePerClass &&
           !queue.empty()) {
      const Entry next = queue.top();
      queue.pop();
      const int64_t row = next.boxIndex * q + classBox;
      bool keep = true;
      for (int64_t j = static_cast<int64_t>(selected.size()) - 1; j >= 0; --j) {
        if (iou(boxes, row, selected[j] * q + classBox) > iouThreshold) {
          keep = false;
          break;
        }
      }
      if (!keep)
        continue;
      Candidate &slot = out[selected.size()];
      slot.boxIndex = next.boxIndex;
      slot.score = next.score;
      slot.classIndex = c;
      std::copy(boxes + 4 * row, boxes + 4 * row + 4, slot.box);
      selected.push_back(next.boxIndex);
    }
  }

  bool padPerClass_ = false;
  bool clip_ = true;
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
  registerKernel<OpId::kCombinedNonMaxSuppression, CombinedNmsKernel>(registry);
}

} // namespace tfrt_fallback::rt

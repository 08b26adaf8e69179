//===- CtcKernels.cpp - CTC greedy and beam-search decoders -----*- C++ -*-===//
//
// CTCGreedyDecoder and CTCBeamSearchDecoder with TensorFlow's CPU algorithms
// (tensorflow/core/kernels/ctc_decoder_ops.cc, util/ctc/ctc_beam_search.h,
// ctc_beam_entry.h, lib/gtl/top_n.h), float and double as TF registers them.
//
// Both take inputs [max_time, batch_size, num_classes] (logits) and
// sequence_length int32 [batch_size], and return each decoded path as a
// SparseTensor: indices int64 [n, 2] (batch, step), values int64 [n] and
// dense shape int64 [2] = {batch_size, longest path}, plus log_probability
// [batch_size, top_paths].
//
//  * Greedy: per batch entry and step t < sequence_length[b], the class with
//    the largest logit (the first on ties); the path keeps it unless it is
//    the blank (blank_index, negative counts from the end, default -1) or
//    merge_repeated is set and it equals the previous step's class (a blank
//    between two equal classes keeps both). log_probability[b, 0] is minus
//    the sum of those largest logits.
//  * Beam search: the prefix beam search of TF's CTCBeamSearchDecoder with
//    its default scorer (no language model), the blank being the last
//    class; logits are normalized by log-softmax per step; the beam keeps
//    beam_width prefixes (TF's TopN: ties with the weakest prefix are not
//    admitted); the top_paths best prefixes are returned, best first, with
//    their log probabilities. merge_repeated collapses equal neighbouring
//    labels of a returned prefix.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <unordered_map>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Decoded paths: paths[b][p] is path p of batch entry b.
using Paths = std::vector<std::vector<std::vector<int>>>;

/// TF's CTCDecodeHelper::ValidateInputsGenerateOutputs: the input checks,
/// with TF's messages. Sets the dims on success.
Status validateCtcInputs(const OpKernel &op, const Tensor &inputs,
                         const Tensor &seqLen, int64_t *maxTime,
                         int64_t *batchSize, int *numClasses) {
  if (inputs.rank() != 3)
    return op.errorf("inputs is not a 3-Tensor");
  if (inputs.numElements() == 0)
    return op.errorf("inputs must not be empty");
  *maxTime = inputs.dim(0);
  *batchSize = inputs.dim(1);
  if (seqLen.rank() != 1)
    return op.errorf("sequence_length is not a vector");
  if (seqLen.dim(0) != *batchSize)
    return makeOpError(StatusCode::kFailedPrecondition, op.opName(),
                       op.nodeName(),
                       strCat("len(sequence_length) != batch_size.  "
                              "len(sequence_length):  ",
                              seqLen.dim(0), " batch_size: ", *batchSize));
  const int32_t *len = seqLen.data<int32_t>();
  for (int64_t b = 0; b < *batchSize; ++b)
    if (!(len[b] <= *maxTime))
      return makeOpError(StatusCode::kFailedPrecondition, op.opName(),
                         op.nodeName(),
                         strCat("sequence_length(", b, ") <= ", *maxTime));
  if (inputs.dim(2) > std::numeric_limits<int>::max())
    return op.errorf("num_classes cannot exceed max int");
  *numClasses = static_cast<int>(inputs.dim(2));
  return OkStatus();
}

/// TF's StoreAllDecodedSequences: path p of every batch entry into outputs
/// p (indices), topPaths + p (values) and 2 * topPaths + p (shape).
void storePaths(OpKernelContextInterface *ctx, const Paths &paths, int topPaths,
                int64_t batchSize) {
  for (int p = 0; p < topPaths; ++p) {
    int64_t total = 0, longest = 0;
    for (int64_t b = 0; b < batchSize; ++b) {
      const int64_t n = static_cast<int64_t>(paths[b][p].size());
      total += n;
      longest = std::max(longest, n);
    }
    Tensor *indices = nullptr, *values = nullptr, *shape = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(p, TensorShape{total, 2}, &indices));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(topPaths + p, TensorShape{total}, &values));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2 * topPaths + p, TensorShape{2}, &shape));
    int64_t *ix = indices->data<int64_t>();
    int64_t *vals = values->data<int64_t>();
    int64_t offset = 0;
    for (int64_t b = 0; b < batchSize; ++b) {
      const std::vector<int> &path = paths[b][p];
      for (size_t t = 0; t < path.size(); ++t, ++offset) {
        ix[2 * offset] = b;
        ix[2 * offset + 1] = static_cast<int64_t>(t);
        vals[offset] = path[t];
      }
    }
    shape->data<int64_t>()[0] = batchSize;
    shape->data<int64_t>()[1] = longest;
  }
}

//===----------------------------------------------------------------------===//
// CTCGreedyDecoder
//===----------------------------------------------------------------------===//

/// CTCGreedyDecoder(inputs, sequence_length; merge_repeated = false,
/// blank_index = -1) -> (decoded_indices, decoded_values, decoded_shape,
/// log_probability [batch, 1]): best-path decoding (file header).
template <typename T> class CtcGreedyDecoderKernel final : public OpKernel {
public:
  explicit CtcGreedyDecoderKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "merge_repeated", &mergeRepeated_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "blank_index", &blankIndex_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &inputs = ctx->input(0);
    const Tensor &seqLen = ctx->input(1);
    int64_t maxTime = 0, batchSize = 0;
    int numClasses = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, validateCtcInputs(*this, inputs, seqLen,
                                                        &maxTime, &batchSize,
                                                        &numClasses));
    const int64_t blank = blankIndex_ < 0
                              ? static_cast<int64_t>(numClasses) + blankIndex_
                              : blankIndex_;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, blank >= 0 && blank < numClasses,
        errorf("blank_index expected to be between %d and %d but was %d",
               -numClasses, numClasses - 1, blankIndex_));
    Tensor *logProb = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(3, TensorShape{batchSize, 1}, &logProb));
    T *lp = logProb->data<T>();
    const T *x = inputs.data<T>();
    const int32_t *len = seqLen.data<int32_t>();
    Paths paths(batchSize);
    for (int64_t b = 0; b < batchSize; ++b) {
      paths[b].resize(1);
      std::vector<int> &path = paths[b][0];
      T sum = T(0);
      int previous = -1;
      for (int64_t t = 0; t < len[b]; ++t) {
        const T *row = x + (t * batchSize + b) * numClasses;
        int best = 0;
        for (int c = 1; c < numClasses; ++c)
          if (row[c] > row[best])
            best = c;
        sum += -row[best];
        if (best != blank && !(mergeRepeated_ && best == previous))
          path.push_back(best);
        previous = best;
      }
      lp[b] = sum;
    }
    storePaths(ctx, paths, 1, batchSize);
  }

private:
  bool mergeRepeated_ = false;
  int64_t blankIndex_ = -1;
};

//===----------------------------------------------------------------------===//
// CTCBeamSearchDecoder
//===----------------------------------------------------------------------===//

/// -inf, TF's kLogZero.
template <typename T> constexpr T logZero() {
  return -std::numeric_limits<T>::infinity();
}

/// TF's LogSumExp (ctc_loss_util.h): the correction term is computed in
/// float (log1pf(expf(..))) for double as well.
template <typename T> T logSumExp(T a, T b) {
  if (a == logZero<T>())
    return b;
  if (b == logZero<T>())
    return a;
  if (a > b)
    return a + std::log1p(std::exp(static_cast<float>(b - a)));
  return b + std::log1p(std::exp(static_cast<float>(a - b)));
}

/// One prefix of the beam (TF's BeamEntry with an empty state): its log
/// probabilities ending in blank / in its label, their sum, at the previous
/// step (old) and this one (now).
template <typename T> struct BeamEntry {
  struct Prob {
    T total = logZero<T>(), blank = logZero<T>(), label = logZero<T>();
    void reset() { *this = Prob(); }
  };
  BeamEntry *parent = nullptr;
  int label = -1;
  std::unordered_map<int, BeamEntry *> children;
  Prob oldp, newp;

  bool active() const { return newp.total != logZero<T>(); }

  /// The label sequence from the root, merging equal neighbours when
  /// `mergeRepeated`.
  std::vector<int> labels(bool mergeRepeated) const {
    std::vector<int> out;
    int previous = -1;
    for (const BeamEntry *e = this; e->parent; e = e->parent) {
      if (!mergeRepeated || e->label != previous)
        out.push_back(e->label);
      previous = e->label;
    }
    std::reverse(out.begin(), out.end());
    return out;
  }
};

/// TF's gtl::TopN of beam entries by newp.total (greater is better): an
/// unordered vector until it overflows its limit, then a heap whose front
/// is the weakest entry. Same push/drop order as TF's, so equal scores
/// resolve the same way.
template <typename T> class TopBeams {
public:
  explicit TopBeams(size_t limit) : limit_(limit) {}

  size_t size() const { return entries_.size(); }

  void push(BeamEntry<T> *entry) {
    if (limit_ == 0)
      return;
    if (state_ != State::Heap) {
      entries_.push_back(entry);
      if (entries_.size() == limit_ + 1) {
        std::make_heap(entries_.begin(), entries_.end(), better);
        std::pop_heap(entries_.begin(), entries_.end(), better);
        entries_.pop_back();
        state_ = State::Heap;
      } else if (state_ == State::BottomKnown &&
                 !better(entries_.back(), entries_.front())) {
        std::swap(entries_.front(), entries_.back());
      }
      return;
    }
    if (better(entry, entries_.front())) {
      std::pop_heap(entries_.begin(), entries_.end(), better);
      entries_.back() = entry;
      std::push_heap(entries_.begin(), entries_.end(), better);
    }
  }

  /// The weakest entry (size() > 0).
  BeamEntry<T> *bottom() {
    if (state_ == State::Unordered) {
      size_t weakest = 0;
      for (size_t i = 1; i < entries_.size(); ++i)
        if (better(entries_[weakest], entries_[i]))
          weakest = i;
      std::swap(entries_[0], entries_[weakest]);
      state_ = State::BottomKnown;
    }
    return entries_.front();
  }

  /// The entries, best first; empties the set.
  std::vector<BeamEntry<T> *> extract() {
    std::vector<BeamEntry<T> *> out;
    out.swap(entries_);
    if (state_ != State::Heap)
      std::sort(out.begin(), out.end(), better);
    else
      std::sort_heap(out.begin(), out.end(), better);
    state_ = State::Unordered;
    return out;
  }

  const std::vector<BeamEntry<T> *> &unsorted() const { return entries_; }

private:
  static bool better(const BeamEntry<T> *a, const BeamEntry<T> *b) {
    return a->newp.total > b->newp.total;
  }
  enum class State { Unordered, BottomKnown, Heap };
  std::vector<BeamEntry<T> *> entries_;
  size_t limit_;
  State state_ = State::Unordered;
};

/// CTCBeamSearchDecoder(inputs, sequence_length; beam_width >= 1,
/// top_paths >= 1, merge_repeated = true) -> (top_paths decoded_indices,
/// top_paths decoded_values, top_paths decoded_shape, log_probability
/// [batch, top_paths]) (file header).
template <typename T> class CtcBeamSearchDecoderKernel final : public OpKernel {
public:
  explicit CtcBeamSearchDecoderKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "merge_repeated", &mergeRepeated_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("beam_width", &beamWidth_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("top_paths", &topPaths_));
    if (beamWidth_ < 1)
      ctx->ctxFailure(errorf("beam_width must be >= 1, got %d", beamWidth_));
    else if (topPaths_ < 1)
      ctx->ctxFailure(errorf("top_paths must be >= 1, got %d", topPaths_));
    else if (ctx->numOutputs() != 3 * topPaths_ + 1)
      ctx->ctxFailure(errorf("top_paths is %d: the node needs %d outputs, "
                             "has %d",
                             topPaths_, 3 * topPaths_ + 1, ctx->numOutputs()));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &inputs = ctx->input(0);
    const Tensor &seqLen = ctx->input(1);
    int64_t maxTime = 0, batchSize = 0;
    int numClasses = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, validateCtcInputs(*this, inputs, seqLen,
                                                        &maxTime, &batchSize,
                                                        &numClasses));
    Tensor *logProb = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(3 * topPaths_,
                                 TensorShape{batchSize, topPaths_}, &logProb));
    T *lp = logProb->data<T>();
    const T *x = inputs.data<T>();
    const int32_t *len = seqLen.data<int32_t>();
    Paths paths(batchSize);
    for (int64_t b = 0; b < batchSize; ++b) {
      // All entries of this batch entry's prefix tree; the root first.
      std::vector<std::unique_ptr<BeamEntry<T>>> tree;
      tree.push_back(std::make_unique<BeamEntry<T>>());
      BeamEntry<T> *root = tree[0].get();
      root->newp.total = T(0);
      root->newp.blank = T(0);
      TopBeams<T> leaves(static_cast<size_t>(beamWidth_));
      leaves.push(root);
      for (int64_t t = 0; t < len[b]; ++t)
        TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                     step(x + (t * batchSize + b) * numClasses,
                                          numClasses, tree, leaves));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, topPaths_ <= beamWidth_,
          errorf("requested more paths than the beam width."));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, static_cast<size_t>(topPaths_) <= leaves.size(),
          errorf("Less leaves in the beam search than requested."));
      TopBeams<T> top(static_cast<size_t>(topPaths_));
      for (BeamEntry<T> *entry : leaves.unsorted())
        top.push(entry);
      std::vector<BeamEntry<T> *> best = top.extract();
      paths[b].resize(topPaths_);
      for (int p = 0; p < topPaths_; ++p) {
        paths[b][p] = best[p]->labels(mergeRepeated_);
        lp[b * topPaths_ + p] = best[p]->newp.total;
      }
    }
    storePaths(ctx, paths, topPaths_, batchSize);
  }

private:
  /// One time step of TF's CTCBeamSearchDecoder::Step over the logits
  /// `in` (numClasses of them, the blank last).
  Status step(const T *in, int numClasses,
              std::vector<std::unique_ptr<BeamEntry<T>>> &tree,
              TopBeams<T> &leaves) const {
    const int blank = numClasses - 1;
    T maxCoeff = in[0];
    for (int c = 1; c < numClasses; ++c)
      maxCoeff = std::max(maxCoeff, in[c]);
    T sum = T(0);
    for (int c = 0; c < numClasses; ++c)
      sum += std::exp(in[c] - maxCoeff);
    const T normOffset = maxCoeff + std::log(sum);

    std::vector<BeamEntry<T> *> branches = leaves.extract();
    for (BeamEntry<T> *b : branches)
      b->oldp = b->newp;
    // Extend each prefix by a blank or by repeating its last label.
    for (BeamEntry<T> *b : branches) {
      if (b->parent) {
        if (b->parent->active()) {
          const T previous = b->label == b->parent->label
                                 ? b->parent->oldp.blank
                                 : b->parent->oldp.total;
          b->newp.label = logSumExp(b->newp.label, previous);
        }
        b->newp.label += in[b->label] - normOffset;
      }
      b->newp.blank = b->oldp.total + in[blank] - normOffset;
      b->newp.total = logSumExp(b->newp.blank, b->newp.label);
      leaves.push(b);
    }
    // Extend each prefix by a new label.
    auto isCandidate = [&](const typename BeamEntry<T>::Prob &prob) {
      return prob.total > logZero<T>() &&
             (leaves.size() < static_cast<size_t>(beamWidth_) ||
              prob.total > leaves.bottom()->newp.total);
    };
    for (BeamEntry<T> *b : branches) {
      if (!isCandidate(b->oldp))
        continue;
      for (int label = 0; label < blank; ++label) {
        // TF makes the child first and resets it when it is no candidate:
        // an entry in that state is one never made, so it is made only
        // when it enters the beam (far fewer entries).
        auto it = b->children.find(label);
        BeamEntry<T> *c = it == b->children.end() ? nullptr : it->second;
        if (c && c->active())
          continue;
        const T previous = label == b->label ? b->oldp.blank : b->oldp.total;
        typename BeamEntry<T>::Prob p;
        p.label = in[label] - normOffset + previous;
        p.total = p.label;
        if (!isCandidate(p)) {
          if (c) {
            c->oldp.reset();
            c->newp.reset();
          }
          continue;
        }
        if (!c) {
          // The tree grows with the input; bound it by the run's memory.
          if (tree.size() % 4096 == 0)
            if (Status status = checkHostAllocation(tree.size() + 4096,
                                                    sizeof(BeamEntry<T>) + 64);
                !status.ok())
              return status;
          tree.push_back(std::make_unique<BeamEntry<T>>());
          c = tree.back().get();
          c->parent = b;
          c->label = label;
          b->children.emplace(label, c);
        }
        c->newp = p;
        if (leaves.size() == static_cast<size_t>(beamWidth_))
          leaves.bottom()->newp.reset();
        leaves.push(c);
      }
    }
    return OkStatus();
  }

  bool mergeRepeated_ = true;
  int32_t beamWidth_ = 1;
  int32_t topPaths_ = 1;
};

} // namespace

void registerCtcKernels(KernelRegistry &registry) {
  registerKernel<OpId::kCTCGreedyDecoder, CtcGreedyDecoderKernel, float,
                 double>(registry);
  registerKernel<OpId::kCTCBeamSearchDecoder, CtcBeamSearchDecoderKernel, float,
                 double>(registry);
}

} // namespace tfrt_fallback::rt

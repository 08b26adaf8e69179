//===- SliceKernels.cpp - Slice, StridedSlice -------------------*- C++ -*-===//
//
// Slice and StridedSlice (TF's ValidateStridedSliceOp ported). Contiguous
// results (dim-0 slices, identity slices) share the input buffer.
//
// Every kernel here moves raw elements (StridedCopy.h) and is registered
// for every dtype. Index operands may be int32 or int64: their type
// attributes type them (the op table), which the loader checks when a node
// has them; they default to int32 and may be left out of a graph, so they
// are not registration constraints.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"
#include "StridedCopy.h"
#include "StringCopy.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Emits output 0 = the strided view (dims, per-dim input steps, base) of
/// `input` with `shape` (same element count as dims): shared when the view
/// is contiguous, copied otherwise.
void emitStridedView(OpKernelContextInterface *ctx, const Tensor &input,
                     int64_t base, const Dims &dims, const Dims &steps,
                     TensorShape shape) {
  if (shape.numElements() == 0) {
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    return;
  }
  if (isContiguousPlan(dims, steps)) {
    ctx->setOutput(0, subTensor(input, base, std::move(shape)));
    return;
  }
  Tensor *out = nullptr;
  TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
  stridedCopy(ctx->eigenDevice(), input, base, dims, steps, *out);
}

/// Slice(input, begin, size): the block starting at `begin` with `size`
/// elements per dim (1-D int32/int64, Index); size -1 means "to the end".
/// Requires 0 <= begin[i] <= dim[i] and 0 <= size[i] <= dim[i] - begin[i].
class SliceKernel final : public OpKernel {
public:
  explicit SliceKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &beginT = ctx->input(1);
    const Tensor &sizeT = ctx->input(2);
    const int rank = input.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        beginT.rank() == 1 && sizeT.rank() == 1 &&
            beginT.numElements() == rank && sizeT.numElements() == rank &&
            isIndexTensor(beginT) && isIndexTensor(sizeT),
        errorf("Expected begin and size arguments to be 1-D tensors of size "
               "%d, but got shapes %s and %s instead.",
               rank, beginT.shape().toString(), sizeT.shape().toString()));
    Dims dims(rank), steps = stridesOf(input.shape().dims());
    int64_t base = 0;
    for (int i = 0; i < rank; ++i) {
      const int64_t d = input.dim(i), b = indexAt(beginT, i);
      int64_t s = indexAt(sizeT, i);
      if (s == -1)
        s = d - b;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, b >= 0 && b <= d,
          errorf("Expected begin[%d] in [0, %d], but got %d", i, d, b));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s >= 0 && s <= d - b,
          errorf("Expected size[%d] in [0, %d], but got %d", i, d - b, s));
      dims[i] = s;
      base += b * steps[i];
    }
    emitStridedView(ctx, input, base, dims, steps, TensorShape(dims));
  }
};

/// The result of TF's ValidateStridedSliceOp: the per-input-dim begin and
/// stride and the processing shape (one entry per input dim), and the final
/// shape (new axes added, shrunk axes removed).
struct StridedSlicePlan {
  Dims begin, stride, processingDims;
  TensorShape::Dims finalDims;
  bool identity = true;
};

/// TF's ValidateStridedSliceOp for known input shapes: expands the sparse
/// spec (ellipsis, new_axis) into one entry per input dim, applies the
/// begin/end masks, clamps begin/end into the valid range for the stride's
/// sign, checks shrink indices, and computes the slice sizes.
template <typename Kernel>
Status planStridedSlice(const Kernel &kernel, const TensorShape &shape,
                        const Tensor &beginT, const Tensor &endT,
                        const Tensor &stridesT, int32_t beginMask,
                        int32_t endMask, int32_t ellipsisMask,
                        int32_t newAxisMask, int32_t shrinkMask,
                        StridedSlicePlan *plan) {
  const int64_t sparseCount = stridesT.numElements();
  if (beginT.rank() != 1 || endT.rank() != 1 || stridesT.rank() != 1 ||
      beginT.numElements() != sparseCount ||
      endT.numElements() != sparseCount || sparseCount >= 32 ||
      !isIndexTensor(beginT) || !isIndexTensor(endT) ||
      !isIndexTensor(stridesT))
    return kernel.errorf("Expected begin, end, and strides to be 1D equal "
                         "size tensors, but got shapes %s, %s, and %s instead.",
                         beginT.shape().toString(), endT.shape().toString(),
                         stridesT.shape().toString());
  if (ellipsisMask && (ellipsisMask & (ellipsisMask - 1)) != 0)
    return kernel.errorf("Multiple ellipses in slice spec not allowed");

  // Step 1: new axes after the ellipsis; an implicit trailing ellipsis.
  int sparseDims = static_cast<int>(sparseCount);
  int numAddAxisAfterEllipsis = 0;
  bool ellipsisSeen = false;
  for (int i = 0; i < sparseDims; ++i) {
    if (ellipsisSeen && ((1 << i) & newAxisMask) != 0)
      ++numAddAxisAfterEllipsis;
    if ((1 << i) & ellipsisMask)
      ellipsisSeen = true;
  }
  int32_t sparseEllipsis = ellipsisMask;
  if (!ellipsisSeen) {
    sparseEllipsis |= (1 << sparseDims);
    ++sparseDims;
  }

  // Step 2: the dense spec, one entry per input dim.
  const int dims = shape.rank();
  constexpr int kShrinkAxis = -1, kNewAxis = -2;
  Dims begin(dims, 0), end(dims, 0), strides(dims, 1);
  int32_t denseBeginMask = 0, denseEndMask = 0, denseShrink = 0;
  absl::InlinedVector<int, 8> gather;
  int full = 0;
  for (int i = 0; i < sparseDims; ++i) {
    if ((1 << i) & sparseEllipsis) {
      const int next =
          std::min(dims - (sparseDims - i) + 1 + numAddAxisAfterEllipsis, dims);
      for (; full < next; ++full) {
        begin[full] = end[full] = 0;
        strides[full] = 1;
        denseBeginMask |= (1 << full);
        denseEndMask |= (1 << full);
        gather.push_back(full);
      }
    } else if ((1 << i) & newAxisMask) {
      gather.push_back(kNewAxis);
    } else {
      if (full == dims)
        return kernel.errorf("Index out of range using input dim %d; input "
                             "has only %d dims",
                             full, dims);
      begin[full] = indexAt(beginT, i);
      end[full] = indexAt(endT, i);
      strides[full] = indexAt(stridesT, i);
      if (beginMask & (1 << i))
        denseBeginMask |= (1 << full);
      if (endMask & (1 << i))
        denseEndMask |= (1 << full);
      if (shrinkMask & (1 << i)) {
        gather.push_back(kShrinkAxis);
        denseShrink |= (1 << full);
      } else {
        gather.push_back(full);
      }
      ++full;
    }
  }

  // Step 3: canonical begin/end and the processing shape.
  plan->begin.assign(dims, 0);
  plan->stride.assign(dims, 1);
  plan->processingDims.assign(dims, 0);
  plan->identity = true;
  for (int i = 0; i < dims; ++i) {
    const int64_t stride = strides[i];
    const int64_t dim = shape.dim(i);
    if (stride == 0)
      return kernel.errorf("strides[%d] must be non-zero", i);
    const bool shrink = denseShrink & (1 << i);
    const bool masks[2] = {(denseBeginMask & (1 << i)) != 0,
                           (denseEndMask & (1 << i)) != 0};
    const int64_t validRange[2] = {stride > 0 ? 0 : -1,
                                   stride > 0 ? dim : dim - 1};
    auto canonical = [&](int64_t x, int c) -> int64_t {
      if (masks[c])
        return stride > 0 ? validRange[c] : validRange[(c + 1) & 1];
      const int64_t fwd = x < 0 ? dim + x : x;
      return fwd < validRange[0]   ? validRange[0]
             : fwd > validRange[1] ? validRange[1]
                                   : fwd;
    };
    if (shrink && stride <= 0)
      return kernel.errorf("only stride 1 allowed on non-range indexing.");
    int64_t b, e;
    if (shrink) {
      const int64_t fwd = begin[i] < 0 ? dim + begin[i] : begin[i];
      b = fwd;
      e = b + 1;
      if (fwd < 0 || fwd >= dim)
        return kernel.errorf("slice index %d of dimension %d out of bounds.",
                             begin[i], i);
    } else {
      b = canonical(begin[i], 0);
      e = canonical(end[i], 1);
    }
    plan->identity &= stride == 1 && b == 0 && e == dim;
    const int64_t interval = e - b;
    int64_t size;
    if (interval == 0 || ((interval < 0) != (stride < 0)))
      size = 0;
    else
      size = interval / stride + (interval % stride != 0 ? 1 : 0);
    plan->begin[i] = b;
    plan->stride[i] = stride;
    plan->processingDims[i] = size;
  }

  // Step 4: the final shape.
  plan->finalDims.clear();
  for (int g : gather) {
    if (g >= 0)
      plan->finalDims.push_back(plan->processingDims[g]);
    else if (g == kNewAxis)
      plan->finalDims.push_back(1);
  }
  return OkStatus();
}

/// StridedSlice(input, begin, end, strides; begin_mask, end_mask,
/// ellipsis_mask, new_axis_mask, shrink_axis_mask): NumPy basic indexing
/// exactly as TF's ValidateStridedSliceOp: one (begin, end, stride) per
/// sparse index (1-D int32/int64, Index); bit i of begin_mask / end_mask
/// ignores begin[i] / end[i] (full range for the stride's sign);
/// ellipsis_mask (at most one bit) expands to the dims not otherwise
/// indexed; new_axis_mask inserts a size-1 dim; shrink_axis_mask takes the
/// single index begin[i] (negative from the end, must be in range) and
/// drops the dim. Out-of-range begin/end are clamped; negative strides walk
/// backwards. Identity slices and contiguous results share the input.
/// `Strings` is the string form (StringCopy.h), a class of its own.
template <bool Strings = false>
class StridedSliceKernel final : public OpKernel {
public:
  explicit StridedSliceKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    const std::pair<const char *, int32_t *> masks[] = {
        {"begin_mask", &beginMask_},
        {"end_mask", &endMask_},
        {"ellipsis_mask", &ellipsisMask_},
        {"new_axis_mask", &newAxisMask_},
        {"shrink_axis_mask", &shrinkMask_}};
    for (const auto &[name, value] : masks)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, name, value));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    StridedSlicePlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        planStridedSlice(*this, input.shape(), ctx->input(1), ctx->input(2),
                         ctx->input(3), beginMask_, endMask_, ellipsisMask_,
                         newAxisMask_, shrinkMask_, &plan));
    TensorShape finalShape(plan.finalDims);
    if (plan.identity) {
      ctx->setOutput(0, input.reshaped(std::move(finalShape)));
      return;
    }
    const int rank = input.rank();
    Dims steps = stridesOf(input.shape().dims());
    int64_t base = 0;
    for (int i = 0; i < rank; ++i) {
      base += plan.begin[i] * steps[i];
      steps[i] *= plan.stride[i];
    }
    if constexpr (Strings)
      emitStringStridedView(ctx, input, base, plan.processingDims, steps,
                            std::move(finalShape));
    else
      emitStridedView(ctx, input, base, plan.processingDims, steps,
                      std::move(finalShape));
  }

private:
  int32_t beginMask_ = 0, endMask_ = 0, ellipsisMask_ = 0, newAxisMask_ = 0,
          shrinkMask_ = 0;
};

} // namespace

void registerSliceKernels(KernelRegistry &registry) {
  registerKernel<OpId::kSlice, SliceKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kStridedSlice, StridedSliceKernel<>>(
      registry, {{"T", kAllDTypes}});
  registerStringKernel<OpId::kStridedSlice, StridedSliceKernel<true>>(registry);
}

} // namespace tfrt_fallback::rt

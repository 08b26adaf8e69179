//===- SliceKernels.cpp - Slice, StridedSlice -------------------*- C++ -*-===//
//
// Slice, StridedSlice and TensorStridedSliceUpdate (TF's
// ValidateStridedSliceOp ported in StridedSlice.h, which
// ResourceStridedSliceAssign shares). Contiguous results (dim-0 slices,
// identity slices) share the input buffer.
//
// Every kernel here moves raw elements (StridedCopy.h) and is registered
// for every dtype. Index operands may be int32 or int64: their type
// attributes type them (the op table), which the loader checks when a node
// has them; they default to int32 and may be left out of a graph, so they
// are not registration constraints.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"
#include "common/StridedCopy.h"
#include "common/StridedSlice.h"
#include "common/StringCopy.h"

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

/// TensorStridedSliceUpdate(input, begin, end, strides, value; masks as
/// StridedSlice): a copy of `input` (its buffer when the executor allows
/// forwarding) with the slice StridedSlice would read set to `value`,
/// broadcast to the slice's final shape as TF's StridedSliceAssignBCast
/// (strided_slice_op.cc): leading dims of `value` beyond the final rank
/// must be 1, the others equal or 1. An empty slice ignores `value`'s
/// shape, as in TF. Raw elements, every dtype; `Strings` is the string
/// form, which builds a new string tensor from the views of both.
template <bool Strings = false>
class TensorStridedSliceUpdateKernel final : public OpKernel {
public:
  explicit TensorStridedSliceUpdateKernel(OpKernelConstructionInterface *ctx)
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
    const Tensor &value = ctx->input(4);
    StridedSlicePlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        planStridedSlice(*this, input.shape(), ctx->input(1), ctx->input(2),
                         ctx->input(3), beginMask_, endMask_, ellipsisMask_,
                         newAxisMask_, shrinkMask_, &plan));
    int64_t count = 1;
    for (int64_t dim : plan.processingDims)
      count *= dim;
    Dims valueSteps;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        count == 0 || stridedSliceValueSteps(value.shape(), plan, &valueSteps),
        errorf("Cannot broadcast input shape %s into final shape %s",
               value.shape().toString(),
               TensorShape(plan.finalDims).toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.dtype() == input.dtype(),
        errorf("value must have the input's dtype %s, got %s",
               dtypeName(input.dtype()), dtypeName(value.dtype())));
    if constexpr (Strings) {
      auto in = stringElements(input);
      std::vector<std::string_view> views(in.begin(), in.end());
      if (count > 0)
        writeStridedSliceViews(plan, valueSteps, stringElements(value),
                               input.shape().dims(), &views);
      StatusOr<Tensor> out = makeStringTensor(input.shape(), views);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
      ctx->setOutput(0, *std::move(out));
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, input.shape(), &out));
    if (out->rawData() != input.rawData() && input.totalBytes() > 0)
      parallelMemcpy(ctx->eigenDevice(), static_cast<char *>(out->rawData()),
                     static_cast<const char *>(input.rawData()),
                     static_cast<int64_t>(input.totalBytes()));
    if (count > 0)
      writeStridedSlice(plan, valueSteps, value, *out);
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
  registerKernel<OpId::kTensorStridedSliceUpdate,
                 TensorStridedSliceUpdateKernel<>>(registry,
                                                   {{"T", kAllDTypes}});
  registerStringKernel<OpId::kTensorStridedSliceUpdate,
                       TensorStridedSliceUpdateKernel<true>>(registry);
}

} // namespace tfrt_fallback::rt

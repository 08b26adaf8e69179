//===- StridedSlice.cpp - TF's strided-slice spec ---------------*- C++ -*-===//
//
// TF's ValidateStridedSliceOp over a partially known shape.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/StridedSlice.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <algorithm>

namespace tfrt_fallback::rt::shape {

StatusOr<StridedSlicePlan> planStridedSlice(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> beginSpec,
    absl::Span<const int64_t> endSpec, absl::Span<const int64_t> strideSpec,
    const StridedSliceMasks &masks) {
  const int64_t sparseCount = static_cast<int64_t>(strideSpec.size());
  if (beginSpec.size() != strideSpec.size() ||
      endSpec.size() != strideSpec.size() || sparseCount >= 32)
    return makeError(StatusCode::kInvalidArgument,
                     "Expected begin, end, and strides to be 1D equal size "
                     "tensors, but got shapes [%zu], [%zu], and [%zu] instead.",
                     beginSpec.size(), endSpec.size(), strideSpec.size());
  if (masks.ellipsis && (masks.ellipsis & (masks.ellipsis - 1)) != 0)
    return makeError(StatusCode::kInvalidArgument,
                     "Multiple ellipses in slice spec not allowed");

  // Step 1: new axes after the ellipsis; an implicit trailing ellipsis.
  int sparseDims = static_cast<int>(sparseCount);
  int numAddAxisAfterEllipsis = 0;
  bool ellipsisSeen = false;
  for (int i = 0; i < sparseDims; ++i) {
    if (ellipsisSeen && ((int64_t(1) << i) & masks.newAxis) != 0)
      ++numAddAxisAfterEllipsis;
    if ((int64_t(1) << i) & masks.ellipsis)
      ellipsisSeen = true;
  }
  int64_t sparseEllipsis = masks.ellipsis;
  if (!ellipsisSeen) {
    sparseEllipsis |= int64_t(1) << sparseDims;
    ++sparseDims;
  }

  // Step 2: the dense spec, one entry per input dim.
  const int dims = static_cast<int>(shape.size());
  constexpr int kShrinkAxis = -1, kNewAxis = -2;
  absl::InlinedVector<int64_t, 8> begin(dims, 0), end(dims, 0),
      strides(dims, 1);
  int64_t denseBeginMask = 0, denseEndMask = 0, denseShrink = 0;
  absl::InlinedVector<int, 8> gather;
  int full = 0;
  for (int i = 0; i < sparseDims; ++i) {
    const int64_t bit = int64_t(1) << i;
    if (bit & sparseEllipsis) {
      const int next =
          std::min(dims - (sparseDims - i) + 1 + numAddAxisAfterEllipsis, dims);
      for (; full < next; ++full) {
        denseBeginMask |= int64_t(1) << full;
        denseEndMask |= int64_t(1) << full;
        gather.push_back(full);
      }
    } else if (bit & masks.newAxis) {
      gather.push_back(kNewAxis);
    } else {
      if (full == dims)
        return makeError(StatusCode::kInvalidArgument,
                         "Index out of range using input dim %d; input has "
                         "only %d dims",
                         full, dims);
      begin[full] = beginSpec[i];
      end[full] = endSpec[i];
      strides[full] = strideSpec[i];
      if (masks.begin & bit)
        denseBeginMask |= int64_t(1) << full;
      if (masks.end & bit)
        denseEndMask |= int64_t(1) << full;
      if (masks.shrinkAxis & bit) {
        gather.push_back(kShrinkAxis);
        denseShrink |= int64_t(1) << full;
      } else {
        gather.push_back(full);
      }
      ++full;
    }
  }

  // Step 3: canonical begin and end, and the size of each input dim's
  // slice.
  StridedSlicePlan plan;
  plan.begin.assign(dims, -1);
  plan.stride.assign(dims, 1);
  plan.processingDims.assign(dims, -1);
  for (int i = 0; i < dims; ++i) {
    const int64_t stride = strides[i];
    const int64_t dim = shape[i];
    const int64_t bit = int64_t(1) << i;
    if (stride == 0)
      return makeError(StatusCode::kInvalidArgument,
                       "strides[%d] must be non-zero", i);
    const bool shrink = denseShrink & bit;
    if (shrink && stride <= 0)
      return makeError(StatusCode::kInvalidArgument,
                       "only stride 1 allowed on non-range indexing.");
    plan.stride[i] = stride;
    if (dim < 0) {
      // Unknown: so is the size, except that a shrunk dim has one element.
      plan.identity = false;
      if (shrink)
        plan.processingDims[i] = 1;
      continue;
    }
    const bool masked[2] = {(denseBeginMask & bit) != 0,
                            (denseEndMask & bit) != 0};
    const int64_t validRange[2] = {stride > 0 ? 0 : -1,
                                   stride > 0 ? dim : dim - 1};
    auto canonical = [&](int64_t x, int c) -> int64_t {
      if (masked[c])
        return stride > 0 ? validRange[c] : validRange[(c + 1) & 1];
      const int64_t forward = x < 0 ? dim + x : x;
      return forward < validRange[0]   ? validRange[0]
             : forward > validRange[1] ? validRange[1]
                                       : forward;
    };
    int64_t b, e;
    if (shrink) {
      const int64_t forward = begin[i] < 0 ? dim + begin[i] : begin[i];
      if (forward < 0 || forward >= dim)
        return makeError(StatusCode::kInvalidArgument,
                         "slice index %lld of dimension %d out of bounds.",
                         static_cast<long long>(begin[i]), i);
      b = forward;
      e = b + 1;
    } else {
      b = canonical(begin[i], 0);
      e = canonical(end[i], 1);
    }
    plan.identity &= stride == 1 && b == 0 && e == dim;
    const int64_t interval = e - b;
    int64_t size;
    if (interval == 0 || ((interval < 0) != (stride < 0)))
      size = 0;
    else
      size = interval / stride + (interval % stride != 0 ? 1 : 0);
    plan.begin[i] = b;
    plan.processingDims[i] = size;
  }

  // Step 4: the final shape.
  for (int g : gather) {
    if (g >= 0) {
      plan.finalDims.push_back(plan.processingDims[g]);
      plan.finalToProcessing.push_back(g);
    } else if (g == kNewAxis) {
      plan.finalDims.push_back(1);
      plan.finalToProcessing.push_back(-1);
    }
  }
  return plan;
}

} // namespace tfrt_fallback::rt::shape

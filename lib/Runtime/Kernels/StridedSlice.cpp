//===- StridedSlice.cpp - TF's strided-slice spec -------------------------===//
//
// planStridedSlice, stridedSliceValueSteps and writeStridedSlice
// (StridedSlice.h).
//
//===----------------------------------------------------------------------===//

#include "StridedSlice.h"
#include "KernelUtils.h"

#include <algorithm>

namespace tfrt_fallback::rt::kernels {

Status planStridedSlice(const OpKernel &kernel, const TensorShape &shape,
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
  plan->finalToProcessing.clear();
  for (int g : gather) {
    if (g >= 0) {
      plan->finalDims.push_back(plan->processingDims[g]);
      plan->finalToProcessing.push_back(g);
    } else if (g == kNewAxis) {
      plan->finalDims.push_back(1);
      plan->finalToProcessing.push_back(-1);
    }
  }
  return OkStatus();
}

bool stridedSliceValueSteps(const TensorShape &shape,
                            const StridedSlicePlan &plan, Dims *valueSteps) {
  const int finalRank = static_cast<int>(plan.finalDims.size());
  const int inStart = std::max(0, shape.rank() - finalRank);
  for (int i = 0; i < inStart; ++i)
    if (shape.dim(i) != 1)
      return false;
  const int outStart = std::max(0, finalRank - shape.rank());
  const Dims strides = stridesOf(shape.dims());
  valueSteps->assign(plan.processingDims.size(), 0);
  for (int f = outStart; f < finalRank; ++f) {
    const int v = f - outStart + inStart;
    const int64_t dim = shape.dim(v);
    if (dim != plan.finalDims[f] && dim != 1)
      return false;
    const int p = plan.finalToProcessing[f];
    if (p >= 0 && dim != 1)
      (*valueSteps)[p] = strides[v];
  }
  return true;
}

namespace {
/// Calls f(to, from) for each element of the slice the plan selects in a
/// row-major tensor of `dims`: `to` its flat position there, `from` the
/// flat position of its value (read at `valueSteps`).
template <typename F>
void forEachSliceElement(const StridedSlicePlan &plan, const Dims &valueSteps,
                         absl::Span<const int64_t> dims, F &&f) {
  int64_t count = 1;
  for (int64_t dim : plan.processingDims)
    count *= dim;
  if (count == 0)
    return;
  const int rank = static_cast<int>(dims.size());
  Dims steps = stridesOf(dims);
  int64_t base = 0;
  for (int d = 0; d < rank; ++d) {
    base += plan.begin[d] * steps[d];
    steps[d] *= plan.stride[d];
  }
  // An odometer over the slice's input-dim coordinates.
  Dims index(rank, 0);
  int64_t to = base, from = 0;
  for (int64_t i = 0; i < count; ++i) {
    f(to, from);
    for (int d = rank - 1; d >= 0; --d) {
      if (++index[d] < plan.processingDims[d]) {
        to += steps[d];
        from += valueSteps[d];
        break;
      }
      to -= steps[d] * (plan.processingDims[d] - 1);
      from -= valueSteps[d] * (plan.processingDims[d] - 1);
      index[d] = 0;
    }
  }
}
} // namespace

void writeStridedSlice(const StridedSlicePlan &plan, const Dims &valueSteps,
                       const Tensor &value, Tensor &dst) {
  dispatchElementSize(dst.dtype(), [&](auto e) {
    using E = decltype(e);
    E *out = static_cast<E *>(dst.rawData());
    const E *src = static_cast<const E *>(value.rawData());
    forEachSliceElement(plan, valueSteps, dst.shape().dims(),
                        [&](int64_t to, int64_t from) { out[to] = src[from]; });
  });
}

void writeStridedSliceViews(const StridedSlicePlan &plan,
                            const Dims &valueSteps,
                            absl::Span<const std::string_view> value,
                            absl::Span<const int64_t> dims,
                            std::vector<std::string_view> *dst) {
  forEachSliceElement(plan, valueSteps, dims, [&](int64_t to, int64_t from) {
    (*dst)[to] = value[from];
  });
}

} // namespace tfrt_fallback::rt::kernels

//===- StridedSlice.cpp - TF's strided-slice spec -------------------------===//
//
// planStridedSlice, stridedSliceValueSteps and writeStridedSlice
// (StridedSlice.h).
//
//===----------------------------------------------------------------------===//

#include "common/StridedSlice.h"
#include "common/Elements.h"

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
  absl::InlinedVector<int64_t, 8> begin(sparseCount), end(sparseCount),
      strides(sparseCount);
  for (int64_t i = 0; i < sparseCount; ++i) {
    begin[i] = indexAt(beginT, i);
    end[i] = indexAt(endT, i);
    strides[i] = indexAt(stridesT, i);
  }
  StatusOr<StridedSlicePlan> planned = shape::planStridedSlice(
      shape.dims(), begin, end, strides,
      {beginMask, endMask, ellipsisMask, newAxisMask, shrinkMask});
  if (!planned.ok())
    return planned.status();
  *plan = *std::move(planned);
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

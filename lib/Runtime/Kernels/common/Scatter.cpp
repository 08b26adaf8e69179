//===- Scatter.cpp - Scatters shared by the scatter kernels ---------------===//
//
// The plans of Scatter.h and its untyped update.
//
//===----------------------------------------------------------------------===//

#include "common/Scatter.h"
#include "common/Checks.h"

#include "tfrt_fallback/Runtime/StrCat.h"

#include <string>

namespace tfrt_fallback::rt::kernels {
namespace {

/// Fills plan->offsets with the offset (in slices of shape[k:]) of each of
/// the `count` k-tuples of `indices` into `shape`, -1 for a tuple out of
/// range when `ignoreBad`; otherwise the first such tuple fails, named by
/// its position in `prefixDims`.
Status planTuples(const OpKernel &op, const TensorShape &shape,
                  const Tensor &indices, int64_t count, int64_t k,
                  absl::Span<const int64_t> prefixDims, bool ignoreBad,
                  ScatterPlan *plan) {
  plan->offsets.assign(count, 0);
  for (int64_t u = 0; u < count; ++u) {
    int64_t offset = 0;
    bool ok = true;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t v = indexAt(indices, u * k + j);
      ok = ok && v >= 0 && v < shape.dim(static_cast<int>(j));
      offset = offset * shape.dim(static_cast<int>(j)) + v;
    }
    if (!ok) {
      if (ignoreBad) {
        plan->offsets[u] = -1;
        continue;
      }
      return op.errorf("indices%s = [%s] does not index into shape %s",
                       sliceDebugString(prefixDims, u),
                       tupleString(indices, u, k), shape.toString());
    }
    plan->offsets[u] = offset;
  }
  return OkStatus();
}

} // namespace

Status readBadIndicesPolicy(const OpKernel &op,
                            OpKernelConstructionInterface *ctx, bool *ignore) {
  std::string policy;
  if (Status s = getOptionalAttr(ctx, "bad_indices_policy", &policy); !s.ok())
    return s;
  if (policy != "" && policy != "DEFAULT" && policy != "ERROR" &&
      policy != "IGNORE")
    return op.errorf("Unknown bad indices handling attribute: %s", policy);
  *ignore = policy == "IGNORE";
  return OkStatus();
}

Status planTensorScatter(const OpKernel &op, const TensorShape &shape,
                         const Tensor &indices, const Tensor &updates,
                         bool ignoreBad, ScatterPlan *plan) {
  if (!isIndexTensor(indices))
    return op.errorf("indices must be int32 or int64, got %s",
                     dtypeName(indices.dtype()));
  if (indices.rank() < 1)
    return op.errorf("Indices shape must have rank at least one. Found:%s",
                     indices.shape().toString());
  if (updates.rank() < 1)
    return op.errorf("Updates shape must have rank at least one. Found:%s",
                     updates.shape().toString());
  if (shape.numElements() == 0 &&
      (indices.numElements() > 0 || updates.numElements() > 0))
    return op.errorf("Indices and updates specified for empty output shape");
  const int outer = indices.rank() - 1;
  for (int i = 0; i < outer; ++i)
    if (i >= updates.rank() || indices.dim(i) != updates.dim(i))
      return op.errorf("Outer dimensions of indices and update must match. "
                       "Indices shape: %s, updates shape:%s",
                       indices.shape().toString(), updates.shape().toString());
  const int64_t ix = indices.dim(outer);
  if (updates.rank() - outer != shape.rank() - ix)
    return op.errorf("Inner dimensions of output shape must match inner "
                     "dimensions of updates shape. Output: %s updates: %s",
                     shape.toString(), updates.shape().toString());
  *plan = ScatterPlan();
  for (int i = 0; i + outer < updates.rank(); ++i) {
    if (updates.dim(i + outer) != shape.dim(static_cast<int>(ix) + i))
      return op.errorf("The inner %d dimensions of output.shape=%s must match "
                       "the inner %d dimensions of updates.shape=%s",
                       shape.rank() - ix, shape.toString(),
                       updates.rank() - outer, updates.shape().toString());
    plan->slice *= updates.dim(i + outer);
  }
  int64_t count = 1;
  for (int i = 0; i < outer; ++i)
    count *= indices.dim(i);
  return planTuples(
      op, shape, indices, count, ix,
      absl::MakeConstSpan(indices.shape().dims()).subspan(0, outer), ignoreBad,
      plan);
}

Status planScatterNd(const OpKernel &op, const TensorShape &shape,
                     const Tensor &indices, const Tensor &updates,
                     bool ignoreBad, ScatterPlan *plan) {
  if (shape.rank() < 1)
    return op.errorf("Output must be at least 1-D, got shape: %s",
                     shape.toString());
  if (!isIndexTensor(indices))
    return op.errorf("indices must be int32 or int64, got %s",
                     dtypeName(indices.dtype()));
  if (indices.rank() < 1)
    return op.errorf("Indices shape must have rank at least one. Found:%s",
                     indices.shape().toString());
  // TF's ValidEmptyOutputShape.
  if (shape.numElements() == 0 &&
      (indices.numElements() > 0 || updates.numElements() > 0))
    return op.errorf("Indices and updates specified for empty output.  "
                     "indices shape: %s",
                     indices.shape().toString());
  if (updates.rank() >= 1 && updates.dim(0) != indices.dim(0))
    return op.errorf("Dimensions [0,1) of indices[shape=%s] = %d must match "
                     "dimensions [0,1) of updates[shape=%s] = %d",
                     indices.shape().toString(), indices.dim(0),
                     updates.shape().toString(), updates.dim(0));
  // TF's ValidateScatterNdUpdateShape: a vector of indices is that many
  // 1-tuples.
  const int rank = indices.rank();
  const int64_t sliceDim = rank > 1 ? indices.dim(rank - 1) : 1;
  const int batchDim = rank > 1 ? rank - 1 : 1;
  auto prefixError = [&] {
    return op.errorf("Dimensions [0,%d) of indices[shape=%s] must match "
                     "dimensions [0,%d) of updates[shape=%s]",
                     batchDim, indices.shape().toString(), batchDim,
                     updates.shape().toString());
  };
  auto suffixError = [&] {
    return op.errorf("Dimensions [%d,%d) of input[shape=%s] must match "
                     "dimensions [%d,%d) of updates[shape=%s]",
                     sliceDim, shape.rank(), shape.toString(), sliceDim,
                     updates.rank(), updates.shape().toString());
  };
  if (updates.rank() < batchDim)
    return prefixError();
  if (shape.rank() < sliceDim + (updates.rank() - batchDim) ||
      updates.rank() != batchDim + shape.rank() - sliceDim)
    return suffixError();
  for (int d = 0; d < batchDim; ++d)
    if (updates.dim(d) != indices.dim(d))
      return prefixError();
  *plan = ScatterPlan();
  for (int d = 0; d < updates.rank() - batchDim; ++d) {
    if (updates.dim(d + batchDim) != shape.dim(d + static_cast<int>(sliceDim)))
      return suffixError();
    plan->slice *= updates.dim(d + batchDim);
  }
  if (shape.numElements() == 0)
    return OkStatus();
  if (sliceDim < 1 || sliceDim > 7)
    return op.errorf("Only indices.shape[-1] values between 1 and 5 are "
                     "currently supported.  Requested rank: %d",
                     sliceDim);
  const int64_t count = indices.numElements() / sliceDim;
  absl::Span<const int64_t> prefix = indices.shape().dims();
  if (rank > 1)
    prefix.remove_suffix(1);
  return planTuples(op, shape, indices, count, sliceDim, prefix, ignoreBad,
                    plan);
}

Status planScatterRows(const OpKernel &op, const TensorShape &shape,
                       const Tensor &indices, const Tensor &updates,
                       bool updatesHaveZero, ScatterPlan *plan) {
  if (!isIndexTensor(indices))
    return op.errorf("indices must be int32 or int64, got %s",
                     dtypeName(indices.dtype()));
  if (shape.rank() < 1)
    return op.errorf("params must be at least 1 dimensional");
  auto shapeError = [&] {
    return op.errorf("Must have updates.shape = indices.shape + "
                     "params.shape[1:] or updates.shape = [], got "
                     "updates.shape %s, indices.shape %s, params.shape %s",
                     updates.shape().toString(), indices.shape().toString(),
                     shape.toString());
  };
  if (updates.rank() != 0 &&
      updates.rank() != indices.rank() + shape.rank() - 1)
    return shapeError();
  if (updatesHaveZero)
    return op.errorf("updates must not contain 0");
  *plan = ScatterPlan();
  for (int d = 1; d < shape.rank(); ++d)
    plan->slice *= shape.dim(d);
  const int64_t count = indices.numElements();
  if (count == 0)
    return OkStatus();
  plan->scalarUpdate = updates.rank() == 0;
  if (!plan->scalarUpdate) {
    for (int d = 0; d < indices.rank(); ++d)
      if (updates.dim(d) != indices.dim(d))
        return op.errorf("The shape of indices (%s) must be a prefix of the "
                         "shape of updates (%s)",
                         indices.shape().toString(),
                         updates.shape().toString());
    // TF reads the rows of updates without checking their shape; they
    // must be params' rows.
    for (int d = 1; d < shape.rank(); ++d)
      if (updates.dim(indices.rank() + d - 1) != shape.dim(d))
        return shapeError();
  }
  plan->offsets.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t index = indexAt(indices, i);
    if (index < 0 || index >= shape.dim(0))
      return op.errorf("indices%s = %d is not in [0, %d)",
                       sliceDebugString(indices.shape().dims(), i), index,
                       shape.dim(0));
    plan->offsets[i] = index;
  }
  return OkStatus();
}

void applyScatterUpdateBytes(void *out, const ScatterPlan &plan,
                             const void *updates, size_t elementBytes) {
  const size_t bytes = plan.slice * elementBytes;
  char *dst = static_cast<char *>(out);
  const char *src = static_cast<const char *>(updates);
  for (size_t u = 0; u < plan.offsets.size(); ++u) {
    if (plan.offsets[u] < 0)
      continue;
    char *row = dst + plan.offsets[u] * bytes;
    if (!plan.scalarUpdate) {
      std::memcpy(row, src + u * bytes, bytes);
      continue;
    }
    for (int64_t i = 0; i < plan.slice; ++i)
      std::memcpy(row + i * elementBytes, src, elementBytes);
  }
}

} // namespace tfrt_fallback::rt::kernels

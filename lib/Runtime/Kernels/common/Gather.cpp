//===- Gather.cpp - Gathers shared by the gather kernels ------------------===//
//
// The plans and row copies of Gather.h.
//
//===----------------------------------------------------------------------===//

#include "common/Gather.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"

#include <cstring>

namespace tfrt_fallback::rt::kernels {
namespace {

/// Copies out[b, o, k, :] = params[b, o, idx[b * n + k], :] for validated
/// indices, viewing params as [batch, outer, gather, inner] and the output
/// as [batch, outer, n, inner].
template <typename E>
void gatherRows(const Eigen::ThreadPoolDevice &device, const E *params,
                const int64_t *idx, E *out, int64_t batch, int64_t outer,
                int64_t gather, int64_t n, int64_t inner) {
  const double bytes = double(inner) * sizeof(E);
  kernels::parallelFor(
      device, batch * outer * n, Eigen::TensorOpCost(bytes, bytes, 1),
      [=](Eigen::Index first, Eigen::Index last) {
        for (Eigen::Index u = first; u < last; ++u) {
          const int64_t k = u % n;
          const int64_t bo = u / n;
          const int64_t b = bo / outer;
          const E *src = params + (bo * gather + idx[b * n + k]) * inner;
          E *dst = out + u * inner;
          if (inner == 1)
            *dst = *src;
          else
            std::memcpy(dst, src, inner * sizeof(E));
        }
      });
}

} // namespace

Status planGather(const OpKernel &op, const Tensor &params,
                  const Tensor &indices, int64_t axis, int64_t batchDims,
                  GatherPlan *plan) {
  if (!isIndexTensor(indices))
    return op.errorf("indices must be int32 or int64, got %s",
                     dtypeName(indices.dtype()));
  if (params.rank() < 1)
    return op.errorf("params must be at least 1 dimensional");
  const int rank = params.rank();
  if (axis < -rank || axis >= rank)
    return op.errorf("Expected axis in the range [%d, %d), but got %d", -rank,
                     rank, axis);
  if (axis < 0)
    axis += rank;
  if (batchDims != 0) {
    if (batchDims < -indices.rank() || batchDims > indices.rank())
      return op.errorf("Expected batch_dims in the range [%d, %d], but got %d",
                       -indices.rank(), indices.rank(), batchDims);
    if (batchDims < 0)
      batchDims += indices.rank();
    if (batchDims >= rank)
      return op.errorf("batch_dims (%d) must be less than rank(params) (%d).",
                       batchDims, rank);
    if (axis < batchDims)
      return op.errorf("batch_dims (%d) must be less than or equal to axis "
                       "(%d).",
                       batchDims, axis);
    for (int d = 0; d < batchDims; ++d)
      if (params.dim(d) != indices.dim(d))
        return op.errorf("params.shape[%d]: %d should be equal to "
                         "indices.shape[%d]: %d",
                         d, params.dim(d), d, indices.dim(d));
  }
  *plan = GatherPlan();
  plan->gather = params.dim(static_cast<int>(axis));
  for (int d = 0; d < axis; ++d) {
    plan->outDims.push_back(params.dim(d));
    (d < batchDims ? plan->batch : plan->outer) *= params.dim(d);
  }
  for (int d = static_cast<int>(batchDims); d < indices.rank(); ++d) {
    plan->outDims.push_back(indices.dim(d));
    plan->n *= indices.dim(d);
  }
  for (int d = static_cast<int>(axis) + 1; d < rank; ++d) {
    plan->outDims.push_back(params.dim(d));
    plan->inner *= params.dim(d);
  }
  // Validate (and widen) the indices.
  const int64_t count = indices.numElements();
  plan->idx.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t index = indexAt(indices, i);
    if (index < 0 || index >= plan->gather)
      return op.errorf("indices%s = %d is not in [0, %d)",
                       sliceDebugString(indices.shape().dims(), i), index,
                       plan->gather);
    plan->idx[i] = index;
  }
  return OkStatus();
}

Status planGatherNd(const OpKernel &op, const Tensor &params,
                    const Tensor &indices, GatherPlan *plan) {
  if (!isIndexTensor(indices))
    return op.errorf("indices must be int32 or int64, got %s",
                     dtypeName(indices.dtype()));
  if (indices.rank() < 1)
    return op.errorf("indices must be at least a vector, got shape %s",
                     indices.shape().toString());
  const int64_t k = indices.dim(indices.rank() - 1);
  if (k > params.rank())
    return op.errorf("index innermost dimension length must be <= params "
                     "rank; saw: %d vs. %d",
                     k, params.rank());
  *plan = GatherPlan();
  plan->outDims.assign(indices.shape().dims().begin(),
                       indices.shape().dims().end() - 1);
  const TensorShape::Dims ndDims = plan->outDims;
  for (int d = static_cast<int>(k); d < params.rank(); ++d) {
    plan->outDims.push_back(params.dim(d));
    plan->inner *= params.dim(d);
  }
  plan->n = TensorShape(ndDims).numElements();
  plan->gather = plan->inner ? params.numElements() / plan->inner : 0;
  int64_t bad = 0;
  if (!flattenIndexTuples(indices, plan->n, k, params.shape().dims(),
                          &plan->idx, &bad))
    return op.errorf("indices%s = [%s] does not index into param shape %s",
                     sliceDebugString(ndDims, bad),
                     tupleString(indices, bad, k), params.shape().toString());
  return OkStatus();
}

void gatherInto(const Eigen::ThreadPoolDevice &device, const Tensor &params,
                const GatherPlan &plan, Tensor &out) {
  if (out.numElements() == 0)
    return;
  dispatchElementSize(params.dtype(), [&](auto e) {
    using E = decltype(e);
    gatherRows<E>(device, static_cast<const E *>(params.rawData()),
                  plan.idx.data(), static_cast<E *>(out.rawData()), plan.batch,
                  plan.outer, plan.gather, plan.n, plan.inner);
  });
}

} // namespace tfrt_fallback::rt::kernels

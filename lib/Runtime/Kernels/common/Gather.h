//===- Gather.h - Gathers shared by the gather kernels ----------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the index checks and the row copies of
// GatherV2 / Gather and GatherNd (GatherScatterKernels.cpp), which
// ResourceGather and ResourceGatherNd (ResourceKernels.cpp) run on a
// variable's value. A plan views params as [batch, outer, gather, inner]
// and the output as [batch, outer, n, inner]: output row (b, o, k) is
// params row (b, o, idx[b * n + k]). Every index is checked while
// planning, before any element moves, and errors are TensorFlow's.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_GATHER_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_GATHER_H

#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <cstdint>
#include <vector>

namespace tfrt_fallback::rt::kernels {

/// The validated geometry of a gather.
struct GatherPlan {
  int64_t batch = 1, outer = 1, gather = 0, n = 1, inner = 1;
  /// The output's shape.
  TensorShape::Dims outDims;
  /// The params row of each output row, per batch (batch * n entries).
  std::vector<int64_t> idx;
};

/// GatherV2's rules (gather_op.cc): slices of `params` along `axis` (in
/// [-rank, rank)) picked by `indices` (int32/int64), the first `batchDims`
/// dims (negative counts from indices' rank) of params and indices iterated
/// together, axis >= batchDims. Output shape: params[:axis] +
/// indices[batchDims:] + params[axis + 1:]. Each index must be in
/// [0, params.shape[axis]): "indices[1,0] = 7 is not in [0, 5)".
Status planGather(const OpKernel &op, const Tensor &params,
                  const Tensor &indices, int64_t axis, int64_t batchDims,
                  GatherPlan *plan);

/// GatherNd's rules (gather_nd_op.cc): indices [..., k] (int32/int64,
/// k <= rank of params) address slices params[i0, ..., ik-1, :]; output
/// shape indices.shape[:-1] + params.shape[k:]; "indices[1] = [2, 0] does
/// not index into param shape [2,2]".
Status planGatherNd(const OpKernel &op, const Tensor &params,
                    const Tensor &indices, GatherPlan *plan);

/// Fills `out` (of plan.outDims, params' dtype, not a string) from `params`
/// as `plan` says, moving raw elements.
void gatherInto(const Eigen::ThreadPoolDevice &device, const Tensor &params,
                const GatherPlan &plan, Tensor &out);

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_GATHER_H

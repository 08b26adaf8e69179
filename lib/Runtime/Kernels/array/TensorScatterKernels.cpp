//===- TensorScatterKernels.cpp - Scatter into a copy of a tensor -*- C++ -*-//
//
// The functional scatters (tensorflow/core/kernels/scatter_nd_op.cc):
// TensorScatterUpdate / Add / Sub / Min / Max and ScatterNdNonAliasingAdd
// write slices of `updates` into a copy of `tensor` (its buffer when the
// executor may reuse it) at the index tuples of `indices`. The shapes and
// every index are checked first, by one type-erased routine; the typed part
// is the per-slice combine (both in Scatter.h, which the resource scatters
// share). TensorScatterUpdate moves bytes and serves every dtype.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/Registration.h"
#include "common/Scatter.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// TensorScatterUpdate / Add / Sub / Min / Max(tensor, indices, updates)
/// and ScatterNdNonAliasingAdd(input, indices, updates): output = tensor
/// with output[indices[i]] = updates[i] (Update; for repeated indices the
/// last wins), += (Add), -= (Sub), = min (Min) or = max (Max) of the two.
/// indices [..., k] (int32/int64) address slices of tensor.shape[k:];
/// updates has shape indices.shape[:-1] + tensor.shape[k:].
/// bad_indices_policy "IGNORE" skips out-of-range tuples.
template <typename T, ScatterOp Op>
class TensorScatterKernel final : public OpKernel {
public:
  explicit TensorScatterKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 readBadIndicesPolicy(*this, ctx, &ignoreBad_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &tensor = ctx->input(0);
    const Tensor &indices = ctx->input(1);
    const Tensor &updates = ctx->input(2);
    ScatterPlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, planTensorScatter(*this, tensor.shape(),
                                                        indices, updates,
                                                        ignoreBad_, &plan));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, tensor.shape(), &out));
    if (out->rawData() != tensor.rawData() && tensor.totalBytes())
      std::memcpy(out->rawData(), tensor.rawData(), tensor.totalBytes());
    if constexpr (Op == ScatterOp::Update)
      applyScatterUpdateBytes(out->rawData(), plan, updates.rawData(),
                              dtypeSize(tensor.dtype()));
    else
      applyScatter<T, Op>(out->data<T>(), plan, updates.data<T>());
  }

private:
  bool ignoreBad_ = false;
};

template <typename T> using ScatterAdd = TensorScatterKernel<T, ScatterOp::Add>;
template <typename T> using ScatterSub = TensorScatterKernel<T, ScatterOp::Sub>;
template <typename T> using ScatterMin = TensorScatterKernel<T, ScatterOp::Min>;
template <typename T> using ScatterMax = TensorScatterKernel<T, ScatterOp::Max>;

} // namespace

void registerTensorScatterKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  // Tindices is checked on the operand.
  registerKernel<OpId::kTensorScatterUpdate,
                 TensorScatterKernel<uint8_t, ScatterOp::Update>>(
      registry, {{"T", kAllDTypes}});
#define TFRT_FALLBACK_SCATTER_TYPES                                            \
  float, double, half, bf16, int32_t, int64_t, int8_t, int16_t, uint8_t,       \
      uint16_t
  registerKernel<OpId::kTensorScatterAdd, ScatterAdd,
                 TFRT_FALLBACK_SCATTER_TYPES>(registry);
  registerKernel<OpId::kTensorScatterSub, ScatterSub,
                 TFRT_FALLBACK_SCATTER_TYPES>(registry);
  registerKernel<OpId::kTensorScatterMin, ScatterMin,
                 TFRT_FALLBACK_SCATTER_TYPES>(registry);
  registerKernel<OpId::kTensorScatterMax, ScatterMax,
                 TFRT_FALLBACK_SCATTER_TYPES>(registry);
  registerKernel<OpId::kScatterNdNonAliasingAdd, ScatterAdd,
                 TFRT_FALLBACK_SCATTER_TYPES>(registry);
#undef TFRT_FALLBACK_SCATTER_TYPES
}

} // namespace tfrt_fallback::rt

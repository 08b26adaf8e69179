//===- TensorScatterKernels.cpp - Scatter into a copy of a tensor -*- C++ -*-//
//
// The functional scatters (tensorflow/core/kernels/scatter_nd_op.cc):
// TensorScatterUpdate / Add / Sub / Min / Max and ScatterNdNonAliasingAdd
// write slices of `updates` into a copy of `tensor` (its buffer when the
// executor may reuse it) at the index tuples of `indices`. The shapes and
// every index are checked first, by one type-erased routine; the typed part
// is the per-slice combine. TensorScatterUpdate moves bytes and serves every
// dtype.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

enum class ScatterOp { Update, Add, Sub, Min, Max };

/// The bad_indices_policy attribute: "" or "DEFAULT" and "ERROR" fail on
/// an index out of range (TF's CPU default), "IGNORE" skips its update.
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

/// The validated geometry of a scatter into `shape`: for each of the
/// `offsets.size()` updates the offset of its slice in the output (in
/// slices of `slice` elements), or -1 for one to skip.
struct ScatterPlan {
  std::vector<int64_t> offsets;
  int64_t slice = 1;
};

/// TF's TensorScatterOp checks: indices and updates at least 1-D, outer
/// dims of indices and updates equal, the inner dims of updates equal to
/// shape[indices.shape[-1]:]; then each index tuple is checked against
/// shape ("indices[1] = [5] does not index into shape [4,2]").
Status planScatter(const OpKernel &op, const TensorShape &shape,
                   const Tensor &indices, const Tensor &updates, bool ignoreBad,
                   ScatterPlan *plan) {
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
  plan->slice = 1;
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
  plan->offsets.assign(count, 0);
  for (int64_t u = 0; u < count; ++u) {
    int64_t offset = 0;
    bool ok = true;
    for (int64_t j = 0; j < ix; ++j) {
      const int64_t v = indexAt(indices, u * ix + j);
      ok = ok && v >= 0 && v < shape.dim(static_cast<int>(j));
      offset = offset * shape.dim(static_cast<int>(j)) + v;
    }
    if (!ok) {
      if (ignoreBad) {
        plan->offsets[u] = -1;
        continue;
      }
      return op.errorf(
          "indices%s = [%s] does not index into shape %s",
          sliceDebugString(
              absl::MakeConstSpan(indices.shape().dims()).subspan(0, outer), u),
          tupleString(indices, u, ix), shape.toString());
    }
    plan->offsets[u] = offset;
  }
  return OkStatus();
}

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
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 planScatter(*this, tensor.shape(), indices,
                                             updates, ignoreBad_, &plan));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, tensor.shape(), &out));
    if (out->rawData() != tensor.rawData() && tensor.totalBytes())
      std::memcpy(out->rawData(), tensor.rawData(), tensor.totalBytes());
    const int64_t slice = plan.slice;
    for (size_t u = 0; u < plan.offsets.size(); ++u) {
      if (plan.offsets[u] < 0)
        continue;
      if constexpr (Op == ScatterOp::Update) {
        const size_t bytes = slice * dtypeSize(tensor.dtype());
        std::memcpy(
            static_cast<char *>(out->rawData()) + plan.offsets[u] * bytes,
            static_cast<const char *>(updates.rawData()) + u * bytes, bytes);
      } else {
        ArrayMap<T> dst(out->data<T>() + plan.offsets[u] * slice, slice);
        ConstArrayMap<T> src(updates.data<T>() + u * slice, slice);
        if constexpr (Op == ScatterOp::Add)
          dst += src;
        else if constexpr (Op == ScatterOp::Sub)
          dst -= src;
        else if constexpr (Op == ScatterOp::Min)
          dst = dst.min(src);
        else
          dst = dst.max(src);
      }
    }
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

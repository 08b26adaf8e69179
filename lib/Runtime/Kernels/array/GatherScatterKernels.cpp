//===- GatherScatterKernels.cpp - Gather, scatter and Where -----*- C++ -*-===//
//
// Index-driven data movement: GatherV2 / Gather, GatherNd, ScatterNd,
// SparseToDense and Where. Indices come from tensor data, so every index is
// validated before any element moves; an out-of-range index is an
// InvalidArgument error naming the first bad position, as TF's CPU kernels
// report it. Gathers (planned and copied by Gather.h, which the resource
// gathers share) and SparseToDense move raw bits (dispatched on the element
// size), ScatterNd adds (typed), Where tests != 0 (typed). GatherV2 also
// gathers strings, in a class of its own (StringCopy.h).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Gather.h"
#include "common/Registration.h"
#include "common/StringCopy.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include "tfrt_fallback/Runtime/StrCat.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// GatherV2, GatherNd (Gather.h), ScatterNd
//===----------------------------------------------------------------------===//

/// GatherV2(params, indices, axis; batch_dims) and Gather(params, indices):
/// slices of `params` along `axis` (an int32/int64 scalar in [-rank, rank),
/// 0 for Gather) picked by `indices` (int32/int64, Tindices), as planGather
/// says. `Strings` is the string form (StringCopy.h), a class of its own.
template <bool HasAxis, bool Strings = false>
class GatherKernel final : public OpKernel {
public:
  explicit GatherKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "batch_dims", &batchDims_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &params = ctx->input(0);
    const Tensor &indices = ctx->input(1);
    int64_t axis = 0;
    if (HasAxis && isIndexTensor(indices) && params.rank() >= 1) {
      const Tensor &axisT = ctx->input(2);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, axisT.numElements() == 1 && isIndexTensor(axisT),
          errorf("axis must be scalar, got shape %s",
                 axisT.shape().toString()));
      axis = indexAt(axisT, 0);
    }
    GatherPlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, planGather(*this, params, indices, axis, batchDims_, &plan));
    if constexpr (Strings) {
      // out[b, o, k, :] = params[b, o, idx[b, k], :], as gatherInto.
      const int64_t outer = plan.outer, gather = plan.gather, n = plan.n,
                    inner = plan.inner;
      std::vector<std::string_view> views;
      views.reserve(static_cast<size_t>(plan.batch * outer * n * inner));
      const std::string_view *src = params.data<std::string_view>();
      for (int64_t u = 0; u < plan.batch * outer * n; ++u) {
        const int64_t k = u % n, bo = u / n, b = bo / outer;
        const std::string_view *row =
            src + (bo * gather + plan.idx[b * n + k]) * inner;
        views.insert(views.end(), row, row + inner);
      }
      StatusOr<Tensor> out = makeStringTensor(TensorShape(plan.outDims), views);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
      ctx->setOutput(0, *std::move(out));
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(plan.outDims), &out));
    gatherInto(ctx->eigenDevice(), params, plan, *out);
  }

private:
  int64_t batchDims_ = 0;
};

/// GatherNd(params, indices): indices [..., k] (int32/int64, k <= rank of
/// params) address slices params[i0, ..., ik-1, :]; output shape is
/// indices.shape[:-1] + params.shape[k:] (planGatherNd).
class GatherNdKernel final : public OpKernel {
public:
  explicit GatherNdKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &params = ctx->input(0);
    GatherPlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, planGatherNd(*this, params, ctx->input(1), &plan));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(plan.outDims), &out));
    gatherInto(ctx->eigenDevice(), params, plan, *out);
  }
};

/// ScatterNd(indices, updates, shape): a zero tensor of `shape` (1-D
/// int32/int64) with updates[i, ...] added at indices[i] ([..., k] tuples
/// into shape[:k]); duplicate indices sum. updates.shape must be
/// indices.shape[:-1] + shape[k:].
template <typename T> class ScatterNdKernel final : public OpKernel {
public:
  explicit ScatterNdKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0);
    const Tensor &updates = ctx->input(1);
    const Tensor &shapeT = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, isIndexTensor(indices) && isIndexTensor(shapeT),
        errorf("indices and shape must be int32 or int64"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, shapeT.rank() == 1,
                              errorf("Shape must be a 1-D tensor, got %s",
                                     shapeT.shape().toString()));
    TensorShape::Dims dims;
    for (int64_t i = 0; i < shapeT.numElements(); ++i)
      dims.push_back(indexAt(shapeT, i));
    StatusOr<TensorShape> shape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape.ok(), errorf("Invalid shape: %s", shape.status().message()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.rank() >= 1,
        errorf("Indices shape must have rank at least one. Found:%s",
               indices.shape().toString()));
    const int64_t k = indices.dim(indices.rank() - 1);
    // updates.shape == indices.shape[:-1] + shape[k:].
    TensorShape::Dims expected(indices.shape().dims().begin(),
                               indices.shape().dims().end() - 1);
    const int64_t n = TensorShape(expected).numElements();
    bool ok = k <= shape->rank();
    int64_t inner = 1;
    for (int d = static_cast<int>(k); ok && d < shape->rank(); ++d) {
      expected.push_back(shape->dim(d));
      inner *= shape->dim(d);
    }
    ok = ok && TensorShape(expected) == updates.shape();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ok,
        errorf("Must have updates.shape = indices.shape[:batch_dim] + "
               "params_shape[slice_dim:], got updates.shape: %s, "
               "indices.shape: %s, params_shape: %s, slice_dim: %d, and "
               "batch_dim: %d",
               updates.shape().toString(), indices.shape().toString(),
               shape->toString(), k, indices.rank() - 1));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape->numElements() > 0 || updates.numElements() == 0,
        errorf("Indices and updates specified for empty output shape"));
    std::vector<int64_t> offsets;
    int64_t bad = 0;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, flattenIndexTuples(indices, n, k, shape->dims(), &offsets, &bad),
        errorf("indices%s = [%s] does not index into shape %s",
               sliceDebugString(absl::MakeConstSpan(indices.shape().dims())
                                    .subspan(0, indices.rank() - 1),
                                bad),
               tupleString(indices, bad, k), shape->toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *shape, &out));
    T *dst = out->data<T>();
    std::fill(dst, dst + out->numElements(), T(0));
    const T *src = updates.data<T>();
    for (int64_t i = 0; i < n; ++i)
      ArrayMap<T>(dst + offsets[i] * inner, inner) +=
          ConstArrayMap<T>(src + i * inner, inner);
  }
};

//===----------------------------------------------------------------------===//
// SparseToDense
//===----------------------------------------------------------------------===//

/// SparseToDense(sparse_indices, output_shape, sparse_values, default_value;
/// validate_indices): a tensor of output_shape filled with default_value,
/// with sparse_values (a scalar for all, or one per index) at
/// sparse_indices (0-D, [n] or [n, rank]; int32/int64). Indices are always
/// bounds-checked; with validate_indices (default true) they must also be
/// strictly increasing in row-major order (no repeats).
class SparseToDenseKernel final : public OpKernel {
public:
  explicit SparseToDenseKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "validate_indices", &validate_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0);
    const Tensor &shapeT = ctx->input(1);
    const Tensor &values = ctx->input(2);
    const Tensor &def = ctx->input(3);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, isIndexTensor(indices) && isIndexTensor(shapeT),
        errorf("sparse_indices and output_shape must be int32 or int64"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.rank() <= 2,
        errorf("sparse_indices should be a scalar, vector, or matrix, got "
               "shape %s",
               indices.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shapeT.rank() <= 1,
        errorf("output_shape should be a scalar or vector, got shape %s",
               shapeT.shape().toString()));
    const int64_t n = indices.rank() > 0 ? indices.dim(0) : 1;
    const int64_t k = indices.rank() > 1 ? indices.dim(1) : 1;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values.rank() == 0 || (values.rank() == 1 && values.dim(0) == n),
        errorf("sparse_values has incorrect shape %s, should be [] or [%d]",
               values.shape().toString(), n));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, def.rank() == 0,
        errorf("default_value should be a scalar, got shape %s",
               def.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shapeT.numElements() == k,
        errorf("output_shape has incorrect number of elements: %d should "
               "be: %d",
               shapeT.numElements(), k));
    TensorShape::Dims dims;
    for (int64_t i = 0; i < shapeT.numElements(); ++i)
      dims.push_back(indexAt(shapeT, i));
    StatusOr<TensorShape> shape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape.ok(),
        errorf("Invalid output_shape: %s", shape.status().message()));
    std::vector<int64_t> offsets(n);
    std::vector<int64_t> prev(k, -1), cur(k);
    for (int64_t i = 0; i < n; ++i) {
      int64_t offset = 0;
      bool inBounds = true;
      for (int64_t j = 0; j < k; ++j) {
        cur[j] = indexAt(indices, i * k + j);
        inBounds &= cur[j] >= 0 && cur[j] < dims[j];
        offset = offset * dims[j] + cur[j];
      }
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, inBounds,
          errorf("indices[%d] = [%s] is out of bounds: need 0 <= index < [%s]",
                 i, strJoin(cur, ","), strJoin(dims, ",")));
      if (validate_ && i > 0) {
        const int c = std::lexicographical_compare(prev.begin(), prev.end(),
                                                   cur.begin(), cur.end())
                          ? -1
                      : prev == cur ? 0
                                    : 1;
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, c != 0,
            errorf("indices[%d] = [%s] is repeated", i, strJoin(cur, ",")));
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, c < 0,
            errorf("indices[%d] = [%s] is out of order. Many sparse ops "
                   "require sorted indices.\n    Use `tf.sparse.reorder` to "
                   "create a correctly ordered copy.\n\n",
                   i, strJoin(cur, ",")));
      }
      prev = cur;
      offsets[i] = offset;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *shape, &out));
    dispatchElementSize(values.dtype(), [&](auto e) {
      using E = decltype(e);
      E *dst = static_cast<E *>(out->rawData());
      const E *vals = static_cast<const E *>(values.rawData());
      std::fill(dst, dst + out->numElements(),
                *static_cast<const E *>(def.rawData()));
      const bool scalar = values.rank() == 0;
      for (int64_t i = 0; i < n; ++i)
        dst[offsets[i]] = vals[scalar ? 0 : i];
    });
  }

private:
  bool validate_ = true;
};

//===----------------------------------------------------------------------===//
// Where
//===----------------------------------------------------------------------===//

/// Where(input): the coordinates of the non-zero (true) elements of
/// `input`, in row-major order, as an int64 [num_true, rank] tensor.
class WhereKernel final : public OpKernel {
public:
  explicit WhereKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const int rank = input.rank();
    std::vector<int64_t> hits;
    Status status = dispatchDType(input.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::Type;
      const T *p = input.data<T>();
      for (int64_t i = 0; i < input.numElements(); ++i)
        if (p[i] != T(0))
          hits.push_back(i);
    });
    TFRT_FALLBACK_OP_REQUIRES(ctx, status.ok(), errorf("%s", status.message()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(
            0, TensorShape{static_cast<int64_t>(hits.size()), rank}, &out));
    int64_t *dst = out->data<int64_t>();
    for (size_t h = 0; h < hits.size(); ++h) {
      int64_t flat = hits[h];
      for (int d = rank - 1; d >= 0; --d) {
        dst[h * rank + d] = flat % input.dim(d);
        flat /= input.dim(d);
      }
    }
  }
};

} // namespace

void registerGatherScatterKernels(KernelRegistry &registry) {
  // Index dtype attributes (Tindices, Taxis) are checked on the operands.
  registerKernel<OpId::kGatherV2, GatherKernel<true>>(
      registry, {{"Tparams", kAllDTypes}});
  registerStringKernel<OpId::kGatherV2, GatherKernel<true, true>>(registry,
                                                                  "Tparams");
  registerKernel<OpId::kGather, GatherKernel<false>>(registry,
                                                     {{"Tparams", kAllDTypes}});
  registerKernel<OpId::kGatherNd, GatherNdKernel>(registry,
                                                  {{"Tparams", kAllDTypes}});
  registerKernel<OpId::kScatterNd, ScatterNdKernel, float, double, int32_t,
                 int64_t>(registry);
  registerKernel<OpId::kSparseToDense, SparseToDenseKernel>(
      registry, {{"T", kAllDTypes}});
  // Where's T defaults to bool: dispatched on the operand instead.
  registerKernel<OpId::kWhere, WhereKernel>(registry);
}

} // namespace tfrt_fallback::rt

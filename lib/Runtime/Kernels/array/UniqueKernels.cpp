//===- UniqueKernels.cpp - Unique, UniqueWithCounts, ListDiff ---*- C++ -*-===//
//
// Set-like ops on values (tensorflow/core/kernels/unique_op.cc,
// listdiff_op.cc): Unique / UniqueV2 / UniqueWithCounts /
// UniqueWithCountsV2 and ListDiff. Values are compared as TF's hash maps
// compare them: by value, so for floats -0.0 equals 0.0 and a NaN equals
// nothing (each NaN is its own value). The kernels are one class for every
// dtype: each value (or slice along an axis) becomes a canonical byte
// string (-0.0 written as 0.0) hashed with std::unordered_map (no Abseil object
// file), and values move as raw bytes.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Rewrites the `n` elements at `data` of dtype `dtype` into canonical
/// form: a float -0.0 becomes +0.0. Sets nan[i / perKey] for each element
/// i that is a NaN (`nan` has n / perKey entries). Other dtypes stay.
template <typename F>
void canonicalizeFloats(F *data, int64_t n, int64_t perKey,
                        std::vector<char> *nan) {
  for (int64_t i = 0; i < n; ++i) {
    const F v = data[i];
    if (v != v)
      (*nan)[i / perKey] = 1;
    else if (v == F(0))
      data[i] = F(0);
  }
}
void canonicalize(DType dtype, void *data, int64_t n, int64_t perKey,
                  std::vector<char> *nan) {
  switch (dtype) {
  case DType::F32:
    return canonicalizeFloats(static_cast<float *>(data), n, perKey, nan);
  case DType::F64:
    return canonicalizeFloats(static_cast<double *>(data), n, perKey, nan);
  case DType::F16:
    return canonicalizeFloats(static_cast<Eigen::half *>(data), n, perKey, nan);
  case DType::BF16:
    return canonicalizeFloats(static_cast<Eigen::bfloat16 *>(data), n, perKey,
                              nan);
  default:
    return;
  }
}

/// Writes `values` into output `index`, a 1-D tensor of its expected dtype
/// (int32 or int64: the out_idx attribute).
Status writeIndexOutput(OpKernelContextInterface *ctx, const OpKernel &op,
                        int index, const std::vector<int64_t> &values) {
  const DType dtype = ctx->expectedOutputDType(index);
  if (dtype != DType::I32 && dtype != DType::I64)
    return op.errorf("out_idx must be int32 or int64, got %s",
                     dtypeName(dtype));
  Tensor *out = nullptr;
  if (Status status = ctx->allocateOutput(
          index, TensorShape{static_cast<int64_t>(values.size())}, &out);
      !status.ok())
    return status;
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::I32)
      out->data<int32_t>()[i] = static_cast<int32_t>(values[i]);
    else
      out->data<int64_t>()[i] = values[i];
  }
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// Unique, UniqueV2, UniqueWithCounts, UniqueWithCountsV2
//===----------------------------------------------------------------------===//

/// Unique / UniqueWithCounts(x) and their V2 forms (x, axis):
///   y: the distinct values of x in the order they first occur; with an
///      axis (V2, a 1-element int32/int64 vector, negative from the end),
///      the distinct slices x[..., i, ...] along it, y's axis dim their
///      count;
///   idx (out_idx: int32 default, or int64): for each position along the
///      axis, the position of its value in y;
///   count (WithCounts): how often each value of y occurs.
/// Without an axis (V1, or V2 with an empty axis) x must be 1-D ("unique
/// expects a 1D vector."). TF's other errors: "axis expects a 1D vector.",
/// "axis does not support input tensors larger than 1 elements", "axis has
/// to be between [0, 3)", "unique does not support input tensors larger
/// than 2147483647 elements".
class UniqueKernel final : public OpKernel {
public:
  explicit UniqueKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.numElements() <= std::numeric_limits<int32_t>::max(),
        errorf("unique does not support input tensors larger than %d elements",
               std::numeric_limits<int32_t>::max()));
    bool hasAxis = false;
    int64_t axis = 0;
    if (ctx->numInputs() > 1) {
      const Tensor &axisT = ctx->input(1);
      TFRT_FALLBACK_OP_REQUIRES(ctx, axisT.rank() == 1,
                                errorf("axis expects a 1D vector."));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, axisT.numElements() <= 1,
          errorf("axis does not support input tensors larger than 1 "
                 "elements"));
      if (axisT.numElements() == 1) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, isIndexTensor(axisT),
            errorf("axis tensor should be int32 or int64, but got %s",
                   dtypeName(axisT.dtype())));
        hasAxis = true;
        axis = indexAt(axisT, 0);
        if (axis < 0)
          axis += x.rank();
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, axis >= 0 && axis < x.rank(),
            errorf("axis has to be between [0, %d)", x.rank()));
      }
    }
    if (!hasAxis)
      TFRT_FALLBACK_OP_REQUIRES(ctx, x.rank() == 1,
                                errorf("unique expects a 1D vector."));
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d)
      outer *= x.dim(d);
    for (int d = static_cast<int>(axis) + 1; d < x.rank(); ++d)
      inner *= x.dim(d);
    const int64_t len = x.dim(static_cast<int>(axis));
    const size_t elem = dtypeSize(x.dtype());
    const size_t innerBytes = inner * elem;
    const size_t keyBytes = outer * innerBytes;

    // The keys: slice i of x, [outer, inner], made contiguous and
    // canonical.
    std::vector<char> keys(len * keyBytes);
    const char *src = static_cast<const char *>(x.rawData());
    for (int64_t o = 0; o < outer && innerBytes; ++o)
      for (int64_t i = 0; i < len; ++i)
        std::memcpy(keys.data() + i * keyBytes + o * innerBytes,
                    src + (o * len + i) * innerBytes, innerBytes);
    std::vector<char> nan(len);
    if (outer * inner > 0)
      canonicalize(x.dtype(), keys.data(), len * outer * inner, outer * inner,
                   &nan);

    std::vector<int64_t> idx(len), first, counts;
    std::unordered_map<std::string_view, int64_t> ids;
    ids.reserve(len);
    for (int64_t i = 0; i < len; ++i) {
      int64_t id = static_cast<int64_t>(first.size());
      if (!nan[i]) {
        auto [it, inserted] = ids.emplace(
            std::string_view(keys.data() + i * keyBytes, keyBytes), id);
        id = it->second;
      }
      if (id == static_cast<int64_t>(first.size())) {
        first.push_back(i);
        counts.push_back(0);
      }
      idx[i] = id;
      ++counts[id];
    }

    const int64_t numUnique = static_cast<int64_t>(first.size());
    TensorShape::Dims dims(x.shape().dims().begin(), x.shape().dims().end());
    dims[axis] = numUnique;
    Tensor *y = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape(dims), &y));
    char *dst = static_cast<char *>(y->rawData());
    for (int64_t o = 0; o < outer && innerBytes; ++o)
      for (int64_t u = 0; u < numUnique; ++u)
        std::memcpy(dst + (o * numUnique + u) * innerBytes,
                    src + (o * len + first[u]) * innerBytes, innerBytes);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, writeIndexOutput(ctx, *this, 1, idx));
    if (ctx->numOutputs() > 2)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   writeIndexOutput(ctx, *this, 2, counts));
  }
};

//===----------------------------------------------------------------------===//
// ListDiff
//===----------------------------------------------------------------------===//

/// ListDiff(x, y): the values of x (1-D) that do not occur in y (1-D), in
/// x's order and with x's repetitions, and their positions in x (idx,
/// out_idx int32 default or int64). "x should be a 1D vector.", "y should
/// be a 1D vector.", "x too large for int32 indexing".
class ListDiffKernel final : public OpKernel {
public:
  explicit ListDiffKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    const Tensor &y = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, x.rank() == 1,
                              errorf("x should be a 1D vector."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, y.rank() == 1,
                              errorf("y should be a 1D vector."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.numElements() < std::numeric_limits<int32_t>::max(),
        errorf("x too large for int32 indexing"));
    const size_t elem = dtypeSize(x.dtype());
    std::vector<char> xs(x.totalBytes()), ys(y.totalBytes());
    if (!xs.empty())
      std::memcpy(xs.data(), x.rawData(), xs.size());
    if (!ys.empty())
      std::memcpy(ys.data(), y.rawData(), ys.size());
    std::vector<char> xNan(x.numElements()), yNan(y.numElements());
    canonicalize(x.dtype(), xs.data(), x.numElements(), 1, &xNan);
    canonicalize(y.dtype(), ys.data(), y.numElements(), 1, &yNan);
    std::unordered_set<std::string_view> in;
    in.reserve(y.numElements());
    for (int64_t i = 0; i < y.numElements(); ++i)
      if (!yNan[i])
        in.insert(std::string_view(ys.data() + i * elem, elem));
    std::vector<int64_t> keep;
    for (int64_t i = 0; i < x.numElements(); ++i)
      if (xNan[i] || !in.count(std::string_view(xs.data() + i * elem, elem)))
        keep.push_back(i);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(
                 0, TensorShape{static_cast<int64_t>(keep.size())}, &out));
    char *dst = static_cast<char *>(out->rawData());
    const char *src = static_cast<const char *>(x.rawData());
    for (size_t k = 0; k < keep.size(); ++k)
      std::memcpy(dst + k * elem, src + keep[k] * elem, elem);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, writeIndexOutput(ctx, *this, 1, keep));
  }
};

} // namespace

void registerUniqueKernels(KernelRegistry &registry) {
  // out_idx and Taxis have defaults, so a graph may leave them out: the
  // kernels check the index dtypes themselves.
  registerKernel<OpId::kUnique, UniqueKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kUniqueV2, UniqueKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kUniqueWithCounts, UniqueKernel>(registry,
                                                        {{"T", kAllDTypes}});
  registerKernel<OpId::kUniqueWithCountsV2, UniqueKernel>(registry,
                                                          {{"T", kAllDTypes}});
  registerKernel<OpId::kListDiff, ListDiffKernel>(registry,
                                                  {{"T", kRealNumberDTypes}});
}

} // namespace tfrt_fallback::rt

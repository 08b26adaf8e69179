//===- BincountKernels.cpp - Bincount and its dense/sparse/ragged forms -===//
//
// Counting values into bins (tensorflow/core/kernels/bincount_op.cc):
// Bincount, DenseBincount, SparseBincount and RaggedBincount. Each value v
// in [0, size) adds its weight (1 without weights; binary_output sets 1) to
// bin v of its row; values >= size are dropped. The output dtype T is
// int32, int64, float or double (one kernel per T); the value dtype Tidx
// (int32/int64) is read from the operand.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Reads the scalar `size` operand: "Shape must be rank 0 but is rank 1",
/// "size (-1) must be non-negative".
Status readSize(const OpKernel &op, const Tensor &t, int64_t *size) {
  if (t.rank() != 0)
    return op.errorf("Shape must be rank 0 but is rank %d", t.rank());
  if (!isIndexTensor(t))
    return op.errorf("size must be int32 or int64, got %s",
                     dtypeName(t.dtype()));
  *size = indexAt(t, 0);
  if (*size < 0)
    return op.errorf("size (%d) must be non-negative", *size);
  return OkStatus();
}

/// Adds value i's weight (or 1) to out[row * size + v] for v = values[i]
/// in [0, size); binary sets 1 instead.
template <typename T>
void addToBin(T *out, int64_t size, int64_t row, int64_t v, const T *weights,
              int64_t i, bool binary) {
  if (v < 0 || v >= size)
    return;
  T &bin = out[row * size + v];
  if (binary)
    bin = T(1);
  else
    bin += weights ? weights[i] : T(1);
}

/// Bincount(arr: int32, size: int32, weights: T): out[v] counts (or sums
/// the weights of) the elements of arr equal to v, for v in [0, size).
/// weights has arr's shape or no elements. "Input arr must be
/// non-negative!", "Input indices and weights must have the same size.".
///
/// DenseBincount(input: Tidx, size: Tidx, weights: T; binary_output): the
/// same for a 1-D input; a 2-D input counts each row into its own row of
/// a [rows, size] output ("Input 'in' must be non-negative! Negative input
/// value found: -2"). "Shape must be at most rank 2 but is rank 3",
/// "`weights` must be the same shape as `arr` or a length-0 `Tensor`, in
/// which case it acts as all weights equal to 1. Received [..]".
template <typename T, bool Dense> class BincountKernel final : public OpKernel {
public:
  explicit BincountKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    if (Dense)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "binary_output", &binary_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &arr = ctx->input(0);
    const Tensor &weights = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, isIndexTensor(arr),
        errorf("input must be int32 or int64, got %s", dtypeName(arr.dtype())));
    if (Dense)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, arr.rank() <= 2,
          errorf("Shape must be at most rank 2 but is rank %d", arr.rank()));
    int64_t size = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readSize(*this, ctx->input(1), &size));
    if (Dense)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, weights.shape() == arr.shape() || weights.numElements() == 0,
          errorf("`weights` must be the same shape as `arr` or a length-0 "
                 "`Tensor`, in which case it acts as all weights equal to 1. "
                 "Received %s",
                 weights.shape().toString()));
    else
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          weights.numElements() == 0 ||
              weights.numElements() == arr.numElements(),
          errorf("Input indices and weights must have the same size."));
    const bool rows2d = Dense && arr.rank() == 2;
    const int64_t rows = rows2d ? arr.dim(0) : 1;
    const int64_t cols = rows2d ? arr.dim(1) : arr.numElements();
    for (int64_t i = 0; i < arr.numElements(); ++i) {
      const int64_t v = indexAt(arr, i);
      if (rows2d)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, v >= 0,
            errorf("Input 'in' must be non-negative! Negative input value "
                   "found: %d",
                   v));
      else
        TFRT_FALLBACK_OP_REQUIRES(ctx, v >= 0,
                                  errorf("Input arr must be non-negative!"));
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(
            0, rows2d ? TensorShape{rows, size} : TensorShape{size}, &out));
    T *o = out->data<T>();
    std::fill(o, o + out->numElements(), T(0));
    const T *w = weights.numElements() ? weights.data<T>() : nullptr;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        addToBin(o, size, r, indexAt(arr, r * cols + c), w, r * cols + c,
                 binary_);
  }

private:
  bool binary_ = false;
};

/// SparseBincount(indices: int64 [n, rank], values: Tidx [n], dense_shape:
/// int64 [rank], size: Tidx, weights: T; binary_output): bins the values
/// of a sparse tensor of rank 1 ([size] output) or 2 (one output row per
/// row of the sparse tensor, [dense_shape[0], size]). Every index must lie
/// inside dense_shape; values outside [0, size) are dropped in the 2-D
/// case, negative ones fail in the 1-D case ("Input arr must be
/// non-negative!").
template <typename T> class SparseBincountKernel final : public OpKernel {
public:
  explicit SparseBincountKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "binary_output", &binary_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0);
    const Tensor &values = ctx->input(1);
    const Tensor &denseShape = ctx->input(2);
    const Tensor &weights = ctx->input(4);
    int64_t size = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readSize(*this, ctx->input(3), &size));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(values),
                              errorf("values must be int32 or int64, got %s",
                                     dtypeName(values.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, denseShape.rank() == 1 && denseShape.dtype() == DType::I64,
        errorf("Dense shape must be a vector, got shape %s",
               denseShape.shape().toString()));
    const int64_t rank = denseShape.numElements();
    const int64_t n = values.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        indices.rank() == 2 && indices.dtype() == DType::I64 &&
            indices.dim(0) == n && indices.dim(1) == rank && values.rank() == 1,
        errorf("Sparse indices must be a [%d, %d] int64 matrix for %d values "
               "and a dense shape of rank %d, got %s",
               n, rank, n, rank, indices.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rank == 1 || rank == 2,
        errorf("Dense shape must have rank 1 or 2, got %d", rank));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, weights.numElements() == 0 || weights.numElements() == n,
        errorf("Input indices and weights must have the same size."));
    const int64_t *idx = indices.data<int64_t>();
    const int64_t *dims = denseShape.data<int64_t>();
    for (int64_t i = 0; i < n; ++i)
      for (int64_t d = 0; d < rank; ++d)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, idx[i * rank + d] >= 0 && idx[i * rank + d] < dims[d],
            errorf("Sparse index tuple %d is out of bounds: indices[%d, %d] "
                   "= %d is not in [0, %d)",
                   i, i, d, idx[i * rank + d], dims[d]));
    const bool is1d = rank == 1;
    if (is1d)
      for (int64_t i = 0; i < n; ++i)
        TFRT_FALLBACK_OP_REQUIRES(ctx, indexAt(values, i) >= 0,
                                  errorf("Input arr must be non-negative!"));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(
            0, is1d ? TensorShape{size} : TensorShape{dims[0], size}, &out));
    T *o = out->data<T>();
    std::fill(o, o + out->numElements(), T(0));
    const T *w = weights.numElements() ? weights.data<T>() : nullptr;
    for (int64_t i = 0; i < n; ++i)
      addToBin(o, size, is1d ? 0 : idx[i * rank], indexAt(values, i), w, i,
               binary_);
  }

private:
  bool binary_ = false;
};

/// RaggedBincount(splits: int64, values: Tidx, size: Tidx, weights: T;
/// binary_output): one output row per ragged row (values[splits[r] ..
/// splits[r + 1])), [len(splits) - 1, size]. TF's errors: "Splits must be
/// non-empty", "Splits must start with 0, not with 1", "Splits must end
/// with the number of values, got 3 instead of 4", "Input must be
/// non-negative"; splits must not decrease.
template <typename T> class RaggedBincountKernel final : public OpKernel {
public:
  explicit RaggedBincountKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "binary_output", &binary_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &splits = ctx->input(0);
    const Tensor &values = ctx->input(1);
    const Tensor &weights = ctx->input(3);
    int64_t size = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readSize(*this, ctx->input(2), &size));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(values),
                              errorf("values must be int32 or int64, got %s",
                                     dtypeName(values.dtype())));
    const int64_t *s = splits.data<int64_t>();
    const int64_t numSplits = splits.numElements();
    const int64_t n = values.numElements();
    TFRT_FALLBACK_OP_REQUIRES(ctx, numSplits > 0,
                              errorf("Splits must be non-empty"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, s[0] == 0, errorf("Splits must start with 0, not with %d", s[0]));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, s[numSplits - 1] == n,
        errorf("Splits must end with the number of values, got %d instead of "
               "%d",
               s[numSplits - 1], n));
    for (int64_t r = 1; r < numSplits; ++r)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s[r] >= s[r - 1],
          errorf("Splits must be non-decreasing, got %d after %d", s[r],
                 s[r - 1]));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, weights.numElements() == 0 || weights.numElements() == n,
        errorf("Input indices and weights must have the same size."));
    for (int64_t i = 0; i < n; ++i)
      TFRT_FALLBACK_OP_REQUIRES(ctx, indexAt(values, i) >= 0,
                                errorf("Input must be non-negative"));
    const int64_t rows = numSplits - 1;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{rows, size}, &out));
    T *o = out->data<T>();
    std::fill(o, o + out->numElements(), T(0));
    const T *w = weights.numElements() ? weights.data<T>() : nullptr;
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t i = s[r]; i < s[r + 1]; ++i)
        addToBin(o, size, r, indexAt(values, i), w, i, binary_);
  }

private:
  bool binary_ = false;
};

template <typename T> using Bincount = BincountKernel<T, false>;
template <typename T> using DenseBincount = BincountKernel<T, true>;

} // namespace

void registerBincountKernels(KernelRegistry &registry) {
  // Tidx is read from the operands.
  registerKernel<OpId::kBincount, Bincount, int32_t, int64_t, float, double>(
      registry);
  registerKernel<OpId::kDenseBincount, DenseBincount, int32_t, int64_t, float,
                 double>(registry);
  registerKernel<OpId::kSparseBincount, SparseBincountKernel, int32_t, int64_t,
                 float, double>(registry);
  registerKernel<OpId::kRaggedBincount, RaggedBincountKernel, int32_t, int64_t,
                 float, double>(registry);
}

} // namespace tfrt_fallback::rt

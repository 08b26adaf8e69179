//===- SparseKernels.cpp - ops on SparseTensors (indices, values, shape) --===//
//
// The sparse ops of the Flex list that take a SparseTensor as its three
// dense parts: int64 indices [nnz, rank], values [nnz] and dense_shape
// [rank]. SparseReshape (reshape_util.cc), SparseReorder
// (sparse_reorder_op.cc), SparseFillEmptyRows (fill_empty_rows_functor.h)
// and SparseTensorDenseMatMul (sparse_tensor_dense_matmul_op.cc), with
// TensorFlow's checks and messages. Values of any dtype move as raw bits
// (one class for every dtype); the product is one class per dtype.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// TF's ValidateSparseTensorShape (sparse_utils.cc): indices a matrix,
/// values and shape vectors, as many values as index rows and as many
/// shape entries as index columns.
Status validateSparseParts(const OpKernel &op, const Tensor &indices,
                           const Tensor &values, const Tensor &shape) {
  if (indices.rank() != 2)
    return op.errorf("Sparse indices must be rank 2 but is rank %d",
                     indices.rank());
  if (values.rank() != 1)
    return op.errorf("Sparse values must be rank 1 but is rank %d",
                     values.rank());
  if (shape.rank() != 1)
    return op.errorf("Sparse shape must be rank 1 but is rank %d",
                     shape.rank());
  if (values.dim(0) != indices.dim(0))
    return op.errorf("Number of elements in indices (%d) and values (%d) do "
                     "not match",
                     indices.dim(0), values.dim(0));
  if (shape.numElements() != indices.dim(1))
    return op.errorf("Index rank (%d) and shape rank (%d) do not match",
                     indices.dim(1), shape.numElements());
  return OkStatus();
}

/// The dense shape an int64 vector holds, or TF's error for a negative or
/// overflowing one.
Status readDenseShape(const OpKernel &op, const Tensor &shape,
                      TensorShape *out) {
  const int64_t *s = shape.data<int64_t>();
  StatusOr<TensorShape> dense =
      TensorShape::create(absl::MakeConstSpan(s, shape.numElements()));
  if (!dense.ok())
    return op.errorf("%s", dense.status().message());
  *out = *std::move(dense);
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// SparseReshape
//===----------------------------------------------------------------------===//

/// SparseReshape(input_indices, input_shape, new_shape) -> (output_indices,
/// output_shape): the same SparseTensor with dense shape new_shape (one
/// dim may be -1, inferred), each index mapped through its row-major
/// position. The same shape gives the inputs back.
class SparseReshapeKernel final : public OpKernel {
public:
  explicit SparseReshapeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0);
    const Tensor &shapeIn = ctx->input(1);
    const Tensor &target = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.rank() == 2,
        errorf("Input indices should be a matrix but received shape %s",
               indices.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shapeIn.rank() == 1,
        errorf("Input shape should be a vector but received shape %s",
               shapeIn.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, target.rank() == 1,
        errorf("Target shape should be a vector but received shape %s",
               target.shape().toString()));
    TensorShape inputShape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 readDenseShape(*this, shapeIn, &inputShape));
    const int64_t denseSize = inputShape.numElements();
    const int64_t nnz = indices.dim(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.dim(1) == inputShape.rank(),
        errorf("Input indices have %d columns but the input shape has rank %d",
               indices.dim(1), inputShape.rank()));

    const int64_t outputRank = target.numElements();
    const int64_t *t = target.data<int64_t>();
    TensorShape::Dims outDims;
    int64_t product = 1;
    int64_t unknown = -1;
    for (int64_t d = 0; d < outputRank; ++d) {
      if (t[d] == -1) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, unknown == -1,
            errorf("only one output dimension may be -1, not both %d and %d",
                   unknown, d));
        unknown = d;
        outDims.push_back(1);
        continue;
      }
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, t[d] >= 0,
          errorf("size %d must be non-negative, not %d", d, t[d]));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, !__builtin_mul_overflow(product, t[d], &product),
          errorf("Shape [%s] has too many elements",
                 strJoin(absl::MakeConstSpan(t, outputRank), ",")));
      outDims.push_back(t[d]);
    }
    if (unknown != -1) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, product > 0,
          errorf("reshape cannot infer the missing input size for an empty "
                 "tensor unless all specified input sizes are non-zero"));
      const int64_t missing = denseSize / product;
      // The message shows the -1 as 1, as TF's does.
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, product * missing == denseSize,
          errorf("Input to reshape is a SparseTensor with %d dense values, "
                 "but the requested shape requires a multiple of %d. "
                 "input_shape=%s output_shape=%s",
                 denseSize, product, inputShape.toString(),
                 TensorShape(outDims).toString()));
      outDims[unknown] = missing;
    }
    const TensorShape outputShape(outDims);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, outputShape.numElements() == denseSize,
        errorf("Input to reshape is a tensor with %d dense values, but the "
               "requested shape has %d. input_shape=%s output_shape=%s",
               denseSize, outputShape.numElements(), inputShape.toString(),
               outputShape.toString()));
    if (inputShape == outputShape) {
      ctx->setOutput(0, indices);
      ctx->setOutput(1, shapeIn);
      return;
    }
    Tensor *shapeOut = nullptr, *indicesOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape{outputRank}, &shapeOut));
    std::copy(outDims.begin(), outDims.end(), shapeOut->data<int64_t>());
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{nnz, outputRank}, &indicesOut));
    if (nnz == 0)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, denseSize > 0 && product > 0,
        errorf("Input tensor has %d non zero elements but input shape (%s) or "
               "output shape (%s) is empty",
               nnz, inputShape.toString(), outputShape.toString()));
    const int inRank = inputShape.rank();
    std::vector<int64_t> inStrides(inRank, 1), outStrides(outputRank, 1);
    for (int d = inRank - 2; d >= 0; --d)
      inStrides[d] = inStrides[d + 1] * inputShape.dim(d + 1);
    for (int64_t d = outputRank - 2; d >= 0; --d)
      outStrides[d] = outStrides[d + 1] * outDims[d + 1];
    const int64_t *in = indices.data<int64_t>();
    int64_t *out = indicesOut->data<int64_t>();
    for (int64_t i = 0; i < nnz; ++i) {
      // TF does not bounds-check the indices: one outside the dense shape
      // maps to some other position, as in TF, unless its position
      // overflows int64 (an error here, undefined behaviour there).
      int64_t id = 0;
      for (int d = 0; d < inRank; ++d) {
        int64_t term = 0;
        TFRT_FALLBACK_OP_REQUIRES(
            ctx,
            !__builtin_mul_overflow(in[i * inRank + d], inStrides[d], &term) &&
                !__builtin_add_overflow(id, term, &id),
            errorf("Sparse index tuple indices[%d, :] overflows the position "
                   "in input_shape=%s",
                   i, inputShape.toString()));
      }
      for (int64_t d = 0; d < outputRank; ++d) {
        out[i * outputRank + d] = id / outStrides[d];
        id %= outStrides[d];
      }
    }
  }
};

//===----------------------------------------------------------------------===//
// SparseReorder
//===----------------------------------------------------------------------===//

/// SparseReorder(input_indices, input_values, input_shape) ->
/// (output_indices, output_values): the entries in row-major (lexicographic)
/// order of their indices; indices in that order already give the inputs
/// back. Indices are not bounds-checked (TF's IndexValidation::kNone: some
/// ops use -1 as a placeholder). Entries with equal indices keep their
/// order.
class SparseReorderKernel final : public OpKernel {
public:
  explicit SparseReorderKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0);
    const Tensor &values = ctx->input(1);
    const Tensor &shape = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, validateSparseParts(*this, indices, values, shape));
    const int64_t nnz = indices.dim(0), rank = indices.dim(1);
    const int64_t *ix = indices.data<int64_t>();
    auto less = [&](int64_t a, int64_t b) {
      return std::lexicographical_compare(ix + a * rank, ix + a * rank + rank,
                                          ix + b * rank, ix + b * rank + rank);
    };
    std::vector<int64_t> order(nnz);
    std::iota(order.begin(), order.end(), 0);
    if (std::is_sorted(order.begin(), order.end(), less)) {
      ctx->setOutput(0, indices);
      ctx->setOutput(1, values);
      return;
    }
    // Equal indices keep their order: ties go by position.
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      return less(a, b) || (!less(b, a) && a < b);
    });
    Tensor *indicesOut = nullptr, *valuesOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, indices.shape(), &indicesOut));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, values.shape(), &valuesOut));
    int64_t *outIx = indicesOut->data<int64_t>();
    for (int64_t i = 0; i < nnz; ++i)
      std::copy_n(ix + order[i] * rank, rank, outIx + i * rank);
    dispatchElementSize(values.dtype(), [&](auto e) {
      using E = decltype(e);
      const E *in = static_cast<const E *>(values.rawData());
      E *out = static_cast<E *>(valuesOut->rawData());
      for (int64_t i = 0; i < nnz; ++i)
        out[i] = in[order[i]];
    });
  }
};

//===----------------------------------------------------------------------===//
// SparseFillEmptyRows
//===----------------------------------------------------------------------===//

/// SparseFillEmptyRows(indices, values, dense_shape, default_value) ->
/// (output_indices, output_values, empty_row_indicator, reverse_index_map):
/// every row of the dense shape's first dim without an entry gets one at
/// [row, 0, ..., 0] with default_value. Entries keep their order within a
/// row and rows come in order; reverse_index_map[i] is where input entry i
/// went. Already ordered indices with no empty row give the inputs back.
class SparseFillEmptyRowsKernel final : public OpKernel {
public:
  explicit SparseFillEmptyRowsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0);
    const Tensor &values = ctx->input(1);
    const Tensor &denseShape = ctx->input(2);
    const Tensor &defaultValue = ctx->input(3);
    TFRT_FALLBACK_OP_REQUIRES(ctx, denseShape.rank() == 1,
                              errorf("dense_shape must be a vector, saw: %s",
                                     denseShape.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, indices.rank() == 2,
                              errorf("indices must be a matrix, saw: %s",
                                     indices.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values.rank() == 1,
        errorf("values must be a vector, saw: %s", values.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.dim(0) == values.dim(0),
        errorf("The length of `values` (%d) must match the first dimension "
               "of `indices` (%d).",
               values.dim(0), indices.dim(0)));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.dim(1) == denseShape.dim(0),
        errorf("The length of `dense_shape` (%d) must match the second "
               "dimension of `indices` (%d).",
               denseShape.dim(0), indices.dim(1)));
    TFRT_FALLBACK_OP_REQUIRES(ctx, defaultValue.rank() == 0,
                              errorf("default_value must be a scalar, saw: %s",
                                     defaultValue.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, denseShape.numElements() != 0,
                              errorf("Dense shape cannot be empty."));
    const int64_t n = indices.dim(0), rank = indices.dim(1);
    const int64_t denseRows = denseShape.data<int64_t>()[0];
    TFRT_FALLBACK_OP_REQUIRES(ctx, denseRows >= 0,
                              errorf("Dimension %d must be >= 0", denseRows));

    Tensor *indicator = nullptr, *reverseMap = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2, TensorShape{denseRows}, &indicator));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(3, TensorShape{n}, &reverseMap));
    bool *empty = indicator->data<bool>();
    int64_t *reverse = reverseMap->data<int64_t>();
    const int64_t *ix = indices.data<int64_t>();

    if (denseRows == 0) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, n == 0,
          errorf("Received SparseTensor with dense_shape[0] = 0 but "
                 "indices.shape[0] = %d",
                 n));
      Tensor *unused = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(0, TensorShape{0, rank}, &unused));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(1, TensorShape{0}, &unused));
      return;
    }

    // Entries per row, then each row's end in the output (an empty row
    // takes one entry).
    std::vector<int64_t> rowEnd(denseRows, 0);
    bool ordered = true;
    int64_t lastRow = 0;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = ix[i * rank];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, row >= 0 && row < denseRows,
          errorf("indices(%d, 0) is invalid: %d >= %d", i, row, denseRows));
      ++rowEnd[row];
      ordered &= row >= lastRow;
      lastRow = row;
    }
    bool full = true;
    for (int64_t row = 0; row < denseRows; ++row) {
      empty[row] = rowEnd[row] == 0;
      full &= !empty[row];
      rowEnd[row] = std::max<int64_t>(rowEnd[row], 1);
      if (row > 0)
        rowEnd[row] += rowEnd[row - 1];
    }
    if (full && ordered) {
      ctx->setOutput(0, indices);
      ctx->setOutput(1, values);
      std::iota(reverse, reverse + n, int64_t(0));
      return;
    }

    const int64_t total = rowEnd[denseRows - 1];
    Tensor *indicesOut = nullptr, *valuesOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{total, rank}, &indicesOut));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape{total}, &valuesOut));
    int64_t *outIx = indicesOut->data<int64_t>();
    std::vector<int64_t> filled(denseRows, 0);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t row = ix[i * rank];
      const int64_t o = (row == 0 ? 0 : rowEnd[row - 1]) + filled[row]++;
      std::copy_n(ix + i * rank, rank, outIx + o * rank);
      reverse[i] = o;
    }
    std::vector<int64_t> defaultAt;
    for (int64_t row = 0; row < denseRows; ++row) {
      if (filled[row] != 0)
        continue;
      const int64_t o = row == 0 ? 0 : rowEnd[row - 1];
      outIx[o * rank] = row;
      std::fill_n(outIx + o * rank + 1, rank - 1, int64_t(0));
      defaultAt.push_back(o);
    }
    dispatchElementSize(values.dtype(), [&](auto e) {
      using E = decltype(e);
      const E *in = static_cast<const E *>(values.rawData());
      E *out = static_cast<E *>(valuesOut->rawData());
      for (int64_t i = 0; i < n; ++i)
        out[reverse[i]] = in[i];
      const E fill = *static_cast<const E *>(defaultValue.rawData());
      for (int64_t o : defaultAt)
        out[o] = fill;
    });
  }
};

//===----------------------------------------------------------------------===//
// SparseTensorDenseMatMul
//===----------------------------------------------------------------------===//

/// The type products are summed in: float for half (TF's SumType).
template <typename T> struct SumType {
  using type = T;
};
template <> struct SumType<Eigen::half> {
  using type = float;
};

/// row + a * b; integers wrap around (two's complement, as TF's kernels
/// give in practice) instead of overflowing.
template <typename S> S multiplyAdd(S row, S a, S b) {
  if constexpr (std::is_integral_v<S>) {
    using U = std::make_unsigned_t<S>;
    return static_cast<S>(static_cast<U>(row) +
                          static_cast<U>(a) * static_cast<U>(b));
  } else {
    return row + a * b;
  }
}

/// SparseTensorDenseMatMul(a_indices: Tindices, a_values, a_shape, b;
/// adjoint_a, adjoint_b) -> product = op(A) * op(B), A the 2-D SparseTensor
/// (a_indices, a_values, a_shape); adjoint transposes (the dtypes here are
/// real). Each entry of A, in order, adds its products to one output row
/// (TF's loop); an index outside A's shape is an error ("k (5) from
/// index[1,1] out of bounds (>=4)").
template <typename T>
class SparseTensorDenseMatMulKernel final : public OpKernel {
public:
  explicit SparseTensorDenseMatMulKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "adjoint_a", &adjointA_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "adjoint_b", &adjointB_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &aIndices = ctx->input(0);
    const Tensor &aValues = ctx->input(1);
    const Tensor &aShape = ctx->input(2);
    const Tensor &b = ctx->input(3);
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(aIndices),
                              errorf("a_indices must be int32 or int64, got %s",
                                     dtypeName(aIndices.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(ctx, b.rank() == 2,
                              errorf("Tensor 'b' is not a matrix"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, aShape.rank() == 1,
                              errorf("Tensor 'a_shape' is not a vector"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, aShape.numElements() == 2,
                              errorf("Tensor 'a_shape' must have 2 elements"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, aValues.rank() == 1,
                              errorf("Tensor 'a_values' is not a vector"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, aIndices.rank() == 2,
                              errorf("Tensor 'a_indices' is not a matrix"));
    const int64_t nnz = aIndices.dim(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, nnz == aValues.numElements(),
        errorf("Number of rows of a_indices does not match number of entries "
               "in a_values"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, aIndices.dim(1) == aShape.numElements(),
        errorf("Number of columns of a_indices does not match number of "
               "entries in a_shape"));
    const int64_t *s = aShape.data<int64_t>();
    const int64_t outerLeft = adjointA_ ? s[1] : s[0];
    const int64_t innerLeft = adjointA_ ? s[0] : s[1];
    const int64_t outerRight = adjointB_ ? b.dim(0) : b.dim(1);
    const int64_t innerRight = adjointB_ ? b.dim(1) : b.dim(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, innerLeft == innerRight,
        errorf("Cannot multiply A and B because inner dimension does not "
               "match: %d vs. %d.  Did you forget a transpose?  Dimensions of "
               "A: [%d, %d).  Dimensions of B: %s",
               innerLeft, innerRight, s[0], s[1], b.shape().toString()));
    const int64_t outDims[] = {outerLeft, outerRight};
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES(ctx, outShape.ok(),
                              errorf("%s", outShape.status().message()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    if (out->numElements() == 0)
      return;

    using Sum = typename SumType<T>::type;
    std::vector<Sum> acc(out->numElements(), Sum(0));
    const T *values = aValues.data<T>();
    const T *bData = b.data<T>();
    const int64_t bCols = b.dim(1);
    const int rowColumn = adjointA_ ? 1 : 0, kColumn = adjointA_ ? 0 : 1;
    for (int64_t i = 0; i < nnz; ++i) {
      const int64_t m = indexAt(aIndices, i * 2 + rowColumn);
      const int64_t k = indexAt(aIndices, i * 2 + kColumn);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, k >= 0 && k < innerRight,
          errorf("k (%d) from index[%d,%d] out of bounds (>=%d)", k, i, kColumn,
                 innerRight));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, m >= 0 && m < outerLeft,
          errorf("m (%d) from index[%d,%d] out of bounds (>=%d)", m, i,
                 rowColumn, outerLeft));
      const Sum a = static_cast<Sum>(values[i]);
      Sum *row = acc.data() + m * outerRight;
      const int64_t step = adjointB_ ? bCols : 1;
      const T *bRow = bData + (adjointB_ ? k : k * bCols);
      for (int64_t n = 0; n < outerRight; ++n)
        row[n] = multiplyAdd(row[n], a, static_cast<Sum>(bRow[n * step]));
    }
    T *o = out->data<T>();
    for (int64_t i = 0; i < out->numElements(); ++i)
      o[i] = static_cast<T>(acc[i]);
  }

private:
  bool adjointA_ = false, adjointB_ = false;
};

} // namespace

void registerSparseKernels(KernelRegistry &registry) {
  registerKernel<OpId::kSparseReshape, SparseReshapeKernel>(registry);
  registerKernel<OpId::kSparseReorder, SparseReorderKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kSparseFillEmptyRows, SparseFillEmptyRowsKernel>(
      registry, {{"T", kAllDTypes}});
  // Tindices (int32 or int64) is read from the operand.
  registerKernel<OpId::kSparseTensorDenseMatMul, SparseTensorDenseMatMulKernel,
                 Eigen::half, float, double, int32_t>(registry);
}

} // namespace tfrt_fallback::rt

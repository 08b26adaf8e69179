//===- SparseKernels.cpp - ops on SparseTensors (indices, values, shape) --===//
//
// The sparse ops of the Flex list that take a SparseTensor as its three
// dense parts: int64 indices [nnz, rank], values [nnz] and dense_shape
// [rank]. SparseReshape (reshape_util.cc), SparseReorder
// (sparse_reorder_op.cc), SparseFillEmptyRows (fill_empty_rows_functor.h),
// SparseTensorDenseMatMul (sparse_tensor_dense_matmul_op.cc), SparseAdd
// (sparse_add_op.cc), SparseSlice (sparse_slice_op.cc, SparseTensor::Slice)
// and SparseReduceSum (sparse_reduce_op.cc), with TensorFlow's checks and
// messages. Values of any dtype move as raw bits (one class for every
// dtype; SparseSlice copies strings too); the arithmetic ones are one
// class per dtype.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/GatherRows.h"
#include "common/Registration.h"

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
    return dense.status();
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
template <> struct SumType<Eigen::bfloat16> {
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
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outDims, &out));
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

//===----------------------------------------------------------------------===//
// SparseAdd
//===----------------------------------------------------------------------===//

/// a + b of two integers wrapping around (two's complement) instead of
/// overflowing; floats add as floats.
template <typename T> T wrappingAdd(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

/// thresh <= |s|, without overflowing |INT_MIN|.
template <typename T> bool reachesThreshold(T thresh, T s) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (thresh <= 0)
      return true;
    const U magnitude = s < 0 ? U(0) - static_cast<U>(s) : static_cast<U>(s);
    return static_cast<U>(thresh) <= magnitude;
  } else {
    return thresh <= std::abs(s);
  }
}

/// SparseAdd(a_indices, a_values, a_shape, b_indices, b_values, b_shape,
/// thresh) -> (sum_indices, sum_values, sum_shape): the sum of two
/// SparseTensors of one dense shape, both in row-major order (TF's
/// assumption: the entries are merged in one pass, as tf.sparse.add does).
/// Where both have an entry the sum is kept only when thresh <= |sum|;
/// entries of one operand are kept as they are. sum_shape is a_shape.
/// Indices are compared, never used to address memory, so they are not
/// bounds-checked (TF does not either).
template <typename T> class SparseAddKernel final : public OpKernel {
public:
  explicit SparseAddKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &aIndices = ctx->input(0), &aValues = ctx->input(1),
                 &aShape = ctx->input(2), &bIndices = ctx->input(3),
                 &bValues = ctx->input(4), &bShape = ctx->input(5),
                 &threshT = ctx->input(6);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, aIndices.rank() == 2 && bIndices.rank() == 2,
        errorf("Input indices should be matrices but received shapes: %s and "
               "%s",
               aIndices.shape().toString(), bIndices.shape().toString()));
    const int64_t aNnz = aIndices.dim(0), bNnz = bIndices.dim(0);
    const int64_t rank = aIndices.dim(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, bIndices.dim(1) == rank,
        errorf("Input indices must have the same dimension, got %d and %d",
               rank, bIndices.dim(1)));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, aValues.rank() == 1 && bValues.rank() == 1,
        errorf("Input values should be vectors but received shapes: %s and %s",
               aValues.shape().toString(), bValues.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, aValues.dim(0) == aNnz && bValues.dim(0) == bNnz,
        errorf("Expected %d and %d non-empty input values, got %d and %d", aNnz,
               bNnz, aValues.dim(0), bValues.dim(0)));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, aShape.rank() == 1 && bShape.rank() == 1,
        errorf("Input shapes should be a vector but received shapes %s and %s",
               aShape.shape().toString(), bShape.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, aShape.numElements() == rank,
        errorf("Second dimension of a_indices and length of a_shape must "
               "match, got %d and %d",
               rank, aShape.numElements()));
    // TF's message, misspelling included.
    TFRT_FALLBACK_OP_REQUIRES(ctx, rank > 0,
                              errorf("Tesors must not be empty"));
    const int64_t *as = aShape.data<int64_t>(), *bs = bShape.data<int64_t>();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, bShape.numElements() == rank,
        errorf("Operands do not have the same ranks; got shapes: %s and %s",
               strJoin(absl::MakeConstSpan(as, rank), " "),
               strJoin(absl::MakeConstSpan(bs, bShape.numElements()), " ")));
    for (int64_t d = 0; d < rank; ++d)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, as[d] == bs[d],
          errorf("Operands' shapes do not match: got %d and %d for dimension "
                 "%d",
                 as[d], bs[d], d));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, threshT.rank() == 0,
        errorf("The magnitude threshold must be a scalar: got shape %s",
               threshT.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, threshT.dtype() == dtypeOf<T>(),
        errorf("thresh must be %s like the values, got %s",
               dtypeName(dtypeOf<T>()), dtypeName(threshT.dtype())));
    const T thresh = threshT.data<T>()[0];

    const int64_t *ai = aIndices.data<int64_t>(),
                  *bi = bIndices.data<int64_t>();
    const T *av = aValues.data<T>(), *bv = bValues.data<T>();
    // (from a?, row) of each output entry, and its value.
    std::vector<std::pair<bool, int64_t>> picked;
    std::vector<T> values;
    picked.reserve(aNnz + bNnz);
    values.reserve(aNnz + bNnz);
    int64_t i = 0, j = 0;
    while (i < aNnz && j < bNnz) {
      const int64_t *x = ai + i * rank, *y = bi + j * rank;
      const int cmp = std::lexicographical_compare(x, x + rank, y, y + rank)
                          ? -1
                      : std::equal(x, x + rank, y) ? 0
                                                   : 1;
      if (cmp < 0) {
        picked.emplace_back(true, i);
        values.push_back(av[i++]);
      } else if (cmp > 0) {
        picked.emplace_back(false, j);
        values.push_back(bv[j++]);
      } else {
        const T s = wrappingAdd(av[i], bv[j]);
        if (reachesThreshold(thresh, s)) {
          picked.emplace_back(true, i);
          values.push_back(s);
        }
        ++i;
        ++j;
      }
    }
    for (; i < aNnz; ++i) {
      picked.emplace_back(true, i);
      values.push_back(av[i]);
    }
    for (; j < bNnz; ++j) {
      picked.emplace_back(false, j);
      values.push_back(bv[j]);
    }
    const int64_t nnz = static_cast<int64_t>(values.size());
    Tensor *indicesOut = nullptr, *valuesOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{nnz, rank}, &indicesOut));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape{nnz}, &valuesOut));
    int64_t *oi = indicesOut->data<int64_t>();
    for (int64_t k = 0; k < nnz; ++k)
      std::copy_n((picked[k].first ? ai : bi) + picked[k].second * rank, rank,
                  oi + k * rank);
    std::copy(values.begin(), values.end(), valuesOut->data<T>());
    ctx->setOutput(2, aShape);
  }
};

//===----------------------------------------------------------------------===//
// SparseSlice
//===----------------------------------------------------------------------===//

/// SparseSlice(indices, values, shape, start, size) -> (output_indices,
/// output_values, output_shape): the entries with start <= index < start +
/// size in every dimension, in their order, with start subtracted from
/// their indices. Each output dim is size[d], cut to what is left of the
/// input after start[d] (input_size - start), or 0 when start is past it; a
/// negative size inside the input is TF's "Expected a non-negative size,
/// got -1". Values of any dtype.
class SparseSliceKernel final : public OpKernel {
public:
  explicit SparseSliceKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0), &values = ctx->input(1),
                 &shape = ctx->input(2), &start = ctx->input(3),
                 &size = ctx->input(4);
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, validateSparseParts(*this, indices, values, shape));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, start.rank() == 1,
        errorf("Input start should be a vector but received shape %s",
               start.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, size.rank() == 1,
        errorf("Input size should be a vector but received shape %s",
               size.shape().toString()));
    const int64_t rank = shape.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, start.numElements() == rank,
        errorf("Expected start to be a vector of length %d but got length %d",
               rank, start.numElements()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, size.numElements() == rank,
        errorf("Expected size to be a vector of length %d but got length %d",
               rank, size.numElements()));
    TensorShape inputShape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 readDenseShape(*this, shape, &inputShape));
    const int64_t *st = start.data<int64_t>(), *sz = size.data<int64_t>();
    std::vector<int64_t> outDims(rank);
    for (int64_t d = 0; d < rank; ++d) {
      const __int128 in = inputShape.dim(d);
      if (st[d] < in - sz[d])
        outDims[d] = sz[d];
      else if (st[d] < in)
        outDims[d] = static_cast<int64_t>(in - st[d]);
      else
        outDims[d] = 0;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, outDims[d] >= 0,
          errorf("Expected a non-negative size, got %d", outDims[d]));
    }
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());

    const int64_t nnz = indices.dim(0);
    const int64_t *ix = indices.data<int64_t>();
    std::vector<int64_t> hits;
    for (int64_t i = 0; i < nnz; ++i) {
      bool hit = true;
      for (int64_t d = 0; d < rank && hit; ++d) {
        const int64_t v = ix[i * rank + d];
        hit = sz[d] > 0 && v >= st[d] &&
              static_cast<uint64_t>(v) - static_cast<uint64_t>(st[d]) <
                  static_cast<uint64_t>(sz[d]);
      }
      if (hit)
        hits.push_back(i);
    }
    const int64_t count = static_cast<int64_t>(hits.size());
    Tensor *indicesOut = nullptr, *shapeOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{count, rank}, &indicesOut));
    int64_t *oi = indicesOut->data<int64_t>();
    for (int64_t k = 0; k < count; ++k)
      for (int64_t d = 0; d < rank; ++d)
        oi[k * rank + d] = ix[hits[k] * rank + d] - st[d];
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, emitGatheredRows(ctx, 1, values, hits, 1, TensorShape{count}));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2, TensorShape{rank}, &shapeOut));
    std::copy(outDims.begin(), outDims.end(), shapeOut->data<int64_t>());
  }
};

//===----------------------------------------------------------------------===//
// SparseReduceSum
//===----------------------------------------------------------------------===//

/// SparseReduceSum(input_indices, input_values, input_shape,
/// reduction_axes; keep_dims = false) -> output: the dense sum of the
/// SparseTensor's entries over `reduction_axes` (a scalar or vector of
/// axes, negative ones counting from the end, repeats allowed; an empty
/// list reduces nothing), positions without entries 0. keep_dims keeps the
/// reduced dims as 1. Entries with equal indices all count. An index outside
/// the dense shape is an error (TF's "Obtained a write index of ..." catches
/// those that land outside the output; this checks every kept coordinate).
/// Integers wrap on overflow; f16 and bf16 are summed in f32.
template <typename T> class SparseReduceSumKernel final : public OpKernel {
public:
  explicit SparseReduceSumKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "keep_dims", &keepDims_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0), &values = ctx->input(1),
                 &shape = ctx->input(2), &axes = ctx->input(3);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape.rank() == 1,
        errorf("Expected input_shape to be a vector; got shape: %s",
               shape.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axes.rank() <= 1,
        errorf("Expected reduction_axes to be a scalar or a vector; got "
               "shape: %s",
               axes.shape().toString()));
    const int64_t rank = shape.numElements();
    const int32_t *ax = axes.data<int32_t>();
    std::vector<bool> reduced(rank, false);
    for (int64_t i = 0; i < axes.numElements(); ++i) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ax[i] >= -rank && ax[i] < rank,
          errorf("Invalid reduction dimension %d, for input with %d "
                 "dimensions.",
                 ax[i], rank));
      reduced[(ax[i] + rank) % rank] = true;
    }
    TensorShape dense;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readDenseShape(*this, shape, &dense));
    TFRT_FALLBACK_OP_REQUIRES(ctx, indices.rank() == 2,
                              errorf("indices must be a matrix, but got: %s",
                                     indices.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values.rank() == 1,
        errorf("vals must be a vec, but got: %s", values.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.dim(0) == values.dim(0),
        errorf("indices and values rows (indexing dimension) must match. "
               "(indices = %d, values = %d)",
               indices.dim(0), values.dim(0)));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.dim(1) == rank,
        errorf("Order length must be SparseTensor rank."));

    TensorShape::Dims outDims;
    std::vector<int64_t> kept;
    for (int64_t d = 0; d < rank; ++d) {
      if (!reduced[d]) {
        kept.push_back(d);
        outDims.push_back(dense.dim(d));
      } else if (keepDims_) {
        outDims.push_back(1);
      }
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
    using Sum = typename SumType<T>::type;
    std::vector<Sum> acc(out->numElements(), Sum(0));
    const int64_t *ix = indices.data<int64_t>();
    const T *v = values.data<T>();
    for (int64_t i = 0; i < indices.dim(0); ++i) {
      int64_t flat = 0;
      for (int64_t d : kept) {
        const int64_t c = ix[i * rank + d];
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, c >= 0 && c < dense.dim(d),
            errorf("indices[%d] = [%s] is out of bounds: need 0 <= index < "
                   "[%s]",
                   i, strJoin(absl::MakeConstSpan(ix + i * rank, rank), ","),
                   strJoin(dense.dims(), ",")));
        flat = flat * dense.dim(d) + c;
      }
      acc[flat] = wrappingAdd(acc[flat], static_cast<Sum>(v[i]));
    }
    T *o = out->data<T>();
    for (size_t k = 0; k < acc.size(); ++k)
      o[k] = static_cast<T>(acc[k]);
  }

private:
  bool keepDims_ = false;
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
  // TF's real number types but uint8 (complex has no dtype here); Treal,
  // the threshold's, is checked against T by the kernel.
  registerKernel<OpId::kSparseAdd, SparseAddKernel, float, double, int64_t,
                 int32_t, int16_t, int8_t>(registry);
  registerKernel<OpId::kSparseSlice, SparseSliceKernel>(
      registry, {{"T", kAllValueDTypes}});
  registerKernel<OpId::kSparseReduceSum, SparseReduceSumKernel, float, double,
                 Eigen::half, Eigen::bfloat16, int8_t, int16_t, int32_t,
                 int64_t, uint8_t, uint16_t, uint32_t, uint64_t>(registry);
}

} // namespace tfrt_fallback::rt

//===- RaggedKernels.cpp - Ragged tensors as row splits and values --------===//
//
// TensorFlow's ragged-tensor kernels (tensorflow/core/kernels/ragged_*.cc).
// A ragged tensor of ragged rank K is K row-splits vectors (int32 or int64,
// Tsplits) and flat values: splits[0] partitions the outermost rows into
// the items of the next level, ..., splits[K-1] partitions the rows of the
// flat values; a valid splits vector starts at 0, never decreases and ends
// at the next level's item count.
//
// - RaggedRange(starts, limits, deltas): one row per (start, limit, delta)
//   (scalars broadcast), the range's values (T: f32, f64, i32, i64).
// - RaggedGather(params_nested_splits..., params_dense_values, indices):
//   the rows of params that indices (of any rank) name; the output has
//   indices.rank - 1 more ragged dims (uniform splits) than params.
// - RaggedTensorToSparse(rt_nested_splits..., rt_dense_values): the
//   SparseTensor of the same elements, in row-major order.
// - RaggedTensorToTensor(shape, values, default_value,
//   row_partition_tensors...; row_partition_types): the padded dense
//   tensor. Partitions are ROW_SPLITS, VALUE_ROWIDS (the row of each item)
//   or, first, FIRST_DIM_SIZE (the number of rows, a scalar); shape (-1
//   dims, or a scalar -1: unknown) cuts or pads each dim; default_value
//   broadcasts (NumPy rules) to one value row.
// - RaggedTensorToVariant(rt_nested_splits..., rt_dense_values;
//   batched_input) / RaggedTensorFromVariant(encoded_ragged;
//   input_ragged_rank, output_ragged_rank): a ragged tensor as a variant
//   scalar, or (batched) its rows as a vector of variants, and back, a
//   variant tensor of rank D giving D more ragged dims than its elements.
//   The variant objects share the input's buffers (VariantKind::
//   RaggedTensor).
// Values move as raw bits (any dtype, strings copied by view), one class
// for every dtype. Malformed splits, row ids and indices are errors with
// TF's messages; where TF reads out of bounds instead, the check and its
// message are ours (docs/Kernels.md lists them).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/GatherRows.h"
#include "common/Registration.h"
#include "common/TFDTypeName.h"
#include "common/Variant.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// A new splits (or any index) tensor of `dtype` (int32 or int64) holding
/// `values`; an error naming `op` when one does not fit in int32.
StatusOr<Tensor> makeIndexTensor(const OpKernel &op, DType dtype,
                                 absl::Span<const int64_t> values) {
  StatusOr<Tensor> t =
      Tensor::allocate(dtype, TensorShape{static_cast<int64_t>(values.size())});
  if (!t.ok())
    return t.status();
  if (dtype == DType::I64) {
    std::copy(values.begin(), values.end(), t->data<int64_t>());
    return t;
  }
  int32_t *out = t->data<int32_t>();
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] < std::numeric_limits<int32_t>::min() ||
        values[i] > std::numeric_limits<int32_t>::max())
      return op.errorf("row split %d does not fit in int32; use int64 "
                       "row splits",
                       values[i]);
    out[i] = static_cast<int32_t>(values[i]);
  }
  return t;
}

/// The elements of an int32 or int64 vector as int64.
std::vector<int64_t> readIndices(const Tensor &t) {
  std::vector<int64_t> out(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i)
    out[i] = indexAt(t, i);
  return out;
}

/// Bytes of one element of `dtype` in a buffer (string tensors hold views).
size_t elementBytes(DType dtype) {
  return dtype == DType::String ? kStringElementSize : dtypeSize(dtype);
}

/// A tensor of `dtype` and `shape` without elements.
StatusOr<Tensor> emptyTensor(DType dtype, TensorShape shape) {
  if (dtype == DType::String)
    return makeStringTensor(shape, {});
  return Tensor::allocate(dtype, std::move(shape));
}

/// Rows [begin, end) of `t` (along dim 0), sharing its buffer.
StatusOr<Tensor> rowsOf(const Tensor &t, int64_t begin, int64_t end) {
  TensorShape::Dims dims(t.shape().dims().begin(), t.shape().dims().end());
  const int64_t rowElements = dims[0] == 0 ? 0 : t.numElements() / dims[0];
  dims[0] = end - begin;
  TensorShape shape(dims);
  if (shape.numElements() == 0)
    return emptyTensor(t.dtype(), std::move(shape));
  return Tensor(t.dtype(), std::move(shape), t.buffer(),
                t.byteOffset() + begin * rowElements * elementBytes(t.dtype()));
}

/// The tensors `parts` (one dtype) concatenated along dim 0 into a new
/// tensor of `shape`.
StatusOr<Tensor> concatRows(DType dtype, const std::vector<Tensor> &parts,
                            TensorShape shape) {
  if (dtype == DType::String) {
    std::vector<std::string_view> views;
    for (const Tensor &p : parts) {
      absl::Span<const std::string_view> e = stringElements(p);
      views.insert(views.end(), e.begin(), e.end());
    }
    return makeStringTensor(shape, views);
  }
  StatusOr<Tensor> out = Tensor::allocate(dtype, std::move(shape));
  if (!out.ok())
    return out.status();
  char *dst = static_cast<char *>(out->rawData());
  for (const Tensor &p : parts) {
    if (p.totalBytes() == 0)
      continue;
    std::memcpy(dst, p.rawData(), p.totalBytes());
    dst += p.totalBytes();
  }
  return out;
}

/// TF's RaggedTensorVerifySplits (ragged_utils.h): rank 1, at least one
/// element, 0 first, non-decreasing, and (checkLast) numValues last.
Status verifySplits(const OpKernel &op, const Tensor &splits, bool checkLast,
                    int64_t numValues) {
  if (splits.rank() != 1)
    return op.errorf("Invalid ragged splits: ragged splits must be rank 1 "
                     "but is rank %d",
                     splits.rank());
  if (splits.numElements() < 1)
    return op.errorf("Invalid ragged splits: ragged splits must have at "
                     "least one splits, but is empty");
  if (indexAt(splits, 0) != 0)
    return op.errorf("Invalid ragged splits: first element of ragged splits "
                     " must be 0 but is %d",
                     indexAt(splits, 0));
  int64_t last = 0;
  for (int64_t j = 1; j < splits.numElements(); ++j) {
    const int64_t split = indexAt(splits, j);
    if (split < last)
      return op.errorf("Invalid ragged splits: ragged splits must be "
                       "monotonically increasing, but ragged_splits[%d]=%d "
                       "is smaller than row_splits[%d]=%d",
                       j, split, j - 1, last);
    last = split;
  }
  if (checkLast && last != numValues)
    return op.errorf("Invalid ragged splits: last element of ragged splits "
                     "must be the number of ragged values(%d) but is %d",
                     numValues, last);
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// RaggedRange
//===----------------------------------------------------------------------===//

/// RaggedRange(starts, limits, deltas; Tsplits = int64) -> (rt_nested_splits,
/// rt_dense_values): row i is range(starts[i], limits[i], deltas[i]);
/// scalars broadcast to the others' length (one row when all are scalars).
/// A row's size is ceil((limit - start) / delta), 0 when delta points away
/// from limit; its values are start, start + delta, ... accumulated as TF
/// accumulates them (integers wrap). "Requires delta != 0"; a size above
/// Tsplits' maximum is "Requires ((limit - start) / delta) <= 2147483647"
/// (a NaN size too, which TF converts without a check).
template <typename T> class RaggedRangeKernel final : public OpKernel {
public:
  explicit RaggedRangeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &starts = ctx->input(0), &limits = ctx->input(1),
                 &deltas = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(ctx, starts.rank() <= 1,
                              errorf("starts must be a scalar or vector"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, limits.rank() <= 1,
                              errorf("limits must be a scalar or vector"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, deltas.rank() <= 1,
                              errorf("deltas must be a scalar or vector"));
    const DType splitsType = ctx->expectedOutputDType(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, splitsType == DType::I32 || splitsType == DType::I64,
        errorf("Tsplits must be int32 or int64, got %s",
               dtypeName(splitsType)));
    const int64_t maxSplit = splitsType == DType::I32
                                 ? std::numeric_limits<int32_t>::max()
                                 : std::numeric_limits<int64_t>::max();
    int64_t nrows = -1;
    for (const Tensor *t : {&starts, &limits, &deltas}) {
      if (t->rank() == 0)
        continue;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, nrows == -1 || nrows == t->dim(0),
          errorf("starts, limits, and deltas must have the same shape"));
      nrows = t->dim(0);
    }
    if (nrows == -1)
      nrows = 1;
    auto at = [](const Tensor &t, int64_t row) {
      return t.data<T>()[t.rank() == 0 ? 0 : row];
    };
    std::vector<int64_t> splits(nrows + 1, 0);
    for (int64_t row = 0; row < nrows; ++row) {
      const T start = at(starts, row), limit = at(limits, row),
              delta = at(deltas, row);
      TFRT_FALLBACK_OP_REQUIRES(ctx, delta != T(0),
                                errorf("Requires delta != 0"));
      int64_t size = 0;
      if ((delta > 0 && limit < start) || (delta < 0 && limit > start)) {
        size = 0;
      } else if constexpr (std::is_integral_v<T>) {
        // |limit - start| and |delta| as unsigned: no overflow.
        using U = std::make_unsigned_t<T>;
        const U range =
            limit >= start ? U(limit) - U(start) : U(start) - U(limit);
        const U step = delta > 0 ? U(delta) : U(0) - U(delta);
        const uint64_t n = range / step + (range % step != 0);
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, n <= static_cast<uint64_t>(maxSplit),
            errorf("Requires ((limit - start) / delta) <= %d", maxSplit));
        size = static_cast<int64_t>(n);
      } else {
        const double n =
            std::ceil(std::abs(static_cast<double>((limit - start) / delta)));
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, n <= static_cast<double>(maxSplit),
            errorf("Requires ((limit - start) / delta) <= %d", maxSplit));
        size = static_cast<int64_t>(n);
      }
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, size <= maxSplit - splits[row],
          errorf("The total range size overflowed. Consider using int64 "
                 "instead of int32 for row_splits_dtype."));
      splits[row + 1] = splits[row] + size;
    }
    StatusOr<Tensor> splitsOut = makeIndexTensor(*this, splitsType, splits);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, splitsOut.status());
    ctx->setOutput(0, *std::move(splitsOut));
    Tensor *valuesOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape{splits[nrows]}, &valuesOut));
    T *out = valuesOut->data<T>();
    for (int64_t row = 0; row < nrows; ++row) {
      T value = at(starts, row);
      const T delta = at(deltas, row);
      const int64_t size = splits[row + 1] - splits[row];
      for (int64_t i = 0; i < size; ++i) {
        *out++ = value;
        if constexpr (std::is_integral_v<T>) {
          using U = std::make_unsigned_t<T>;
          value = static_cast<T>(U(value) + U(delta));
        } else {
          value += delta;
        }
      }
    }
  }
};

//===----------------------------------------------------------------------===//
// RaggedGather
//===----------------------------------------------------------------------===//

/// RaggedGather(params_nested_splits..., params_dense_values, indices) ->
/// (output_nested_splits..., output_dense_values): params' rows indices[i]
/// (each in [0, nrows): "indices[1] = 5 is not in [0, 3)"), as a ragged
/// tensor whose first indices.rank - 1 splits are uniform (indices' dims)
/// and whose others are params' splits of the picked rows. Params' splits
/// must be non-negative, sorted and within the next level ("Ragged splits
/// must not point past values"; TF lets an inner one point one past its
/// next level and then reads past it: here that is the same error).
class RaggedGatherKernel final : public OpKernel {
public:
  explicit RaggedGatherKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const int numSplits = ctx->numInputs() - 2;
    TFRT_FALLBACK_OP_REQUIRES(ctx, numSplits > 0,
                              errorf("params_nested_splits must be non empty"));
    const Tensor &values = ctx->input(numSplits);
    const Tensor &indices = ctx->input(numSplits + 1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(0).rank() > 0,
                              errorf("Split tensors must not be scalars"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(indices),
                              errorf("indices must be int32 or int64, got %s",
                                     dtypeName(indices.dtype())));
    const int64_t numParams = ctx->input(0).dim(0) - 1;
    for (int64_t i = 0; i < indices.numElements(); ++i) {
      const int64_t index = indexAt(indices, i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, index >= 0 && index < numParams,
          errorf("indices%s = %d is not in [0, %d)",
                 sliceDebugString(indices.shape().dims(), i), index,
                 numParams));
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, values.rank() > 0,
                              errorf("params.rank must be nonzero"));
    std::vector<std::vector<int64_t>> splits(numSplits);
    for (int dim = 0; dim < numSplits; ++dim) {
      const Tensor &s = ctx->input(dim);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s.rank() == 1,
          errorf("Ragged splits must be vectors, got shape %s",
                 s.shape().toString()));
      splits[dim] = readIndices(s);
    }
    for (int dim = 0; dim < numSplits; ++dim) {
      const std::vector<int64_t> &s = splits[dim];
      const int64_t lastSplit = dim == numSplits - 1
                                    ? values.dim(0)
                                    : int64_t(splits[dim + 1].size()) - 1;
      TFRT_FALLBACK_OP_REQUIRES(ctx, !s.empty(),
                                errorf("Ragged splits may not be empty"));
      TFRT_FALLBACK_OP_REQUIRES(ctx, s[0] >= 0,
                                errorf("Ragged splits must be non-negative"));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s.back() <= lastSplit,
          errorf("Ragged splits must not point past values"));
      for (size_t i = 1; i < s.size(); ++i)
        TFRT_FALLBACK_OP_REQUIRES(ctx, s[i - 1] <= s[i],
                                  errorf("Ragged splits must be sorted"));
    }

    const int outSplits = indices.rank() - 1 + numSplits;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numOutputs() == outSplits + 1,
        errorf("OUTPUT_RAGGED_RANK must be %d (indices.rank - 1 + "
               "PARAMS_RAGGED_RANK), the node has %d outputs",
               outSplits, ctx->numOutputs()));
    // The output sizes first, which repeated indices can make far larger
    // than the inputs: each is checked before it is allocated.
    std::vector<uint64_t> sizes(outSplits, 1);
    uint64_t nrows = 1, numValueRows = 0;
    for (int dim = 0; dim < indices.rank() - 1; ++dim) {
      nrows *= static_cast<uint64_t>(indices.dim(dim)); // A sub-shape's.
      sizes[dim] += nrows;
    }
    for (int64_t i = 0; i < indices.numElements(); ++i) {
      int64_t start = indexAt(indices, i), limit = start + 1;
      for (int dim = 0; dim < numSplits; ++dim) {
        const int outDim = dim + indices.rank() - 1;
        if (outDim >= 0)
          TFRT_FALLBACK_OP_REQUIRES(
              ctx,
              !__builtin_add_overflow(sizes[outDim],
                                      static_cast<uint64_t>(limit - start),
                                      &sizes[outDim]),
              errorf("the gathered splits overflow"));
        start = splits[dim][start];
        limit = splits[dim][limit];
      }
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          !__builtin_add_overflow(numValueRows,
                                  static_cast<uint64_t>(limit - start),
                                  &numValueRows),
          errorf("the gathered values overflow"));
    }
    for (uint64_t size : sizes)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   checkHostAllocation(size, sizeof(int64_t)));
    TensorShape::Dims dims(values.shape().dims().begin(),
                           values.shape().dims().end());
    const int64_t rowSize = dims[0] == 0 ? 0 : values.numElements() / dims[0];
    // Value rows are listed only when they have elements to copy.
    if (rowSize > 0)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkHostAllocation(numValueRows, sizeof(int64_t)));

    std::vector<std::vector<int64_t>> out(outSplits, std::vector<int64_t>{0});
    for (int dim = 0; dim < outSplits; ++dim)
      out[dim].reserve(sizes[dim]);
    int64_t rows = 1;
    for (int dim = 0; dim < indices.rank() - 1; ++dim) {
      rows *= indices.dim(dim);
      const int64_t rowLength = indices.dim(dim + 1);
      for (int64_t i = 1; i <= rows; ++i)
        out[dim].push_back(i * rowLength);
    }
    std::vector<int64_t> valueRows;
    for (int64_t i = 0; i < indices.numElements(); ++i) {
      int64_t start = indexAt(indices, i), limit = start + 1;
      for (int dim = 0; dim < numSplits; ++dim) {
        const std::vector<int64_t> &s = splits[dim];
        // A scalar index drops params' outermost splits.
        const int outDim = dim + indices.rank() - 1;
        if (outDim >= 0) {
          std::vector<int64_t> &o = out[outDim];
          const int64_t delta = o.back() - s[start];
          for (int64_t j = start; j < limit; ++j)
            o.push_back(s[j + 1] + delta);
        }
        start = s[start];
        limit = s[limit];
      }
      if (rowSize > 0)
        for (int64_t r = start; r < limit; ++r)
          valueRows.push_back(r);
    }
    for (int i = 0; i < outSplits; ++i) {
      StatusOr<Tensor> t =
          makeIndexTensor(*this, ctx->expectedOutputDType(i), out[i]);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, t.status());
      ctx->setOutput(i, *std::move(t));
    }
    dims[0] = static_cast<int64_t>(numValueRows);
    StatusOr<TensorShape> valuesShape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, valuesShape.status());
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, emitGatheredRows(ctx, outSplits, values,
                                                       valueRows, rowSize,
                                                       *valuesShape));
  }
};

//===----------------------------------------------------------------------===//
// RaggedTensorToSparse
//===----------------------------------------------------------------------===//

/// RaggedTensorToSparse(rt_nested_splits..., rt_dense_values) ->
/// (sparse_indices, sparse_values, sparse_dense_shape): one entry per
/// element of the flat values, in order, at [row, position in each ragged
/// level..., position within the value]; values flattened; the dense shape
/// is [nrows, each level's widest row, values' inner dims].
class RaggedTensorToSparseKernel final : public OpKernel {
public:
  explicit RaggedTensorToSparseKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const int k = ctx->numInputs() - 1;
    TFRT_FALLBACK_OP_REQUIRES(ctx, k > 0,
                              errorf("rt_nested_splits must be non empty"));
    const Tensor &values = ctx->input(k);
    std::vector<std::vector<int64_t>> splits(k);
    for (int i = 0; i < k; ++i) {
      const Tensor &s = ctx->input(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s.rank() == 1,
          errorf("ragged splits must be vectors, got shape %s",
                 s.shape().toString()));
      splits[i] = readIndices(s);
      const std::vector<int64_t> &v = splits[i];
      TFRT_FALLBACK_OP_REQUIRES(ctx, !v.empty(),
                                errorf("ragged splits may not be empty."));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, v[0] == 0, errorf("First value of ragged splits must be 0."));
      for (size_t j = 1; j < v.size(); ++j)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, v[j] >= v[j - 1],
            errorf("Ragged splits should be non decreasing, but we got %d "
                   "followed by %d",
                   v[j - 1], v[j]));
      if (i > 0)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, int64_t(v.size()) == splits[i - 1].back() + 1,
            errorf("Final value of ragged splits must match the length the "
                   "corresponding ragged values."));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values.rank() >= 1,
        errorf("rt_dense_values must have rank >= 1, got shape %s",
               values.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values.dim(0) == splits.back().back(),
        errorf("Final value of ragged splits must match the length the "
               "corresponding ragged values."));

    const int64_t nvals = values.dim(0);
    const int64_t inner = nvals == 0 ? 0 : values.numElements() / nvals;
    const int64_t width = k + values.rank();
    // pos[d][i]: item i of level d + 1's position in its row; the value
    // rows' own level is k.
    // Values without elements ([n, 0]) have no entries: their rows, which
    // may be many, are not walked.
    const int64_t walked = values.numElements() > 0 ? nvals : 0;
    std::vector<std::vector<int64_t>> parent(k);
    for (int d = 0; d < k && walked > 0; ++d) {
      const std::vector<int64_t> &s = splits[d];
      parent[d].resize(s.back());
      for (size_t row = 0; row + 1 < s.size(); ++row)
        for (int64_t item = s[row]; item < s[row + 1]; ++item)
          parent[d][item] = static_cast<int64_t>(row);
    }
    Tensor *indicesOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{values.numElements(), width},
                                 &indicesOut));
    int64_t *oi = indicesOut->data<int64_t>();
    std::vector<int64_t> prefix(k + 1);
    const TensorShape innerShape = [&] {
      TensorShape::Dims d(values.shape().dims().begin() + 1,
                          values.shape().dims().end());
      return TensorShape(d);
    }();
    for (int64_t v = 0; v < walked; ++v) {
      int64_t item = v;
      for (int d = k - 1; d >= 0; --d) {
        const int64_t row = parent[d][item];
        prefix[d + 1] = item - splits[d][row];
        item = row;
      }
      prefix[0] = item;
      for (int64_t e = 0; e < inner; ++e) {
        oi = std::copy(prefix.begin(), prefix.end(), oi);
        int64_t rest = e;
        for (int d = innerShape.rank() - 1; d >= 0; --d) {
          oi[d] = rest % innerShape.dim(d);
          rest /= innerShape.dim(d);
        }
        oi += innerShape.rank();
      }
    }
    ctx->setOutput(1, values.reshaped(TensorShape{values.numElements()}));
    Tensor *shapeOut = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(2, TensorShape{width}, &shapeOut));
    int64_t *os = shapeOut->data<int64_t>();
    os[0] = static_cast<int64_t>(splits[0].size()) - 1;
    for (int d = 0; d < k; ++d) {
      int64_t widest = 0;
      for (size_t i = 1; i < splits[d].size(); ++i)
        widest = std::max(widest, splits[d][i] - splits[d][i - 1]);
      os[d + 1] = widest;
    }
    for (int d = 1; d < values.rank(); ++d)
      os[k + d] = values.dim(d);
  }
};

//===----------------------------------------------------------------------===//
// RaggedTensorToTensor
//===----------------------------------------------------------------------===//

enum class PartitionType { FirstDimSize, ValueRowIds, RowSplits };

/// "[2,?]" for a partial shape (-1: unknown), "<unknown>" for unknown rank.
std::string partialShapeString(bool knownRank,
                               const std::vector<int64_t> &dims) {
  if (!knownRank)
    return "<unknown>";
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i)
      out += ",";
    out += dims[i] < 0 ? std::string("?") : std::to_string(dims[i]);
  }
  return out + "]";
}

/// RaggedTensorToTensor(shape, values, default_value,
/// row_partition_tensors...; row_partition_types) -> result: see the file
/// comment. The output dims are shape's where known; else dim 0 is the
/// number of rows, a ragged dim the widest row, an inner dim the values'.
/// Rows and items beyond the output's dims are dropped; positions without
/// a value get default_value. Errors are TF's, plus ours where TF would
/// read out of bounds: a negative value_rowid, splits that do not start at
/// 0 and never decrease ("Invalid row split size."), and a level with more
/// items than the next level (or the values) has.
class RaggedTensorToTensorKernel final : public OpKernel {
public:
  explicit RaggedTensorToTensorKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::vector<std::string> names;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("row_partition_types", &names));
    for (const std::string &name : names) {
      if (name == "FIRST_DIM_SIZE")
        types_.push_back(PartitionType::FirstDimSize);
      else if (name == "VALUE_ROWIDS")
        types_.push_back(PartitionType::ValueRowIds);
      else if (name == "ROW_SPLITS")
        types_.push_back(PartitionType::RowSplits);
      else {
        ctx->ctxFailure(
            errorf("Unknown string for partition info type: %s", name));
        return;
      }
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, !types_.empty(),
                              errorf("No row_partition_types given."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numInputs() - 3 == static_cast<int>(types_.size()),
        errorf("row_partition_types has %d entries but there are %d row "
               "partition tensors",
               types_.size(), ctx->numInputs() - 3));
    firstIsSize_ = types_[0] == PartitionType::FirstDimSize;
    raggedRank_ = static_cast<int>(types_.size()) - (firstIsSize_ ? 1 : 0);
    for (size_t i = 1; i < types_.size(); ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, types_[i] != PartitionType::FirstDimSize,
          errorf("Cannot handle partition type FIRST_DIM_SIZE"));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &shapeT = ctx->input(0), &values = ctx->input(1),
                 &defaultValue = ctx->input(2);
    const Tensor &first = ctx->input(3);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, first.numElements() > 0,
        errorf("Invalid first partition input. Tensor requires at least one "
               "element."));
    // The partition between dimension d and d + 1 (d < raggedRank_).
    auto partition = [&](int d) -> const Tensor & {
      return ctx->input(3 + d + (firstIsSize_ ? 1 : 0));
    };
    auto partitionType = [&](int d) {
      return types_[d + (firstIsSize_ ? 1 : 0)];
    };
    int64_t firstDim = 0;
    switch (types_[0]) {
    case PartitionType::FirstDimSize:
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, first.rank() == 0,
          errorf("FIRST_DIM_SIZE must be a scalar, got shape %s",
                 first.shape().toString()));
      firstDim = indexAt(first, 0);
      break;
    case PartitionType::ValueRowIds:
      return ctx->ctxFailure(
          errorf("Cannot handle VALUE_ROWIDS in first dimension."));
    case PartitionType::RowSplits:
      break;
    }
    std::vector<std::vector<int64_t>> parts(raggedRank_);
    for (int d = 0; d < raggedRank_; ++d) {
      const Tensor &t = partition(d);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, t.rank() == 1,
          errorf("row partition tensors must be vectors, got shape %s",
                 t.shape().toString()));
      parts[d] = readIndices(t);
    }
    if (types_[0] == PartitionType::RowSplits)
      firstDim = static_cast<int64_t>(parts[0].size()) - 1;

    // The output shape.
    TFRT_FALLBACK_OP_REQUIRES(ctx, values.rank() >= 1,
                              errorf("values must have rank >= 1, got shape %s",
                                     values.shape().toString()));
    const int valuesRank = values.rank();
    const int defaultRank = defaultValue.rank();
    const std::string valuesShape = values.shape().toString();
    const std::string defaultShape = defaultValue.shape().toString();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, defaultRank < valuesRank,
        errorf("default_value.shape=%s and rt_input.flat_values.shape=%s are "
               "incompatible: default_value.rank = %d  must be less than "
               "rt_input.flat_values.rank = %d",
               defaultShape, valuesShape, defaultRank, valuesRank));
    for (int i = 0; i < std::min(defaultRank, valuesRank - 1); ++i) {
      const int64_t dd = defaultValue.dim(i), vd = values.dim(i + 1);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, dd == 1 || dd == vd,
          errorf("default_value.shape=%s and rt_input.flat_values.shape=%s "
                 "are incompatible: default_value.shape[%d] = %d but "
                 "rt_input.flat_values.shape[%d] = %d",
                 defaultShape, valuesShape, i - defaultRank, dd,
                 i - defaultRank, vd));
    }
    bool knownRank = true;
    std::vector<int64_t> requested;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 readShape(shapeT, &knownRank, &requested));
    const int outRank = raggedRank_ + valuesRank;
    std::vector<int64_t> outDims = requested;
    if (!knownRank)
      outDims.assign(outRank, -1);
    const std::string shapeString = partialShapeString(knownRank, requested);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, static_cast<int>(outDims.size()) == outRank,
        errorf("rt_input.shape and shape=%s are incompatible: rt_input.rank "
               "= %d but shape.rank = %d",
               shapeString, outRank, outDims.size()));
    for (int i = 1; i < valuesRank; ++i) {
      int64_t &o = outDims[outRank - valuesRank + i];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, o < 0 || o == values.dim(i),
          errorf("rt_input.shape and shape=%s are incompatible: "
                 "rt_input.shape[%d] = %d but shape[%d] = %d",
                 shapeString, i + raggedRank_, values.dim(i), i + raggedRank_,
                 o));
      o = values.dim(i);
    }
    if (outDims[0] < 0)
      outDims[0] = firstDim;
    for (int i = 1; i <= raggedRank_; ++i)
      if (outDims[i] < 0)
        outDims[i] = maxWidth(parts[i - 1], partitionType(i - 1));
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    // One value row's elements, from the shape: values [0, 3] still make
    // rows of 3 defaults.
    int64_t valueSize = 1;
    for (int i = 1; i < valuesRank; ++i)
      valueSize *= values.dim(i);
    int64_t rowsOut = 1;
    for (int i = 0; i <= raggedRank_; ++i)
      rowsOut *= outDims[i];
    // The default value broadcast to one value row, as element offsets.
    std::vector<int64_t> defaultAt(valueSize, 0);
    if (defaultValue.numElements() != 1 &&
        defaultValue.numElements() != valueSize) {
      const std::vector<int64_t> elem(values.shape().dims().begin() + 1,
                                      values.shape().dims().end());
      for (int i = 0; i < defaultRank; ++i) {
        const int64_t dd = defaultValue.dim(defaultRank - 1 - i);
        const int64_t ed = elem[elem.size() - 1 - i];
        TFRT_FALLBACK_OP_REQUIRES(ctx, dd == 1 || dd == ed,
                                  errorf("Error broadcasting default_value"));
      }
      for (int64_t e = 0; e < valueSize; ++e) {
        int64_t rest = e, offset = 0, stride = 1;
        for (int i = 0; i < static_cast<int>(elem.size()); ++i) {
          const int64_t ed = elem[elem.size() - 1 - i];
          const int64_t c = rest % ed;
          rest /= ed;
          if (i < defaultRank) {
            const int64_t dd = defaultValue.dim(defaultRank - 1 - i);
            offset += (dd == 1 ? 0 : c) * stride;
            stride *= dd;
          }
        }
        defaultAt[e] = offset;
      }
    } else if (defaultValue.numElements() == valueSize) {
      for (int64_t e = 0; e < valueSize; ++e)
        defaultAt[e] = e;
    }

    // Where each item of each level goes in the output (in units of value
    // rows), -1 for dropped ones.
    std::vector<int64_t> multiplier(raggedRank_ + 1, 1);
    for (int i = raggedRank_ - 1; i >= 0; --i)
      multiplier[i] = multiplier[i + 1] * outDims[i + 1];
    std::vector<int64_t> index;
    if (rowsOut > 0) {
      const int64_t kept = std::min(firstDim, outDims[0]);
      // Level 0's items are the rows, [0, firstDim).
      auto parentAt = [&](int64_t i) {
        return i < kept ? i * multiplier[0] : -1;
      };
      int64_t parentSize = firstDim;
      for (int d = 0; d < raggedRank_; ++d) {
        const std::vector<int64_t> &p = parts[d];
        const int64_t nextCount =
            d + 1 < raggedRank_
                ? (partitionType(d + 1) == PartitionType::RowSplits
                       ? static_cast<int64_t>(parts[d + 1].size()) - 1
                       : static_cast<int64_t>(parts[d + 1].size()))
                : values.dim(0);
        std::vector<int64_t> next;
        auto parent = [&](int64_t i) {
          return d == 0 ? parentAt(i) : index[i];
        };
        if (partitionType(d) == PartitionType::RowSplits) {
          const int64_t rows = static_cast<int64_t>(p.size()) - 1;
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, rows <= parentSize,
              errorf("Row partition size is greater than output size: %d > "
                     "%d",
                     rows, parentSize));
          bool valid = !p.empty() && p[0] == 0;
          for (size_t i = 1; valid && i < p.size(); ++i)
            valid = p[i] >= p[i - 1];
          TFRT_FALLBACK_OP_REQUIRES(ctx, valid,
                                    errorf("Invalid row split size."));
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, p.back() <= nextCount,
              errorf("row partition %d has %d items but the next level has "
                     "%d",
                     d, p.back(), nextCount));
          // The next level's count may be a shape's dim ([n, 0] values).
          TFRT_FALLBACK_OP_REQUIRES_OK(
              ctx, checkHostAllocation(p.back(), sizeof(int64_t)));
          next.reserve(p.back());
          for (int64_t row = 0; row < rows; ++row) {
            const int64_t length = p[row + 1] - p[row];
            int64_t at = parent(row);
            const int64_t real = at < 0 ? 0 : std::min(outDims[d + 1], length);
            for (int64_t j = 0; j < real; ++j, at += multiplier[d + 1])
              next.push_back(at);
            next.insert(next.end(), length - real, -1);
          }
        } else {
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, static_cast<int64_t>(p.size()) <= nextCount,
              errorf("row partition %d has %d items but the next level has "
                     "%d",
                     d, p.size(), nextCount));
          next.reserve(p.size());
          int64_t column = 0, at = -1;
          for (size_t i = 0; i < p.size(); ++i) {
            const int64_t rowId = p[i];
            TFRT_FALLBACK_OP_REQUIRES(
                ctx, rowId < parentSize,
                errorf("Got %s=%d which is not less than %d",
                       i == 0 ? "current_value_rowid" : "next_value_rowid",
                       rowId, parentSize));
            TFRT_FALLBACK_OP_REQUIRES(
                ctx, rowId >= 0,
                errorf("value_rowids[%d] = %d is negative", i, rowId));
            if (i > 0 && rowId == p[i - 1]) {
              if (at >= 0) {
                ++column;
                at = column < outDims[d + 1] ? at + multiplier[d + 1] : -1;
              }
            } else {
              column = 0;
              at = parent(rowId);
            }
            next.push_back(at);
          }
        }
        index.swap(next);
        parentSize = static_cast<int64_t>(index.size());
      }
      if (raggedRank_ == 0)
        for (int64_t i = 0; i < std::min(firstDim, values.dim(0)); ++i)
          index.push_back(parentAt(i));
    }
    emit(ctx, values, defaultValue, defaultAt, index, *outShape, rowsOut,
         valueSize);
  }

private:
  /// TF's TensorShapeFromTensor: a scalar -1 (unknown rank) or a vector of
  /// dims >= -1.
  Status readShape(const Tensor &t, bool *knownRank,
                   std::vector<int64_t> *dims) const {
    if (t.rank() == 0) {
      if (indexAt(t, 0) == -1) {
        *knownRank = false;
        return OkStatus();
      }
      return errorf("The only valid scalar shape tensor is the fully unknown "
                    "shape specified as -1.");
    }
    if (t.rank() != 1)
      return errorf("Shape must be at most rank 1 but is rank %d", t.rank());
    for (int64_t i = 0; i < t.numElements(); ++i) {
      const int64_t d = indexAt(t, i);
      if (d < -1)
        return errorf("Dimension %d must be >= -1", d);
      dims->push_back(d);
    }
    return OkStatus();
  }

  static int64_t maxWidth(const std::vector<int64_t> &p, PartitionType type) {
    int64_t widest = 0;
    if (type == PartitionType::RowSplits) {
      for (size_t i = 1; i < p.size(); ++i)
        widest = std::max(widest, p[i] - p[i - 1]);
      return widest;
    }
    // VALUE_ROWIDS: the longest run of equal ids.
    size_t runStart = 0;
    for (size_t i = 1; i <= p.size(); ++i)
      if (i == p.size() || p[i] != p[runStart]) {
        widest = std::max<int64_t>(widest, i - runStart);
        runStart = i;
      }
    return widest;
  }

  /// Writes the output: default rows, then value row i at index[i].
  void emit(OpKernelContextInterface *ctx, const Tensor &values,
            const Tensor &defaultValue, const std::vector<int64_t> &defaultAt,
            const std::vector<int64_t> &index, const TensorShape &shape,
            int64_t rowsOut, int64_t valueSize) const {
    if (values.dtype() == DType::String) {
      absl::Span<const std::string_view> in = stringElements(values);
      absl::Span<const std::string_view> def = stringElements(defaultValue);
      if (shape.numElements() == 0) {
        ctx->setOutput(0, *makeStringTensor(shape, {}));
        return;
      }
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx,
          checkHostAllocation(shape.numElements(), sizeof(std::string_view)));
      std::vector<std::string_view> out(shape.numElements());
      for (int64_t r = 0; r < rowsOut; ++r)
        for (int64_t e = 0; e < valueSize; ++e)
          out[r * valueSize + e] = def[defaultAt[e]];
      for (size_t i = 0; i < index.size(); ++i)
        if (index[i] >= 0)
          std::copy_n(in.begin() + i * valueSize, valueSize,
                      out.begin() + index[i] * valueSize);
      StatusOr<Tensor> t = makeStringTensor(shape, out);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, t.status());
      ctx->setOutput(0, *std::move(t));
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    if (out->numElements() == 0)
      return;
    dispatchElementSize(values.dtype(), [&](auto e) {
      using E = decltype(e);
      const E *in = static_cast<const E *>(values.rawData());
      const E *def = static_cast<const E *>(defaultValue.rawData());
      E *o = static_cast<E *>(out->rawData());
      std::vector<E> row(valueSize);
      for (int64_t k = 0; k < valueSize; ++k)
        row[k] = def[defaultAt[k]];
      for (int64_t r = 0; r < rowsOut; ++r)
        std::copy(row.begin(), row.end(), o + r * valueSize);
      for (size_t i = 0; i < index.size(); ++i)
        if (index[i] >= 0)
          std::copy_n(in + i * valueSize, valueSize, o + index[i] * valueSize);
    });
  }

  std::vector<PartitionType> types_;
  bool firstIsSize_ = false;
  int raggedRank_ = 0;
};

//===----------------------------------------------------------------------===//
// RaggedTensorToVariant, RaggedTensorFromVariant
//===----------------------------------------------------------------------===//

/// The object a ragged variant element holds: a ragged tensor (no splits:
/// a dense one).
struct RaggedVariant : VariantObject {
  RaggedVariant() : VariantObject(VariantKind::RaggedTensor) {}
  std::vector<Tensor> splits;
  Tensor values;
};

Tensor makeRaggedVariantTensor(TensorShape shape,
                               std::vector<RaggedVariant> objects) {
  auto *held = new std::vector<RaggedVariant>(std::move(objects));
  if (held->empty()) {
    // No element to point at: an empty variant tensor.
    delete held;
    return Tensor(DType::Variant, std::move(shape), {});
  }
  return makeVariantTensor(std::move(shape), held->data(),
                           [held] { delete held; });
}

/// RaggedTensorToVariant(rt_nested_splits..., rt_dense_values;
/// batched_input) -> encoded_ragged: the ragged tensor as a variant scalar,
/// or with batched_input its rows as a vector of variants (each a ragged
/// tensor of rank one less: with no splits, the values' rows). The splits
/// must be valid (TF's "Invalid ragged splits: ..." messages).
class RaggedTensorToVariantKernel final : public OpKernel {
public:
  explicit RaggedTensorToVariantKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("batched_input", &batched_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int k = ctx->numInputs() - 1;
    const Tensor &values = ctx->input(k);
    for (int i = k - 1; i >= 0; --i) {
      int64_t nvals = 0;
      if (i == k - 1) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, values.rank() >= 1,
            errorf("Requires flat_values to have rank>=1 when "
                   "nested_row_splits is not empty, but is 0."));
        nvals = values.dim(0);
      } else {
        nvals = ctx->input(i + 1).dim(0) - 1;
      }
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, verifySplits(*this, ctx->input(i), true, nvals));
    }
    if (!batched_) {
      std::vector<RaggedVariant> one(1);
      for (int i = 0; i < k; ++i)
        one[0].splits.push_back(ctx->input(i));
      one[0].values = values;
      ctx->setOutput(0, makeRaggedVariantTensor(TensorShape{}, std::move(one)));
      return;
    }
    std::vector<RaggedVariant> components;
    if (k == 0) {
      TFRT_FALLBACK_OP_REQUIRES(ctx, values.rank() >= 1,
                                errorf("Can't unbatch rank-0 tensor."));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkHostAllocation(values.dim(0), sizeof(RaggedVariant)));
      components.resize(values.dim(0));
      TensorShape::Dims inner(values.shape().dims().begin() + 1,
                              values.shape().dims().end());
      for (int64_t i = 0; i < values.dim(0); ++i) {
        StatusOr<Tensor> row = rowsOf(values, i, i + 1);
        TFRT_FALLBACK_OP_REQUIRES_OK(ctx, row.status());
        components[i].values = row->reshaped(TensorShape(inner));
      }
    } else {
      std::vector<std::vector<int64_t>> splits(k);
      for (int i = 0; i < k; ++i)
        splits[i] = readIndices(ctx->input(i));
      const DType splitsType = ctx->input(0).dtype();
      components.resize(splits[0].size() - 1);
      for (size_t c = 0; c < components.size(); ++c) {
        int64_t lo = splits[0][c], hi = splits[0][c + 1];
        for (int j = 1; j < k; ++j) {
          std::vector<int64_t> part(splits[j].begin() + lo,
                                    splits[j].begin() + hi + 1);
          for (int64_t &v : part)
            v -= splits[j][lo];
          StatusOr<Tensor> t = makeIndexTensor(*this, splitsType, part);
          TFRT_FALLBACK_OP_REQUIRES_OK(ctx, t.status());
          components[c].splits.push_back(*std::move(t));
          lo = splits[j][lo];
          hi = splits[j][hi];
        }
        StatusOr<Tensor> rows = rowsOf(values, lo, hi);
        TFRT_FALLBACK_OP_REQUIRES_OK(ctx, rows.status());
        components[c].values = *std::move(rows);
      }
    }
    const int64_t n = static_cast<int64_t>(components.size());
    ctx->setOutput(
        0, makeRaggedVariantTensor(TensorShape{n}, std::move(components)));
  }

private:
  bool batched_ = false;
};

/// RaggedTensorFromVariant(encoded_ragged; input_ragged_rank (-1: output
/// rank - encoded rank), output_ragged_rank, Tvalues, Tsplits) ->
/// (output_nested_splits..., output_dense_values): a variant scalar's
/// ragged tensor, or the ragged tensors of a variant tensor of rank D
/// stacked into one with D more ragged dims (uniform ones for the variant
/// tensor's dims). Each element must hold a ragged tensor of
/// input_ragged_rank with Tvalues values and Tsplits splits; their values'
/// inner dims must agree. output_ragged_rank 0 stacks dense elements.
class RaggedTensorFromVariantKernel final : public OpKernel {
public:
  explicit RaggedTensorFromVariantKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("input_ragged_rank", &inputRaggedRank_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("output_ragged_rank", &outputRaggedRank_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &encoded = ctx->input(0);
    const int64_t dims = encoded.rank();
    int64_t inRank = inputRaggedRank_;
    if (inRank == -1) {
      inRank = outputRaggedRank_ - dims;
      if (outputRaggedRank_ == 0 && inRank < 0)
        inRank = 0;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, inRank >= 0,
          errorf("Inferred input_ragged_rank (output_ragged_rank - "
                 "encoded_variant.dims()) must be >= 0, found "
                 "output_ragged_rank: %d, encoded_variant.dims(): %d, "
                 "inferred input_ragged_rank: %d",
                 outputRaggedRank_, dims, inRank));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        (outputRaggedRank_ == 0 && inRank == 0) ||
            outputRaggedRank_ == dims + inRank,
        errorf("output_ragged_rank must be equal to input_ragged_rank + "
               "encoded_ragged.dims(); output_ragged_rank: %d, "
               "input_ragged_rank: %d, encoded_variant.dims(): %d.",
               outputRaggedRank_, inRank, dims));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numOutputs() == outputRaggedRank_ + 1,
        errorf("the node has %d outputs for output_ragged_rank %d",
               ctx->numOutputs(), outputRaggedRank_));
    const DType valueType = ctx->expectedOutputDType(outputRaggedRank_);
    const DType splitsType =
        outputRaggedRank_ > 0 ? ctx->expectedOutputDType(0) : DType::I64;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, encoded.dtype() == DType::Variant,
        errorf("encoded_ragged must be a variant tensor, got %s",
               dtypeName(encoded.dtype())));
    const int64_t count = encoded.numElements();
    const RaggedVariant *items = nullptr;
    if (count > 0) {
      items = variantObjects<RaggedVariant>(encoded, VariantKind::RaggedTensor);
      if (!items) {
        const VariantObject *other = firstVariantObject(encoded);
        return ctx->ctxFailure(errorf(
            "Input Variant element at index 0 doesn't hold a "
            "RaggedTensorVariant: %s",
            other ? variantKindName(other->variantKind) : "an unknown value"));
      }
    }
    for (int64_t i = 0; i < count; ++i) {
      const RaggedVariant &c = items[i];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, static_cast<int64_t>(c.splits.size()) == inRank,
          errorf("Encoded input RaggedTensorVariant has ragged_rank=%d.  "
                 "Expected ragged_rank=%d.",
                 c.splits.size(), inRank));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, c.values.dtype() == valueType,
          errorf("Expected values Tensor dtype: %s, found: %s",
                 tfDTypeName(valueType), tfDTypeName(c.values.dtype())));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, c.values.rank() >= 1 || outputRaggedRank_ == 0,
          errorf("Ragged values must have rank >= 1; encoded scalar element "
                 "at index %d has values Tensor: %s",
                 i, c.values.shape().toString()));
      for (const Tensor &s : c.splits)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, s.dtype() == splitsType,
            errorf("Expected row_splits Tensor dtype: %s, found: %s",
                   tfDTypeName(splitsType), tfDTypeName(s.dtype())));
    }
    if (dims == 0) {
      const RaggedVariant &c = items[0];
      for (size_t i = 0; i < c.splits.size(); ++i)
        ctx->setOutput(static_cast<int>(i), c.splits[i]);
      ctx->setOutput(static_cast<int>(c.splits.size()), c.values);
      return;
    }

    std::vector<Tensor> parts;
    for (int64_t i = 0; i < count; ++i)
      parts.push_back(items[i].values);
    if (outputRaggedRank_ == 0) {
      // Dense elements of one shape, stacked.
      TensorShape::Dims stacked{count};
      if (count == 0) {
        stacked = {0};
      } else {
        const TensorShape &s0 = parts[0].shape();
        for (int64_t i = 1; i < count; ++i)
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, parts[i].shape() == s0,
              errorf("All flat_values must have compatible shapes.  Shape at "
                     "index 0: %s.  Shape at index %d: %s",
                     s0.toString(), i, parts[i].shape().toString()));
        stacked.insert(stacked.end(), s0.dims().begin(), s0.dims().end());
      }
      StatusOr<TensorShape> shape = TensorShape::create(stacked);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
      StatusOr<Tensor> out = concatRows(valueType, parts, *shape);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
      ctx->setOutput(0, *std::move(out));
      return;
    }

    // Uniform splits for the variant tensor's dims but the last.
    std::vector<std::vector<int64_t>> splits;
    int64_t rows = 1;
    for (int64_t d = 0; d + 1 < dims; ++d) {
      rows *= encoded.dim(d);
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkHostAllocation(rows + 1, sizeof(int64_t)));
      std::vector<int64_t> s(rows + 1);
      for (int64_t j = 0; j <= rows; ++j)
        s[j] = j * encoded.dim(d + 1);
      splits.push_back(std::move(s));
    }
    // One row per element: its rows (its values' rows without splits).
    std::vector<int64_t> s{0};
    for (int64_t i = 0; i < count; ++i) {
      const RaggedVariant &c = items[i];
      const int64_t n = inRank != 0 && !c.splits.empty()
                            ? c.splits[0].numElements() - 1
                            : c.values.dim(0);
      s.push_back(s.back() + n);
    }
    splits.push_back(std::move(s));
    // The elements' own splits, concatenated.
    for (int64_t j = 0; j < inRank; ++j) {
      std::vector<int64_t> cat{0};
      for (int64_t i = 0; i < count; ++i) {
        const Tensor &cs = items[i].splits[j];
        const int64_t base = cat.back();
        for (int64_t e = 1; e < cs.numElements(); ++e)
          cat.push_back(indexAt(cs, e) + base);
      }
      splits.push_back(std::move(cat));
    }
    for (size_t i = 0; i < splits.size(); ++i) {
      StatusOr<Tensor> t = makeIndexTensor(*this, splitsType, splits[i]);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, t.status());
      ctx->setOutput(static_cast<int>(i), *std::move(t));
    }
    // The values, concatenated.
    TensorShape::Dims valueDims{0};
    if (count > 0) {
      const TensorShape &s0 = parts[0].shape();
      valueDims.assign(s0.dims().begin(), s0.dims().end());
      valueDims[0] = 0;
      for (int64_t i = 0; i < count; ++i) {
        const TensorShape &si = parts[i].shape();
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, si.rank() == s0.rank(),
            errorf("Rank of values must match for all components; values "
                   "shape at index 0: %s, values shape at index %d: %s",
                   s0.toString(), i, si.toString()));
        TFRT_FALLBACK_OP_REQUIRES(
            ctx,
            std::equal(si.dims().begin() + 1, si.dims().end(),
                       s0.dims().begin() + 1),
            errorf("All flat_values must have compatible shapes.  Shape at "
                   "index 0: %s.  Shape at index %d: %s.  If you are using "
                   "tf.map_fn, then you may need to specify an explicit "
                   "fn_output_signature with appropriate ragged_rank, "
                   "and/or convert output tensors to RaggedTensors.",
                   innerString(s0), i, innerString(si)));
        TFRT_FALLBACK_OP_REQUIRES(
            ctx,
            !__builtin_add_overflow(valueDims[0], si.dim(0), &valueDims[0]),
            errorf("the values' rows overflow int64"));
      }
    }
    StatusOr<TensorShape> shape = TensorShape::create(valueDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    StatusOr<Tensor> out = concatRows(valueType, parts, *shape);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
    ctx->setOutput(outputRaggedRank_, *std::move(out));
  }

private:
  static std::string innerString(const TensorShape &s) {
    TensorShape::Dims d(s.dims().begin() + 1, s.dims().end());
    return TensorShape(d).toString();
  }

  int64_t inputRaggedRank_ = -1;
  int64_t outputRaggedRank_ = 0;
};

constexpr DType kIndexDTypes[] = {DType::I32, DType::I64};

} // namespace

void registerRaggedKernels(KernelRegistry &registry) {
  registerKernel<OpId::kRaggedRange, RaggedRangeKernel, float, double, int32_t,
                 int64_t>(registry);
  registerKernel<OpId::kRaggedGather, RaggedGatherKernel>(
      registry, {{"Tvalues", kAllValueDTypes},
                 {"Tindices", kIndexDTypes},
                 {"Tsplits", kIndexDTypes}});
  registerKernel<OpId::kRaggedTensorToSparse, RaggedTensorToSparseKernel>(
      registry, {{"T", kAllValueDTypes}, {"Tsplits", kIndexDTypes}});
  registerKernel<OpId::kRaggedTensorToTensor, RaggedTensorToTensorKernel>(
      registry, {{"T", kAllValueDTypes},
                 {"Tindex", kIndexDTypes},
                 {"Tshape", kIndexDTypes}});
  registerKernel<OpId::kRaggedTensorToVariant, RaggedTensorToVariantKernel>(
      registry, {{"Tvalues", kAllValueDTypes}, {"Tsplits", kIndexDTypes}});
  registerKernel<OpId::kRaggedTensorFromVariant, RaggedTensorFromVariantKernel>(
      registry, {{"Tvalues", kAllValueDTypes}, {"Tsplits", kIndexDTypes}});
}

} // namespace tfrt_fallback::rt

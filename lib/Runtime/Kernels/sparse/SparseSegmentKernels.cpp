//===- SparseSegmentKernels.cpp - SparseSegmentSum/Mean/SqrtN ---*- C++ -*-===//
//
// Sparse segment reductions (tensorflow/core/kernels/
// segment_reduction_ops_impl.h, SparseSegmentReductionOpBase):
// output[segment_ids[i]] reduces data[indices[i]] over the rows i of each
// segment, segment_ids sorted. SparseSegmentSum, SparseSegmentMean (divided
// by the segment's size) and SparseSegmentSqrtN (by its square root), and
// their WithNumSegments forms. Rows accumulate in TF's order (a first group
// of 2..9 rows, then groups of 8), so floats round as TF's do; f16/bf16
// accumulate in f32.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

enum class SegmentOp { Sum, Mean, SqrtN };

/// SparseSegment{Sum,Mean,SqrtN}(data, indices: Tidx, segment_ids:
/// Tsegmentids) and the ...WithNumSegments forms (num_segments:
/// Tnumsegments; output rows = num_segments, else last id + 1). Rows of
/// segments no id names are 0. TF's errors: "indices should be a vector.",
/// "segment_ids should be a vector.", "segment_ids and indices should have
/// same size.", "segment ids are not increasing", "segment ids must be <
/// num_segments", "Bad: indices[2] == 9 out of range [0, 4)".
template <typename T, SegmentOp Op, bool NumSegments>
class SparseSegmentKernel final : public OpKernel {
  using Acc = std::conditional_t<std::is_same_v<T, Eigen::half> ||
                                     std::is_same_v<T, Eigen::bfloat16>,
                                 float, T>;

public:
  explicit SparseSegmentKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &data = ctx->input(0);
    const Tensor &indices = ctx->input(1);
    const Tensor &ids = ctx->input(2);
    int64_t rows = -1;
    if (NumSegments) {
      const Tensor &numT = ctx->input(3);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, numT.rank() == 0 && isIndexTensor(numT),
          errorf("num_segments should be a scalar, not shape %s",
                 numT.shape().toString()));
      rows = indexAt(numT, 0);
      TFRT_FALLBACK_OP_REQUIRES(ctx, rows >= 0,
                                errorf("segment ids must be >= 0"));
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx,
                              indices.rank() == 1 && isIndexTensor(indices),
                              errorf("indices should be a vector."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, ids.rank() == 1 && isIndexTensor(ids),
                              errorf("segment_ids should be a vector."));
    const int64_t n = indices.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, n == ids.numElements(),
        errorf("segment_ids and indices should have same size."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, data.rank() >= 1,
                              errorf("Shape must be at least rank 1"));
    const int64_t lastPlusOne = n > 0 ? indexAt(ids, n - 1) + 1 : 0;
    if (NumSegments)
      TFRT_FALLBACK_OP_REQUIRES(ctx, rows >= lastPlusOne,
                                errorf("segment ids must be < num_segments"));
    else
      rows = lastPlusOne;
    TFRT_FALLBACK_OP_REQUIRES(ctx, rows >= 0,
                              errorf("segment ids must be >= 0"));
    TensorShape::Dims dims(data.shape().dims().begin(),
                           data.shape().dims().end());
    dims[0] = rows;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, dims, &out));
    T *o = out->data<T>();
    std::fill(o, o + out->numElements(), T(0));
    if (n == 0)
      return;
    TFRT_FALLBACK_OP_REQUIRES(ctx, rows > 0,
                              errorf("segment ids must be >= 0"));
    const int64_t cols =
        data.dim(0) == 0 ? 0 : data.numElements() / data.dim(0);
    const int64_t dataRows = data.dim(0);
    std::vector<Acc> acc(cols), group(cols);
    int64_t start = 0;
    while (start < n) {
      const int64_t id = indexAt(ids, start);
      int64_t end = start + 1;
      while (end < n && indexAt(ids, end) == id)
        ++end;
      if (end < n)
        TFRT_FALLBACK_OP_REQUIRES(ctx, id < indexAt(ids, end),
                                  errorf("segment ids are not increasing"));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, id >= 0 && id < rows,
          errorf("Segment id %d out of range [0, %d), possibly because "
                 "'segment_ids' input is not sorted.",
                 id, rows));
      for (int64_t i = start; i < end; ++i) {
        const int64_t row = indexAt(indices, i);
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, row >= 0 && row < dataRows,
            errorf("Bad: indices[%d] == %d out of range [0, %d)", i, row,
                   dataRows));
      }
      reduceSegment(data.data<T>(), indices, start, end - start, cols,
                    acc.data(), group.data());
      for (int64_t c = 0; c < cols; ++c)
        o[id * cols + c] = static_cast<T>(acc[c]);
      start = end;
    }
  }

private:
  /// TF's ReduceImpl: one row is copied; otherwise a first group of
  /// num % 8 rows (8 or 9 when that is 0 or 1) is summed left to right and
  /// scaled by 1 / num (Mean) or 1 / sqrt(num) (SqrtN) when num < 10, then
  /// groups of 8 rows are summed and added; num >= 10 divides at the end.
  void reduceSegment(const T *data, const Tensor &indices, int64_t start,
                     int64_t num, int64_t cols, Acc *acc, Acc *group) const {
    auto row = [&](int64_t i) {
      return data + indexAt(indices, start + i) * cols;
    };
    if (num == 1) {
      const T *r = row(0);
      for (int64_t c = 0; c < cols; ++c)
        acc[c] = static_cast<Acc>(r[c]);
      return;
    }
    int64_t first = num & 7;
    if (first < 2)
      first += 8;
    Acc scale(1);
    if (num < 10) {
      if (Op == SegmentOp::Mean)
        scale = Acc(1) / Acc(num);
      else if (Op == SegmentOp::SqrtN)
        scale = Acc(1) / Acc(std::sqrt(double(num)));
    }
    sumRows(row, 0, first, cols, acc);
    for (int64_t c = 0; c < cols; ++c)
      acc[c] = acc[c] * scale;
    for (int64_t r = first; r < num; r += 8) {
      sumRows(row, r, 8, cols, group);
      for (int64_t c = 0; c < cols; ++c)
        acc[c] += group[c];
    }
    if (num >= 10) {
      const Acc d = Op == SegmentOp::Mean    ? Acc(num)
                    : Op == SegmentOp::SqrtN ? Acc(std::sqrt(double(num)))
                                             : Acc(1);
      if (Op != SegmentOp::Sum)
        for (int64_t c = 0; c < cols; ++c)
          acc[c] = acc[c] / d;
    }
  }

  /// out = row(from) + row(from + 1) + ... (count rows), left to right.
  template <typename RowFn>
  static void sumRows(RowFn row, int64_t from, int64_t count, int64_t cols,
                      Acc *out) {
    const T *r0 = row(from);
    for (int64_t c = 0; c < cols; ++c)
      out[c] = static_cast<Acc>(r0[c]);
    for (int64_t k = 1; k < count; ++k) {
      const T *r = row(from + k);
      for (int64_t c = 0; c < cols; ++c)
        out[c] += static_cast<Acc>(r[c]);
    }
  }
};

template <typename T>
using SparseSegmentSum = SparseSegmentKernel<T, SegmentOp::Sum, false>;
template <typename T>
using SparseSegmentMean = SparseSegmentKernel<T, SegmentOp::Mean, false>;
template <typename T>
using SparseSegmentSqrtN = SparseSegmentKernel<T, SegmentOp::SqrtN, false>;
template <typename T>
using SparseSegmentSumN = SparseSegmentKernel<T, SegmentOp::Sum, true>;
template <typename T>
using SparseSegmentMeanN = SparseSegmentKernel<T, SegmentOp::Mean, true>;
template <typename T>
using SparseSegmentSqrtNN = SparseSegmentKernel<T, SegmentOp::SqrtN, true>;

} // namespace

void registerSparseSegmentKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  // Index dtypes (Tidx, Tsegmentids, Tnumsegments) are read from the
  // operands.
  registerKernel<OpId::kSparseSegmentSum, SparseSegmentSum, float, double, half,
                 bf16, int32_t, int64_t>(registry);
  registerKernel<OpId::kSparseSegmentMean, SparseSegmentMean>(registry,
                                                              FloatTypes{});
  registerKernel<OpId::kSparseSegmentSqrtN, SparseSegmentSqrtN>(registry,
                                                                FloatTypes{});
  registerKernel<OpId::kSparseSegmentSumWithNumSegments, SparseSegmentSumN,
                 float, double, half, bf16, int32_t, int64_t>(registry);
  registerKernel<OpId::kSparseSegmentMeanWithNumSegments, SparseSegmentMeanN>(
      registry, FloatTypes{});
  registerKernel<OpId::kSparseSegmentSqrtNWithNumSegments, SparseSegmentSqrtNN>(
      registry, FloatTypes{});
}

} // namespace tfrt_fallback::rt

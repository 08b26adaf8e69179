//===- TransposeKernels.cpp - Transpose, Tile, Reverse ----------*- C++ -*-===//
//
// Kernels that reorder or repeat a tensor's elements: Transpose, Tile,
// ReverseV2 / Reverse. Identity transposes, a Tile by ones and a Reverse of
// nothing share the input buffer.
//
// Every kernel here moves raw elements (StridedCopy.h) and is registered
// for every dtype. Index operands may be int32 or int64: their type
// attributes type them (the op table), which the loader checks when a node
// has them; they default to int32 and may be left out of a graph, so they
// are not registration constraints.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/StridedCopy.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

/// Transpose(x, perm): output dim i is input dim perm[i]; perm is a 1-D
/// int32/int64 (Tperm) permutation of [0, rank). Identity permutations
/// share the input buffer; transposes of the two innermost (merged) dims,
/// which include 2-D transposes and NHWC <-> NCHW, use a cache-tiled loop;
/// anything else a strided copy with contiguous runs memcpy'd.
class TransposeKernel final : public OpKernel {
public:
  explicit TransposeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &perm = ctx->input(1);
    const int rank = input.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, perm.rank() == 1 && isIndexTensor(perm),
        errorf("perm must be a vector, not %s", perm.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, perm.numElements() == rank,
        errorf("transpose expects a vector of size %d. But input(1) is a "
               "vector of size %d",
               rank, perm.numElements()));
    std::vector<bool> seen(rank, false);
    Dims outDims(rank), inStrides = stridesOf(input.shape().dims()),
                        strides(rank);
    bool identity = true;
    for (int i = 0; i < rank; ++i) {
      const int64_t d = indexAt(perm, i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, d >= 0 && d < rank,
          errorf("%d is out of range [0 .. %d)", d, rank));
      TFRT_FALLBACK_OP_REQUIRES(ctx, !seen[d],
                                errorf("%d is duplicated in perm", d));
      seen[d] = true;
      identity &= d == i;
      outDims[i] = input.dim(d);
      strides[i] = inStrides[d];
    }
    TensorShape outShape(outDims);
    if (identity || isContiguousPlan(outDims, strides) ||
        input.numElements() == 0) {
      ctx->setOutput(0, input.reshaped(std::move(outShape)));
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
    stridedCopy(ctx->eigenDevice(), input, 0, outDims, strides, *out);
  }
};

//===----------------------------------------------------------------------===//
// Tile, Reverse
//===----------------------------------------------------------------------===//

/// Tile(input, multiples): `input` repeated multiples[d] (>= 0, 1-D
/// int32/int64, Tmultiples) times along each dim d.
class TileKernel final : public OpKernel {
public:
  explicit TileKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &mult = ctx->input(1);
    const int rank = input.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        mult.rank() == 1 && mult.numElements() == rank && isIndexTensor(mult),
        errorf("Expected multiples argument to be a vector of length %d but "
               "got length %d",
               rank, mult.rank() == 1 ? mult.dim(0) : mult.numElements()));
    TensorShape::Dims outDims(rank);
    for (int d = 0; d < rank; ++d) {
      const int64_t m = indexAt(mult, d);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, m >= 0, errorf("Expected multiples[%d] >= 0, but got %d", d, m));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          m == 0 || input.dim(d) <= std::numeric_limits<int64_t>::max() / m,
          errorf("Tile output is too large"));
      outDims[d] = input.dim(d) * m;
    }
    StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    if (*outShape == input.shape()) {
      ctx->setOutput(0, input);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    if (out->numElements() == 0)
      return;
    const Dims inStrides = stridesOf(input.shape().dims());
    const int64_t inInner = input.dim(rank - 1);
    const int64_t inner = outDims[rank - 1];
    const int64_t rows = out->numElements() / inner;
    dispatchElementSize(input.dtype(), [&](auto e) {
      using E = decltype(e);
      const E *src = static_cast<const E *>(input.rawData());
      E *dst = static_cast<E *>(out->rawData());
      kernels::parallelFor(
          ctx->eigenDevice(), rows,
          Eigen::TensorOpCost(inner * sizeof(E), inner * sizeof(E), 0),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index row = first; row < last; ++row) {
              int64_t rem = row, offset = 0;
              for (int d = rank - 2; d >= 0; --d) {
                offset += (rem % outDims[d]) % input.dim(d) * inStrides[d];
                rem /= outDims[d];
              }
              E *o = dst + row * inner;
              const E *i = src + offset;
              if (inInner == 1) {
                std::fill(o, o + inner, *i);
                continue;
              }
              for (int64_t j = 0; j < inner; j += inInner)
                std::memcpy(o + j, i, inInner * sizeof(E));
            }
          });
    });
  }
};

/// ReverseV2(tensor, axis): `tensor` with the dims listed in `axis` (1-D
/// int32/int64, Tidx, in [-rank, rank), no repeats) reversed. Reverse
/// (tensor, dims) takes a bool vector with one entry per dim instead.
template <bool BoolDims> class ReverseKernel final : public OpKernel {
public:
  explicit ReverseKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &axes = ctx->input(1);
    const int rank = input.rank();
    std::vector<bool> reverse(rank, false);
    if constexpr (BoolDims) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          axes.dtype() == DType::Bool && axes.rank() == 1 &&
              axes.numElements() == rank,
          errorf("'dims' must have the same number of values as 'input' has "
                 "dimensions. 'input' has %d'dims' has %d values",
                 rank, axes.numElements()));
      for (int d = 0; d < rank; ++d)
        reverse[d] = axes.data<bool>()[d];
    } else {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, axes.rank() == 1 && isIndexTensor(axes),
          errorf("'axis' must be 1-D, not %s", axes.shape().toString()));
      for (int64_t i = 0; i < axes.numElements(); ++i) {
        int64_t a = indexAt(axes, i);
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, a >= -rank && a < rank,
            errorf("'axis'[%d] = %d is out of valid range [%d, %d]", i, a,
                   -rank, rank - 1));
        if (a < 0)
          a += rank;
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, !reverse[a], errorf("axis %d specified more than once.", a));
        reverse[a] = true;
      }
    }
    Dims dims(input.shape().dims().begin(), input.shape().dims().end());
    Dims steps = stridesOf(dims);
    int64_t base = 0;
    bool any = false;
    for (int d = 0; d < rank; ++d) {
      if (reverse[d] && dims[d] > 1) {
        base += (dims[d] - 1) * steps[d];
        steps[d] = -steps[d];
        any = true;
      }
    }
    if (!any || input.numElements() == 0) {
      ctx->setOutput(0, input);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, input.shape(), &out));
    stridedCopy(ctx->eigenDevice(), input, base, dims, steps, *out);
  }
};

} // namespace

void registerTransposeKernels(KernelRegistry &registry) {
  registerKernel<OpId::kTranspose, TransposeKernel>(registry,
                                                    {{"T", kAllDTypes}});
  // Conjugation is the identity on the runtime's (real) dtypes.
  registerKernel<OpId::kConjugateTranspose, TransposeKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTile, TileKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kReverseV2, ReverseKernel<false>>(registry,
                                                         {{"T", kAllDTypes}});
  registerKernel<OpId::kReverse, ReverseKernel<true>>(registry,
                                                      {{"T", kAllDTypes}});
}

} // namespace tfrt_fallback::rt

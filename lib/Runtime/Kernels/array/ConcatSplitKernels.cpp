//===- ConcatSplitKernels.cpp - Concat, Pack, Unpack, Split -----*- C++ -*-===//
//
// Kernels that join tensors along an axis or cut one apart: ConcatV2 /
// Concat, Pack, Unpack, Split, SplitV. Outputs that are a contiguous run of
// the input (Split / Unpack along the outermost non-trivial dim) share the
// input buffer.
//
// Every kernel here moves raw elements (StridedCopy.h) and is registered
// for every buffer dtype; ConcatV2 and Pack also for strings, as classes of
// their own (StringCopy.h). Index operands may be int32 or int64: their type
// attributes type them (the op table), which the loader checks when a node
// has them; they default to int32 and may be left out of a graph, so they
// are not registration constraints.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/StridedCopy.h"
#include "common/StringCopy.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Shape/Concat.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Concat, Pack
//===----------------------------------------------------------------------===//

/// Copies each input's rows of rowSize[i] elements into the interleaved
/// output: out row o = concat over i of input i's row o.
void concatRows(OpKernelContextInterface *ctx,
                absl::Span<const Tensor *const> inputs,
                absl::Span<const int64_t> rowSizes, int64_t outer,
                Tensor &out) {
  const size_t esize = dtypeSize(out.dtype());
  int64_t outRow = 0;
  for (int64_t s : rowSizes)
    outRow += s;
  char *dst = static_cast<char *>(out.rawData());
  if (outRow == 0)
    return;
  if (outer == 1) {
    int64_t offset = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      parallelMemcpy(ctx->eigenDevice(), dst + offset * esize,
                     static_cast<const char *>(inputs[i]->rawData()),
                     rowSizes[i] * esize);
      offset += rowSizes[i];
    }
    return;
  }
  const double rowBytes = double(outRow) * esize;
  kernels::parallelFor(
      ctx->eigenDevice(), outer, Eigen::TensorOpCost(rowBytes, rowBytes, 0),
      [&](Eigen::Index first, Eigen::Index last) {
        for (Eigen::Index o = first; o < last; ++o) {
          char *d = dst + o * outRow * esize;
          for (size_t i = 0; i < inputs.size(); ++i) {
            const int64_t bytes = rowSizes[i] * esize;
            std::memcpy(
                d, static_cast<const char *>(inputs[i]->rawData()) + o * bytes,
                bytes);
            d += bytes;
          }
        }
      });
}

/// ConcatV2(values..., axis) and Concat(axis, values...): the N inputs
/// joined along `axis` (an int32/int64 scalar, Tidx, in [-rank, rank)). All
/// inputs need the same rank (>= 1) and equal dims except along axis;
/// empty inputs contribute nothing. A single input is returned as is.
/// `Strings` is the string form (StringCopy.h), a class of its own.
template <bool AxisFirst, bool Strings = false>
class ConcatKernel final : public OpKernel {
public:
  explicit ConcatKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const int n = ctx->numInputs() - 1;
    const Tensor &axisT = ctx->input(AxisFirst ? 0 : n);
    const int first = AxisFirst ? 1 : 0;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        axisT.numElements() == 1 && axisT.rank() <= 1 && isIndexTensor(axisT),
        errorf("Concat dim tensor should be a scalar integer, but got shape "
               "%s",
               axisT.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, n >= 1,
                              errorf("Concat needs at least one value"));
    // The output shape and every check by the compiler's rule.
    absl::InlinedVector<PartialShape, 8> shapes;
    for (int i = 0; i < n; ++i)
      shapes.emplace_back(ctx->input(first + i).shape().dims());
    StatusOr<PartialShape> outDims =
        shape::concatShape(shapes, indexAt(axisT, 0));
    if (!outDims.ok())
      return ctx->ctxFailure(opError(*this, outDims.status()));
    StatusOr<TensorShape> outShape = outDims->toTensorShape();
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    const Tensor &in0 = ctx->input(first);
    const int rank = in0.rank();
    int64_t axis = indexAt(axisT, 0);
    if (axis < 0)
      axis += rank;
    absl::InlinedVector<const Tensor *, 8> inputs;
    absl::InlinedVector<int64_t, 8> rowSizes;
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; ++d)
      outer *= in0.dim(d);
    for (int d = axis + 1; d < rank; ++d)
      inner *= in0.dim(d);
    for (int i = 0; i < n; ++i) {
      const Tensor &in = ctx->input(first + i);
      if (in.numElements() > 0) {
        inputs.push_back(&in);
        rowSizes.push_back(in.dim(axis) * inner);
      }
    }
    if (n == 1) {
      ctx->setOutput(0, in0);
      return;
    }
    if constexpr (Strings) {
      emitStringRows(ctx, inputs, rowSizes, outer, *outShape);
    } else {
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   ctx->allocateOutput(0, *outShape, &out));
      if (out->numElements() > 0)
        concatRows(ctx, inputs, rowSizes, outer, *out);
    }
  }
};

/// Pack(values...; axis, N): the N equally shaped inputs stacked along a
/// new dim `axis` in [-(rank + 1), rank] (negative from the end).
template <bool Strings = false> class PackKernel final : public OpKernel {
public:
  explicit PackKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "axis", &axis_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int n = ctx->numInputs();
    TFRT_FALLBACK_OP_REQUIRES(ctx, n >= 1,
                              errorf("Pack needs at least one value"));
    const Tensor &in0 = ctx->input(0);
    const int rank = in0.rank();
    int64_t axis = axis_;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axis >= -(rank + 1) && axis < rank + 1,
        errorf("axis = %d not in [%d, %d)", axis, -(rank + 1), rank + 1));
    if (axis < 0)
      axis += rank + 1;
    absl::InlinedVector<const Tensor *, 8> inputs;
    absl::InlinedVector<int64_t, 8> rowSizes;
    int64_t outer = 1;
    for (int d = 0; d < axis; ++d)
      outer *= in0.dim(d);
    const int64_t inner = outer == 0 ? 0 : in0.numElements() / outer;
    for (int i = 0; i < n; ++i) {
      const Tensor &in = ctx->input(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, in.shape() == in0.shape(),
          errorf("Shapes of all inputs must match: values[0].shape = %s != "
                 "values[%d].shape = %s",
                 in0.shape().toString(), i, in.shape().toString()));
      inputs.push_back(&in);
      rowSizes.push_back(inner);
    }
    TensorShape::Dims outDims(in0.shape().dims().begin(),
                              in0.shape().dims().end());
    outDims.insert(outDims.begin() + axis, n);
    if constexpr (Strings) {
      emitStringRows(ctx, inputs, rowSizes, outer, TensorShape(outDims));
    } else {
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
      if (out->numElements() > 0)
        concatRows(ctx, inputs, rowSizes, outer, *out);
    }
  }

private:
  int64_t axis_ = 0;
};

//===----------------------------------------------------------------------===//
// Unpack, Split, SplitV
//===----------------------------------------------------------------------===//

/// Writes output `index` = the block [start, start + size) of dim `axis` of
/// `input` (viewed as [outer, axisSize, inner]), with `shape`. Shares the
/// input buffer when the block is contiguous (outer == 1).
void emitAxisBlock(OpKernelContextInterface *ctx, const Tensor &input,
                   int index, int64_t outer, int64_t axisSize, int64_t inner,
                   int64_t start, int64_t size, TensorShape shape) {
  if (shape.numElements() == 0) {
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(index, shape, &out));
    return;
  }
  if (outer == 1) {
    ctx->setOutput(index, subTensor(input, start * inner, std::move(shape)));
    return;
  }
  Tensor *out = nullptr;
  TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(index, shape, &out));
  stridedCopy(ctx->eigenDevice(), input, start * inner,
              Dims{outer, size * inner}, Dims{axisSize * inner, 1}, *out);
}

/// Splits [outer, axis, inner] from a dim index.
void axisExtents(const TensorShape &shape, int axis, int64_t *outer,
                 int64_t *inner) {
  *outer = 1;
  *inner = 1;
  for (int d = 0; d < axis; ++d)
    *outer *= shape.dim(d);
  for (int d = axis + 1; d < shape.rank(); ++d)
    *inner *= shape.dim(d);
}

/// Unpack(value; num, axis): the `num` slices of `value` along `axis` (in
/// [-rank, rank)), each without that dim; num must equal the dim's size.
class UnpackKernel final : public OpKernel {
public:
  explicit UnpackKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "axis", &axis_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const int rank = input.rank();
    int64_t axis = axis_;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axis >= -rank && axis < rank,
        errorf("axis = %d not in [%d, %d)", axis, -rank, rank));
    if (axis < 0)
      axis += rank;
    const int num = ctx->numOutputs();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.dim(axis) == num,
        errorf("Input shape axis %d must equal %d, got shape %s", axis, num,
               input.shape().toString()));
    int64_t outer, inner;
    axisExtents(input.shape(), axis, &outer, &inner);
    TensorShape::Dims dims(input.shape().dims().begin(),
                           input.shape().dims().end());
    dims.erase(dims.begin() + axis);
    for (int i = 0; i < num; ++i) {
      emitAxisBlock(ctx, input, i, outer, num, inner, i, 1, TensorShape(dims));
      if (!ctx->status().ok())
        return;
    }
  }

private:
  int64_t axis_ = 0;
};

/// Reads and normalizes a scalar split axis in [-rank, rank).
template <typename Kernel>
Status readSplitAxis(const Kernel &kernel, const Tensor &axisT, int rank,
                     int *axis) {
  if (axisT.numElements() != 1 || axisT.rank() > 1 || !isIndexTensor(axisT))
    return kernel.errorf("split_dim must be a scalar integer, got shape %s",
                         axisT.shape().toString());
  int64_t a = indexAt(axisT, 0);
  if (a < -rank || a >= rank)
    return kernel.errorf("-input rank(-%d) <= split_dim < input rank (%d), "
                         "but got %d",
                         rank, rank, a);
  *axis = static_cast<int>(a < 0 ? a + rank : a);
  return OkStatus();
}

/// Split(split_dim, value; num_split): `value` cut into num_split equal
/// parts along split_dim (an int32 scalar, first operand), which must divide
/// that dim. Parts along the outermost non-trivial dim share the input.
class SplitKernel final : public OpKernel {
public:
  explicit SplitKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(1);
    int axis = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readSplitAxis(*this, ctx->input(0), input.rank(), &axis));
    const int num = ctx->numOutputs();
    const int64_t size = input.dim(axis);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, num > 0 && size % num == 0,
        errorf("Number of ways to split should evenly divide the split "
               "dimension, but got split_dim %d (size = %d) and num_split %d",
               axis, size, num));
    int64_t outer, inner;
    axisExtents(input.shape(), axis, &outer, &inner);
    TensorShape::Dims dims(input.shape().dims().begin(),
                           input.shape().dims().end());
    dims[axis] = size / num;
    for (int i = 0; i < num; ++i) {
      emitAxisBlock(ctx, input, i, outer, size, inner, i * dims[axis],
                    dims[axis], TensorShape(dims));
      if (!ctx->status().ok())
        return;
    }
  }
};

/// SplitV(value, size_splits, split_dim; num_split, Tlen): parts of the
/// given sizes (1-D int32/int64; at most one -1, inferred from the rest)
/// along split_dim; the sizes must add up to the dim.
class SplitVKernel final : public OpKernel {
public:
  explicit SplitVKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &sizesT = ctx->input(1);
    int axis = 0;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readSplitAxis(*this, ctx->input(2), input.rank(), &axis));
    const int num = ctx->numOutputs();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        sizesT.rank() == 1 && sizesT.numElements() == num &&
            isIndexTensor(sizesT),
        errorf("size_splits must be a 1-D tensor of %d elements, got shape %s",
               num, sizesT.shape().toString()));
    const int64_t size = input.dim(axis);
    std::vector<int64_t> sizes(num);
    int unknown = -1;
    int64_t known = 0;
    for (int i = 0; i < num; ++i) {
      sizes[i] = indexAt(sizesT, i);
      if (sizes[i] == -1) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, unknown == -1,
            errorf("There can only be one -1 in the input."));
        unknown = i;
      } else {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, sizes[i] >= 0,
            errorf("Split size at index %d must be >= 0. Got: %d", i,
                   sizes[i]));
        known += sizes[i];
      }
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        (unknown == -1 && known == size) || (unknown != -1 && known <= size),
        errorf("Determined shape must either match input shape along "
               "split_dim exactly if fully specified, or be less than the "
               "size of the input along split_dim if not fully specified.  "
               "Got: %d",
               known));
    if (unknown != -1)
      sizes[unknown] = size - known;
    int64_t outer, inner;
    axisExtents(input.shape(), axis, &outer, &inner);
    TensorShape::Dims dims(input.shape().dims().begin(),
                           input.shape().dims().end());
    int64_t start = 0;
    for (int i = 0; i < num; ++i) {
      dims[axis] = sizes[i];
      emitAxisBlock(ctx, input, i, outer, size, inner, start, sizes[i],
                    TensorShape(dims));
      if (!ctx->status().ok())
        return;
      start += sizes[i];
    }
  }
};

} // namespace

void registerConcatSplitKernels(KernelRegistry &registry) {
  registerKernel<OpId::kConcatV2, ConcatKernel<false>>(registry,
                                                       {{"T", kAllDTypes}});
  registerKernel<OpId::kConcat, ConcatKernel<true>>(registry,
                                                    {{"T", kAllDTypes}});
  registerKernel<OpId::kPack, PackKernel<>>(registry, {{"T", kAllDTypes}});
  registerStringKernel<OpId::kConcatV2, ConcatKernel<false, true>>(registry);
  registerStringKernel<OpId::kPack, PackKernel<true>>(registry);
  registerKernel<OpId::kUnpack, UnpackKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kSplit, SplitKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kSplitV, SplitVKernel>(registry, {{"T", kAllDTypes}});
}

} // namespace tfrt_fallback::rt

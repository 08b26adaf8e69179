//===- DataMovementKernels.cpp - Transpose, Concat, Slice, Pad, ... -*- C++
//-*-===//
//
// Kernels that move elements without arithmetic: Transpose, ConcatV2 /
// Concat, Pack, Unpack, Split, SplitV, Slice, StridedSlice, Pad / PadV2,
// MirrorPad, Tile, ReverseV2 / Reverse.
//
// Elements are moved as raw bits, so every kernel here is one class
// dispatched on the element size (1, 2, 4 or 8 bytes) rather than on the
// dtype, and registered for every dtype TF registers on CPU. Most of them
// reduce to one "strided copy": the output, in row-major order, reads the
// input at base + sum(i_d * stride_d). Plans are simplified (size-1 dims
// dropped, contiguous dims merged) so slices become memcpy's and transposes
// of the last two dims (2-D, NHWC <-> NCHW) use a cache-tiled loop.
// Outputs that are a contiguous run of the input (Split / Unpack along the
// outermost dim, dim-0 slices, identity transposes) share the input buffer.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include "absl/strings/str_join.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

using Dims = absl::InlinedVector<int64_t, 8>;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Row-major element strides of `shape`.
Dims stridesOf(absl::Span<const int64_t> dims) {
  Dims strides(dims.size());
  int64_t s = 1;
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    strides[d] = s;
    s *= dims[d];
  }
  return strides;
}

/// A view of `t`'s elements [offset, offset + shape.numElements()) with
/// `shape`, sharing its buffer.
Tensor subTensor(const Tensor &t, int64_t offset, TensorShape shape) {
  return Tensor(t.dtype(), std::move(shape), t.buffer(),
                t.byteOffset() + offset * dtypeSize(t.dtype()));
}

/// memcpy of `bytes` bytes split over the device's threads when large.
void parallelMemcpy(const Eigen::ThreadPoolDevice &device, char *dst,
                    const char *src, int64_t bytes) {
  constexpr int64_t kBlock = 1 << 16;
  if (bytes <= kBlock) {
    std::memcpy(dst, src, bytes);
    return;
  }
  kernels::parallelFor(device, (bytes + kBlock - 1) / kBlock,
                       Eigen::TensorOpCost(kBlock, kBlock, 0),
                       [=](Eigen::Index first, Eigen::Index last) {
                         const int64_t begin = first * kBlock;
                         const int64_t end = std::min(bytes, last * kBlock);
                         std::memcpy(dst + begin, src + begin, end - begin);
                       });
}

//===----------------------------------------------------------------------===//
// Strided copy
//===----------------------------------------------------------------------===//

/// Drops size-1 dims and merges dim d into d + 1 when the input walks them
/// contiguously (strides[d] == strides[d + 1] * dims[d + 1]). Needs a
/// non-empty output.
void simplifyPlan(Dims &dims, Dims &strides) {
  Dims d2, s2;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 1)
      continue;
    if (!d2.empty() && s2.back() == strides[i] * dims[i]) {
      d2.back() *= dims[i];
      s2.back() = strides[i];
      continue;
    }
    d2.push_back(dims[i]);
    s2.push_back(strides[i]);
  }
  dims = std::move(d2);
  strides = std::move(s2);
}

template <typename E>
void stridedCopyTyped(const Eigen::ThreadPoolDevice &device, const E *in,
                      E *out, const Dims &dims, const Dims &strides) {
  const int rank = static_cast<int>(dims.size());
  if (rank == 0) {
    out[0] = in[0];
    return;
  }
  const int64_t inner = dims[rank - 1];
  const int64_t innerStride = strides[rank - 1];
  if (rank == 1 && innerStride == 1) {
    parallelMemcpy(device, reinterpret_cast<char *>(out),
                   reinterpret_cast<const char *>(in), inner * sizeof(E));
    return;
  }

  if (rank >= 2 && innerStride != 1 && strides[rank - 2] == 1) {
    // Batched transpose: out[.., a, b] = in[batchOffset + a + b * s].
    constexpr int64_t kTile = 32;
    const int64_t rowsA = dims[rank - 2], colsB = inner, s = innerStride;
    int64_t batches = 1;
    for (int d = 0; d < rank - 2; ++d)
      batches *= dims[d];
    const int64_t tilesA = (rowsA + kTile - 1) / kTile;
    const double tileBytes = double(kTile) * double(colsB) * sizeof(E);
    kernels::parallelFor(device, batches * tilesA,
                         Eigen::TensorOpCost(tileBytes, tileBytes, 0),
                         [&](Eigen::Index first, Eigen::Index last) {
                           for (Eigen::Index t = first; t < last; ++t) {
                             const int64_t batch = t / tilesA;
                             const int64_t a0 = (t % tilesA) * kTile;
                             const int64_t a1 = std::min(rowsA, a0 + kTile);
                             int64_t inBase = 0, rem = batch;
                             for (int d = rank - 3; d >= 0; --d) {
                               inBase += (rem % dims[d]) * strides[d];
                               rem /= dims[d];
                             }
                             E *o = out + batch * rowsA * colsB;
                             const E *i = in + inBase;
                             for (int64_t b0 = 0; b0 < colsB; b0 += kTile) {
                               const int64_t b1 = std::min(colsB, b0 + kTile);
                               for (int64_t a = a0; a < a1; ++a)
                                 for (int64_t b = b0; b < b1; ++b)
                                   o[a * colsB + b] = i[a + b * s];
                             }
                           }
                         });
    return;
  }

  const int64_t rows = static_cast<int64_t>(std::accumulate(
      dims.begin(), dims.end() - 1, int64_t(1), std::multiplies<>()));
  const double rowBytes = double(inner) * sizeof(E);
  kernels::parallelFor(
      device, rows,
      Eigen::TensorOpCost(rowBytes, rowBytes, innerStride == 1 ? 0 : 1),
      [&](Eigen::Index first, Eigen::Index last) {
        // Odometer over the outer dims, starting at row `first`.
        Dims idx(rank - 1, 0);
        int64_t offset = 0, rem = first;
        for (int d = rank - 2; d >= 0; --d) {
          idx[d] = rem % dims[d];
          rem /= dims[d];
          offset += idx[d] * strides[d];
        }
        for (Eigen::Index r = first; r < last; ++r) {
          E *o = out + r * inner;
          const E *i = in + offset;
          if (innerStride == 1) {
            std::memcpy(o, i, inner * sizeof(E));
          } else {
            for (int64_t j = 0; j < inner; ++j)
              o[j] = i[j * innerStride];
          }
          for (int d = rank - 2; d >= 0; --d) {
            offset += strides[d];
            if (++idx[d] < dims[d])
              break;
            offset -= idx[d] * strides[d];
            idx[d] = 0;
          }
        }
      });
}

/// Fills `out` (which has shape `dims`, non-empty) from `in` read at element
/// offset base + sum(i_d * strides[d]) (strides may be 0 or negative).
void stridedCopy(const Eigen::ThreadPoolDevice &device, const Tensor &in,
                 int64_t base, Dims dims, Dims strides, Tensor &out) {
  simplifyPlan(dims, strides);
  dispatchElementSize(in.dtype(), [&](auto e) {
    using E = decltype(e);
    stridedCopyTyped<E>(device, static_cast<const E *>(in.rawData()) + base,
                        static_cast<E *>(out.rawData()), dims, strides);
  });
}

/// True if the plan reads one contiguous run of the input in order, so the
/// output can be a view.
bool isContiguousPlan(Dims dims, Dims strides) {
  simplifyPlan(dims, strides);
  return dims.empty() || (dims.size() == 1 && strides[0] == 1);
}

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
template <bool AxisFirst> class ConcatKernel final : public OpKernel {
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
    const Tensor &in0 = ctx->input(first);
    const int rank = in0.rank();
    int64_t axis = indexAt(axisT, 0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, (axis >= -rank && axis < rank) || (rank == 0 && axis == 0),
        errorf("ConcatOp : Expected concatenating dimensions in the range "
               "[%d, %d), but got %d",
               -rank, rank, axis));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, rank > 0,
        errorf("ConcatOp : Can't concatenate scalars (use tf.stack instead)"));
    if (axis < 0)
      axis += rank;
    absl::InlinedVector<const Tensor *, 8> inputs;
    absl::InlinedVector<int64_t, 8> rowSizes;
    int64_t outer = 1, inner = 1, axisSize = 0;
    for (int d = 0; d < axis; ++d)
      outer *= in0.dim(d);
    for (int d = axis + 1; d < rank; ++d)
      inner *= in0.dim(d);
    for (int i = 0; i < n; ++i) {
      const Tensor &in = ctx->input(first + i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, in.rank() == rank,
          errorf("ConcatOp : Ranks of all input tensors should match: "
                 "shape[0] = %s vs. shape[%d] = %s",
                 in0.shape().toString(), i, in.shape().toString()));
      for (int d = 0; d < rank; ++d)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, d == axis || in.dim(d) == in0.dim(d),
            errorf("ConcatOp : Dimension %d in both shapes must be equal: "
                   "shape[0] = %s vs. shape[%d] = %s",
                   d, in0.shape().toString(), i, in.shape().toString()));
      axisSize += in.dim(axis);
      if (in.numElements() > 0) {
        inputs.push_back(&in);
        rowSizes.push_back(in.dim(axis) * inner);
      }
    }
    if (n == 1) {
      ctx->setOutput(0, in0);
      return;
    }
    TensorShape::Dims outDims(in0.shape().dims().begin(),
                              in0.shape().dims().end());
    outDims[axis] = axisSize;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
    if (out->numElements() > 0)
      concatRows(ctx, inputs, rowSizes, outer, *out);
  }
};

/// Pack(values...; axis, N): the N equally shaped inputs stacked along a
/// new dim `axis` in [-(rank + 1), rank] (negative from the end).
class PackKernel final : public OpKernel {
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
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
    if (out->numElements() > 0)
      concatRows(ctx, inputs, rowSizes, outer, *out);
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
absl::Status readSplitAxis(const Kernel &kernel, const Tensor &axisT, int rank,
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
  return absl::OkStatus();
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

//===----------------------------------------------------------------------===//
// Slice, StridedSlice
//===----------------------------------------------------------------------===//

/// Emits output 0 = the strided view (dims, per-dim input steps, base) of
/// `input` with `shape` (same element count as dims): shared when the view
/// is contiguous, copied otherwise.
void emitStridedView(OpKernelContextInterface *ctx, const Tensor &input,
                     int64_t base, const Dims &dims, const Dims &steps,
                     TensorShape shape) {
  if (shape.numElements() == 0) {
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    return;
  }
  if (isContiguousPlan(dims, steps)) {
    ctx->setOutput(0, subTensor(input, base, std::move(shape)));
    return;
  }
  Tensor *out = nullptr;
  TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
  stridedCopy(ctx->eigenDevice(), input, base, dims, steps, *out);
}

/// Slice(input, begin, size): the block starting at `begin` with `size`
/// elements per dim (1-D int32/int64, Index); size -1 means "to the end".
/// Requires 0 <= begin[i] <= dim[i] and 0 <= size[i] <= dim[i] - begin[i].
class SliceKernel final : public OpKernel {
public:
  explicit SliceKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &beginT = ctx->input(1);
    const Tensor &sizeT = ctx->input(2);
    const int rank = input.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        beginT.rank() == 1 && sizeT.rank() == 1 &&
            beginT.numElements() == rank && sizeT.numElements() == rank &&
            isIndexTensor(beginT) && isIndexTensor(sizeT),
        errorf("Expected begin and size arguments to be 1-D tensors of size "
               "%d, but got shapes %s and %s instead.",
               rank, beginT.shape().toString(), sizeT.shape().toString()));
    Dims dims(rank), steps = stridesOf(input.shape().dims());
    int64_t base = 0;
    for (int i = 0; i < rank; ++i) {
      const int64_t d = input.dim(i), b = indexAt(beginT, i);
      int64_t s = indexAt(sizeT, i);
      if (s == -1)
        s = d - b;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, b >= 0 && b <= d,
          errorf("Expected begin[%d] in [0, %d], but got %d", i, d, b));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, s >= 0 && s <= d - b,
          errorf("Expected size[%d] in [0, %d], but got %d", i, d - b, s));
      dims[i] = s;
      base += b * steps[i];
    }
    emitStridedView(ctx, input, base, dims, steps, TensorShape(dims));
  }
};

/// The result of TF's ValidateStridedSliceOp: the per-input-dim begin and
/// stride and the processing shape (one entry per input dim), and the final
/// shape (new axes added, shrunk axes removed).
struct StridedSlicePlan {
  Dims begin, stride, processingDims;
  TensorShape::Dims finalDims;
  bool identity = true;
};

/// TF's ValidateStridedSliceOp for known input shapes: expands the sparse
/// spec (ellipsis, new_axis) into one entry per input dim, applies the
/// begin/end masks, clamps begin/end into the valid range for the stride's
/// sign, checks shrink indices, and computes the slice sizes.
template <typename Kernel>
absl::Status planStridedSlice(const Kernel &kernel, const TensorShape &shape,
                              const Tensor &beginT, const Tensor &endT,
                              const Tensor &stridesT, int32_t beginMask,
                              int32_t endMask, int32_t ellipsisMask,
                              int32_t newAxisMask, int32_t shrinkMask,
                              StridedSlicePlan *plan) {
  const int64_t sparseCount = stridesT.numElements();
  if (beginT.rank() != 1 || endT.rank() != 1 || stridesT.rank() != 1 ||
      beginT.numElements() != sparseCount ||
      endT.numElements() != sparseCount || sparseCount >= 32 ||
      !isIndexTensor(beginT) || !isIndexTensor(endT) ||
      !isIndexTensor(stridesT))
    return kernel.errorf("Expected begin, end, and strides to be 1D equal "
                         "size tensors, but got shapes %s, %s, and %s instead.",
                         beginT.shape().toString(), endT.shape().toString(),
                         stridesT.shape().toString());
  if (ellipsisMask && (ellipsisMask & (ellipsisMask - 1)) != 0)
    return kernel.errorf("Multiple ellipses in slice spec not allowed");

  // Step 1: new axes after the ellipsis; an implicit trailing ellipsis.
  int sparseDims = static_cast<int>(sparseCount);
  int numAddAxisAfterEllipsis = 0;
  bool ellipsisSeen = false;
  for (int i = 0; i < sparseDims; ++i) {
    if (ellipsisSeen && ((1 << i) & newAxisMask) != 0)
      ++numAddAxisAfterEllipsis;
    if ((1 << i) & ellipsisMask)
      ellipsisSeen = true;
  }
  int32_t sparseEllipsis = ellipsisMask;
  if (!ellipsisSeen) {
    sparseEllipsis |= (1 << sparseDims);
    ++sparseDims;
  }

  // Step 2: the dense spec, one entry per input dim.
  const int dims = shape.rank();
  constexpr int kShrinkAxis = -1, kNewAxis = -2;
  Dims begin(dims, 0), end(dims, 0), strides(dims, 1);
  int32_t denseBeginMask = 0, denseEndMask = 0, denseShrink = 0;
  absl::InlinedVector<int, 8> gather;
  int full = 0;
  for (int i = 0; i < sparseDims; ++i) {
    if ((1 << i) & sparseEllipsis) {
      const int next =
          std::min(dims - (sparseDims - i) + 1 + numAddAxisAfterEllipsis, dims);
      for (; full < next; ++full) {
        begin[full] = end[full] = 0;
        strides[full] = 1;
        denseBeginMask |= (1 << full);
        denseEndMask |= (1 << full);
        gather.push_back(full);
      }
    } else if ((1 << i) & newAxisMask) {
      gather.push_back(kNewAxis);
    } else {
      if (full == dims)
        return kernel.errorf("Index out of range using input dim %d; input "
                             "has only %d dims",
                             full, dims);
      begin[full] = indexAt(beginT, i);
      end[full] = indexAt(endT, i);
      strides[full] = indexAt(stridesT, i);
      if (beginMask & (1 << i))
        denseBeginMask |= (1 << full);
      if (endMask & (1 << i))
        denseEndMask |= (1 << full);
      if (shrinkMask & (1 << i)) {
        gather.push_back(kShrinkAxis);
        denseShrink |= (1 << full);
      } else {
        gather.push_back(full);
      }
      ++full;
    }
  }

  // Step 3: canonical begin/end and the processing shape.
  plan->begin.assign(dims, 0);
  plan->stride.assign(dims, 1);
  plan->processingDims.assign(dims, 0);
  plan->identity = true;
  for (int i = 0; i < dims; ++i) {
    const int64_t stride = strides[i];
    const int64_t dim = shape.dim(i);
    if (stride == 0)
      return kernel.errorf("strides[%d] must be non-zero", i);
    const bool shrink = denseShrink & (1 << i);
    const bool masks[2] = {(denseBeginMask & (1 << i)) != 0,
                           (denseEndMask & (1 << i)) != 0};
    const int64_t validRange[2] = {stride > 0 ? 0 : -1,
                                   stride > 0 ? dim : dim - 1};
    auto canonical = [&](int64_t x, int c) -> int64_t {
      if (masks[c])
        return stride > 0 ? validRange[c] : validRange[(c + 1) & 1];
      const int64_t fwd = x < 0 ? dim + x : x;
      return fwd < validRange[0]   ? validRange[0]
             : fwd > validRange[1] ? validRange[1]
                                   : fwd;
    };
    if (shrink && stride <= 0)
      return kernel.errorf("only stride 1 allowed on non-range indexing.");
    int64_t b, e;
    if (shrink) {
      const int64_t fwd = begin[i] < 0 ? dim + begin[i] : begin[i];
      b = fwd;
      e = b + 1;
      if (fwd < 0 || fwd >= dim)
        return kernel.errorf("slice index %d of dimension %d out of bounds.",
                             begin[i], i);
    } else {
      b = canonical(begin[i], 0);
      e = canonical(end[i], 1);
    }
    plan->identity &= stride == 1 && b == 0 && e == dim;
    const int64_t interval = e - b;
    int64_t size;
    if (interval == 0 || ((interval < 0) != (stride < 0)))
      size = 0;
    else
      size = interval / stride + (interval % stride != 0 ? 1 : 0);
    plan->begin[i] = b;
    plan->stride[i] = stride;
    plan->processingDims[i] = size;
  }

  // Step 4: the final shape.
  plan->finalDims.clear();
  for (int g : gather) {
    if (g >= 0)
      plan->finalDims.push_back(plan->processingDims[g]);
    else if (g == kNewAxis)
      plan->finalDims.push_back(1);
  }
  return absl::OkStatus();
}

/// StridedSlice(input, begin, end, strides; begin_mask, end_mask,
/// ellipsis_mask, new_axis_mask, shrink_axis_mask): NumPy basic indexing
/// exactly as TF's ValidateStridedSliceOp: one (begin, end, stride) per
/// sparse index (1-D int32/int64, Index); bit i of begin_mask / end_mask
/// ignores begin[i] / end[i] (full range for the stride's sign);
/// ellipsis_mask (at most one bit) expands to the dims not otherwise
/// indexed; new_axis_mask inserts a size-1 dim; shrink_axis_mask takes the
/// single index begin[i] (negative from the end, must be in range) and
/// drops the dim. Out-of-range begin/end are clamped; negative strides walk
/// backwards. Identity slices and contiguous results share the input.
class StridedSliceKernel final : public OpKernel {
public:
  explicit StridedSliceKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    const std::pair<const char *, int32_t *> masks[] = {
        {"begin_mask", &beginMask_},
        {"end_mask", &endMask_},
        {"ellipsis_mask", &ellipsisMask_},
        {"new_axis_mask", &newAxisMask_},
        {"shrink_axis_mask", &shrinkMask_}};
    for (const auto &[name, value] : masks)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, name, value));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    StridedSlicePlan plan;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        planStridedSlice(*this, input.shape(), ctx->input(1), ctx->input(2),
                         ctx->input(3), beginMask_, endMask_, ellipsisMask_,
                         newAxisMask_, shrinkMask_, &plan));
    TensorShape finalShape(plan.finalDims);
    if (plan.identity) {
      ctx->setOutput(0, input.reshaped(std::move(finalShape)));
      return;
    }
    const int rank = input.rank();
    Dims steps = stridesOf(input.shape().dims());
    int64_t base = 0;
    for (int i = 0; i < rank; ++i) {
      base += plan.begin[i] * steps[i];
      steps[i] *= plan.stride[i];
    }
    emitStridedView(ctx, input, base, plan.processingDims, steps,
                    std::move(finalShape));
  }

private:
  int32_t beginMask_ = 0, endMask_ = 0, ellipsisMask_ = 0, newAxisMask_ = 0,
          shrinkMask_ = 0;
};

//===----------------------------------------------------------------------===//
// Pad, PadV2, MirrorPad
//===----------------------------------------------------------------------===//

/// Reads a [rank, 2] int32/int64 paddings operand.
template <typename Kernel>
absl::Status readPaddings(const Kernel &kernel, const Tensor &input,
                          const Tensor &paddings, Dims *before, Dims *after) {
  const int rank = input.rank();
  if (paddings.rank() != 2 || paddings.dim(1) != 2 || !isIndexTensor(paddings))
    return kernel.errorf("paddings must be a matrix with 2 columns: %s",
                         paddings.shape().toString());
  if (paddings.dim(0) != rank)
    return kernel.errorf("The first dimension of paddings must be the rank "
                         "of inputs%s %s",
                         paddings.shape().toString(), input.shape().toString());
  before->resize(rank);
  after->resize(rank);
  for (int d = 0; d < rank; ++d) {
    (*before)[d] = indexAt(paddings, 2 * d);
    (*after)[d] = indexAt(paddings, 2 * d + 1);
    if ((*before)[d] < 0 || (*after)[d] < 0)
      return kernel.errorf("Paddings must be non-negative: %d %d", (*before)[d],
                           (*after)[d]);
  }
  return absl::OkStatus();
}

/// Pad(input, paddings) and PadV2(input, paddings, constant_values): each
/// dim d grows by paddings[d, 0] elements before and paddings[d, 1] after
/// (non-negative, [rank, 2] int32/int64, Tpaddings), filled with 0 or the
/// scalar constant_values. Dims without padding are merged into the dim
/// before them so each output row is one fill-copy-fill pass.
class PadKernel final : public OpKernel {
public:
  explicit PadKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    Dims before, after;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPaddings(*this, input, ctx->input(1), &before, &after));
    const int rank = input.rank();
    TensorShape::Dims outDims(rank);
    for (int d = 0; d < rank; ++d)
      outDims[d] = input.dim(d) + before[d] + after[d];
    absl::StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES(ctx, outShape.ok(),
                              errorf("%s", outShape.status().message()));
    const size_t esize = dtypeSize(input.dtype());
    uint64_t pad = 0;
    if (ctx->numInputs() > 2) {
      const Tensor &value = ctx->input(2);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, value.numElements() == 1 && value.rank() == 0,
          errorf("constant_values must be a scalar. Shape of "
                 "constant_values: %s",
                 value.shape().toString()));
      std::memcpy(&pad, value.rawData(), esize);
    }
    if (outShape->numElements() == input.numElements() && rank > 0 &&
        std::all_of(before.begin(), before.end(),
                    [](int64_t p) { return p == 0; }) &&
        std::all_of(after.begin(), after.end(),
                    [](int64_t p) { return p == 0; })) {
      ctx->setOutput(0, input);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    if (out->numElements() == 0)
      return;
    if (rank == 0) {
      std::memcpy(out->rawData(), input.rawData(), esize);
      return;
    }
    // Merge unpadded dims into their predecessor.
    Dims inD, padB, padA;
    for (int d = 0; d < rank; ++d) {
      if (d > 0 && before[d] == 0 && after[d] == 0) {
        inD.back() *= input.dim(d);
        padB.back() *= input.dim(d);
        padA.back() *= input.dim(d);
        continue;
      }
      inD.push_back(input.dim(d));
      padB.push_back(before[d]);
      padA.push_back(after[d]);
    }
    const int r = static_cast<int>(inD.size());
    Dims oD(r);
    for (int d = 0; d < r; ++d)
      oD[d] = inD[d] + padB[d] + padA[d];
    const Dims inStrides = stridesOf(inD);
    const int64_t inner = oD[r - 1], inInner = inD[r - 1];
    const int64_t rows = out->numElements() / inner;
    dispatchElementSize(input.dtype(), [&](auto e) {
      using E = decltype(e);
      E v;
      std::memcpy(&v, &pad, sizeof(E));
      const E *src = static_cast<const E *>(input.rawData());
      E *dst = static_cast<E *>(out->rawData());
      const double rowBytes = double(inner) * sizeof(E);
      kernels::parallelFor(
          ctx->eigenDevice(), rows, Eigen::TensorOpCost(rowBytes, rowBytes, 0),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index row = first; row < last; ++row) {
              E *o = dst + row * inner;
              int64_t rem = row, offset = 0;
              bool inside = input.numElements() > 0;
              for (int d = r - 2; d >= 0 && inside; --d) {
                const int64_t c = rem % oD[d] - padB[d];
                rem /= oD[d];
                inside = c >= 0 && c < inD[d];
                offset += c * inStrides[d];
              }
              if (!inside) {
                std::fill(o, o + inner, v);
                continue;
              }
              std::fill(o, o + padB[r - 1], v);
              std::memcpy(o + padB[r - 1], src + offset, inInner * sizeof(E));
              std::fill(o + padB[r - 1] + inInner, o + inner, v);
            }
          });
    });
  }
};

/// MirrorPad(input, paddings; mode): padding by reflection. REFLECT mirrors
/// without repeating the edge (paddings < dim), SYMMETRIC repeats it
/// (paddings <= dim).
class MirrorPadKernel final : public OpKernel {
public:
  explicit MirrorPadKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    std::string mode;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("mode", &mode));
    if (mode == "REFLECT")
      offset_ = 1;
    else
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, mode == "SYMMETRIC",
          errorf("mode must be either REFLECT or SYMMETRIC, got '%s'", mode));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    Dims before, after;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPaddings(*this, input, ctx->input(1), &before, &after));
    const int rank = input.rank();
    TensorShape::Dims outDims(rank);
    std::vector<std::vector<int64_t>> maps(rank);
    for (int d = 0; d < rank; ++d) {
      const int64_t n = input.dim(d);
      if (offset_ == 0)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, before[d] <= n && after[d] <= n,
            errorf("paddings must be no greater than the dimension size: %d, "
                   "%d greater than %d",
                   before[d], after[d], n));
      else
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, before[d] < n && after[d] < n,
            errorf("paddings must be less than the dimension size: %d, %d not "
                   "less than %d",
                   before[d], after[d], n));
      outDims[d] = n + before[d] + after[d];
      maps[d].resize(outDims[d]);
      for (int64_t o = 0; o < outDims[d]; ++o) {
        int64_t i = o - before[d];
        if (i < 0)
          i = -i - 1 + offset_;
        else if (i >= n)
          i = 2 * n - i - 1 - offset_;
        maps[d][o] = i;
      }
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
    if (out->numElements() == 0)
      return;
    if (rank == 0) {
      std::memcpy(out->rawData(), input.rawData(), dtypeSize(input.dtype()));
      return;
    }
    const Dims inStrides = stridesOf(input.shape().dims());
    const int64_t inner = outDims[rank - 1];
    const int64_t rows = out->numElements() / inner;
    dispatchElementSize(input.dtype(), [&](auto e) {
      using E = decltype(e);
      const E *src = static_cast<const E *>(input.rawData());
      E *dst = static_cast<E *>(out->rawData());
      const int64_t *lastMap = maps[rank - 1].data();
      kernels::parallelFor(
          ctx->eigenDevice(), rows,
          Eigen::TensorOpCost(inner * sizeof(E), inner * sizeof(E), 1),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index row = first; row < last; ++row) {
              int64_t rem = row, offset = 0;
              for (int d = rank - 2; d >= 0; --d) {
                offset += maps[d][rem % outDims[d]] * inStrides[d];
                rem /= outDims[d];
              }
              E *o = dst + row * inner;
              const E *i = src + offset;
              for (int64_t j = 0; j < inner; ++j)
                o[j] = i[lastMap[j]];
            }
          });
    });
  }

private:
  int offset_ = 0;
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
    absl::StatusOr<TensorShape> outShape = TensorShape::create(outDims);
    TFRT_FALLBACK_OP_REQUIRES(ctx, outShape.ok(),
                              errorf("%s", outShape.status().message()));
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

void registerDataMovementKernels(KernelRegistry &registry) {
  // Index attributes (Tperm, Tidx, Index, Tpaddings, Tmultiples, Tlen) type
  // the index operands (the op table), which the loader checks when a node
  // has them; they default to int32 and may be left out of a graph, so they
  // are not constrained here and the kernels accept int32 or int64.
  registerKernel<TransposeKernel>(
      registry, KernelDefBuilder("Transpose").typeConstraint("T", kAllDTypes));
  registerKernel<ConcatKernel<false>>(
      registry, KernelDefBuilder("ConcatV2").typeConstraint("T", kAllDTypes));
  registerKernel<ConcatKernel<true>>(
      registry, KernelDefBuilder("Concat").typeConstraint("T", kAllDTypes));
  registerKernel<PackKernel>(
      registry, KernelDefBuilder("Pack").typeConstraint("T", kAllDTypes));
  registerKernel<UnpackKernel>(
      registry, KernelDefBuilder("Unpack").typeConstraint("T", kAllDTypes));
  registerKernel<SplitKernel>(
      registry, KernelDefBuilder("Split").typeConstraint("T", kAllDTypes));
  registerKernel<SplitVKernel>(
      registry, KernelDefBuilder("SplitV").typeConstraint("T", kAllDTypes));
  registerKernel<SliceKernel>(
      registry, KernelDefBuilder("Slice").typeConstraint("T", kAllDTypes));
  registerKernel<StridedSliceKernel>(
      registry,
      KernelDefBuilder("StridedSlice").typeConstraint("T", kAllDTypes));
  registerKernel<PadKernel>(
      registry, KernelDefBuilder("Pad").typeConstraint("T", kAllDTypes));
  registerKernel<PadKernel>(
      registry, KernelDefBuilder("PadV2").typeConstraint("T", kAllDTypes));
  registerKernel<MirrorPadKernel>(
      registry, KernelDefBuilder("MirrorPad").typeConstraint("T", kAllDTypes));
  registerKernel<TileKernel>(
      registry, KernelDefBuilder("Tile").typeConstraint("T", kAllDTypes));
  registerKernel<ReverseKernel<false>>(
      registry, KernelDefBuilder("ReverseV2").typeConstraint("T", kAllDTypes));
  registerKernel<ReverseKernel<true>>(
      registry, KernelDefBuilder("Reverse").typeConstraint("T", kAllDTypes));
}

} // namespace tfrt_fallback::rt

//===- ArrayKernels.cpp - Array rearrangement and construction --*- C++ -*-===//
//
// TensorFlow's array ops that move or build whole tensors
// (tensorflow/core/kernels/reverse_sequence_op.cc, roll_op.cc,
// one_hot_op.cc, transpose_op.cc, inplace_ops.cc, bitcast_op.cc):
// ReverseSequence, Roll, OneHot, InvertPermutation, Bitcast, Empty,
// DeepCopy, ParallelConcat and InplaceUpdate / InplaceAdd / InplaceSub.
// Except for the arithmetic of InplaceAdd/Sub, the kernels move element
// bytes and serve every dtype with one class.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Every dtype but bool (TF's Bitcast types without complex and quantized).
constexpr DType kBitcastDTypes[] = {
    DType::F32, DType::F64, DType::F16, DType::BF16, DType::I8,  DType::I16,
    DType::I32, DType::I64, DType::U8,  DType::U16,  DType::U32, DType::U64};

/// The int32/int64 vector `t` as int64 values.
std::vector<int64_t> readIndexVector(const Tensor &t) {
  std::vector<int64_t> v(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i)
    v[i] = indexAt(t, i);
  return v;
}

//===----------------------------------------------------------------------===//
// ReverseSequence
//===----------------------------------------------------------------------===//

/// ReverseSequence(input, seq_lengths: Tlen; seq_dim, batch_dim = 0): for
/// each b along batch_dim, the first seq_lengths[b] slices along seq_dim
/// are reversed, the rest copied. seq_lengths is 1-D int32/int64 with
/// input.dims(batch_dim) entries, each in [0, input.dims(seq_dim)]. TF's
/// errors: "Invalid batch_dim -1", "batch_dim == seq_dim == 1", "seq_dim
/// must be < input rank ( 3 vs. 2)", "Length of seq_lengths !=
/// input.dims(0), (3 vs. 2)", "seq_lens(1) < 0", "seq_lens(1) >
/// input.dims(1)".
class ReverseSequenceKernel final : public OpKernel {
public:
  explicit ReverseSequenceKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "batch_dim", &batchDim_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("seq_dim", &seqDim_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, batchDim_ >= 0,
                              errorf("Invalid batch_dim %d", batchDim_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, seqDim_ >= 0,
                              errorf("Invalid seq_dim %d", seqDim_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &lengths = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, lengths.rank() == 1,
        errorf("seq_lengths must be 1-dim, not %d", lengths.rank()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(lengths),
                              errorf("seq_lengths must be int32 or int64"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, batchDim_ != seqDim_,
                              errorf("batch_dim == seq_dim == %d", seqDim_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, seqDim_ < input.rank(),
        errorf("seq_dim must be < input rank ( %d vs. %d)", seqDim_,
               input.rank()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, batchDim_ < input.rank(),
        errorf("batch_dim must be < input rank ( %d vs. %d)", batchDim_,
               input.rank()));
    const int b = static_cast<int>(batchDim_), s = static_cast<int>(seqDim_);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, lengths.numElements() == input.dim(b),
        errorf("Length of seq_lengths != input.dims(%d), (%d vs. %d)", b,
               lengths.numElements(), input.dim(b)));
    const std::vector<int64_t> lens = readIndexVector(lengths);
    for (size_t d = 0; d < lens.size(); ++d) {
      TFRT_FALLBACK_OP_REQUIRES(ctx, lens[d] >= 0,
                                errorf("seq_lens(%d) < 0", d));
      TFRT_FALLBACK_OP_REQUIRES(ctx, lens[d] <= input.dim(s),
                                errorf("seq_lens(%d) > input.dims(%d)", d, s));
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, input.shape(), &out));
    if (input.numElements() == 0)
      return;
    // Blocks of the dims after max(b, s) are contiguous; iterate over the
    // leading dims [0, last] with a row-major counter.
    const int last = std::max(b, s);
    size_t block = dtypeSize(input.dtype());
    for (int d = last + 1; d < input.rank(); ++d)
      block *= input.dim(d);
    std::vector<int64_t> stride(last + 1);
    int64_t acc = 1;
    for (int d = last; d >= 0; --d) {
      stride[d] = acc;
      acc *= input.dim(d);
    }
    const int64_t blocks = acc;
    const char *src = static_cast<const char *>(input.rawData());
    char *dst = static_cast<char *>(out->rawData());
    for (int64_t k = 0; k < blocks; ++k) {
      const int64_t bi = k / stride[b] % input.dim(b);
      const int64_t si = k / stride[s] % input.dim(s);
      int64_t from = k;
      if (si < lens[bi])
        from += (lens[bi] - 1 - 2 * si) * stride[s];
      std::memcpy(dst + k * block, src + from * block, block);
    }
  }

private:
  int64_t batchDim_ = 0;
  int64_t seqDim_ = 0;
};

//===----------------------------------------------------------------------===//
// Roll
//===----------------------------------------------------------------------===//

/// Roll(input, shift: Tshift, axis: Taxis): output[..., (i + shift) mod n,
/// ...] = input[..., i, ...] along each axis (shift and axis scalars or
/// equal-length vectors, int32/int64; negative axes count from the end;
/// shifts on a repeated axis add up). TF's errors: "input must be 1-D or
/// higher", "shift must be a scalar or a 1-D vector. Found: [..]", "axis
/// must be a scalar or a 1-D vector. Found: [..]", "shift and axis must
/// have the same size", "axis 3 is out of range".
class RollKernel final : public OpKernel {
public:
  explicit RollKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &shift = ctx->input(1);
    const Tensor &axis = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(ctx, input.rank() >= 1,
                              errorf("input must be 1-D or higher"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shift.rank() <= 1,
        errorf("shift must be a scalar or a 1-D vector. Found: %s",
               shift.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axis.rank() <= 1,
        errorf("axis must be a scalar or a 1-D vector. Found: %s",
               axis.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx,
                              shift.shape() == axis.shape() &&
                                  isIndexTensor(shift) && isIndexTensor(axis),
                              errorf("shift and axis must have the same size"));
    const int rank = input.rank();
    std::vector<int64_t> shifts(rank, 0);
    for (int64_t i = 0; i < shift.numElements(); ++i) {
      int64_t a = indexAt(axis, i);
      if (a < 0)
        a += rank;
      TFRT_FALLBACK_OP_REQUIRES(ctx, a >= 0 && a < rank,
                                errorf("axis %d is out of range", a));
      const int64_t n = std::max<int64_t>(input.dim(static_cast<int>(a)), 1);
      shifts[a] = ((shifts[a] + indexAt(shift, i) % n) % n + n) % n;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, input.shape(), &out));
    if (input.numElements() == 0)
      return;
    const size_t elem = dtypeSize(input.dtype());
    const int64_t rowLen = input.dim(rank - 1);
    const int64_t rows = input.numElements() / rowLen;
    const int64_t rowShift = shifts[rank - 1];
    const char *src = static_cast<const char *>(input.rawData());
    char *dst = static_cast<char *>(out->rawData());
    // Output row r takes input row r with each outer coordinate c moved to
    // (c - shift) mod n, then rotates it by the last axis' shift.
    for (int64_t r = 0; r < rows; ++r) {
      int64_t rest = r, from = 0, stride = 1;
      for (int d = rank - 2; d >= 0; --d) {
        const int64_t n = input.dim(d);
        const int64_t c = rest % n;
        rest /= n;
        from += ((c - shifts[d] + n) % n) * stride;
        stride *= n;
      }
      const char *in = src + from * rowLen * elem;
      char *o = dst + r * rowLen * elem;
      std::memcpy(o + rowShift * elem, in, (rowLen - rowShift) * elem);
      std::memcpy(o, in + (rowLen - rowShift) * elem, rowShift * elem);
    }
  }
};

//===----------------------------------------------------------------------===//
// OneHot
//===----------------------------------------------------------------------===//

/// OneHot(indices: TI, depth: int32, on_value: T, off_value: T; axis = -1):
/// indices' shape with a dim of `depth` inserted at `axis` (-1: last),
/// on_value where the position along it equals the index, off_value
/// elsewhere (an index outside [0, depth) gives a row of off_value). TI is
/// uint8, int8, int32 or int64. TF's errors: "Expected axis to be -1 or
/// between [0, 2).  But received: 3", "depth must be a scalar, but got:
/// [2]", "on_value must be a scalar, but got: [..]", "depth must be
/// non-negative, got: -1".
class OneHotKernel final : public OpKernel {
public:
  explicit OneHotKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "axis", &axis_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &indices = ctx->input(0);
    const Tensor &depthT = ctx->input(1);
    const Tensor &on = ctx->input(2);
    const Tensor &off = ctx->input(3);
    const int outRank = indices.rank() + 1;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axis_ == -1 || (axis_ >= 0 && axis_ < outRank),
        errorf("Expected axis to be -1 or between [0, %d).  But received: %d",
               outRank, axis_));
    TFRT_FALLBACK_OP_REQUIRES(ctx, depthT.rank() == 0,
                              errorf("depth must be a scalar, but got: %s",
                                     depthT.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, on.rank() == 0,
                              errorf("on_value must be a scalar, but got: %s",
                                     on.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, off.rank() == 0,
                              errorf("off_value must be a scalar, but got: %s",
                                     off.shape().toString()));
    const DType ti = indices.dtype();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        ti == DType::U8 || ti == DType::I8 || ti == DType::I32 ||
            ti == DType::I64,
        errorf("indices must be uint8, int8, int32 or int64, got %s",
               dtypeName(ti)));
    const int64_t depth = depthT.data<int32_t>()[0];
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, depth >= 0, errorf("depth must be non-negative, got: %d", depth));
    const int axis = axis_ == -1 ? indices.rank() : static_cast<int>(axis_);
    TensorShape::Dims dims(indices.shape().dims().begin(),
                           indices.shape().dims().end());
    dims.insert(dims.begin() + axis, depth);
    StatusOr<TensorShape> shape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape.ok(),
        errorf("OneHot result would have shape %s + [%d], which exceeds 2**63 "
               "- 1 elements",
               indices.shape().toString(), depth));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *shape, &out));
    if (out->numElements() == 0)
      return;
    int64_t prefix = 1;
    for (int d = 0; d < axis; ++d)
      prefix *= indices.dim(d);
    const int64_t suffix = indices.numElements() / prefix;
    const size_t elem = dtypeSize(on.dtype());
    const char *onBytes = static_cast<const char *>(on.rawData());
    const char *offBytes = static_cast<const char *>(off.rawData());
    char *dst = static_cast<char *>(out->rawData());
    // Output [prefix, depth, suffix]: fill with off, then set the hits.
    for (int64_t i = 0; i < out->numElements(); ++i)
      std::memcpy(dst + i * elem, offBytes, elem);
    auto index = [&](int64_t i) -> int64_t {
      switch (ti) {
      case DType::U8:
        return indices.data<uint8_t>()[i];
      case DType::I8:
        return indices.data<int8_t>()[i];
      case DType::I32:
        return indices.data<int32_t>()[i];
      default:
        return indices.data<int64_t>()[i];
      }
    };
    for (int64_t p = 0; p < prefix; ++p)
      for (int64_t q = 0; q < suffix; ++q) {
        const int64_t k = index(p * suffix + q);
        if (k >= 0 && k < depth)
          std::memcpy(dst + ((p * depth + k) * suffix + q) * elem, onBytes,
                      elem);
      }
  }

private:
  int64_t axis_ = -1;
};

//===----------------------------------------------------------------------===//
// InvertPermutation
//===----------------------------------------------------------------------===//

/// InvertPermutation(x: int32/int64): y[x[i]] = i for a permutation x of
/// [0, n). TF's errors: "invert_permutation expects a 1D vector.", "5 is
/// not between 0 and 3", "1 is duplicated in the input.".
template <typename T> class InvertPermutationKernel final : public OpKernel {
public:
  explicit InvertPermutationKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.rank() == 1, errorf("invert_permutation expects a 1D vector."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.numElements() <= std::numeric_limits<int32_t>::max(),
        errorf("permutation of nonnegative int32s must have <= int32 max "
               "elements"));
    const int64_t n = x.numElements();
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &out));
    const T *in = x.data<T>();
    T *y = out->data<T>();
    std::fill(y, y + n, T(-1));
    for (int64_t i = 0; i < n; ++i) {
      const T d = in[i];
      TFRT_FALLBACK_OP_REQUIRES(ctx, d >= 0 && d < n,
                                errorf("%d is not between 0 and %d", d, n));
      TFRT_FALLBACK_OP_REQUIRES(ctx, y[d] == -1,
                                errorf("%d is duplicated in the input.", d));
      y[d] = static_cast<T>(i);
    }
  }
};

//===----------------------------------------------------------------------===//
// Bitcast, Empty, DeepCopy, ParallelConcat
//===----------------------------------------------------------------------===//

/// Bitcast(input: T; type): the input's bytes viewed as `type` (no copy).
/// Equal sizes keep the shape; a narrower type appends a dim of
/// sizeof(T) / sizeof(type); a wider one needs a last dim of
/// sizeof(type) / sizeof(T) and drops it ("Cannot bitcast from f32 to
/// f64", with the runtime's dtype names). Every size here is a power of
/// two, so TF's "cannot convert between datatype" cannot happen.
class BitcastKernel final : public OpKernel {
public:
  explicit BitcastKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("type", &type_));
    TFRT_FALLBACK_OP_REQUIRES(ctx,
                              dtypeSize(type_) != 0 && type_ != DType::Bool,
                              errorf("cannot bitcast to %s", dtypeName(type_)));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const size_t in = dtypeSize(input.dtype()), out = dtypeSize(type_);
    TensorShape::Dims dims(input.shape().dims().begin(),
                           input.shape().dims().end());
    if (out < in) {
      dims.push_back(static_cast<int64_t>(in / out));
    } else if (out > in) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          input.rank() > 0 &&
              input.dim(input.rank() - 1) == static_cast<int64_t>(out / in),
          errorf("Cannot bitcast from %s to %s", dtypeName(input.dtype()),
                 dtypeName(type_)));
      dims.pop_back();
    }
    ctx->setOutput(0, Tensor(type_, TensorShape(dims), input.buffer(),
                             input.byteOffset()));
  }

private:
  DType type_ = DType::Invalid;
};

/// Empty(shape: int32; dtype, init = false): a tensor of `shape` (a 1-D
/// int32 vector). TF leaves it uninitialized unless init; here it is
/// always zero. "shape must be a vector of int32, got shape [2,2]".
class EmptyKernel final : public OpKernel {
public:
  explicit EmptyKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &shapeT = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shapeT.rank() == 1,
        errorf("shape must be a vector of int32, got shape %s",
               shapeT.shape().toString()));
    const std::vector<int64_t> dims = readIndexVector(shapeT);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, dims, &out));
    std::memset(out->rawData(), 0, out->totalBytes());
  }
};

/// DeepCopy(x): a copy of x in a buffer of its own.
class DeepCopyKernel final : public OpKernel {
public:
  explicit DeepCopyKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &out));
    if (x.totalBytes())
      std::memcpy(out->rawData(), x.rawData(), x.totalBytes());
  }
};

/// ParallelConcat(values: N*T; shape): the N values, each of shape
/// [1, ...], stacked along dim 0 into `shape` ([N, ...]). TF rewrites the
/// op into _ParallelConcatStart/_ParallelConcatUpdate before running it;
/// this kernel computes the same result directly. Errors name the first
/// value that does not fit: "values[1] has shape [2,3], expected [1,3]".
class ParallelConcatKernel final : public OpKernel {
public:
  explicit ParallelConcatKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("shape", &shape_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int n = ctx->numInputs();
    const Tensor &first = ctx->input(0);
    TensorShape::Dims dims(first.shape().dims().begin(),
                           first.shape().dims().end());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, !dims.empty(),
        errorf("values[0] must be at least 1-D, got shape []"));
    dims[0] = 1;
    const TensorShape each(dims);
    for (int i = 0; i < n; ++i)
      TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(i).shape() == each,
                                errorf("values[%d] has shape %s, expected %s",
                                       i, ctx->input(i).shape().toString(),
                                       each.toString()));
    dims[0] = n;
    const TensorShape outShape(dims);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape_.isCompatibleWith(outShape),
        errorf("shape attribute %s does not match the %d stacked values of "
               "shape %s",
               shape_.toString(), n, each.toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
    const size_t bytes = first.totalBytes();
    char *dst = static_cast<char *>(out->rawData());
    for (int i = 0; i < n && bytes; ++i)
      std::memcpy(dst + i * bytes, ctx->input(i).rawData(), bytes);
  }

private:
  PartialShape shape_;
};

/// _ParallelConcatStart(shape, dtype): the tensor _ParallelConcatUpdate
/// fills, TF's lowering of ParallelConcat. TF leaves it uninitialized; here
/// it is zero. The shape attribute must be fully defined.
class ParallelConcatStartKernel final : public OpKernel {
public:
  explicit ParallelConcatStartKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    PartialShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("shape", &shape));
    StatusOr<TensorShape> full = shape.toTensorShape();
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, full.status());
    shape_ = *full;
  }

  void compute(OpKernelContextInterface *ctx) override {
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape_, &out));
    std::memset(out->rawData(), 0, out->totalBytes());
  }

private:
  TensorShape shape_;
};

/// _ParallelConcatUpdate(value, update; loc): value with row `loc` (of dim
/// 0) replaced by update, whose first dim is 1 (TF's ParallelConcatUpdate,
/// with its errors). TF writes into value's buffer; here the output reuses
/// it when the executor allows, else it is a copy. A negative loc is an
/// error (TF does not check it).
class ParallelConcatUpdateKernel final : public OpKernel {
public:
  explicit ParallelConcatUpdateKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("loc", &loc_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &value = ctx->input(0);
    const Tensor &update = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, value.rank() >= 1,
                              errorf("value should be at least rank 1."));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.dim(0) > loc_ && loc_ >= 0,
        errorf("0th dimension of value = %d must be greater than loc_ = %d",
               value.dim(0), loc_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.rank() == update.rank(),
        errorf("value and update shape doesn't match: %s vs. %s",
               value.shape().toString(), update.shape().toString()));
    for (int d = 1; d < value.rank(); ++d)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, value.dim(d) == update.dim(d),
          errorf("value and update shape doesn't match %s vs. %s",
                 value.shape().toString(), update.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, update.dim(0) == 1,
        errorf("update shape doesn't match: %s", update.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.dtype() == update.dtype(),
        errorf("value and update dtypes differ: %s vs. %s",
               dtypeName(value.dtype()), dtypeName(update.dtype())));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, value.shape(), &out));
    if (out->rawData() != value.rawData() && value.totalBytes())
      std::memcpy(out->rawData(), value.rawData(), value.totalBytes());
    const size_t rowBytes = update.totalBytes();
    if (rowBytes)
      std::memcpy(static_cast<char *>(out->rawData()) + loc_ * rowBytes,
                  update.rawData(), rowBytes);
  }

private:
  int64_t loc_ = 0;
};

//===----------------------------------------------------------------------===//
// InplaceUpdate, InplaceAdd, InplaceSub
//===----------------------------------------------------------------------===//

enum class InplaceOp { Update, Add, Sub };

/// Checks the operands of an Inplace op: i a vector (int32), x and v of
/// equal rank and equal dims after the first, as many rows in v as
/// indices. TF's errors: "i must be a vector. [2,2]", "x and v shape
/// doesn't match (ranks differ): [..] vs. [..]", "x and v shape doesn't
/// match at index 1 : [..] vs. [..]", "i and x shape doesn't match at index
/// 0: [..] vs. [..]".
Status checkInplace(const OpKernel &op, const Tensor &x, const Tensor &i,
                    const Tensor &v) {
  if (i.rank() != 1)
    return op.errorf("i must be a vector. %s", i.shape().toString());
  if (x.rank() != v.rank())
    return op.errorf("x and v shape doesn't match (ranks differ): %s vs. %s",
                     x.shape().toString(), v.shape().toString());
  for (int d = 1; d < x.rank(); ++d)
    if (x.dim(d) != v.dim(d))
      return op.errorf("x and v shape doesn't match at index %d : %s vs. %s", d,
                       x.shape().toString(), v.shape().toString());
  if (x.rank() == 0 || i.dim(0) != v.dim(0))
    return op.errorf("i and x shape doesn't match at index 0: %s vs. %s",
                     i.shape().toString(), v.shape().toString());
  return OkStatus();
}

/// InplaceUpdate / InplaceAdd / InplaceSub(x, i: int32, v): y = x with row
/// i[k] (of dim 0) replaced by, increased by or decreased by row k of v.
/// An index is taken modulo x's rows (TF's guard: (i % n + n) % n). The
/// output reuses x's buffer when the executor allows it (TF always writes
/// into x). InplaceUpdate moves bytes (every dtype); Add and Sub are typed.
template <typename T, InplaceOp Op>
class InplaceKernel final : public OpKernel {
public:
  explicit InplaceKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    const Tensor &i = ctx->input(1);
    const Tensor &v = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkInplace(*this, x, i, v));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, x.shape(), &out));
    if (out->rawData() != x.rawData() && x.totalBytes())
      std::memcpy(out->rawData(), x.rawData(), x.totalBytes());
    if (x.numElements() == 0 || v.numElements() == 0)
      return;
    const int64_t rows = x.dim(0);
    const int64_t row = x.numElements() / rows;
    const int32_t *idx = i.data<int32_t>();
    for (int64_t k = 0; k < i.numElements(); ++k) {
      const int64_t r = (idx[k] % rows + rows) % rows;
      if constexpr (Op == InplaceOp::Update) {
        const size_t bytes = row * dtypeSize(x.dtype());
        std::memcpy(static_cast<char *>(out->rawData()) + r * bytes,
                    static_cast<const char *>(v.rawData()) + k * bytes, bytes);
      } else {
        ArrayMap<T> dst(out->data<T>() + r * row, row);
        ConstArrayMap<T> src(v.data<T>() + k * row, row);
        if constexpr (Op == InplaceOp::Add)
          dst += src;
        else
          dst -= src;
      }
    }
  }
};

template <typename T> using InplaceAdd = InplaceKernel<T, InplaceOp::Add>;
template <typename T> using InplaceSub = InplaceKernel<T, InplaceOp::Sub>;

} // namespace

void registerArrayKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  // Tlen, Tshift, Taxis, TI have defaults or are checked on the operands.
  registerKernel<OpId::kReverseSequence, ReverseSequenceKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kRoll, RollKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kOneHot, OneHotKernel>(registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kInvertPermutation, InvertPermutationKernel, int32_t,
                 int64_t>(registry);
  registerKernel<OpId::kBitcast, BitcastKernel>(
      registry, {{"T", kBitcastDTypes}, {"type", kBitcastDTypes}});
  registerKernel<OpId::kEmpty, EmptyKernel>(registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kDeepCopy, DeepCopyKernel>(registry,
                                                  {{"T", kAllDTypes}});
  registerKernel<OpId::kParallelConcat, ParallelConcatKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::k_ParallelConcatStart, ParallelConcatStartKernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::k_ParallelConcatUpdate, ParallelConcatUpdateKernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kInplaceUpdate,
                 InplaceKernel<uint8_t, InplaceOp::Update>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kInplaceAdd, InplaceAdd, float, double, half, bf16,
                 int32_t, int64_t>(registry);
  registerKernel<OpId::kInplaceSub, InplaceSub, float, double, half, bf16,
                 int32_t, int64_t>(registry);
}

} // namespace tfrt_fallback::rt

//===- ShapeVectorKernels.cpp - Ops on shapes and layouts -------*- C++ -*-===//
//
// Ops that compute with shape vectors and data-format strings, as graphs
// use them around layout changes and concatenation
// (tensorflow/core/kernels/shape_ops.h, bcast_ops.cc, concat_op.cc,
// data_format_ops.cc): ShapeN, BroadcastArgs, ConcatOffset, EnsureShape,
// DataFormatDimMap and DataFormatVecPermute. Shape vectors are int32 or
// int64; the kernels check the dtypes on the operands.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Writes `values` into output `index` as a 1-D tensor of its expected
/// dtype (int32 or int64); a value that does not fit int32 fails.
Status writeIndexVector(const OpKernel &op, OpKernelContextInterface *ctx,
                        int index, absl::Span<const int64_t> values) {
  const DType dtype = ctx->expectedOutputDType(index);
  if (dtype != DType::I32 && dtype != DType::I64)
    return op.errorf("output %d must be int32 or int64, got %s", index,
                     dtypeName(dtype));
  Tensor *out = nullptr;
  if (Status status = ctx->allocateOutput(
          index, TensorShape{static_cast<int64_t>(values.size())}, &out);
      !status.ok())
    return status;
  for (size_t i = 0; i < values.size(); ++i) {
    if (dtype == DType::I64) {
      out->data<int64_t>()[i] = values[i];
      continue;
    }
    if (values[i] > std::numeric_limits<int32_t>::max() ||
        values[i] < std::numeric_limits<int32_t>::min())
      return op.errorf("Dimension size, %d, is too large to be represented "
                       "in int32 (use out_type int64)",
                       values[i]);
    out->data<int32_t>()[i] = static_cast<int32_t>(values[i]);
  }
  return OkStatus();
}

std::vector<int64_t> readVector(const Tensor &t) {
  std::vector<int64_t> v(t.numElements());
  for (int64_t i = 0; i < t.numElements(); ++i)
    v[i] = indexAt(t, i);
  return v;
}

//===----------------------------------------------------------------------===//
// ShapeN, BroadcastArgs, ConcatOffset, EnsureShape
//===----------------------------------------------------------------------===//

/// ShapeN(input: N*T; out_type = int32): the shape of each input as a 1-D
/// out_type (int32, int64) tensor.
class ShapeNKernel final : public OpKernel {
public:
  explicit ShapeNKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    for (int i = 0; i < ctx->numInputs(); ++i)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, writeIndexVector(*this, ctx, i, ctx->input(i).shape().dims()));
  }
};

/// BroadcastArgs(s0, s1: int32/int64 vectors): the shape two tensors of
/// shapes s0 and s1 broadcast to (NumPy rules, TF's BCast: 1 vs. 0 gives
/// 0). "In[0] must be a vector.[2,2]", "Incompatible shapes: [2,3] vs.
/// [4]".
class BroadcastArgsKernel final : public OpKernel {
public:
  explicit BroadcastArgsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    std::vector<int64_t> shapes[2];
    for (int i = 0; i < 2; ++i) {
      const Tensor &in = ctx->input(i);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, in.rank() == 1 && isIndexTensor(in),
          errorf("In[%d] must be a vector.%s", i, in.shape().toString()));
      shapes[i] = readVector(in);
    }
    const size_t rank = std::max(shapes[0].size(), shapes[1].size());
    std::vector<int64_t> out(rank);
    for (size_t k = 0; k < rank; ++k) {
      const size_t a = rank - shapes[0].size(), b = rank - shapes[1].size();
      const int64_t da = k >= a ? shapes[0][k - a] : 1;
      const int64_t db = k >= b ? shapes[1][k - b] : 1;
      TFRT_FALLBACK_OP_REQUIRES(ctx, da == db || da == 1 || db == 1,
                                errorf("Incompatible shapes: [%s] vs. [%s]",
                                       strJoin(shapes[0], ","),
                                       strJoin(shapes[1], ",")));
      out[k] = da == 1 ? db : da;
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, writeIndexVector(*this, ctx, 0, out));
  }
};

/// ConcatOffset(concat_dim: int32, shape: N*shape_type): where each input
/// of a ConcatV2 along concat_dim starts: output i is 0 everywhere but at
/// concat_dim, which holds the sum of shape[0..i)[concat_dim]. Every shape
/// must match shape[0] off concat_dim. TF's errors: "Concat dim tensor
/// should be a scalar integer, but got shape [2]", "input 1 should be a
/// vector, but got shape [..]", "Concat dim is out of range: 3 vs. 2",
/// "input 1 should contain 2 elements, but got 3", "All dimensions except 1
/// must match. Input 1 has shape [2 4] and doesn't match input 0 with shape
/// [3 4].".
class ConcatOffsetKernel final : public OpKernel {
public:
  explicit ConcatOffsetKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &dimT = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dimT.rank() == 0,
        errorf("Concat dim tensor should be a scalar integer, but got shape %s",
               dimT.shape().toString()));
    const int n = ctx->numInputs() - 1;
    for (int i = 1; i <= n; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ctx->input(i).rank() == 1 && isIndexTensor(ctx->input(i)),
          errorf("input %d should be a vector, but got shape %s", i,
                 ctx->input(i).shape().toString()));
    const std::vector<int64_t> first = readVector(ctx->input(1));
    const int64_t cdim = indexAt(dimT, 0);
    const int64_t dims = static_cast<int64_t>(first.size());
    const int64_t axis = cdim < 0 ? cdim + dims : cdim;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axis >= 0 && axis < dims,
        errorf("Concat dim is out of range: %d vs. %d", cdim, dims));
    int64_t offset = 0;
    for (int i = 0; i < n; ++i) {
      const std::vector<int64_t> shape = readVector(ctx->input(1 + i));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, static_cast<int64_t>(shape.size()) == dims,
          errorf("input %d should contain %d elements, but got %d", i, dims,
                 shape.size()));
      std::vector<int64_t> out(dims, 0);
      for (int64_t j = 0; j < dims; ++j) {
        if (j == axis) {
          out[j] = offset;
          offset += shape[j];
          continue;
        }
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, shape[j] == first[j],
            errorf("All dimensions except %d must match. Input %d has shape "
                   "[%s] and doesn't match input 0 with shape [%s].",
                   axis, i, strJoin(shape, " "), strJoin(first, " ")));
      }
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, writeIndexVector(*this, ctx, i, out));
    }
  }
};

/// EnsureShape(input; shape): the input itself, after checking its shape
/// against the (partial) shape attribute: "Shape of tensor input [2,3] is
/// not compatible with expected shape [?,4]." (TF names the input's
/// producer instead of "input").
class EnsureShapeKernel final : public OpKernel {
public:
  explicit EnsureShapeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("shape", &shape_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape_.isCompatibleWith(input.shape()),
        errorf("Shape of tensor input %s is not compatible with expected shape "
               "%s.",
               input.shape().toString(), shape_.toString()));
    ctx->setOutput(0, input);
  }

private:
  PartialShape shape_;
};

//===----------------------------------------------------------------------===//
// DataFormatDimMap, DataFormatVecPermute
//===----------------------------------------------------------------------===//

/// Reads and checks src_format / dst_format (default NHWC -> NCHW): each
/// of length 4 or 5, dst a permutation of src. TF's errors: "Source format
/// must be of length 4 or 5, received src_format = NC", "Destination format
/// must be of length 4 or 5, received dst_format = ...", "Destination and
/// source format must determine a permutation, got NHWC and NCHH".
Status readFormats(const OpKernel &op, OpKernelConstructionInterface *ctx,
                   std::string *src, std::string *dst) {
  *src = "NHWC";
  *dst = "NCHW";
  if (Status s = getOptionalAttr(ctx, "src_format", src); !s.ok())
    return s;
  if (Status s = getOptionalAttr(ctx, "dst_format", dst); !s.ok())
    return s;
  if (src->size() != 4 && src->size() != 5)
    return op.errorf("Source format must be of length 4 or 5, received "
                     "src_format = %s",
                     *src);
  if (dst->size() != 4 && dst->size() != 5)
    return op.errorf("Destination format must be of length 4 or 5, received "
                     "dst_format = %s",
                     *dst);
  bool permutation = src->size() == dst->size();
  for (size_t i = 0; permutation && i < src->size(); ++i)
    permutation =
        src->find((*src)[i]) == i && dst->find((*src)[i]) != std::string::npos;
  if (!permutation)
    return op.errorf("Destination and source format must determine a "
                     "permutation, got %s and %s",
                     *src, *dst);
  return OkStatus();
}

/// DataFormatDimMap(x: int32/int64; src_format, dst_format): for each dim
/// index x of a src_format tensor (taken modulo the format's length, so -1
/// is the last), its index in dst_format. NHWC -> NCHW maps 1 (H) to 2.
template <typename T> class DataFormatDimMapKernel final : public OpKernel {
public:
  explicit DataFormatDimMapKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    std::string src, dst;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readFormats(*this, ctx, &src, &dst));
    for (char c : src)
      map_.push_back(static_cast<T>(dst.find(c)));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, x.shape(), &out));
    const T n = static_cast<T>(map_.size());
    const T *in = x.data<T>();
    T *y = out->data<T>();
    for (int64_t i = 0; i < x.numElements(); ++i)
      y[i] = map_[((in[i] % n) + n) % n];
  }

private:
  std::vector<T> map_;
};

/// DataFormatVecPermute(x: int32/int64; src_format, dst_format): x holds a
/// value per dim of a src_format tensor (a vector of 4 or 5, or [4 or 5, 2]
/// rows such as paddings), or per spatial dim only (2 or 3 entries: H, W
/// and D); the output has them in dst_format's order. NHWC -> NCHW maps
/// [1, 2, 3, 4] to [1, 4, 2, 3]. TF's errors: "input must be a vector or 2D
/// tensor, but got shape [..]", "1D input must be of size 2 or 4, but got
/// shape [3]", "First dimension of 2D input must be of size 2 or 4, but got
/// shape [..]", "Second dimension of 2D input must be of size 2, but got
/// shape [..]", "Format specifier must contain H and W for 2D case".
template <typename T> class DataFormatVecPermuteKernel final : public OpKernel {
public:
  explicit DataFormatVecPermuteKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, readFormats(*this, ctx, &src_, &dst_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.rank() == 1 || x.rank() == 2,
        errorf("input must be a vector or 2D tensor, but got shape %s",
               x.shape().toString()));
    const int64_t full = static_cast<int64_t>(src_.size()), spatial = full - 2;
    if (x.rank() == 1) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, x.numElements() == spatial || x.numElements() == full,
          errorf("1D input must be of size %d or %d, but got shape %s", spatial,
                 full, x.shape().toString()));
    } else {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, x.dim(0) == spatial || x.dim(0) == full,
          errorf("First dimension of 2D input must be of size %d or %d, but "
                 "got shape %s",
                 spatial, full, x.shape().toString()));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, x.dim(1) == 2,
          errorf("Second dimension of 2D input must be of size 2, but got "
                 "shape %s",
                 x.shape().toString()));
    }
    std::string src = src_, dst = dst_;
    if (x.dim(0) == spatial) {
      auto keepSpatial = [&](std::string *format) {
        std::string kept;
        for (char c : *format)
          if (c == 'H' || c == 'W' || (spatial == 3 && c == 'D'))
            kept.push_back(c);
        *format = kept;
      };
      keepSpatial(&src);
      keepSpatial(&dst);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          static_cast<int64_t>(src.size()) == spatial &&
              static_cast<int64_t>(dst.size()) == spatial,
          errorf(spatial == 3
                     ? "Format specifier must contain D, H and W for 2D case"
                     : "Format specifier must contain H and W for 2D case"));
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &out));
    const int64_t row = x.rank() == 2 ? 2 : 1;
    const T *in = x.data<T>();
    T *y = out->data<T>();
    for (size_t i = 0; i < src.size(); ++i) {
      const size_t j = dst.find(src[i]);
      for (int64_t k = 0; k < row; ++k)
        y[j * row + k] = in[i * row + k];
    }
  }

private:
  std::string src_, dst_;
};

} // namespace

void registerShapeVectorKernels(KernelRegistry &registry) {
  // out_type and shape_type have defaults (int32): checked on the outputs.
  registerKernel<OpId::kShapeN, ShapeNKernel>(registry);
  registerKernel<OpId::kBroadcastArgs, BroadcastArgsKernel>(registry);
  registerKernel<OpId::kConcatOffset, ConcatOffsetKernel>(registry);
  registerKernel<OpId::kEnsureShape, EnsureShapeKernel>(registry);
  registerKernel<OpId::kDataFormatDimMap, DataFormatDimMapKernel, int32_t,
                 int64_t>(registry);
  registerKernel<OpId::kDataFormatVecPermute, DataFormatVecPermuteKernel,
                 int32_t, int64_t>(registry);
}

} // namespace tfrt_fallback::rt

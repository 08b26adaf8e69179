//===- ShapeKernels.cpp - Shape manipulation kernels ------------*- C++ -*-===//
//
// Kernels that change or report a tensor's view: Reshape, Identity,
// IdentityN, StopGradient, ExpandDims and Squeeze share the input buffer (no
// copy, no allocation), so they work for every dtype, strings included. Shape,
// Size and Rank report dims; Fill, Range and BroadcastTo build new tensors
// (Fill of strings in a class of its own, StringCopy.h).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "common/StringCopy.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Shape/Reshape.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Reshape(tensor, shape): `tensor` viewed with the dims in `shape`, a 1-D
/// int32/int64 tensor (Tshape); a scalar is accepted as a 1-element vector,
/// like TF's legacy behaviour. At most one entry may be -1; it is inferred
/// so that the element counts match (shape::reshapeOutputShape, which the
/// compiler's shape inference calls too, has the rule and its errors).
/// "sizes input must be 1-D, not [..]" is the kernel's own. The output
/// shares the input's buffer.
class ReshapeKernel final : public OpKernel {
public:
  explicit ReshapeKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &sizes = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, sizes.rank() <= 1,
        errorf("sizes input must be 1-D, not %s", sizes.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, sizes.dtype() == DType::I32 || sizes.dtype() == DType::I64,
        errorf("shape must be int32 or int64, got %s",
               dtypeName(sizes.dtype())));
    const int64_t rank = sizes.numElements();
    TensorShape::Dims requested(rank);
    for (int64_t d = 0; d < rank; ++d)
      requested[d] = sizes.dtype() == DType::I32 ? sizes.data<int32_t>()[d]
                                                 : sizes.data<int64_t>()[d];
    StatusOr<PartialShape> dims = shape::reshapeOutputShape(
        PartialShape(input.shape().dims()), requested);
    TFRT_FALLBACK_OP_REQUIRES(ctx, dims.ok(), opError(*this, dims.status()));
    StatusOr<TensorShape> shape = TensorShape::create(dims->dims());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape.ok(),
        errorf("Invalid requested shape: %s", shape.status().message()));
    ctx->setOutput(0, input.reshaped(*std::move(shape)));
  }
};

/// Identity(input): the input itself, sharing its buffer.
class IdentityKernel final : public OpKernel {
public:
  explicit IdentityKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    ctx->setOutput(0, ctx->input(0));
  }
};

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Element `i` of an int32 or int64 tensor as int64.
int64_t indexAt(const Tensor &t, int64_t i) {
  return t.dtype() == DType::I32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
}

/// Calls f(E{}) with an unsigned integer type E as wide as one element of
/// `dtype` (elements are moved as raw bits).
template <typename F> void dispatchElementSize(DType dtype, F &&f) {
  switch (dtypeSize(dtype)) {
  case 1:
    return f(uint8_t{});
  case 2:
    return f(uint16_t{});
  case 4:
    return f(uint32_t{});
  default:
    return f(uint64_t{});
  }
}

/// Writes `dims` into output `index` as an int32 or int64 vector (or scalar
/// when `scalar`), per the output's dtype. InvalidArgument if a value does
/// not fit in int32.
template <typename Kernel>
void writeIndexOutput(const Kernel &kernel, OpKernelContextInterface *ctx,
                      absl::Span<const int64_t> values, bool scalar) {
  const DType outType = ctx->expectedOutputDType(0);
  TensorShape shape =
      scalar ? TensorShape() : TensorShape{static_cast<int64_t>(values.size())};
  Tensor *out = nullptr;
  TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
  if (outType == DType::I64) {
    std::memcpy(out->data<int64_t>(), values.data(),
                values.size() * sizeof(int64_t));
    return;
  }
  for (size_t i = 0; i < values.size(); ++i) {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, values[i] <= std::numeric_limits<int32_t>::max(),
        kernel.errorf("Dimension size, %d, is too large to be represented in "
                      "int32 (use out_type int64)",
                      values[i]));
    out->data<int32_t>()[i] = static_cast<int32_t>(values[i]);
  }
}

//===----------------------------------------------------------------------===//
// Shape, Size, Rank
//===----------------------------------------------------------------------===//

/// Shape(input): the dims of `input` as a 1-D out_type (int32 default,
/// int64) tensor. InvalidArgument when a dim does not fit in int32.
/// Checks that output 0 is int32 or int64 (out_type).
void checkIndexOutput(const OpKernel &kernel,
                      OpKernelConstructionInterface *ctx) {
  const DType out = ctx->numOutputs() > 0 ? ctx->outputDType(0) : DType::I32;
  if (out != DType::I32 && out != DType::I64)
    ctx->ctxFailure(kernel.errorf("out_type must be int32 or int64, got %s",
                                  dtypeName(out)));
}

class ShapeKernel final : public OpKernel {
public:
  explicit ShapeKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    checkIndexOutput(*this, ctx);
  }
  void compute(OpKernelContextInterface *ctx) override {
    writeIndexOutput(*this, ctx, ctx->input(0).shape().dims(), false);
  }
};

/// Size(input): the element count of `input` as an out_type scalar.
class SizeKernel final : public OpKernel {
public:
  explicit SizeKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    checkIndexOutput(*this, ctx);
  }
  void compute(OpKernelContextInterface *ctx) override {
    const int64_t n = ctx->input(0).numElements();
    writeIndexOutput(*this, ctx, absl::MakeConstSpan(&n, 1), true);
  }
};

/// Rank(input): the rank of `input` as an int32 scalar.
class RankKernel final : public OpKernel {
public:
  explicit RankKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape(), &out));
    out->data<int32_t>()[0] = ctx->input(0).rank();
  }
};

//===----------------------------------------------------------------------===//
// IdentityN, StopGradient, ExpandDims, Squeeze
//===----------------------------------------------------------------------===//

/// IdentityN(input...): each input as the output of the same index, sharing
/// buffers. StopGradient(input) and PreventGradient(input; message) are
/// Identity in inference, and so is PlaceholderWithDefault(input; dtype,
/// shape) when nothing feeds it (a program's arguments replace the ones
/// that are fed).
class IdentityNKernel final : public OpKernel {
public:
  explicit IdentityNKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numInputs() == ctx->numOutputs(),
        errorf("Input and output counts must match: %d vs. %d",
               ctx->numInputs(), ctx->numOutputs()));
    for (int i = 0; i < ctx->numInputs(); ++i)
      ctx->setOutput(i, ctx->input(i));
  }
};

/// ExpandDims(input, dim): `input` with a size-1 dim inserted at `dim`, a
/// scalar (or 1-element) int32/int64 (Tdim) in [-rank - 1, rank]; negative
/// values count from the end (-1 appends). Shares the input buffer.
class ExpandDimsKernel final : public OpKernel {
public:
  explicit ExpandDimsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &dimT = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dimT.dtype() == DType::I32 || dimT.dtype() == DType::I64,
        errorf("dim must be int32 or int64, got %s", dtypeName(dimT.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dimT.numElements() == 1,
        errorf("'dim' must be a tensor with a single value"));
    int64_t dim = indexAt(dimT, 0);
    const int64_t rank = input.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dim >= -1 - rank && dim <= rank,
        errorf("Tried to expand dim index %d for tensor with %d dimensions.",
               dim, rank));
    if (dim < 0)
      dim += rank + 1;
    TensorShape::Dims dims(input.shape().dims().begin(),
                           input.shape().dims().end());
    dims.insert(dims.begin() + dim, 1);
    ctx->setOutput(0, input.reshaped(TensorShape(dims)));
  }
};

/// Squeeze(input; squeeze_dims): `input` without the size-1 dims listed in
/// squeeze_dims (each in [-rank, rank), negative from the end; duplicates
/// allowed), or without every size-1 dim when the list is empty. Listing a
/// dim that is not 1 is an error. Shares the input buffer.
class SqueezeKernel final : public OpKernel {
public:
  explicit SqueezeKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "squeeze_dims", &squeezeDims_));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const int rank = input.rank();
    std::vector<bool> squeeze(rank, false);
    for (int64_t d : squeezeDims_) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, d >= -rank && d < rank,
          errorf("Tried to squeeze dim index %d for tensor with %d dimensions.",
                 d, rank));
      if (d < 0)
        d += rank;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, input.dim(d) == 1,
          errorf("Can not squeeze dim[%d], expected a dimension of 1, got %d",
                 d, input.dim(d)));
      squeeze[d] = true;
    }
    TensorShape::Dims dims;
    for (int d = 0; d < rank; ++d) {
      const bool drop = squeezeDims_.empty() ? input.dim(d) == 1 : squeeze[d];
      if (!drop)
        dims.push_back(input.dim(d));
    }
    ctx->setOutput(0, input.reshaped(TensorShape(dims)));
  }

private:
  std::vector<int64_t> squeezeDims_;
};

//===----------------------------------------------------------------------===//
// Fill, Range
//===----------------------------------------------------------------------===//

/// Reads a 1-D int32/int64 shape operand into checked dims.
template <typename Kernel>
Status readShapeOperand(const Kernel &kernel, const Tensor &t, const char *what,
                        TensorShape *shape) {
  if (t.rank() != 1)
    return kernel.errorf("%s must be a vector, got shape %s", what,
                         t.shape().toString());
  if (t.dtype() != DType::I32 && t.dtype() != DType::I64)
    return kernel.errorf("%s must be int32 or int64, got %s", what,
                         dtypeName(t.dtype()));
  TensorShape::Dims dims;
  for (int64_t i = 0; i < t.numElements(); ++i)
    dims.push_back(indexAt(t, i));
  StatusOr<TensorShape> s = TensorShape::create(dims);
  if (!s.ok())
    return kernel.errorf("Invalid %s: %s", what, s.status().message());
  *shape = *std::move(s);
  return OkStatus();
}

/// Fill(dims, value): a tensor of shape `dims` (1-D int32/int64,
/// index_type) with every element equal to the scalar `value`.
/// `Strings` is the string form (StringCopy.h), a class of its own.
template <bool Strings = false> class FillKernel final : public OpKernel {
public:
  explicit FillKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &value = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, value.rank() == 0,
                              errorf("value must be a scalar, got shape %s",
                                     value.shape().toString()));
    TensorShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readShapeOperand(*this, ctx->input(0), "dims", &shape));
    if constexpr (Strings) {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkHostAllocation(static_cast<uint64_t>(shape.numElements()),
                                   sizeof(std::string_view)));
      std::vector<std::string_view> views(
          static_cast<size_t>(shape.numElements()),
          stringElements(value).front());
      StatusOr<Tensor> out = makeStringTensor(shape, views);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, out.status());
      ctx->setOutput(0, *std::move(out));
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    dispatchElementSize(value.dtype(), [&](auto e) {
      using E = decltype(e);
      E v;
      std::memcpy(&v, value.rawData(), sizeof(E));
      E *dst = static_cast<E *>(out->rawData());
      kernels::parallelFor(ctx->eigenDevice(), out->numElements(),
                           Eigen::TensorOpCost(0, sizeof(E), 0),
                           [=](Eigen::Index first, Eigen::Index last) {
                             std::fill(dst + first, dst + last, v);
                           });
    });
  }
};

/// Range(start, limit, delta): [start, start + delta, ...) up to `limit`
/// (exclusive), all scalars of Tidx (f32, f64, i32, i64). The size is
/// ceil((limit - start) / delta): for integers (|limit - start| + |delta| -
/// 1) / |delta|, for floats ceil(|(limit - start) / delta|). Values are
/// accumulated (v += delta) like TF. Errors for delta == 0 and for a delta
/// whose sign points away from limit.
class RangeKernel final : public OpKernel {
public:
  explicit RangeKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const DType dtype = ctx->input(0).dtype();
    for (int i = 1; i < 3; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ctx->input(i).dtype() == dtype,
          errorf("start, limit and delta must have one dtype"));
    switch (dtype) {
    case DType::F32:
      return run<float>(ctx);
    case DType::F64:
      return run<double>(ctx);
    case DType::I32:
      return run<int32_t>(ctx);
    case DType::I64:
      return run<int64_t>(ctx);
    default:
      ctx->ctxFailure(errorf("unsupported Tidx %s", dtypeName(dtype)));
    }
  }

private:
  template <typename T> void run(OpKernelContextInterface *ctx) {
    static const char *names[] = {"start", "limit", "delta"};
    for (int i = 0; i < 3; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ctx->input(i).numElements() == 1 && ctx->input(i).rank() <= 1,
          errorf("%s must be a scalar, not shape %s", names[i],
                 ctx->input(i).shape().toString()));
    const T start = ctx->input(0).data<T>()[0];
    const T limit = ctx->input(1).data<T>()[0];
    const T delta = ctx->input(2).data<T>()[0];
    TFRT_FALLBACK_OP_REQUIRES(ctx, delta != 0,
                              errorf("Requires delta != 0: %s", strCat(delta)));
    if (delta > 0)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, start <= limit,
          errorf("Requires start <= limit when delta > 0: %s/%s", strCat(start),
                 strCat(limit)));
    else
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, start >= limit,
          errorf("Requires start >= limit when delta < 0: %s/%s", strCat(start),
                 strCat(limit)));
    double sizeD;
    int64_t size;
    if constexpr (std::is_integral_v<T>) {
      const uint64_t span = limit >= start ? uint64_t(limit) - uint64_t(start)
                                           : uint64_t(start) - uint64_t(limit);
      const uint64_t step =
          delta > 0 ? uint64_t(delta) : uint64_t(0) - uint64_t(delta);
      const uint64_t count = span / step + (span % step != 0 ? 1 : 0);
      sizeD = static_cast<double>(count);
      size = static_cast<int64_t>(count);
    } else {
      // In T, like TF. Converted to int64 only when it fits: NaN (a NaN
      // operand) or a size of 2^63 or more would be undefined behaviour.
      sizeD = static_cast<double>(std::ceil(std::abs((limit - start) / delta)));
      size = 0;
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, sizeD < 0x1p63,
                              errorf("Requires ((limit - start) / delta) <= %d",
                                     std::numeric_limits<int64_t>::max()));
    if constexpr (!std::is_integral_v<T>)
      size = static_cast<int64_t>(sizeD);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{size}, &out));
    T *dst = out->data<T>();
    T v = start;
    for (int64_t i = 0; i < size; ++i) {
      dst[i] = v;
      v += delta;
    }
  }
};

//===----------------------------------------------------------------------===//
// BroadcastTo
//===----------------------------------------------------------------------===//

/// BroadcastTo(input, shape): `input` broadcast NumPy-style to `shape` (1-D
/// int32/int64, Tidx): dims are aligned at the end and each input dim must
/// be 1 or equal the output dim. Returns the input itself when the shapes
/// are equal. Errors (TF's wording): "Rank of input (3) must be no greater
/// than rank of output shape (2).", "Incompatible shapes: [2] vs. [3]",
/// "Unable to broadcast tensor of shape [3] to tensor of shape [1]".
class BroadcastToKernel final : public OpKernel {
public:
  explicit BroadcastToKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    TensorShape shape;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readShapeOperand(*this, ctx->input(1), "shape", &shape));
    const int outRank = shape.rank(), inRank = input.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, inRank <= outRank,
        errorf("Rank of input (%d) must be no greater than rank of output "
               "shape (%d).",
               inRank, outRank));
    // Input strides per output dim, 0 where broadcast.
    std::vector<int64_t> strides(outRank, 0);
    int64_t stride = 1;
    for (int d = outRank - 1, i = inRank - 1; i >= 0; --d, --i) {
      const int64_t in = input.dim(i), out = shape.dim(d);
      TFRT_FALLBACK_OP_REQUIRES(ctx, in == out || in == 1 || out == 1,
                                errorf("Incompatible shapes: %s vs. %s",
                                       input.shape().toString(),
                                       shape.toString()));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, in == out || in == 1,
          errorf("Unable to broadcast tensor of shape %s to tensor of shape "
                 "%s",
                 input.shape().toString(), shape.toString()));
      strides[d] = in == 1 ? 0 : stride;
      stride *= in;
    }
    if (shape == input.shape()) {
      ctx->setOutput(0, input);
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, shape, &out));
    if (shape.numElements() == 0)
      return;
    if (outRank == 0) {
      std::memcpy(out->rawData(), input.rawData(), dtypeSize(input.dtype()));
      return;
    }
    const int64_t inner = shape.dim(outRank - 1);
    const int64_t innerStride = strides[outRank - 1];
    const int64_t rows = shape.numElements() / inner;
    std::vector<int64_t> dims(shape.dims().begin(), shape.dims().end());
    dispatchElementSize(input.dtype(), [&](auto e) {
      using E = decltype(e);
      const E *src = static_cast<const E *>(input.rawData());
      E *dst = static_cast<E *>(out->rawData());
      kernels::parallelFor(
          ctx->eigenDevice(), rows,
          Eigen::TensorOpCost(sizeof(E) * inner, sizeof(E) * inner, 0),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index r = first; r < last; ++r) {
              int64_t offset = 0, rem = r;
              for (int d = outRank - 2; d >= 0; --d) {
                offset += (rem % dims[d]) * strides[d];
                rem /= dims[d];
              }
              E *o = dst + r * inner;
              if (innerStride == 0)
                std::fill(o, o + inner, src[offset]);
              else
                std::memcpy(o, src + offset, inner * sizeof(E));
            }
          });
    });
  }
};

} // namespace

void registerShapeKernels(KernelRegistry &registry) {
  registerKernel<OpId::kReshape, ReshapeKernel>(
      registry, {{"Tshape", {DType::I32, DType::I64}}});
  registerKernel<OpId::kIdentity, IdentityKernel>(registry);
  registerKernel<OpId::kStopGradient, IdentityKernel>(registry);
  registerKernel<OpId::kPreventGradient, IdentityKernel>(registry);
  registerKernel<OpId::kPlaceholderWithDefault, IdentityKernel>(registry);
  registerKernel<OpId::kIdentityN, IdentityNKernel>(registry);
  // TF's function instantiation converts between a list of N tensors of one
  // type and a list of typed tensors with these: IdentityN on the values.
  registerKernel<OpId::k_ArrayToList, IdentityNKernel>(registry);
  registerKernel<OpId::k_ListToArray, IdentityNKernel>(registry);
  // Index attributes with defaults (out_type, Tdim, index_type, Tidx) may
  // be absent from a graph, so they are not constrained; the kernels check
  // operand and output dtypes instead.
  registerKernel<OpId::kShape, ShapeKernel>(registry);
  registerKernel<OpId::kSize, SizeKernel>(registry);
  registerKernel<OpId::kRank, RankKernel>(registry);
  registerKernel<OpId::kExpandDims, ExpandDimsKernel>(registry);
  registerKernel<OpId::kSqueeze, SqueezeKernel>(registry);
  registerKernel<OpId::kFill, FillKernel<>>(registry, {{"T", kAllDTypes}});
  registerStringKernel<OpId::kFill, FillKernel<true>>(registry);
  registerKernel<OpId::kBroadcastTo, BroadcastToKernel>(registry);
  registerKernel<OpId::kRange, RangeKernel>(registry);
}

} // namespace tfrt_fallback::rt

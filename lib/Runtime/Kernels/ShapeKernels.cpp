//===- ShapeKernels.cpp - Reshape and Identity ------------------*- C++ -*-===//
//
// Kernels that only change a tensor's view: their outputs share the input
// buffer (no copy, no allocation), so they work for every buffer dtype.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cstdint>
#include <limits>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// Reshape(tensor, shape): `tensor` viewed with the dims in `shape`, a 1-D
/// int32/int64 tensor (Tshape); a scalar is accepted as a 1-element vector,
/// like TF's legacy behaviour. At most one entry may be -1; it is inferred
/// so that the element counts match. As in TF, zero-sized entries are left
/// out of the product used for that inference, so [0, 3] reshaped to
/// [0, -1] gives [0, 3]. Errors (TF's wording): "sizes input must be 1-D,
/// not [..]", "Only one input size may be -1, not both 0 and 1", "Size 1
/// must be non-negative, not -2", "Input to reshape is a tensor with 7
/// values, but the requested shape requires a multiple of 3", "Input to
/// reshape is a tensor with 6 values, but the requested shape has 4".
/// The output shares the input's buffer.
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
    auto size = [&](int64_t d) -> int64_t {
      return sizes.dtype() == DType::I32 ? sizes.data<int32_t>()[d]
                                         : sizes.data<int64_t>()[d];
    };

    TensorShape::Dims dims;
    int64_t product = 1; // Of the positive entries.
    int64_t unknown = -1;
    bool sizesHaveZero = false;
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t s = size(d);
      if (s == -1) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, unknown == -1,
            errorf("Only one input size may be -1, not both %d and %d", unknown,
                   d));
        unknown = d;
        dims.push_back(1);
      } else {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, s >= 0, errorf("Size %d must be non-negative, not %d", d, s));
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, s == 0 || product <= std::numeric_limits<int64_t>::max() / s,
            errorf("Requested shape has too many elements"));
        dims.push_back(s);
        if (s == 0)
          sizesHaveZero = true;
        else
          product *= s;
      }
    }

    if (unknown != -1) {
      // When the requested shape has a zero dim, zero dims of the input are
      // left out too so the other dims can still be inferred.
      int64_t inputCount = 1;
      bool inputHasZero = false;
      for (int64_t dim : input.shape().dims()) {
        if (dim > 0 || !sizesHaveZero)
          inputCount *= dim;
        else
          inputHasZero = true;
      }
      const int64_t missing = inputCount / product;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, inputHasZero || product * missing == inputCount,
          errorf("Input to reshape is a tensor with %d values, but the "
                 "requested shape requires a multiple of %d",
                 inputCount, product));
      dims[unknown] = missing;
    }

    absl::StatusOr<TensorShape> shape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape.ok(),
        errorf("Invalid requested shape: %s", shape.status().message()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape->numElements() == input.numElements(),
        errorf("Input to reshape is a tensor with %d values, but the "
               "requested shape has %d",
               input.numElements(), shape->numElements()));
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

} // namespace

void registerShapeKernels(KernelRegistry &registry) {
  TFRT_FALLBACK_REGISTER_KERNEL(registry,
                                KernelDefBuilder("Reshape").typeConstraint(
                                    "Tshape", {DType::I32, DType::I64}),
                                ReshapeKernel);
  TFRT_FALLBACK_REGISTER_KERNEL(registry, KernelDefBuilder("Identity"),
                                IdentityKernel);
}

} // namespace tfrt_fallback::rt

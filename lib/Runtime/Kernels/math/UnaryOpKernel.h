//===- UnaryOpKernel.h - The unary elementwise kernel -----------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. The unary elementwise kernel, used by both
// the math (Exp, Neg, ...) and the activation (Relu, Sigmoid, ...) families.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_MATH_UNARYOPKERNEL_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_MATH_UNARYOPKERNEL_H

#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/OpTable.h"

#include <Eigen/Core>
#include <cstdint>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Unary elementwise kernels
//===----------------------------------------------------------------------===//

/// out = F::apply(in) elementwise, where F::apply maps a ConstArrayMap<T> to
/// an Eigen array expression and F::kCost estimates cycles per element. The
/// output forwards input 0 when the executor allows it; the computation is
/// split into contiguous chunks over the Eigen device's threads.
template <typename T, typename F> class UnaryOpKernel final : public OpKernel {
public:
  static constexpr OpShapeRule kShapeRule = OpShapeRule::SameAsInput;

  explicit UnaryOpKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    kernels::parallelFor(
        ctx->eigenDevice(), in.numElements(), elementCost<T>(1, 1, F::kCost),
        [src, dst](Eigen::Index first, Eigen::Index last) {
          ArrayMap<T>(dst + first, last - first) =
              F::apply(ConstArrayMap<T>(src + first, last - first));
        });
  }
};

/// The UnaryOpKernel of functor template F, as a class template over the
/// element type, to register for several dtypes.
template <template <typename> class F> struct UnaryFamily {
  template <typename T> using Kernel = UnaryOpKernel<T, F<T>>;
};

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_MATH_UNARYOPKERNEL_H

//===- KernelUtils.h - Helpers shared by the kernel families ----*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: registration helpers that register one
// kernel class template per dtype, optional attribute readers, Eigen array
// maps over raw row pointers, and the unary elementwise kernel used by both
// the math (Exp, Neg) and the activation (Relu, Sigmoid, ...) families.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_KERNELUTILS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_KERNELUTILS_H

#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <Eigen/Core>

#include <cstdint>
#include <string>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// Registers `KernelClass` under `builder`. A function so that class
/// template arguments (which contain commas) never go through the macro.
template <typename KernelClass>
void registerKernelClass(KernelRegistry &registry,
                         const KernelDefBuilder &builder) {
  TFRT_FALLBACK_REGISTER_KERNEL(registry, builder, KernelClass);
}

/// Registers `Kernel<T>` for each T in Ts with the constraint "T" == T.
template <template <typename> class Kernel, typename... Ts>
void registerForTypes(KernelRegistry &registry, const char *opName) {
  (registerKernelClass<Kernel<Ts>>(
       registry, KernelDefBuilder(opName).typeConstraint<Ts>("T")),
   ...);
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

/// Reads optional attribute `name` into `*value`, keeping the TF default
/// already stored there when the attribute is absent.
template <typename T>
absl::Status getOptionalAttr(OpKernelConstructionInterface *ctx,
                             absl::string_view name, T *value) {
  if (!ctx->hasAttr(name))
    return absl::OkStatus();
  return ctx->getAttr(name, value);
}

//===----------------------------------------------------------------------===//
// Eigen views of raw rows
//===----------------------------------------------------------------------===//

/// Unaligned 1-D array views (see Tensor.h on alignment).
template <typename T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <typename T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

/// Per-element cost for Eigen's parallelFor cost model: `loads` and
/// `stores` elements of T and `cycles` compute cycles.
template <typename T>
Eigen::TensorOpCost elementCost(int loads, int stores, double cycles) {
  return Eigen::TensorOpCost(loads * sizeof(T), stores * sizeof(T), cycles);
}

//===----------------------------------------------------------------------===//
// Unary elementwise kernels
//===----------------------------------------------------------------------===//

/// out = F::apply(in) elementwise, where F::apply maps a ConstArrayMap<T> to
/// an Eigen array expression and F::kCost estimates cycles per element. The
/// output forwards input 0 when the executor allows it; the computation is
/// split into contiguous chunks over the Eigen device's threads.
template <typename T, typename F> class UnaryOpKernel final : public OpKernel {
public:
  explicit UnaryOpKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    ctx->eigenDevice().parallelFor(
        in.numElements(), elementCost<T>(1, 1, F::kCost),
        [src, dst](Eigen::Index first, Eigen::Index last) {
          ArrayMap<T>(dst + first, last - first) =
              F::apply(ConstArrayMap<T>(src + first, last - first));
        });
  }
};

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_KERNELUTILS_H

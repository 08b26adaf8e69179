//===- ComputeInF16.h - f16 kernels in f16 where the CPU has it -*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. The f16 and bf16 forms of the kernels
// whose work is a GEMM or a depthwise sum: where the CPU has the half
// arithmetic (gemm::halfArithmetic(): ARMv8.2 FP16, HWCAP_ASIMDHP), the f16
// form is Kernel<Eigen::half> itself, which multiplies in f16 registers
// (hgemm, the f16 depthwise rows), as XNNPACK's f16 operators and TFLite's
// fp16 delegate paths do: half the memory traffic and twice the products
// per instruction, with f16 rounding in the sums. Elsewhere, and for bf16,
// the form that widens to f32 and rounds once (ComputeInF32.h).
//
//   registerKernel<OpId::kConv2D, InF16OrF32<Conv2D>::Kernel>(
//       registry, HalfFloatTypes{});
//
// The choice is made when the kernel is built, from the one ISA decision
// (gemm::activeIsa(); TFRT_FALLBACK_ISA=neon or =portable computes f16 in
// f32). Other targets than AArch64 have no f16 arithmetic here: there
// InF16OrF32 is InF32, and Kernel<Eigen::half> is not compiled.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_COMPUTEINF16_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_COMPUTEINF16_H

#include "common/ComputeInF32.h"
#include "compute/Gemm.h"

#include <memory>
#include <type_traits>

namespace tfrt_fallback::rt::kernels {

#if defined(__aarch64__)
/// F32Kernel<Eigen::half> for f16 on a CPU with the half arithmetic, else
/// ComputeInF32<F32Kernel, T> (see the file comment).
template <template <typename> class F32Kernel> struct InF16OrF32 {
  template <typename T> class Kernel final : public OpKernel {
  public:
    static constexpr OpShapeRule kShapeRule =
        kKernelShapeRule<F32Kernel<float>>;

    explicit Kernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
      if constexpr (std::is_same_v<T, Eigen::half>)
        if (gemm::halfArithmetic()) {
          kernel_ = std::make_unique<F32Kernel<Eigen::half>>(ctx);
          return;
        }
      kernel_ = std::make_unique<ComputeInF32<F32Kernel, T>>(ctx);
    }

    void compute(OpKernelContextInterface *ctx) override {
      kernel_->compute(ctx);
    }

  private:
    std::unique_ptr<OpKernel> kernel_;
  };
};
#else
template <template <typename> class F32Kernel>
using InF16OrF32 = InF32<F32Kernel>;
#endif

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMPUTE_COMPUTEINF16_H

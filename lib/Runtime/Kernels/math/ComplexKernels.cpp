//===- ComplexKernels.cpp - Complex, Real, Imag, Angle, Conj, ... ---------===//
//
// TensorFlow's complex-number ops (cwise_op_complex.cc, cwise_op_real.cc,
// cwise_op_imag.cc, cwise_op_angle.cc, cwise_op_conj.cc and
// cwise_op_abs.cc's ComplexAbs) on complex64 / complex128 tensors:
//
// - Complex(real: T, imag: T; Tout) -> real + i imag, with TF's (NumPy)
//   broadcasting; (T, Tout) is (float, complex64) or (double, complex128).
// - Real, Imag, Angle (atan2(imag, real)), ComplexAbs (|z|, std::abs, which
//   avoids the overflow of a naive sqrt(re^2 + im^2))(input: T; Tout):
//   complex64 -> float, complex128 -> double.
// - Conj(input: T) -> the complex conjugate (TF also takes variant; not
//   here).
//
// Each (op, dtype) pair is a kernel of its own with its output dtype as a
// second type constraint, as TF registers them.
//
//===----------------------------------------------------------------------===//

#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "math/BinaryOpKernel.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cmath>
#include <complex>
#include <cstdint>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Complex
//===----------------------------------------------------------------------===//

template <typename T> struct ComplexFunctor {
  std::complex<T> operator()(const T &re, const T &im) const {
    return std::complex<T>(re, im);
  }
};

//===----------------------------------------------------------------------===//
// Real, Imag, Angle, ComplexAbs, Conj
//===----------------------------------------------------------------------===//

template <typename C> struct RealPart {
  auto operator()(const C &z) const { return z.real(); }
};
template <typename C> struct ImagPart {
  auto operator()(const C &z) const { return z.imag(); }
};
template <typename C> struct AngleOf {
  auto operator()(const C &z) const { return std::arg(z); }
};
template <typename C> struct AbsOf {
  auto operator()(const C &z) const { return std::abs(z); }
};
template <typename C> struct ConjOf {
  C operator()(const C &z) const { return std::conj(z); }
};

/// out[i] = Fn<C>()(in[i]) for a complex input of C, in chunks over the
/// device. The output may reuse the input's buffer when both have one size
/// (Conj).
template <template <typename> class Fn> struct ComplexUnary {
  template <typename C> class Kernel final : public OpKernel {
    using Out = std::decay_t<decltype(Fn<C>()(std::declval<const C &>()))>;

  public:
    explicit Kernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

    void compute(OpKernelContextInterface *ctx) override {
      const Tensor &input = ctx->input(0);
      Tensor *out = nullptr;
      if constexpr (std::is_same_v<Out, C>)
        TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->forwardInputOrAllocateOutput(
                                              {0}, 0, input.shape(), &out));
      else
        TFRT_FALLBACK_OP_REQUIRES_OK(
            ctx, ctx->allocateOutput(0, input.shape(), &out));
      const C *src = input.data<C>();
      Out *dst = out->data<Out>();
      parallelFor(ctx->eigenDevice(), input.numElements(),
                  Eigen::TensorOpCost(sizeof(C), sizeof(Out), 10),
                  [src, dst](Eigen::Index first, Eigen::Index last) {
                    const Fn<C> fn;
                    for (Eigen::Index i = first; i < last; ++i)
                      dst[i] = fn(src[i]);
                  });
    }
  };
};

/// Registers Kernel<In> for `Op` with type attribute "T" = In and `outAttr`
/// = Out (TF's pairs), unless the kernel selection leaves (Op, In) out.
template <OpId Op, template <typename> class Kernel, typename In, typename Out>
void registerPair(KernelRegistry &registry, std::string_view outAttr) {
  if constexpr (isKernelSelected(Op, dtypeOf<In>()))
    rt::registerKernel<Kernel<In>>(registry,
                                   KernelDefBuilder(kOpRow<Op>)
                                       .typeConstraint<In>("T")
                                       .template typeConstraint<Out>(outAttr));
}

template <OpId Op, template <typename> class Fn>
void registerComplexToReal(KernelRegistry &registry) {
  using C64 = std::complex<float>;
  using C128 = std::complex<double>;
  registerPair<Op, ComplexUnary<Fn>::template Kernel, C64, float>(registry,
                                                                  "Tout");
  registerPair<Op, ComplexUnary<Fn>::template Kernel, C128, double>(registry,
                                                                    "Tout");
}

} // namespace

void registerComplexKernels(KernelRegistry &registry) {
  registerPair<OpId::kComplex, BinaryFamily<ComplexFunctor>::Kernel, float,
               std::complex<float>>(registry, "Tout");
  registerPair<OpId::kComplex, BinaryFamily<ComplexFunctor>::Kernel, double,
               std::complex<double>>(registry, "Tout");
  registerComplexToReal<OpId::kReal, RealPart>(registry);
  registerComplexToReal<OpId::kImag, ImagPart>(registry);
  registerComplexToReal<OpId::kAngle, AngleOf>(registry);
  registerComplexToReal<OpId::kComplexAbs, AbsOf>(registry);
  registerKernel<OpId::kConj, ComplexUnary<ConjOf>::Kernel, std::complex<float>,
                 std::complex<double>>(registry);
}

} // namespace tfrt_fallback::rt

//===- UnaryKernels.cpp - Unary math and activations ------------*- C++ -*-===//
//
// Elementwise unary kernels with TensorFlow's semantics:
//
//   Math (float types: f32, f64, f16, bf16): Log, Log1p, Expm1, Sqrt, Rsqrt
//   (1 / sqrt(x)), Reciprocal and its alias Inv (1 / x), Floor, Ceil, Round
//   (half to even, like TF's Round and NumPy; not C's round()), Sin, Cos,
//   Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh, Atanh (f32, f64), Erf.
//   Floats follow IEEE 754: Log(0) is
//   -inf, Log(-1), Sqrt(-1) are NaN, Reciprocal(0) is inf.
//   Math with integers too: Abs (i8, i16, i32, i64), Square (i32, i64),
//   Sign (i32, i64; -1, 0 or 1, NaN stays NaN for floats), Round (i32,
//   i64: the identity). Integer overflow (Abs(MIN), Square) wraps as two's
//   complement instead of being undefined behaviour.
//   Activations (float types): Elu (x < 0 ? exp(x) - 1 : x), Selu,
//   LeakyRelu (x > 0 ? x : alpha * x; `alpha` attribute, default 0.2, may
//   be > 1 or < 0), Softplus (log(1 + exp(x)) in TF's stable form: x for
//   large x, exp(x) for very negative x).
//   Predicates (float types -> bool): IsNan, IsInf, IsFinite.
//   LogicalNot (bool).
//   ZerosLike, OnesLike (every dtype): a tensor of x's shape and dtype
//   filled with 0 / 1 (false / true for bool).
//
// Every kernel writes its output in contiguous chunks split over the Eigen
// device's threads and forwards its input buffer when the executor allows
// it and the dtypes match.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "math/UnaryOpKernel.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

template <typename T> using Unsigned = std::make_unsigned_t<T>;

/// |x| with MIN mapping to MIN (wrapping) instead of UB.
template <typename T> struct WrappingAbs {
  T operator()(const T &x) const {
    return x < 0 ? static_cast<T>(Unsigned<T>(0) - static_cast<Unsigned<T>>(x))
                 : x;
  }
};

/// x * x with wrapping overflow.
template <typename T> struct WrappingSquare {
  T operator()(const T &x) const {
    // Multiply in at least 32-bit unsigned arithmetic (no int promotion).
    using U = std::conditional_t<(sizeof(T) < 4), uint32_t, Unsigned<T>>;
    return static_cast<T>(static_cast<U>(x) * static_cast<U>(x));
  }
};

/// Forwards input 0 to output 0 when the executor allows it (else allocates
/// the output with the input's shape) and runs body(src, dst, first, last)
/// on contiguous chunks [first, last) of the elements, split over the Eigen
/// device's threads; `cost` is the cost of one element.
template <typename In, typename Out, typename Body>
void computeElementwise(OpKernelContextInterface *ctx,
                        const Eigen::TensorOpCost &cost, Body body) {
  const Tensor &in = ctx->input(0);
  Tensor *out = nullptr;
  TFRT_FALLBACK_OP_REQUIRES_OK(
      ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
  const In *src = in.data<In>();
  Out *dst = out->data<Out>();
  kernels::parallelFor(ctx->eigenDevice(), in.numElements(), cost,
                       [src, dst, body](Eigen::Index first, Eigen::Index last) {
                         body(src, dst, first, last);
                       });
}

//===----------------------------------------------------------------------===//
// Functors for UnaryOpKernel: apply() maps an array to an expression.
//===----------------------------------------------------------------------===//

#define TFRT_FALLBACK_UNARY_FUNCTOR(NAME, COST, EXPR)                          \
  template <typename T> struct NAME {                                          \
    static constexpr double kCost = COST;                                      \
    template <typename X> static auto apply(const X &x) { return EXPR; }       \
  };

TFRT_FALLBACK_UNARY_FUNCTOR(LogFunctor, 20, x.log())
TFRT_FALLBACK_UNARY_FUNCTOR(Log1pFunctor, 25, x.log1p())
TFRT_FALLBACK_UNARY_FUNCTOR(Expm1Functor, 25, x.expm1())
TFRT_FALLBACK_UNARY_FUNCTOR(SqrtFunctor, 5, x.sqrt())
TFRT_FALLBACK_UNARY_FUNCTOR(RsqrtFunctor, 6, x.rsqrt())
TFRT_FALLBACK_UNARY_FUNCTOR(ReciprocalFunctor, 5, x.inverse())
TFRT_FALLBACK_UNARY_FUNCTOR(FloorFunctor, 2, x.floor())
TFRT_FALLBACK_UNARY_FUNCTOR(CeilFunctor, 2, x.ceil())
TFRT_FALLBACK_UNARY_FUNCTOR(SinFunctor, 20, x.sin())
TFRT_FALLBACK_UNARY_FUNCTOR(CosFunctor, 20, x.cos())
TFRT_FALLBACK_UNARY_FUNCTOR(TanFunctor, 30, x.tan())
TFRT_FALLBACK_UNARY_FUNCTOR(AsinFunctor, 30, x.asin())
TFRT_FALLBACK_UNARY_FUNCTOR(AcosFunctor, 30, x.acos())
TFRT_FALLBACK_UNARY_FUNCTOR(AtanFunctor, 30, x.atan())
TFRT_FALLBACK_UNARY_FUNCTOR(SinhFunctor, 30, x.sinh())
TFRT_FALLBACK_UNARY_FUNCTOR(CoshFunctor, 30, x.cosh())
TFRT_FALLBACK_UNARY_FUNCTOR(AsinhFunctor, 40, x.asinh())
TFRT_FALLBACK_UNARY_FUNCTOR(AcoshFunctor, 40, x.acosh())
TFRT_FALLBACK_UNARY_FUNCTOR(AtanhFunctor, 40, x.atanh())
TFRT_FALLBACK_UNARY_FUNCTOR(ErfFunctor, 30, x.erf())
TFRT_FALLBACK_UNARY_FUNCTOR(SignFunctor, 2, x.sign())
#undef TFRT_FALLBACK_UNARY_FUNCTOR

/// Abs: |x|; integers wrap at MIN.
template <typename T> struct AbsFunctor {
  static constexpr double kCost = 1;
  template <typename X> static auto apply(const X &x) {
    if constexpr (std::is_integral_v<T>)
      return x.unaryExpr(WrappingAbs<T>());
    else
      return x.abs();
  }
};

/// Square: x * x; integers wrap.
template <typename T> struct SquareFunctor {
  static constexpr double kCost = 1;
  template <typename X> static auto apply(const X &x) {
    if constexpr (std::is_integral_v<T>)
      return x.unaryExpr(WrappingSquare<T>());
    else
      return x.square();
  }
};

/// Round: half to even (rint in the default rounding mode); integers are
/// unchanged.
template <typename T> struct RoundFunctor {
  static constexpr double kCost = 2;
  template <typename X> static auto apply(const X &x) {
    if constexpr (std::is_integral_v<T>)
      return x;
    else
      return x.rint();
  }
};

//===----------------------------------------------------------------------===//
// Activations with a select: Elu, Selu, Softplus
//===----------------------------------------------------------------------===//

// Eigen 3.4 does not vectorize select(), so `(x < 0).select(x.exp() - 1, x)`
// would run a scalar exp per element. These kernels instead evaluate the
// transcendental part as a vectorized expression into a small stack block,
// then combine it with x in a plain loop; the block also makes it safe for
// the output to alias the input.

/// Elu: x < 0 ? exp(x) - 1 : x (TF computes exp(x) - 1, not expm1).
template <typename T> struct EluFunctor {
  static constexpr double kCost = 25;
  template <typename X> static auto pre(const X &x) { return x.exp() - T(1); }
  static T post(T x, T e) { return x < T(0) ? e : x; }
};

/// Selu: scale * (x < 0 ? alpha * (exp(x) - 1) : x) with TF's constants.
template <typename T> struct SeluFunctor {
  static constexpr double kCost = 25;
  template <typename X> static auto pre(const X &x) {
    return T(1.7580993408473768599402175208123) * (x.exp() - T(1));
  }
  static T post(T x, T e) {
    return x < T(0) ? e : T(1.0507009873554804934193349852946) * x;
  }
};

/// Softplus as TF: with t = log(epsilon) + 2 (negative), x if x > -t,
/// exp(x) if x < t, else log1p(exp(x)).
template <typename T> struct SoftplusFunctor {
  static constexpr double kCost = 45;
  static T threshold() {
    return static_cast<T>(
        std::log(static_cast<double>(Eigen::NumTraits<T>::epsilon())) + 2.0);
  }
  template <typename X> static auto pre(const X &x) { return x.exp().log1p(); }
  static T post(T x, T l, T t) {
    return x > -t ? x : x < t ? static_cast<T>(Eigen::numext::exp(x)) : l;
  }
};

template <typename T, typename F>
class BlockedUnaryKernel final : public OpKernel {
public:
  static constexpr OpShapeRule kShapeRule = OpShapeRule::SameAsInput;

  explicit BlockedUnaryKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    computeElementwise<T, T>(
        ctx, elementCost<T>(1, 1, F::kCost),
        [](const T *src, T *dst, Eigen::Index first, Eigen::Index last) {
          constexpr Eigen::Index kBlock = 512;
          T tmp[kBlock];
          for (Eigen::Index b = first; b < last; b += kBlock) {
            const Eigen::Index n = std::min(kBlock, last - b);
            ArrayMap<T>(tmp, n) = F::pre(ConstArrayMap<T>(src + b, n));
            if constexpr (std::is_same_v<F, SoftplusFunctor<T>>) {
              const T t = F::threshold();
              for (Eigen::Index i = 0; i < n; ++i)
                dst[b + i] = F::post(src[b + i], tmp[i], t);
            } else {
              for (Eigen::Index i = 0; i < n; ++i)
                dst[b + i] = F::post(src[b + i], tmp[i]);
            }
          }
        });
  }
};

template <template <typename> class F> struct BlockedFamily {
  template <typename T> using Kernel = BlockedUnaryKernel<T, F<T>>;
};

//===----------------------------------------------------------------------===//
// LeakyRelu
//===----------------------------------------------------------------------===//

/// LeakyRelu(features; alpha = 0.2): x > 0 ? x : alpha * x (a select, not
/// max(x, alpha * x), so any alpha works; NaN stays NaN).
template <typename T> class LeakyReluKernel final : public OpKernel {
public:
  static constexpr OpShapeRule kShapeRule = OpShapeRule::SameAsInput;

  explicit LeakyReluKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "alpha", &alpha_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const T alpha = static_cast<T>(alpha_);
    computeElementwise<T, T>(
        ctx, elementCost<T>(1, 1, 2),
        [alpha](const T *src, T *dst, Eigen::Index first, Eigen::Index last) {
          ConstArrayMap<T> x(src + first, last - first);
          ArrayMap<T>(dst + first, last - first) =
              (x > T(0)).select(x, x * alpha);
        });
  }

private:
  float alpha_ = 0.2f;
};

//===----------------------------------------------------------------------===//
// Kernels with another output dtype (plain loops)
//===----------------------------------------------------------------------===//

/// out[i] = F()(in[i]) with input type In and output type Out; forwards the
/// input when the dtypes match.
template <typename In, typename Out, typename F>
class MapKernel final : public OpKernel {
public:
  static constexpr OpShapeRule kShapeRule = OpShapeRule::SameAsInput;

  explicit MapKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    computeElementwise<In, Out>(
        ctx, Eigen::TensorOpCost(sizeof(In), sizeof(Out), 1),
        [](const In *src, Out *dst, Eigen::Index first, Eigen::Index last) {
          const F f;
          for (Eigen::Index i = first; i < last; ++i)
            dst[i] = f(src[i]);
        });
  }
};

template <typename T> struct IsNanFunctor {
  bool operator()(T x) const { return Eigen::numext::isnan(x); }
};
template <typename T> struct IsInfFunctor {
  bool operator()(T x) const { return Eigen::numext::isinf(x); }
};
template <typename T> struct IsFiniteFunctor {
  bool operator()(T x) const { return Eigen::numext::isfinite(x); }
};
struct LogicalNotFunctor {
  bool operator()(bool x) const { return !x; }
};

template <template <typename> class F> struct PredicateFamily {
  template <typename T> using Kernel = MapKernel<T, bool, F<T>>;
};

//===----------------------------------------------------------------------===//
// ZerosLike, OnesLike
//===----------------------------------------------------------------------===//

/// ZerosLike(x) / OnesLike(x): x's shape and dtype, every element 0 or 1.
template <bool kOnes> class FillLikeKernel final : public OpKernel {
public:
  static constexpr OpShapeRule kShapeRule = OpShapeRule::SameAsInput;

  explicit FillLikeKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    const int64_t n = out->numElements();
    if (n == 0)
      return;
    if (!kOnes) {
      // Zero is all-zero bytes in every dtype.
      std::memset(out->rawData(), 0, out->totalBytes());
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 dispatchDType(out->dtype(), [&](auto tag) {
                                   using T = typename decltype(tag)::Type;
                                   T *dst = out->data<T>();
                                   std::fill(dst, dst + n, static_cast<T>(1));
                                 }));
  }
};

} // namespace

void registerUnaryKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
  registerKernel<OpId::kAbs, UnaryFamily<AbsFunctor>::Kernel, float, double,
                 half, bf16, int8_t, int16_t, int32_t, int64_t>(registry);
  registerKernel<OpId::kSquare, UnaryFamily<SquareFunctor>::Kernel, float,
                 double, half, bf16, int32_t, int64_t>(registry);
  registerKernel<OpId::kSign, UnaryFamily<SignFunctor>::Kernel, float, double,
                 half, bf16, int32_t, int64_t>(registry);
  registerKernel<OpId::kRound, UnaryFamily<RoundFunctor>::Kernel, float, double,
                 half, bf16, int32_t, int64_t>(registry);
  registerKernel<OpId::kLog, UnaryFamily<LogFunctor>::Kernel>(registry,
                                                              FloatTypes{});
  registerKernel<OpId::kLog1p, UnaryFamily<Log1pFunctor>::Kernel>(registry,
                                                                  FloatTypes{});
  registerKernel<OpId::kExpm1, UnaryFamily<Expm1Functor>::Kernel>(registry,
                                                                  FloatTypes{});
  registerKernel<OpId::kSqrt, UnaryFamily<SqrtFunctor>::Kernel>(registry,
                                                                FloatTypes{});
  registerKernel<OpId::kRsqrt, UnaryFamily<RsqrtFunctor>::Kernel>(registry,
                                                                  FloatTypes{});
  registerKernel<OpId::kReciprocal, UnaryFamily<ReciprocalFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kInv, UnaryFamily<ReciprocalFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kFloor, UnaryFamily<FloorFunctor>::Kernel>(registry,
                                                                  FloatTypes{});
  registerKernel<OpId::kCeil, UnaryFamily<CeilFunctor>::Kernel>(registry,
                                                                FloatTypes{});
  registerKernel<OpId::kSin, UnaryFamily<SinFunctor>::Kernel>(registry,
                                                              FloatTypes{});
  registerKernel<OpId::kCos, UnaryFamily<CosFunctor>::Kernel>(registry,
                                                              FloatTypes{});
  registerKernel<OpId::kTan, UnaryFamily<TanFunctor>::Kernel, float, double>(
      registry);
  registerKernel<OpId::kAsin, UnaryFamily<AsinFunctor>::Kernel, float, double>(
      registry);
  registerKernel<OpId::kAcos, UnaryFamily<AcosFunctor>::Kernel, float, double>(
      registry);
  registerKernel<OpId::kAtan, UnaryFamily<AtanFunctor>::Kernel, float, double>(
      registry);
  registerKernel<OpId::kSinh, UnaryFamily<SinhFunctor>::Kernel, float, double>(
      registry);
  registerKernel<OpId::kCosh, UnaryFamily<CoshFunctor>::Kernel, float, double>(
      registry);
  registerKernel<OpId::kAsinh, UnaryFamily<AsinhFunctor>::Kernel, float,
                 double>(registry);
  registerKernel<OpId::kAcosh, UnaryFamily<AcoshFunctor>::Kernel, float,
                 double>(registry);
  registerKernel<OpId::kAtanh, UnaryFamily<AtanhFunctor>::Kernel, float,
                 double>(registry);
  registerKernel<OpId::kErf, UnaryFamily<ErfFunctor>::Kernel, float, double>(
      registry);
  registerKernel<OpId::kElu, BlockedFamily<EluFunctor>::Kernel>(registry,
                                                                FloatTypes{});
  registerKernel<OpId::kSelu, BlockedFamily<SeluFunctor>::Kernel>(registry,
                                                                  FloatTypes{});
  registerKernel<OpId::kSoftplus, BlockedFamily<SoftplusFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kLeakyRelu, LeakyReluKernel>(registry, FloatTypes{});
  registerKernel<OpId::kIsNan, PredicateFamily<IsNanFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kIsInf, PredicateFamily<IsInfFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kIsFinite, PredicateFamily<IsFiniteFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kLogicalNot, MapKernel<bool, bool, LogicalNotFunctor>>(
      registry);
  registerKernel<OpId::kZerosLike, FillLikeKernel<false>>(registry,
                                                          {{"T", kAllDTypes}});
  registerKernel<OpId::kOnesLike, FillLikeKernel<true>>(registry,
                                                        {{"T", kAllDTypes}});
}

} // namespace tfrt_fallback::rt

//===- ElementwiseKernels.cpp - Broadcasting arithmetic ---------*- C++ -*-===//
//
// Binary arithmetic, comparisons and logical ops with TensorFlow (NumPy)
// broadcasting, Select/SelectV2, AddN, and the unary math ops Exp and Neg.
// The activations (Relu, Sigmoid, ...) live in NNKernels.cpp, the other
// unary ops in UnaryKernels.cpp. This file holds the binary functors; the
// broadcasting kernel that runs them is BinaryOpKernel.h (shared with the
// math family).
//
// Broadcasting (TF's BCast): shapes are right-aligned; a missing leading dim
// counts as 1; in each position the dims must be equal or one of them 1, and
// the output takes the other (so 1 vs. 0 gives 0). Otherwise the kernel
// fails with "Incompatible shapes: [2,3] vs. [4]".
//
// Evaluation: a same-shape or single-element operand is one contiguous
// Eigen array expression, split into chunks across the Eigen device. The
// general case drops output dims of size 1, merges adjacent dims with the
// same broadcast pattern (like BCast's reshape), and runs the innermost
// merged dim as a contiguous row expression (both operands contiguous, or
// one of them a constant), rows in parallel. No temporaries either way.
// Functors with Eigen packet ops run as Eigen array expressions; the others
// (comparisons, FloorDiv, Pow on integers, ...) as plain loops the compiler
// vectorizes, which also keeps this file's compile time down.
//
// Output buffers: the output forwards input 0 or 1 if it has as many
// elements as the output (it is then not broadcast, so each output element
// reads only the input element at the same offset) and the executor allows
// it.
//
//===----------------------------------------------------------------------===//

#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "math/BinaryOpKernel.h"
#include "math/UnaryOpKernel.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Functors
//===----------------------------------------------------------------------===//

/// Integer arithmetic wraps around (two's complement), as TF's kernels do in
/// practice, but computed in unsigned arithmetic so that overflow is not
/// undefined behaviour (found by fuzz/BefLoaderFuzzer.cpp). Types narrower
/// than int compute in unsigned int, so that a product does not overflow
/// int after integer promotion.
template <typename T>
using WrapType =
    std::make_unsigned_t<std::conditional_t<(sizeof(T) < sizeof(int)), int, T>>;
template <typename T> T wrapAdd(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) +
                        static_cast<WrapType<T>>(b));
}
template <typename T> T wrapSub(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) -
                        static_cast<WrapType<T>>(b));
}
template <typename T> T wrapMul(T a, T b) {
  return static_cast<T>(static_cast<WrapType<T>>(a) *
                        static_cast<WrapType<T>>(b));
}
template <typename T> struct IntAddFunctor {
  T operator()(const T &a, const T &b) const { return wrapAdd(a, b); }
};
template <typename T> struct IntSubFunctor {
  T operator()(const T &a, const T &b) const { return wrapSub(a, b); }
};
template <typename T> struct IntMulFunctor {
  T operator()(const T &a, const T &b) const { return wrapMul(a, b); }
};

/// Add, Sub and Mul: Eigen's vectorized functors for floats, wrapping ones
/// for integers.
template <typename T>
using AddFunctor = std::conditional_t<std::is_integral_v<T>, IntAddFunctor<T>,
                                      Eigen::internal::scalar_sum_op<T, T>>;
template <typename T>
using SubFunctor =
    std::conditional_t<std::is_integral_v<T>, IntSubFunctor<T>,
                       Eigen::internal::scalar_difference_op<T, T>>;
template <typename T>
using MulFunctor = std::conditional_t<std::is_integral_v<T>, IntMulFunctor<T>,
                                      Eigen::internal::scalar_product_op<T, T>>;
template <typename T>
using QuotientFunctor = Eigen::internal::scalar_quotient_op<T, T>;
/// TF's Maximum/Minimum propagate NaN: max(NaN, x) == max(x, NaN) == NaN.
template <typename T>
using MaxFunctor = Eigen::internal::scalar_max_op<T, T, Eigen::PropagateNaN>;
template <typename T>
using MinFunctor = Eigen::internal::scalar_min_op<T, T, Eigen::PropagateNaN>;

/// Integer division truncating toward zero (C++ `/`), as TF's Div and
/// TruncateDiv on integers. The kernel rejects zero divisors before
/// evaluating (kRhsError). For signed types MIN / -1 wraps to MIN (two's
/// complement) instead of being undefined behaviour.
template <typename T> T truncDiv(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b == T(-1))
      return static_cast<T>(std::make_unsigned_t<T>(0) -
                            static_cast<std::make_unsigned_t<T>>(a));
  }
  return static_cast<T>(a / b);
}

/// Functors with kRhsError reject the whole op with that message if
/// badRhs(y) holds for any element of the second operand.
struct NonZeroDivisor {
  static constexpr const char *kRhsError = "Integer division by zero";
  template <typename T> static bool badRhs(T b) { return b == T(0); }
};

template <typename T> struct IntDivFunctor : NonZeroDivisor {
  T operator()(const T &a, const T &b) const { return truncDiv(a, b); }
};

/// Div: floating division for floats, truncating division for integers.
template <typename T>
using DivFunctor = std::conditional_t<std::is_integral_v<T>, IntDivFunctor<T>,
                                      QuotientFunctor<T>>;

/// FloorDiv on integers: the quotient rounded toward -inf (Python's `//`),
/// e.g. -7 // 2 == -4, 7 // -2 == -4. MIN // -1 wraps to MIN.
template <typename T> struct IntFloorDivFunctor : NonZeroDivisor {
  T operator()(const T &a, const T &b) const {
    T q = truncDiv(a, b);
    if constexpr (std::is_signed_v<T>) {
      // a - q * b without overflow: b == -1 leaves no remainder.
      if (b != T(-1) && a % b != 0 && ((a < 0) != (b < 0)))
        --q;
    }
    return q;
  }
};

/// FloorDiv on floats: floor(x / y) (TF's google_floor_div_real), so
/// x / 0 gives +-inf or NaN.
template <typename T> struct FloatFloorDivFunctor {
  T operator()(const T &a, const T &b) const {
    return static_cast<T>(Eigen::numext::floor(a / b));
  }
};
template <typename T>
using FloorDivFunctor =
    std::conditional_t<std::is_integral_v<T>, IntFloorDivFunctor<T>,
                       FloatFloorDivFunctor<T>>;

/// FloorMod on integers: x - floor(x / y) * y, which has the sign of y
/// (Python's `%`): -7 % 2 == 1, 7 % -2 == -1. MIN % -1 is 0.
template <typename T> struct IntFloorModFunctor : NonZeroDivisor {
  T operator()(const T &a, const T &b) const {
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1))
        return T(0);
      T r = static_cast<T>(a % b);
      return r != 0 && ((r < 0) != (b < 0)) ? static_cast<T>(r + b) : r;
    } else {
      return static_cast<T>(a % b);
    }
  }
};

/// FloorMod on floats: fmod(x, y), plus y if that is non-zero and its sign
/// differs from y's (TF's google_floor_fmod). x % 0 is NaN.
template <typename T> struct FloatFloorModFunctor {
  T operator()(const T &a, const T &b) const {
    if constexpr (std::is_same_v<T, double>) {
      double r = std::fmod(a, b);
      return r != 0 && ((b < 0) != (r < 0)) ? r + b : r;
    } else {
      // float, half and bfloat16 compute in float, like Eigen's fmod.
      const float x = static_cast<float>(a), y = static_cast<float>(b);
      float r = std::fmod(x, y);
      return static_cast<T>(r != 0 && ((y < 0) != (r < 0)) ? r + y : r);
    }
  }
};
template <typename T>
using FloorModFunctor =
    std::conditional_t<std::is_integral_v<T>, IntFloorModFunctor<T>,
                       FloatFloorModFunctor<T>>;

/// SquaredDifference: (x - y)^2.
template <typename T> struct SquaredDifferenceFunctor {
  T operator()(const T &a, const T &b) const {
    if constexpr (std::is_integral_v<T>) {
      const T d = wrapSub(a, b);
      return wrapMul(d, d);
    } else {
      const T d = static_cast<T>(a - b);
      return static_cast<T>(d * d);
    }
  }
};

/// Pow on integers: exponentiation by squaring with wrapping (unsigned)
/// arithmetic, as TF's Eigen integer pow but without signed-overflow UB.
/// Negative exponents are rejected like TF: "Integers to negative integer
/// powers are not allowed".
template <typename T> struct IntPowFunctor {
  static constexpr const char *kRhsError =
      "Integers to negative integer powers are not allowed";
  static bool badRhs(T b) {
    if constexpr (std::is_signed_v<T>)
      return b < 0;
    else
      return false;
  }
  T operator()(const T &a, const T &b) const {
    using U =
        std::make_unsigned_t<std::conditional_t<sizeof(T) < 4, int32_t, T>>;
    U base = static_cast<U>(a), result = 1;
    for (auto e = static_cast<std::make_unsigned_t<T>>(b); e; e >>= 1) {
      if (e & 1)
        result *= base;
      base *= base;
    }
    return static_cast<T>(result);
  }
};
/// Pow on floats: Eigen's pow (std::pow semantics), as TF.
template <typename T>
using PowFunctor = std::conditional_t<std::is_integral_v<T>, IntPowFunctor<T>,
                                      Eigen::internal::scalar_pow_op<T, T>>;

/// Atan2(y, x): the angle of (x, y) in [-pi, pi], std::atan2 (half and
/// bfloat16 in float).
template <typename T> struct Atan2Functor {
  T operator()(const T &y, const T &x) const {
    if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>)
      return std::atan2(y, x);
    else
      return static_cast<T>(
          std::atan2(static_cast<float>(y), static_cast<float>(x)));
  }
};

/// Comparisons output bool. IEEE semantics: every comparison with NaN is
/// false except NotEqual. Equal and NotEqual carry the scalar result of
/// their `incompatible_shape_error = false` mode.
template <typename T> struct EqualFunctor {
  static constexpr bool kIncompatibleShapeResult = false;
  bool operator()(const T &a, const T &b) const { return a == b; }
};
template <typename T> struct NotEqualFunctor {
  static constexpr bool kIncompatibleShapeResult = true;
  bool operator()(const T &a, const T &b) const { return a != b; }
};
template <typename T> struct LessFunctor {
  bool operator()(const T &a, const T &b) const { return a < b; }
};
template <typename T> struct LessEqualFunctor {
  bool operator()(const T &a, const T &b) const { return a <= b; }
};
template <typename T> struct GreaterFunctor {
  bool operator()(const T &a, const T &b) const { return a > b; }
};
template <typename T> struct GreaterEqualFunctor {
  bool operator()(const T &a, const T &b) const { return a >= b; }
};
template <typename T> struct LogicalAndFunctor {
  bool operator()(const T &a, const T &b) const { return a && b; }
};
template <typename T> struct LogicalOrFunctor {
  bool operator()(const T &a, const T &b) const { return a || b; }
};

//===----------------------------------------------------------------------===//
// Select, SelectV2
//===----------------------------------------------------------------------===//

/// Merged output dims (outer to inner, size-1 dims dropped) and, for each of
/// K operands, its element stride along them (0 where broadcast). Adjacent
/// dims merge when every operand is contiguous (or broadcast) across them,
/// so the innermost stride of each operand is 0 or 1.
template <int K> struct NaryPlan {
  absl::InlinedVector<int64_t, 6> dims;
  absl::InlinedVector<int64_t, 6> strides[K];
};

/// `shapes[k]` must broadcast (right-aligned) to `outDims`.
template <int K>
NaryPlan<K> planBroadcastN(const TensorShape *const (&shapes)[K],
                           absl::Span<const int64_t> outDims) {
  const int rank = static_cast<int>(outDims.size());
  // Row-major element strides of each operand, per output dim.
  absl::InlinedVector<int64_t, 6> fullStrides[K];
  for (int k = 0; k < K; ++k) {
    const TensorShape &s = *shapes[k];
    fullStrides[k].assign(rank, 0);
    int64_t acc = 1;
    for (int i = rank - 1; i >= 0; --i) {
      const int j = i - (rank - s.rank());
      if (j < 0)
        break;
      if (s.dim(j) != 1)
        fullStrides[k][i] = acc;
      acc *= s.dim(j);
    }
  }
  NaryPlan<K> plan;
  for (int i = 0; i < rank; ++i) {
    if (outDims[i] == 1)
      continue;
    bool merge = !plan.dims.empty();
    for (int k = 0; k < K && merge; ++k)
      merge = plan.strides[k].back() == fullStrides[k][i] * outDims[i];
    if (merge) {
      plan.dims.back() *= outDims[i];
      for (int k = 0; k < K; ++k)
        plan.strides[k].back() = fullStrides[k][i];
      continue;
    }
    plan.dims.push_back(outDims[i]);
    for (int k = 0; k < K; ++k)
      plan.strides[k].push_back(fullStrides[k][i]);
  }
  if (plan.dims.empty()) { // A single element.
    plan.dims.push_back(1);
    for (int k = 0; k < K; ++k)
      plan.strides[k].push_back(0);
  }
  return plan;
}

/// out = cond ? t : e with `cond`, `t` and `e` broadcast to `outDims` (their
/// shapes given separately, so Select's batch vector can pose as [n,1,..]).
/// C is an unsigned carrier type of the element size: selection only moves
/// elements.
template <typename C>
void evalSelect(const Eigen::ThreadPoolDevice &device, const Tensor &cond,
                const TensorShape &condShape, const Tensor &t, const Tensor &e,
                absl::Span<const int64_t> outDims, Tensor *out) {
  const TensorShape *shapes[3] = {&condShape, &t.shape(), &e.shape()};
  const NaryPlan<3> plan = planBroadcastN<3>(shapes, outDims);
  const bool *pc = cond.data<bool>();
  const C *pt = static_cast<const C *>(t.rawData());
  const C *pe = static_cast<const C *>(e.rawData());
  C *po = static_cast<C *>(out->rawData());
  const int outer = static_cast<int>(plan.dims.size()) - 1;
  const int64_t rowLen = plan.dims.back();
  const int64_t sc = plan.strides[0].back(), st = plan.strides[1].back(),
                se = plan.strides[2].back();
  const int64_t rows = out->numElements() / rowLen;
  kernels::parallelFor(
      device, rows,
      Eigen::TensorOpCost(sizeof(C) * 2 + 1, sizeof(C), 1) *
          static_cast<double>(rowLen),
      [&, pc, pt, pe, po](Eigen::Index first, Eigen::Index last) {
        for (Eigen::Index row = first; row < last; ++row) {
          int64_t offC = 0, offT = 0, offE = 0, rest = row;
          for (int d = outer - 1; d >= 0; --d) {
            const int64_t idx = rest % plan.dims[d];
            rest /= plan.dims[d];
            offC += idx * plan.strides[0][d];
            offT += idx * plan.strides[1][d];
            offE += idx * plan.strides[2][d];
          }
          const bool *c = pc + offC;
          const C *tr = pt + offT;
          const C *er = pe + offE;
          C *o = po + row * rowLen;
          if (sc && st && se) {
            // Branch-free (conditions are unpredictable) and vectorizable.
            for (int64_t i = 0; i < rowLen; ++i) {
              const C mask = C(0) - static_cast<C>(c[i] != 0);
              o[i] = static_cast<C>((tr[i] & mask) | (er[i] & ~mask));
            }
          } else if (sc == 0) {
            // One condition for the whole row: a copy.
            const C *src = *c ? tr : er;
            const int64_t s = *c ? st : se;
            if (s)
              std::memmove(o, src, rowLen * sizeof(C));
            else
              std::fill(o, o + rowLen, *src);
          } else {
            for (int64_t i = 0; i < rowLen; ++i)
              o[i] = c[i] ? tr[i * st] : er[i * se];
          }
        }
      });
}

/// Select(condition, t, e) (TF v1 rules): t and e must have the same shape,
/// which is the output's. condition is either
///   - a scalar: the output is t or e entirely;
///   - a vector when t is not a vector: t must have rank >= 1 and
///     dim 0 == condition's size; condition selects whole rows (dim 0
///     slices);
///   - otherwise the same shape as t: elementwise.
/// SelectV2(condition, t, e): condition, t and e broadcast together
/// (NumPy rules) to the output shape.
/// Any dtype T; condition is bool.
template <typename C, bool kV2> class SelectKernel final : public OpKernel {
public:
  explicit SelectKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &cond = ctx->input(0);
    const Tensor &t = ctx->input(1);
    const Tensor &e = ctx->input(2);
    TensorShape condShape = cond.shape();
    TensorShape::Dims outDims;
    if constexpr (kV2) {
      TensorShape::Dims te;
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, broadcastShapes(t.shape(), e.shape(), &te),
          errorf("then and else shapes are incompatible: %s vs. %s",
                 t.shape().toString(), e.shape().toString()));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, broadcastShapes(cond.shape(), TensorShape(te), &outDims),
          errorf("condition %s and then/else %s shapes are incompatible",
                 cond.shape().toString(), TensorShape(te).toString()));
    } else {
      const bool scalar = cond.rank() == 0;
      const bool batch = cond.rank() == 1 && t.rank() != 1;
      if (scalar || batch) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t.shape() == e.shape(),
            errorf("'then' and 'else' must have the same size.  but "
                   "received: %s vs. %s",
                   t.shape().toString(), e.shape().toString()));
      }
      if (scalar) {
        // The whole output is one operand: share its buffer.
        ctx->setOutput(0, *cond.data<bool>() ? t : e);
        return;
      }
      if (batch) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t.rank() >= 1,
            errorf("'then' must be at least a vector, but saw shape: %s",
                   t.shape().toString()));
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t.dim(0) == cond.numElements(),
            errorf("Number of batches of 'then' must match size of 'cond', "
                   "but saw: %d vs. %d",
                   t.dim(0), cond.numElements()));
        TensorShape::Dims dims(t.rank(), 1);
        dims[0] = cond.numElements();
        condShape = TensorShape(dims);
      } else {
        for (int i = 1; i < 3; ++i)
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, ctx->input(i).shape() == cond.shape(),
              errorf("Inputs must have the same size and shape.  Input 0: %s "
                     "!= input %d: %s",
                     cond.shape().toString(), i,
                     ctx->input(i).shape().toString()));
      }
      outDims.assign(t.shape().dims().begin(), t.shape().dims().end());
    }
    const TensorShape outShape(outDims);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({1, 2}, 0, outShape, &out));
    if (outShape.numElements() == 0)
      return;
    evalSelect<C>(ctx->eigenDevice(), cond, condShape, t, e, outDims, out);
  }
};

//===----------------------------------------------------------------------===//
// AddN
//===----------------------------------------------------------------------===//

/// AddN(inputs: N * T): the elementwise sum of N >= 1 tensors of the same
/// shape (no broadcasting), summed left to right in T. The output forwards
/// input 0 when allowed.
template <typename T> class AddNKernel final : public OpKernel {
public:
  explicit AddNKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const int n = ctx->numInputs();
    TFRT_FALLBACK_OP_REQUIRES(ctx, n >= 1,
                              errorf("AddN needs at least one input"));
    const Tensor &first = ctx->input(0);
    for (int i = 1; i < n; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ctx->input(i).shape() == first.shape(),
          errorf("Inputs must have the same size and shape.  Input 0: %s != "
                 "input %d: %s",
                 first.shape().toString(), i,
                 ctx->input(i).shape().toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, first.shape(), &out));
    if (first.numElements() == 0)
      return;
    absl::InlinedVector<const T *, 8> srcs;
    for (int i = 0; i < n; ++i)
      srcs.push_back(ctx->input(i).data<T>());
    T *dst = out->data<T>();
    kernels::parallelFor(ctx->eigenDevice(), first.numElements(),
                         elementCost<T>(n, 1, n),
                         [&srcs, dst, n](Eigen::Index begin, Eigen::Index end) {
                           const Eigen::Index len = end - begin;
                           ArrayMap<T> o(dst + begin, len);
                           if (n == 1) {
                             o = ConstArrayMap<T>(srcs[0] + begin, len);
                             return;
                           }
                           o = ConstArrayMap<T>(srcs[0] + begin, len) +
                               ConstArrayMap<T>(srcs[1] + begin, len);
                           for (int i = 2; i < n; ++i)
                             o += ConstArrayMap<T>(srcs[i] + begin, len);
                         });
  }
};

//===----------------------------------------------------------------------===//
// Unary math
//===----------------------------------------------------------------------===//

/// Exp: e^x elementwise (Eigen's vectorized exp, as TF).
template <typename T> struct ExpFunctor {
  static constexpr double kCost = 20;
  template <typename X> static auto apply(const X &x) { return x.exp(); }
};

/// Neg: -x. Integer overflow (-MIN) is not checked, as in TF.
template <typename T> struct NegFunctor {
  static constexpr double kCost = 1;
  template <typename X> static auto apply(const X &x) { return -x; }
};

} // namespace

void registerElementwiseKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
#define TFRT_FALLBACK_NUMBER_TYPES                                             \
  float, double, half, bf16, int32_t, int64_t, int8_t, uint8_t
  registerKernel<OpId::kAddV2, BinaryFamily<AddFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kAdd, BinaryFamily<AddFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kSub, BinaryFamily<SubFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kMul, BinaryFamily<MulFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kRealDiv, BinaryFamily<QuotientFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kDiv, BinaryFamily<DivFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kMaximum, BinaryFamily<MaxFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kMinimum, BinaryFamily<MinFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kFloorDiv, BinaryFamily<FloorDivFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES, int16_t, uint16_t>(registry);
  registerKernel<OpId::kFloorMod, BinaryFamily<FloorModFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES, int16_t, uint16_t>(registry);
  registerKernel<OpId::kSquaredDifference,
                 BinaryFamily<SquaredDifferenceFunctor>::Kernel, float, double,
                 half, bf16, int32_t, int64_t>(registry);
  registerKernel<OpId::kPow, BinaryFamily<PowFunctor>::Kernel, float, double,
                 half, bf16, int32_t, int64_t>(registry);
  registerKernel<OpId::kAtan2, BinaryFamily<Atan2Functor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kEqual, BinaryFamily<EqualFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES, bool>(registry);
  registerKernel<OpId::kNotEqual, BinaryFamily<NotEqualFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES, bool>(registry);
  registerKernel<OpId::kLess, BinaryFamily<LessFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kLessEqual, BinaryFamily<LessEqualFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kGreater, BinaryFamily<GreaterFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
  registerKernel<OpId::kGreaterEqual, BinaryFamily<GreaterEqualFunctor>::Kernel,
                 TFRT_FALLBACK_NUMBER_TYPES>(registry);
#undef TFRT_FALLBACK_NUMBER_TYPES

  registerKernel<OpId::kLogicalAnd, BinaryOpKernel<bool, LogicalAndFunctor>>(
      registry);
  registerKernel<OpId::kLogicalOr, BinaryOpKernel<bool, LogicalOrFunctor>>(
      registry);

  // Select and SelectV2 move elements by size: one class per element size,
  // registered for every dtype of that size.
  const DType size1[] = {DType::U8, DType::I8, DType::Bool};
  const DType size2[] = {DType::F16, DType::BF16, DType::I16, DType::U16};
  const DType size4[] = {DType::F32, DType::I32, DType::U32};
  const DType size8[] = {DType::F64, DType::I64, DType::U64};
  registerKernel<OpId::kSelect, SelectKernel<uint8_t, false>>(registry,
                                                              {{"T", size1}});
  registerKernel<OpId::kSelect, SelectKernel<uint16_t, false>>(registry,
                                                               {{"T", size2}});
  registerKernel<OpId::kSelect, SelectKernel<uint32_t, false>>(registry,
                                                               {{"T", size4}});
  registerKernel<OpId::kSelect, SelectKernel<uint64_t, false>>(registry,
                                                               {{"T", size8}});
  registerKernel<OpId::kSelectV2, SelectKernel<uint8_t, true>>(registry,
                                                               {{"T", size1}});
  registerKernel<OpId::kSelectV2, SelectKernel<uint16_t, true>>(registry,
                                                                {{"T", size2}});
  registerKernel<OpId::kSelectV2, SelectKernel<uint32_t, true>>(registry,
                                                                {{"T", size4}});
  registerKernel<OpId::kSelectV2, SelectKernel<uint64_t, true>>(registry,
                                                                {{"T", size8}});

  registerKernel<OpId::kAddN, AddNKernel, float, double, half, bf16, int32_t,
                 int64_t>(registry);
  registerKernel<OpId::kExp, UnaryFamily<ExpFunctor>::Kernel>(registry,
                                                              FloatTypes{});
  registerKernel<OpId::kNeg, UnaryFamily<NegFunctor>::Kernel, float, double,
                 half, bf16, int32_t, int64_t, int8_t>(registry);
}

} // namespace tfrt_fallback::rt

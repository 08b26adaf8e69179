//===- ElementwiseKernels.cpp - Broadcasting arithmetic ---------*- C++ -*-===//
//
// Binary arithmetic with TensorFlow (NumPy) broadcasting, and the unary math
// ops Exp and Neg. The activations (Relu, Sigmoid, ...) live in
// NNKernels.cpp.
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
//
// Output buffers: the output forwards input 0 or 1 if it has as many
// elements as the output (it is then not broadcast, so each output element
// reads only the input element at the same offset) and the executor allows
// it.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cstdint>
#include <limits>
#include <type_traits>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Functors
//===----------------------------------------------------------------------===//

template <typename T> using AddFunctor = Eigen::internal::scalar_sum_op<T, T>;
template <typename T>
using SubFunctor = Eigen::internal::scalar_difference_op<T, T>;
template <typename T>
using MulFunctor = Eigen::internal::scalar_product_op<T, T>;
template <typename T>
using QuotientFunctor = Eigen::internal::scalar_quotient_op<T, T>;
/// TF's Maximum/Minimum propagate NaN: max(NaN, x) == max(x, NaN) == NaN.
template <typename T>
using MaxFunctor = Eigen::internal::scalar_max_op<T, T, Eigen::PropagateNaN>;
template <typename T>
using MinFunctor = Eigen::internal::scalar_min_op<T, T, Eigen::PropagateNaN>;

/// Integer division truncating toward zero (C++ `/`), as TF's Div and
/// TruncateDiv on integers. The kernel rejects zero divisors before
/// evaluating. For signed types MIN / -1 wraps to MIN (two's complement)
/// instead of being undefined behaviour.
template <typename T> struct IntDivFunctor {
  T operator()(const T &a, const T &b) const {
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1))
        return static_cast<T>(std::make_unsigned_t<T>(0) -
                              static_cast<std::make_unsigned_t<T>>(a));
    }
    return static_cast<T>(a / b);
  }
};

/// Div: floating division for floats, truncating division for integers.
template <typename T>
using DivFunctor = std::conditional_t<std::is_integral_v<T>, IntDivFunctor<T>,
                                      QuotientFunctor<T>>;

template <typename Op> constexpr bool isIntDiv = false;
template <typename T> constexpr bool isIntDiv<IntDivFunctor<T>> = true;

//===----------------------------------------------------------------------===//
// Row evaluation
//===----------------------------------------------------------------------===//

/// out[i] = op(a[i * sa], b[i * sb]) for i in [0, n), where sa, sb are 0 or
/// 1 and not both 0 unless n == 1. `out` may alias a contiguous operand.
template <typename T, typename Op>
void evalRow(T *out, const T *a, int64_t sa, const T *b, int64_t sb,
             int64_t n) {
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  ArrayMap<T> o(out, n);
  if (sa && sb)
    o = ConstArrayMap<T>(a, n).binaryExpr(ConstArrayMap<T>(b, n), Op());
  else if (sb)
    o = Array::Constant(n, *a).binaryExpr(ConstArrayMap<T>(b, n), Op());
  else
    o = ConstArrayMap<T>(a, n).binaryExpr(Array::Constant(n, *b), Op());
}

/// Right-aligned NumPy broadcast of `a` and `b`; false if incompatible.
bool broadcastShapes(const TensorShape &a, const TensorShape &b,
                     TensorShape::Dims *out) {
  const int rank = std::max(a.rank(), b.rank());
  out->assign(rank, 1);
  for (int i = 0; i < rank; ++i) {
    int ia = i - (rank - a.rank()), ib = i - (rank - b.rank());
    int64_t da = ia >= 0 ? a.dim(ia) : 1;
    int64_t db = ib >= 0 ? b.dim(ib) : 1;
    if (da == db || db == 1)
      (*out)[i] = da;
    else if (da == 1)
      (*out)[i] = db;
    else
      return false;
  }
  return true;
}

/// The output of a general broadcast as merged dims (outer to inner) with
/// the element stride of each operand along them (0 where broadcast).
struct BroadcastPlan {
  absl::InlinedVector<int64_t, 6> dims, aStrides, bStrides;
};

/// Requires a non-empty output whose element count exceeds both inputs'
/// or matches exactly one of them (the single-element and same-shape cases
/// are handled before).
BroadcastPlan planBroadcast(const TensorShape &a, const TensorShape &b,
                            absl::Span<const int64_t> outDims) {
  const int rank = static_cast<int>(outDims.size());
  BroadcastPlan plan;
  absl::InlinedVector<bool, 6> aBcast, bBcast;
  for (int i = 0; i < rank; ++i) {
    if (outDims[i] == 1)
      continue;
    int ia = i - (rank - a.rank()), ib = i - (rank - b.rank());
    bool ab = ia < 0 || a.dim(ia) == 1;
    bool bb = ib < 0 || b.dim(ib) == 1;
    if (!plan.dims.empty() && aBcast.back() == ab && bBcast.back() == bb) {
      plan.dims.back() *= outDims[i];
      continue;
    }
    plan.dims.push_back(outDims[i]);
    aBcast.push_back(ab);
    bBcast.push_back(bb);
  }
  const size_t n = plan.dims.size();
  plan.aStrides.resize(n);
  plan.bStrides.resize(n);
  int64_t accA = 1, accB = 1;
  for (size_t i = n; i-- > 0;) {
    plan.aStrides[i] = aBcast[i] ? 0 : accA;
    plan.bStrides[i] = bBcast[i] ? 0 : accB;
    if (!aBcast[i])
      accA *= plan.dims[i];
    if (!bBcast[i])
      accB *= plan.dims[i];
  }
  return plan;
}

/// Evaluates out = op(a, b) with broadcasting; `out` has the broadcast
/// shape `outDims` and at least one element.
template <typename T, typename Op>
void evalBinary(const Eigen::ThreadPoolDevice &device, const Tensor &a,
                const Tensor &b, absl::Span<const int64_t> outDims,
                Tensor *out) {
  const T *pa = a.data<T>();
  const T *pb = b.data<T>();
  T *po = out->data<T>();
  const int64_t n = out->numElements();
  const Eigen::TensorOpCost cost =
      elementCost<T>(2, 1, Eigen::internal::functor_traits<Op>::Cost);

  // Contiguous cases: equal element counts mean equal layouts (only size-1
  // dims differ); a single-element operand is a constant.
  const int64_t sa = a.numElements() == 1 && n != 1 ? 0 : 1;
  const int64_t sb = b.numElements() == 1 && n != 1 ? 0 : 1;
  if ((sa == 0 || a.numElements() == n) && (sb == 0 || b.numElements() == n)) {
    device.parallelFor(n, cost, [=](Eigen::Index first, Eigen::Index last) {
      evalRow<T, Op>(po + first, pa + first * sa, sa, pb + first * sb, sb,
                     last - first);
    });
    return;
  }

  BroadcastPlan plan = planBroadcast(a.shape(), b.shape(), outDims);
  const int outer = static_cast<int>(plan.dims.size()) - 1;
  const int64_t rowLen = plan.dims.back();
  const int64_t rowSa = plan.aStrides.back(), rowSb = plan.bStrides.back();
  device.parallelFor(n / rowLen, cost * static_cast<double>(rowLen),
                     [&, po, pa, pb](Eigen::Index first, Eigen::Index last) {
                       for (Eigen::Index row = first; row < last; ++row) {
                         int64_t offA = 0, offB = 0, rest = row;
                         for (int d = outer - 1; d >= 0; --d) {
                           int64_t idx = rest % plan.dims[d];
                           rest /= plan.dims[d];
                           offA += idx * plan.aStrides[d];
                           offB += idx * plan.bStrides[d];
                         }
                         evalRow<T, Op>(po + row * rowLen, pa + offA, rowSa,
                                        pb + offB, rowSb, rowLen);
                       }
                     });
}

//===----------------------------------------------------------------------===//
// Binary kernel
//===----------------------------------------------------------------------===//

/// AddV2, Add, Sub, Mul, RealDiv, Div, Maximum, Minimum: out = op(x, y)
/// with NumPy broadcasting (see the file header). Floats follow IEEE 754
/// (x / 0 is +-inf or NaN). Integer overflow is not checked, as in TF
/// (the machine arithmetic wraps). Integer Div truncates toward
/// zero (TF's C++ `/`; Python's `//` is FloorDiv, a different op) and fails
/// with "Integer division by zero" if any divisor is 0 and the output is
/// not empty.
template <typename T, template <typename> class OpT>
class BinaryOpKernel final : public OpKernel {
  using Op = OpT<T>;

public:
  explicit BinaryOpKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    TensorShape::Dims outDims;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, broadcastShapes(a.shape(), b.shape(), &outDims),
        errorf("Incompatible shapes: %s vs. %s", a.shape().toString(),
               b.shape().toString()));
    TensorShape outShape(outDims);
    if constexpr (isIntDiv<Op>) {
      if (outShape.numElements() != 0) {
        // Every divisor is used when the output is not empty.
        const T *pb = b.data<T>();
        bool hasZero = false;
        for (int64_t i = 0, e = b.numElements(); i < e; ++i)
          hasZero |= pb[i] == T(0);
        TFRT_FALLBACK_OP_REQUIRES(ctx, !hasZero,
                                  errorf("Integer division by zero"));
      }
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0, 1}, 0, outShape, &out));
    if (outShape.numElements() == 0)
      return;
    evalBinary<T, Op>(ctx->eigenDevice(), a, b, outDims, out);
  }
};

template <template <typename> class OpT> struct BinaryFamily {
  template <typename T> using Kernel = BinaryOpKernel<T, OpT>;
};

/// Registers the binary op `opName` for every dtype in Ts.
template <template <typename> class OpT, typename... Ts>
void registerBinary(KernelRegistry &registry, const char *opName) {
  registerForTypes<BinaryFamily<OpT>::template Kernel, Ts...>(registry, opName);
}

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

template <template <typename> class F> struct UnaryFamily {
  template <typename T> using Kernel = UnaryOpKernel<T, F<T>>;
};

} // namespace

void registerElementwiseKernels(KernelRegistry &registry) {
  using half = Eigen::half;
  using bf16 = Eigen::bfloat16;
#define TFRT_FALLBACK_ALL_TYPES                                                \
  float, double, half, bf16, int32_t, int64_t, int8_t, uint8_t
  registerBinary<AddFunctor, TFRT_FALLBACK_ALL_TYPES>(registry, "AddV2");
  registerBinary<AddFunctor, TFRT_FALLBACK_ALL_TYPES>(registry, "Add");
  registerBinary<SubFunctor, TFRT_FALLBACK_ALL_TYPES>(registry, "Sub");
  registerBinary<MulFunctor, TFRT_FALLBACK_ALL_TYPES>(registry, "Mul");
  registerBinary<QuotientFunctor, float, double, half, bf16>(registry,
                                                             "RealDiv");
  registerBinary<DivFunctor, TFRT_FALLBACK_ALL_TYPES>(registry, "Div");
  registerBinary<MaxFunctor, TFRT_FALLBACK_ALL_TYPES>(registry, "Maximum");
  registerBinary<MinFunctor, TFRT_FALLBACK_ALL_TYPES>(registry, "Minimum");
#undef TFRT_FALLBACK_ALL_TYPES

  registerForTypes<UnaryFamily<ExpFunctor>::Kernel, float, double, half, bf16>(
      registry, "Exp");
  registerForTypes<UnaryFamily<NegFunctor>::Kernel, float, double, half, bf16,
                   int32_t, int64_t, int8_t>(registry, "Neg");
}

} // namespace tfrt_fallback::rt

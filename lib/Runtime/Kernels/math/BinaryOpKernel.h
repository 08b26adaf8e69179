//===- BinaryOpKernel.h - Broadcasting binary kernel ------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the kernel behind every binary elementwise
// op with TensorFlow (NumPy) broadcasting, shared by the elementwise family
// (AddV2, Less, FloorMod, ...) and the math family (Xlogy, DivNoNan,
// BitwiseAnd, LeftShift, ...). An op is a functor `OpT<T>` with
// `Out operator()(const T &, const T &)`; the kernel is
// `BinaryFamily<OpT>::Kernel<T>`.
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
// one of them a constant), rows in parallel. Functors with Eigen packet ops
// (functor_traits<Op>::PacketAccess) run as Eigen array expressions; the
// others as plain loops the compiler vectorizes.
//
// Optional functor members: `kRhsError` with `static bool badRhs(T)` makes
// the kernel fail with that message when any element of the second operand
// is bad (integer division by zero, ...); `kIncompatibleShapeResult` gives
// the op TF's `incompatible_shape_error` attribute (Equal, NotEqual).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_MATH_BINARYOPKERNEL_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_MATH_BINARYOPKERNEL_H

#include "common/Checks.h"
#include "common/ConvertElements.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"

#include "tfrt_fallback/Runtime/Shape/Broadcast.h"

#include "absl/container/inlined_vector.h"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tfrt_fallback::rt::kernels {

template <typename Op, typename = void> struct HasRhsCheck : std::false_type {};
template <typename Op>
struct HasRhsCheck<Op, std::void_t<decltype(Op::kRhsError)>> : std::true_type {
};

template <typename Op, typename = void>
struct HasIncompatibleShapeMode : std::false_type {};
template <typename Op>
struct HasIncompatibleShapeMode<
    Op, std::void_t<decltype(Op::kIncompatibleShapeResult)>> : std::true_type {
};

//===----------------------------------------------------------------------===//
// Row evaluation
//===----------------------------------------------------------------------===//

/// Op on floats when it is one of Eigen's single-operation functors of two
/// halves (scalar_sum_op<half, half>: Add, Sub, Mul, RealDiv, Pow), whose
/// half form computes in float and rounds once, else void. (Functors of
/// several operations would round between them in half.)
template <typename Op> struct FloatForm {
  using type = void;
};
template <template <typename, typename> class F>
struct FloatForm<F<Eigen::half, Eigen::half>> {
  using type = F<float, float>;
};

/// out[i] = op(a[i * sa], b[i * sb]) for i in [0, n), where sa, sb are 0 or
/// 1 and not both 0 unless n == 1. `out` may alias a contiguous operand.
template <typename T, typename Out, typename Op>
void evalRow(Out *out, const T *a, int64_t sa, const T *b, int64_t sb,
             int64_t n) {
#if defined(__aarch64__)
  // Eigen::half arithmetic is one element at a time on AArch64 (the build
  // has no FP16 arithmetic), each op through float and rounded back: the
  // same values come from the float op on chunks widened and narrowed with
  // the vector conversions (convertElements), several times faster.
  using FloatOp = typename FloatForm<Op>::type;
  if constexpr (std::is_same_v<T, Eigen::half> &&
                std::is_same_v<Out, Eigen::half> && !std::is_void_v<FloatOp>) {
    constexpr int64_t kChunk = 256;
    float fa[kChunk], fb[kChunk], fo[kChunk];
    const float ca = sa ? 0.0f : static_cast<float>(*a);
    const float cb = sb ? 0.0f : static_cast<float>(*b);
    for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
      const int64_t m = std::min(kChunk, n - i0);
      if (sa)
        convertElements(a + i0, fa, m);
      if (sb)
        convertElements(b + i0, fb, m);
      evalRow<float, float, FloatOp>(fo, sa ? fa : &ca, sa, sb ? fb : &cb, sb,
                                     m);
      convertElements(fo, out + i0, m);
    }
    return;
  }
#endif
  if constexpr (Eigen::internal::functor_traits<Op>::PacketAccess) {
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    ArrayMap<Out> o(out, n);
    if (sa && sb)
      o = ConstArrayMap<T>(a, n).binaryExpr(ConstArrayMap<T>(b, n), Op());
    else if (sb)
      o = Array::Constant(n, *a).binaryExpr(ConstArrayMap<T>(b, n), Op());
    else
      o = ConstArrayMap<T>(a, n).binaryExpr(Array::Constant(n, *b), Op());
  } else {
    const Op op;
    if (sa && sb) {
      for (int64_t i = 0; i < n; ++i)
        out[i] = op(a[i], b[i]);
    } else if (sb) {
      const T x = *a;
      for (int64_t i = 0; i < n; ++i)
        out[i] = op(x, b[i]);
    } else {
      const T y = *b;
      for (int64_t i = 0; i < n; ++i)
        out[i] = op(a[i], y);
    }
  }
}

/// Right-aligned NumPy broadcast of `a` and `b` (shape::broadcastDims,
/// the rule the compiler's shape inference uses too); false if
/// incompatible.
inline bool broadcastShapes(const TensorShape &a, const TensorShape &b,
                            TensorShape::Dims *out) {
  return shape::broadcastDims(a.dims(), b.dims(), out);
}

/// The output of a general broadcast as merged dims (outer to inner) with
/// the element stride of each operand along them (0 where broadcast).
struct BroadcastPlan {
  absl::InlinedVector<int64_t, 6> dims, aStrides, bStrides;
};

/// Requires a non-empty output whose element count exceeds both inputs'
/// or matches exactly one of them (the single-element and same-shape cases
/// are handled before).
inline BroadcastPlan planBroadcast(const TensorShape &a, const TensorShape &b,
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
template <typename T, typename Out, typename Op>
void evalBinary(const Eigen::ThreadPoolDevice &device, const Tensor &a,
                const Tensor &b, absl::Span<const int64_t> outDims,
                Tensor *out) {
  const T *pa = a.data<T>();
  const T *pb = b.data<T>();
  Out *po = out->data<Out>();
  const int64_t n = out->numElements();
  const Eigen::TensorOpCost cost =
      elementCost<T>(2, 1, Eigen::internal::functor_traits<Op>::Cost);

  // Contiguous cases: equal element counts mean equal layouts (only size-1
  // dims differ); a single-element operand is a constant.
  const int64_t sa = a.numElements() == 1 && n != 1 ? 0 : 1;
  const int64_t sb = b.numElements() == 1 && n != 1 ? 0 : 1;
  if ((sa == 0 || a.numElements() == n) && (sb == 0 || b.numElements() == n)) {
    kernels::parallelFor(
        device, n, cost, [=](Eigen::Index first, Eigen::Index last) {
          evalRow<T, Out, Op>(po + first, pa + first * sa, sa, pb + first * sb,
                              sb, last - first);
        });
    return;
  }

  BroadcastPlan plan = planBroadcast(a.shape(), b.shape(), outDims);
  const int outer = static_cast<int>(plan.dims.size()) - 1;
  const int64_t rowLen = plan.dims.back();
  const int64_t rowSa = plan.aStrides.back(), rowSb = plan.bStrides.back();
  kernels::parallelFor(device, n / rowLen, cost * static_cast<double>(rowLen),
                       [&, po, pa, pb](Eigen::Index first, Eigen::Index last) {
                         for (Eigen::Index row = first; row < last; ++row) {
                           int64_t offA = 0, offB = 0, rest = row;
                           for (int d = outer - 1; d >= 0; --d) {
                             int64_t idx = rest % plan.dims[d];
                             rest /= plan.dims[d];
                             offA += idx * plan.aStrides[d];
                             offB += idx * plan.bStrides[d];
                           }
                           evalRow<T, Out, Op>(po + row * rowLen, pa + offA,
                                               rowSa, pb + offB, rowSb, rowLen);
                         }
                       });
}

//===----------------------------------------------------------------------===//
// Binary kernel
//===----------------------------------------------------------------------===//

/// Binary ops: out = op(x, y) with NumPy broadcasting (see the file header).
///   AddV2, Add, Sub, Mul, RealDiv, Div, Maximum, Minimum, SquaredDifference
///   ((x - y)^2), FloorDiv, FloorMod, Pow, Atan2: output of type T. Floats
///   follow IEEE 754 (x / 0 is +-inf or NaN). Integer overflow is not
///   checked, as in TF (the machine arithmetic wraps). Integer Div
///   truncates toward zero (TF's C++ `/`), FloorDiv rounds toward -inf
///   and FloorMod takes the sign of the divisor (Python's `//` and `%`);
///   all three fail with "Integer division by zero" if any divisor is 0 and
///   the output is not empty. Integer Pow fails with "Integers to negative
///   integer powers are not allowed" for any negative exponent.
///   Equal, NotEqual, Less, LessEqual, Greater, GreaterEqual: output bool.
///   Equal/NotEqual have `incompatible_shape_error` (default true); when
///   false, incompatible shapes give a scalar false (Equal) / true
///   (NotEqual) instead of an error.
///   LogicalAnd, LogicalOr: bool inputs and output, no "T" attribute.
template <typename T, template <typename> class OpT>
class BinaryOpKernel final : public OpKernel {
  using Op = OpT<T>;
  using Out = std::decay_t<decltype(Op()(std::declval<const T &>(),
                                         std::declval<const T &>()))>;

public:
  static constexpr OpShapeRule kShapeRule = OpShapeRule::Broadcast;

  explicit BinaryOpKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    if constexpr (HasIncompatibleShapeMode<Op>::value)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "incompatible_shape_error",
                               &incompatibleShapeError_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    // Equal shapes or a scalar operand, and a few elements (the shape and
    // index arithmetic of real graphs, whose cost is dispatch): the output
    // has the other operand's shape and one plain loop computes it.
    const TensorShape &as = a.shape(), &bs = b.shape();
    if (as.numElements() <= kFewElements && bs.numElements() <= kFewElements &&
        (bs.rank() == 0 || as.rank() == 0 || as == bs)) {
      computeFew(ctx, as.rank() == 0 ? bs : as);
      return;
    }
    computeGeneral(ctx, a, b);
  }

private:
  static constexpr int64_t kFewElements = 8;

  /// Broadcasting, many elements, the error cases: out of line, so that
  /// computeFew's callers need no frame for this path's temporaries.
  [[gnu::noinline]] void computeGeneral(OpKernelContextInterface *ctx,
                                        const Tensor &a, const Tensor &b) {
    TensorShape::Dims outDims;
    if (!broadcastShapes(a.shape(), b.shape(), &outDims)) {
      if constexpr (HasIncompatibleShapeMode<Op>::value) {
        if (!incompatibleShapeError_) {
          Tensor *out = nullptr;
          TFRT_FALLBACK_OP_REQUIRES_OK(
              ctx, ctx->allocateOutput(0, TensorShape(), &out));
          *out->data<bool>() = Op::kIncompatibleShapeResult;
          return;
        }
      }
      ctx->ctxFailure(errorf("Incompatible shapes: %s vs. %s",
                             a.shape().toString(), b.shape().toString()));
      return;
    }
    TensorShape outShape(outDims);
    if constexpr (HasRhsCheck<Op>::value) {
      if (outShape.numElements() != 0) {
        // Every element of y is used when the output is not empty.
        const T *pb = b.data<T>();
        bool bad = false;
        for (int64_t i = 0, e = b.numElements(); i < e; ++i)
          bad |= Op::badRhs(pb[i]);
        TFRT_FALLBACK_OP_REQUIRES(ctx, !bad, errorf("%s", Op::kRhsError));
      }
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0, 1}, 0, outShape, &out));
    if (outShape.numElements() == 0)
      return;
    evalBinary<T, Out, Op>(ctx->eigenDevice(), a, b, outDims, out);
  }

  /// out = op(a, b) where `outShape` is a's or b's shape and the other is
  /// that shape too or a scalar.
  void computeFew(OpKernelContextInterface *ctx, const TensorShape &outShape) {
    if constexpr (HasRhsCheck<Op>::value) {
      const Tensor &b = ctx->input(1);
      const int64_t n = outShape.numElements();
      const T *pb = b.data<T>();
      const int64_t sb = b.numElements() == n ? 1 : 0;
      bool bad = false;
      for (int64_t i = 0; i < n; ++i)
        bad |= Op::badRhs(pb[i * sb]);
      TFRT_FALLBACK_OP_REQUIRES(ctx, !bad, errorf("%s", Op::kRhsError));
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0, 1}, 0, outShape, &out));
    // Everything else is read after the call, so that only `ctx` and `out`
    // live across it (the output has `outShape`; it may be input 0 itself).
    const Tensor &a = ctx->input(0), &b = ctx->input(1);
    const int64_t n = out->numElements();
    const T *pa = a.data<T>();
    const T *pb = b.data<T>();
    const int64_t sa = a.numElements() == n ? 1 : 0;
    const int64_t sb = b.numElements() == n ? 1 : 0;
    Out *po = out->data<Out>();
    const Op op;
    // Scalars (shape arithmetic) without the loop's set-up.
    if (n == 1) {
      *po = op(*pa, *pb);
      return;
    }
    evalFew(po, pa, sa, pb, sb, n);
  }

  /// computeFew's loop, out of line so that a scalar's call keeps nothing
  /// in callee-saved registers. `po` may be a forwarded operand: element i
  /// is read before it is written.
  [[gnu::noinline]] static void evalFew(Out *po, const T *pa, int64_t sa,
                                        const T *pb, int64_t sb, int64_t n) {
    const Op op;
    for (int64_t i = 0; i < n; ++i)
      po[i] = op(pa[i * sa], pb[i * sb]);
  }

  bool incompatibleShapeError_ = true;
};

template <template <typename> class OpT> struct BinaryFamily {
  template <typename T> using Kernel = BinaryOpKernel<T, OpT>;
};

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_MATH_BINARYOPKERNEL_H

//===- MathKernels.cpp - Scans, safe math, bit ops, bucketing ---*- C++ -*-===//
//
// TensorFlow math ops with TF's CPU semantics and dtype sets:
//   - scans along an axis: Cumsum, Cumprod, CumulativeLogsumexp;
//   - Erfc, and the broadcasting binary ops Xlogy, Xlog1py, DivNoNan and
//     MulNoNan (through the elementwise family's BinaryOpKernel.h);
//   - bit manipulation: BitwiseAnd, BitwiseOr, BitwiseXor, LeftShift,
//     RightShift (broadcasting), Invert, PopulationCount;
//   - Bucketize, LinSpace, ApproximateEqual;
//   - segment reductions: SegmentSum/Mean/Max/Min/Prod and
//     UnsortedSegmentSum/Max/Min/Prod.
// Each kernel states the TF rules it implements at the top of its class;
// error messages are TF's.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"
#include "math/BinaryOpKernel.h"
#include "math/UnaryOpKernel.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <bitset>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

using half = Eigen::half;
using bf16 = Eigen::bfloat16;

template <typename T>
constexpr bool kIs16BitFloat =
    std::is_same_v<T, half> || std::is_same_v<T, bf16>;

/// a + b and a * b in T; integers wrap (two's complement) instead of
/// overflowing, which C++ leaves undefined for signed (and promoted) types.
template <typename T> T addWrap(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                 std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return static_cast<T>(a + b);
  }
}
template <typename T> T mulWrap(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                 std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
  } else {
    return static_cast<T>(a * b);
  }
}

//===----------------------------------------------------------------------===//
// Scans: Cumsum, Cumprod, CumulativeLogsumexp
//===----------------------------------------------------------------------===//

/// Sum, product and log-sum-exp as TF's scan reducers: `identity()` is the
/// reducer's initial value, `combine(acc, x)` one step.
template <typename A> struct SumScan {
  static A identity() { return A(0); }
  static A combine(A acc, A x) { return addWrap(acc, x); }
};
template <typename A> struct ProdScan {
  static A identity() { return A(1); }
  static A combine(A acc, A x) { return mulWrap(acc, x); }
};
/// TF's LogSumExpReducer: starts at -inf; one step is
/// log1p(exp(min - max)) + max, or max when max is below the lowest finite
/// value (both -inf).
template <typename A> struct LogSumExpScan {
  static A identity() { return -std::numeric_limits<A>::infinity(); }
  static A combine(A acc, A x) {
    const A mi = std::min(acc, x), ma = std::max(acc, x);
    if (ma < std::numeric_limits<A>::lowest())
      return ma;
    return std::log1p(std::exp(mi - ma)) + ma;
  }
};

/// Cumsum / Cumprod / CumulativeLogsumexp(x: T, axis: Tidx), attributes
/// exclusive and reverse (default false). axis is a scalar (else "ScanOp:
/// axis must be a scalar, not [2]") in [-rank, rank), negative counting from
/// the end (else "ScanOp: Expected scan axis in the range [-2, 2), but got
/// 5", naming the axis after adding rank to a negative one; a scalar x has
/// no valid axis). Along the axis, output[i] is the reduction of x[0..i]
/// (exclusive: x[0..i), so output[0] is the identity: 0, 1 or -inf);
/// reverse runs from the end instead. The accumulator starts at the
/// identity, as TF's Eigen scan (so Cumsum([-0.0]) is +0.0), in T; f16 and
/// bf16 accumulate in f32 and round each output (TF's CPU kernel does the
/// same). Integer overflow wraps.
template <typename T, template <typename> class Scan>
class ScanKernel final : public OpKernel {
  using Acc = std::conditional_t<kIs16BitFloat<T>, float, T>;
  using S = Scan<Acc>;

public:
  explicit ScanKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "exclusive", &exclusive_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "reverse", &reverse_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &axisTensor = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, axisTensor.rank() == 0,
                              errorf("ScanOp: axis must be a scalar, not %s",
                                     axisTensor.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(axisTensor),
                              errorf("axis must be int32 or int64, not %s",
                                     dtypeName(axisTensor.dtype())));
    const int64_t rank = in.rank();
    int64_t axis = indexAt(axisTensor, 0);
    if (axis < 0)
      axis += rank;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axis >= 0 && axis < rank,
        errorf("ScanOp: Expected scan axis in the range [%d, %d), but got %d",
               -rank, rank, axis));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    if (in.numElements() == 0)
      return;
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= in.dim(d);
    for (int64_t d = axis + 1; d < rank; ++d)
      inner *= in.dim(d);
    const int64_t n = in.dim(axis);
    const T *src = in.data<T>();
    T *dst = out->data<T>();
    const bool exclusive = exclusive_, reverse = reverse_;
    // Work items are column blocks of the [outer, n, inner] view: each scans
    // kBlock (or fewer) adjacent columns of one slab along the axis, with a
    // row of accumulators, so both a long outer and a wide inner split.
    constexpr int64_t kBlock = 512;
    const int64_t blocksPerSlab = (inner + kBlock - 1) / kBlock;
    kernels::parallelFor(
        ctx->eigenDevice(), outer * blocksPerSlab,
        elementCost<T>(1, 1, 2) * double(n * std::min(inner, kBlock)),
        [=](Eigen::Index first, Eigen::Index last) {
          Acc acc[kBlock];
          for (Eigen::Index item = first; item < last; ++item) {
            const int64_t o = item / blocksPerSlab;
            const int64_t col = item % blocksPerSlab * kBlock;
            const int64_t width = std::min(kBlock, inner - col);
            std::fill(acc, acc + width, S::identity());
            for (int64_t step = 0; step < n; ++step) {
              const int64_t k = reverse ? n - 1 - step : step;
              const T *x = src + (o * n + k) * inner + col;
              T *y = dst + (o * n + k) * inner + col;
              if (exclusive) {
                for (int64_t i = 0; i < width; ++i) {
                  y[i] = static_cast<T>(acc[i]);
                  acc[i] = S::combine(acc[i], static_cast<Acc>(x[i]));
                }
              } else {
                for (int64_t i = 0; i < width; ++i) {
                  acc[i] = S::combine(acc[i], static_cast<Acc>(x[i]));
                  y[i] = static_cast<T>(acc[i]);
                }
              }
            }
          }
        });
  }

private:
  bool exclusive_ = false;
  bool reverse_ = false;
};

template <template <typename> class Scan> struct ScanFamily {
  template <typename T> using Kernel = ScanKernel<T, Scan>;
};

//===----------------------------------------------------------------------===//
// Unary: Erfc, Invert, PopulationCount
//===----------------------------------------------------------------------===//

/// Erfc: 1 - erf(x) without cancellation (Eigen's erfc, as TF; f16 in
/// f32).
template <typename T> struct ErfcFunctor {
  static constexpr double kCost = 30;
  template <typename X> static auto apply(const X &x) { return x.erfc(); }
};

/// Invert: ~x, the bitwise complement.
template <typename T> struct InvertFunctor {
  static constexpr double kCost = 1;
  template <typename X> static auto apply(const X &x) {
    return x.unaryExpr([](T v) { return static_cast<T>(~v); });
  }
};

/// PopulationCount(x: T) -> uint8: the number of bits set in each element's
/// two's complement representation (PopulationCount(int8 -1) = 8).
template <typename T> class PopulationCountKernel final : public OpKernel {
public:
  explicit PopulationCountKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    const T *src = in.data<T>();
    uint8_t *dst = out->data<uint8_t>();
    kernels::parallelFor(
        ctx->eigenDevice(), in.numElements(), elementCost<T>(1, 1, 2),
        [src, dst](Eigen::Index first, Eigen::Index last) {
          using U = std::make_unsigned_t<T>;
          for (Eigen::Index i = first; i < last; ++i)
            dst[i] = static_cast<uint8_t>(
                std::bitset<sizeof(T) * CHAR_BIT>(static_cast<U>(src[i]))
                    .count());
        });
  }
};

//===----------------------------------------------------------------------===//
// Binary functors (broadcasting through BinaryOpKernel)
//===----------------------------------------------------------------------===//

/// Xlogy(x, y): 0 if x == 0 (even for y = 0 or NaN), else x * log(y).
template <typename T> struct XlogyFunctor {
  T operator()(const T &x, const T &y) const {
    if (x == T(0))
      return T(0);
    return static_cast<T>(x * Eigen::numext::log(y));
  }
};

/// Xlog1py(x, y): 0 if x == 0, else x * log1p(y).
template <typename T> struct Xlog1pyFunctor {
  T operator()(const T &x, const T &y) const {
    if (x == T(0))
      return T(0);
    return static_cast<T>(x * Eigen::numext::log1p(y));
  }
};

/// DivNoNan(x, y): 0 if y == 0 (even for x = 0, inf or NaN), else x / y.
template <typename T> struct DivNoNanFunctor {
  T operator()(const T &x, const T &y) const {
    return y == T(0) ? T(0) : static_cast<T>(x / y);
  }
};

/// MulNoNan(x, y): 0 if y == 0 (even for x = inf or NaN), else x * y.
template <typename T> struct MulNoNanFunctor {
  T operator()(const T &x, const T &y) const {
    return y == T(0) ? T(0) : static_cast<T>(x * y);
  }
};

template <typename T> struct BitwiseAndFunctor {
  T operator()(const T &a, const T &b) const { return a & b; }
};
template <typename T> struct BitwiseOrFunctor {
  T operator()(const T &a, const T &b) const { return a | b; }
};
template <typename T> struct BitwiseXorFunctor {
  T operator()(const T &a, const T &b) const { return a ^ b; }
};

/// The shift amount clamped to [0, bits - 1], as TF (no undefined shifts).
template <typename T> T clampShift(T b) {
  constexpr T kMax = static_cast<T>(sizeof(T) * CHAR_BIT - 1);
  if constexpr (std::is_signed_v<T>) {
    if (b < 0)
      return 0;
  }
  return b > kMax ? kMax : b;
}

/// LeftShift(x, y): x << clamp(y, 0, bits - 1), shifted as unsigned (bits
/// shifted out are lost, the sign bit may change).
template <typename T> struct LeftShiftFunctor {
  T operator()(const T &a, const T &b) const {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(
        static_cast<U>(static_cast<U>(a) << static_cast<U>(clampShift(b))));
  }
};

/// RightShift(x, y): x >> clamp(y, 0, bits - 1), arithmetic for signed x.
template <typename T> struct RightShiftFunctor {
  T operator()(const T &a, const T &b) const {
    return static_cast<T>(a >> clampShift(b));
  }
};

//===----------------------------------------------------------------------===//
// Bucketize, LinSpace, ApproximateEqual
//===----------------------------------------------------------------------===//

/// Bucketize(input: T) -> int32, attribute boundaries (list of floats,
/// sorted, else "Expected sorted boundaries" at construction): each output
/// is the index of the first boundary greater than the input
/// (std::upper_bound with T compared to float by the usual conversions), so
/// an input equal to a boundary falls in the bucket above it.
template <typename T> class BucketizeKernel final : public OpKernel {
public:
  explicit BucketizeKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("boundaries", &boundaries_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, std::is_sorted(boundaries_.begin(), boundaries_.end()),
        errorf("Expected sorted boundaries"));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, in.shape(), &out));
    const T *src = in.data<T>();
    int32_t *dst = out->data<int32_t>();
    const std::vector<float> &b = boundaries_;
    kernels::parallelFor(
        ctx->eigenDevice(), in.numElements(),
        elementCost<T>(1, 1, std::log2(double(b.size()) + 2) * 2),
        [src, dst, &b](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index i = first; i < last; ++i)
            dst[i] = static_cast<int32_t>(
                std::upper_bound(b.begin(), b.end(), src[i]) - b.begin());
        });
  }

private:
  std::vector<float> boundaries_;
};

/// LinSpace(start: T, stop: T, num: Tidx) -> T[num]: start, start + step,
/// ..., with step = (stop - start) / (num - 1) and the last value exactly
/// stop (TF computes start + step * i, not a running sum). start, stop and
/// num must be scalars ("start must be a scalar, not shape [2]") and num > 0
/// ("Requires num > 0: 0").
template <typename T> class LinSpaceKernel final : public OpKernel {
public:
  explicit LinSpaceKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    static const char *const kNames[] = {"start", "stop", "num"};
    for (int i = 0; i < 3; ++i)
      TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->input(i).rank() == 0,
                                errorf("%s must be a scalar, not shape %s",
                                       kNames[i],
                                       ctx->input(i).shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(ctx->input(2)),
                              errorf("num must be int32 or int64, not %s",
                                     dtypeName(ctx->input(2).dtype())));
    const T start = *ctx->input(0).data<T>();
    const T stop = *ctx->input(1).data<T>();
    const int64_t num = indexAt(ctx->input(2), 0);
    TFRT_FALLBACK_OP_REQUIRES(ctx, num > 0,
                              errorf("Requires num > 0: %d", num));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape({num}), &out));
    T *dst = out->data<T>();
    dst[0] = start;
    if (num > 1) {
      const T step = (stop - start) / static_cast<T>(num - 1);
      for (int64_t i = 1; i < num - 1; ++i)
        dst[i] = start + step * static_cast<T>(i);
      dst[num - 1] = stop;
    }
  }
};

/// ApproximateEqual(x: T, y: T) -> bool, attribute tolerance (float,
/// default 1e-5, converted to T): |x - y| < tolerance with x - y computed in
/// T (integers wrap; an integer tolerance below 1 is 0, so nothing is
/// equal). No broadcasting: x and y must have the same shape ("x and y must
/// be of the same shape. x shape: [2]. y shape: [3]").
template <typename T> class ApproximateEqualKernel final : public OpKernel {
public:
  explicit ApproximateEqualKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    float tolerance = 1e-5f;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "tolerance", &tolerance));
    if constexpr (std::is_integral_v<T>) {
      // T(tolerance) as TF, but defined outside T's range: saturate (NaN
      // gives 0, so nothing is equal).
      const double t = tolerance;
      if (!(t > 0))
        tolerance_ = T(0);
      else if (t >= static_cast<double>(std::numeric_limits<T>::max()))
        tolerance_ = std::numeric_limits<T>::max();
      else
        tolerance_ = static_cast<T>(t);
    } else {
      tolerance_ = static_cast<T>(tolerance);
    }
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    const Tensor &y = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, x.shape() == y.shape(),
        errorf("x and y must be of the same shape. x shape: %s. y shape: %s",
               x.shape().toString(), y.shape().toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &out));
    const T *px = x.data<T>();
    const T *py = y.data<T>();
    bool *dst = out->data<bool>();
    const T tol = tolerance_;
    kernels::parallelFor(ctx->eigenDevice(), x.numElements(),
                         elementCost<T>(2, 1, 3),
                         [=](Eigen::Index first, Eigen::Index last) {
                           for (Eigen::Index i = first; i < last; ++i)
                             dst[i] = absDiff(px[i], py[i]) < tol;
                         });
  }

private:
  /// |x - y| in T, as Eigen's (x - y).abs(): unsigned differences wrap and
  /// are their own absolute value, signed ones wrap through unsigned.
  static T absDiff(T a, T b) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      const T d = static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
      if constexpr (std::is_signed_v<T>)
        return d < 0 ? static_cast<T>(U(0) - static_cast<U>(d)) : d;
      else
        return d;
    } else {
      return static_cast<T>(Eigen::numext::abs(a - b));
    }
  }

  T tolerance_;
};

//===----------------------------------------------------------------------===//
// Segment reductions
//===----------------------------------------------------------------------===//

/// The reducers of the segment ops, as TF's Eigen reducers and unsorted
/// reduction functors: `init()` starts a sorted segment of two or more rows,
/// `step(acc, x)` adds a row's element, `finish(acc, count)` ends it;
/// `kEmpty` fills a sorted segment without rows; `unsortedInit()` fills an
/// unsorted segment before any row and `unsortedStep(out, x)` adds a row to
/// it. Max and Min compare as std::max / std::min (a NaN operand is not
/// sticky), in the operand order TF's Eigen code uses.
template <typename T> T lowestOf() {
  if constexpr (std::is_integral_v<T>)
    return std::numeric_limits<T>::lowest();
  else
    return -Eigen::NumTraits<T>::infinity();
}
template <typename T> T highestOf() {
  if constexpr (std::is_integral_v<T>)
    return std::numeric_limits<T>::max();
  else
    return Eigen::NumTraits<T>::infinity();
}

template <typename T> struct SegmentSumReducer {
  static constexpr int kEmpty = 0;
  static T init() { return T(0); }
  static T step(T acc, T x) { return addWrap(acc, x); }
  static T finish(T acc, int64_t) { return acc; }
  static T unsortedInit() { return T(0); }
  static T unsortedStep(T out, T x) { return addWrap(out, x); }
};
template <typename T> struct SegmentProdReducer {
  static constexpr int kEmpty = 1;
  static T init() { return T(1); }
  static T step(T acc, T x) { return mulWrap(acc, x); }
  static T finish(T acc, int64_t) { return acc; }
  static T unsortedInit() { return T(1); }
  static T unsortedStep(T out, T x) { return mulWrap(out, x); }
};
/// Mean: the sum divided by the row count in T (integers truncate).
template <typename T> struct SegmentMeanReducer {
  static constexpr int kEmpty = 0;
  static T init() { return T(0); }
  static T step(T acc, T x) { return addWrap(acc, x); }
  static T finish(T acc, int64_t count) {
    const T n = static_cast<T>(count);
    if constexpr (std::is_integral_v<T>) {
      // A count that wraps to 0 or -1 in T (a narrow T and a huge segment,
      // where TF's kernel would trap or overflow) divides without UB.
      if (n == T(0))
        return T(0);
      if constexpr (std::is_signed_v<T>) {
        if (n == T(-1))
          return mulWrap(acc, n);
      }
    }
    return static_cast<T>(acc / n);
  }
};
/// Max: sorted segments start at -inf (integers: the lowest value);
/// unsorted ones at the lowest finite value (TF's functor::Lowest).
template <typename T> struct SegmentMaxReducer {
  static constexpr int kEmpty = 0;
  static T init() { return lowestOf<T>(); }
  static T step(T acc, T x) { return x < acc ? acc : x; }
  static T finish(T acc, int64_t) { return acc; }
  static T unsortedInit() { return Eigen::NumTraits<T>::lowest(); }
  static T unsortedStep(T out, T x) { return x < out ? out : x; }
};
template <typename T> struct SegmentMinReducer {
  static constexpr int kEmpty = 0;
  static T init() { return highestOf<T>(); }
  static T step(T acc, T x) { return acc < x ? acc : x; }
  static T finish(T acc, int64_t) { return acc; }
  static T unsortedInit() { return Eigen::NumTraits<T>::highest(); }
  static T unsortedStep(T out, T x) { return out < x ? out : x; }
};

/// SegmentSum / SegmentMean / SegmentProd / SegmentMin / SegmentMax(data: T,
/// segment_ids: Tindices): data has rank >= 1 ("input must be at least
/// rank 1"), segment_ids is a vector ("segment_ids should be a vector.") of
/// data's dim 0 ("segment_ids should be the same size as dimension 0 of
/// input.") holding sorted ids. The output has data's shape with dim 0 =
/// the last id + 1; row k reduces the data rows whose id is k (a single row
/// is copied); ids without rows give 0 (Prod: 1). TF's checks, in its
/// order: the last id + 1 must be >= 0 and, with any ids, > 0 ("segment ids
/// must be >= 0"); a decreasing id fails with "segment ids are not
/// increasing"; an id outside [0, last + 1) with "Segment id -1 out of range
/// [0, 2), possibly because 'segment_ids' input is not sorted.".
template <typename T, template <typename> class R>
class SegmentReductionKernel final : public OpKernel {
  using Reducer = R<T>;

public:
  explicit SegmentReductionKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &data = ctx->input(0);
    const Tensor &ids = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, data.rank() >= 1,
                              errorf("input must be at least rank 1"));
    TFRT_FALLBACK_OP_REQUIRES(ctx, ids.rank() == 1,
                              errorf("segment_ids should be a vector."));
    const int64_t numIndices = ids.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numIndices == data.dim(0),
        errorf("segment_ids should be the same size as dimension 0 of "
               "input."));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(ids),
                              errorf("segment_ids must be int32 or int64, "
                                     "not %s",
                                     dtypeName(ids.dtype())));
    const int64_t outputRows =
        numIndices > 0 ? indexAt(ids, numIndices - 1) + 1 : 0;
    TFRT_FALLBACK_OP_REQUIRES(ctx, outputRows >= 0,
                              errorf("segment ids must be >= 0"));
    TensorShape::Dims dims(data.shape().dims().begin(),
                           data.shape().dims().end());
    dims[0] = outputRows;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(dims), &out));
    if (numIndices == 0)
      return;
    TFRT_FALLBACK_OP_REQUIRES(ctx, outputRows > 0,
                              errorf("segment ids must be >= 0"));
    const int64_t cols = data.numElements() / numIndices;
    const T *in = data.data<T>();
    T *dst = out->data<T>();
    // TF's loop: [start, end) is the run of rows with id outIndex.
    int64_t start = 0, end = 1, uninitialized = 0;
    int64_t outIndex = indexAt(ids, 0);
    while (end <= numIndices) {
      int64_t nextIndex = 0;
      if (end < numIndices) {
        nextIndex = indexAt(ids, end);
        if (outIndex == nextIndex) {
          ++end;
          continue;
        }
        TFRT_FALLBACK_OP_REQUIRES(ctx, outIndex < nextIndex,
                                  errorf("segment ids are not increasing"));
      }
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, outIndex >= 0 && outIndex < outputRows,
          errorf("Segment id %d out of range [0, %d), possibly because "
                 "'segment_ids' input is not sorted.",
                 outIndex, outputRows));
      if (outIndex > uninitialized)
        std::fill(dst + uninitialized * cols, dst + outIndex * cols,
                  static_cast<T>(Reducer::kEmpty));
      T *row = dst + outIndex * cols;
      const T *first = in + start * cols;
      if (start == end - 1) {
        std::copy(first, first + cols, row);
      } else {
        for (int64_t c = 0; c < cols; ++c) {
          T acc = Reducer::init();
          for (int64_t r = start; r < end; ++r)
            acc = Reducer::step(acc, in[r * cols + c]);
          row[c] = Reducer::finish(acc, end - start);
        }
      }
      if (end >= numIndices)
        break;
      start = end;
      ++end;
      uninitialized = outIndex + 1;
      outIndex = nextIndex;
    }
  }
};

/// UnsortedSegmentSum / Prod / Max / Min(data: T, segment_ids: Tindices,
/// num_segments: Tnumsegments): num_segments is a scalar ("num_segments
/// should be a scalar, not shape [2]") >= 0 ("Input num_segments == -1 must
/// not be negative."); data's shape starts with segment_ids' ("data.shape =
/// [3,2] does not start with segment_ids.shape = [2]"). The output is
/// [num_segments] + data.shape[segment_ids.rank:]; every segment starts at
/// 0 (Sum), 1 (Prod), the lowest finite value (Max) or the highest (Min)
/// and takes in the data slices whose id names it, in order. Negative ids
/// are dropped; an id >= num_segments fails with "segment_ids[1] = 5 is out
/// of range [0, 3)" (the id's multi-index in segment_ids).
template <typename T, template <typename> class R>
class UnsortedSegmentReductionKernel final : public OpKernel {
  using Reducer = R<T>;

public:
  explicit UnsortedSegmentReductionKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &data = ctx->input(0);
    const Tensor &ids = ctx->input(1);
    const Tensor &numSegmentsTensor = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numSegmentsTensor.rank() == 0,
        errorf("num_segments should be a scalar, not shape %s",
               numSegmentsTensor.shape().toString()));
    bool startsWith = ids.rank() <= data.rank();
    for (int d = 0; startsWith && d < ids.rank(); ++d)
      startsWith = ids.dim(d) == data.dim(d);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, startsWith,
        errorf("data.shape = %s does not start with segment_ids.shape = %s",
               data.shape().toString(), ids.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, isIndexTensor(ids) && isIndexTensor(numSegmentsTensor),
        errorf("segment_ids and num_segments must be int32 or int64"));
    const int64_t numSegments = indexAt(numSegmentsTensor, 0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numSegments >= 0,
        errorf("Input num_segments == %d must not be negative.", numSegments));
    TensorShape::Dims dims{numSegments};
    for (int d = ids.rank(); d < data.rank(); ++d)
      dims.push_back(data.dim(d));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(dims), &out));
    T *dst = out->data<T>();
    std::fill(dst, dst + out->numElements(), Reducer::unsortedInit());
    if (data.numElements() == 0)
      return;
    const int64_t n = ids.numElements();
    const int64_t cols = data.numElements() / n;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t j = indexAt(ids, i);
      if (j < 0 || j < numSegments)
        continue;
      // TF's SliceDebugString: the multi-index of element i.
      std::vector<std::string> index(ids.rank());
      for (int64_t d = ids.rank() - 1, rest = i; d >= 0; --d) {
        index[d] = std::to_string(rest % ids.dim(d));
        rest /= ids.dim(d);
      }
      ctx->ctxFailure(errorf("segment_ids[%s] = %d is out of range [0, %d)",
                             strJoin(index, ","), j, numSegments));
      return;
    }
    const T *in = data.data<T>();
    // Each task owns a range of segments and scans every row, as TF.
    kernels::parallelFor(ctx->eigenDevice(), numSegments,
                         elementCost<T>(1, 1, 5) *
                             double(cols * std::max<int64_t>(1, n) /
                                    std::max<int64_t>(1, numSegments)),
                         [&](Eigen::Index first, Eigen::Index last) {
                           for (int64_t i = 0; i < n; ++i) {
                             const int64_t j = indexAt(ids, i);
                             if (j < first || j >= last)
                               continue;
                             T *row = dst + j * cols;
                             const T *x = in + i * cols;
                             for (int64_t c = 0; c < cols; ++c)
                               row[c] = Reducer::unsortedStep(row[c], x[c]);
                           }
                         });
  }
};

template <template <typename> class R> struct SegmentFamily {
  template <typename T> using Kernel = SegmentReductionKernel<T, R>;
};
template <template <typename> class R> struct UnsortedSegmentFamily {
  template <typename T> using Kernel = UnsortedSegmentReductionKernel<T, R>;
};

} // namespace

void registerMathKernels(KernelRegistry &registry) {
  // TF_CALL_REAL_NUMBER_TYPES: TF's CPU set for the scans (complex aside).
  registerKernel<OpId::kCumsum, ScanFamily<SumScan>::Kernel>(registry,
                                                             RealNumberTypes{});
  registerKernel<OpId::kCumprod, ScanFamily<ProdScan>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kCumulativeLogsumexp, ScanFamily<LogSumExpScan>::Kernel,
                 float, double, half>(registry);

  registerKernel<OpId::kErfc, UnaryFamily<ErfcFunctor>::Kernel, float, double,
                 half>(registry);
  registerKernel<OpId::kXlogy, BinaryFamily<XlogyFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kXlog1py, BinaryFamily<Xlog1pyFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kDivNoNan, BinaryFamily<DivNoNanFunctor>::Kernel>(
      registry, FloatTypes{});
  registerKernel<OpId::kMulNoNan, BinaryFamily<MulNoNanFunctor>::Kernel>(
      registry, FloatTypes{});

  registerKernel<OpId::kBitwiseAnd, BinaryFamily<BitwiseAndFunctor>::Kernel>(
      registry, IntegralTypes{});
  registerKernel<OpId::kBitwiseOr, BinaryFamily<BitwiseOrFunctor>::Kernel>(
      registry, IntegralTypes{});
  registerKernel<OpId::kBitwiseXor, BinaryFamily<BitwiseXorFunctor>::Kernel>(
      registry, IntegralTypes{});
  registerKernel<OpId::kLeftShift, BinaryFamily<LeftShiftFunctor>::Kernel>(
      registry, IntegralTypes{});
  registerKernel<OpId::kRightShift, BinaryFamily<RightShiftFunctor>::Kernel>(
      registry, IntegralTypes{});
  registerKernel<OpId::kInvert, UnaryFamily<InvertFunctor>::Kernel>(
      registry, IntegralTypes{});
  registerKernel<OpId::kPopulationCount, PopulationCountKernel>(
      registry, IntegralTypes{});

  registerKernel<OpId::kBucketize, BucketizeKernel, int32_t, int64_t, float,
                 double>(registry);
  registerKernel<OpId::kLinSpace, LinSpaceKernel, float, double>(registry);
  registerKernel<OpId::kApproximateEqual, ApproximateEqualKernel>(
      registry, RealNumberTypes{});

  registerKernel<OpId::kSegmentSum, SegmentFamily<SegmentSumReducer>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kSegmentMean, SegmentFamily<SegmentMeanReducer>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kSegmentProd, SegmentFamily<SegmentProdReducer>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kSegmentMax, SegmentFamily<SegmentMaxReducer>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kSegmentMin, SegmentFamily<SegmentMinReducer>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kUnsortedSegmentSum,
                 UnsortedSegmentFamily<SegmentSumReducer>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kUnsortedSegmentProd,
                 UnsortedSegmentFamily<SegmentProdReducer>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kUnsortedSegmentMax,
                 UnsortedSegmentFamily<SegmentMaxReducer>::Kernel>(
      registry, RealNumberTypes{});
  registerKernel<OpId::kUnsortedSegmentMin,
                 UnsortedSegmentFamily<SegmentMinReducer>::Kernel>(
      registry, RealNumberTypes{});
}

} // namespace tfrt_fallback::rt

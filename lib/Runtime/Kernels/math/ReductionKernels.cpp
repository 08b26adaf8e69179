//===- ReductionKernels.cpp - Sum, Mean, Max, ArgMax, TopKV2 ----*- C++ -*-===//
//
// Reductions: Sum, Mean, Max, Min, Prod (T f32, i32, i64; plus f64), All and
// Any (bool) over the axes in the `reduction_indices` operand (Tidx int32 /
// int64, scalar or vector, negative from the end, repeats allowed, empty =
// no reduction), with keep_dims; ArgMax / ArgMin along one axis
// (output_type int32 / int64, the first index wins ties); TopKV2 along the
// last axis.
//
// The input dims are collapsed into alternating kept / reduced segments;
// each pass reduces one [outer, reduce, inner] view: contiguous rows with
// Eigen's vectorized reductions when inner == 1, otherwise row-by-row
// accumulation into an [inner] vector (split over inner blocks and outer
// rows across threads). A reduction over several non-adjacent segments
// takes one pass per segment. Identities for empty reductions follow TF:
// Sum 0, Prod 1, Max -inf (lowest for ints), Min +inf (highest), Mean NaN
// for floats (0 for ints), All true, Any false. Max and Min propagate NaN
// like TF's reducers (Eigen::PropagateNaN).
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/ComputeInF32.h"
#include "common/Elements.h"
#include "common/ParallelFor.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Reducers
//===----------------------------------------------------------------------===//

// Each reducer: identity(), row(p, n) for n > 0 contiguous values,
// accumulate(acc, row, n) elementwise, combine(a, b).

template <typename T> struct SumReducer {
  static T identity() { return T(0); }
  static T row(const T *p, int64_t n) { return ConstArrayMap<T>(p, n).sum(); }
  static void accumulate(T *acc, const T *r, int64_t n) {
    ArrayMap<T>(acc, n) += ConstArrayMap<T>(r, n);
  }
  static T combine(T a, T b) { return a + b; }
};

template <typename T> struct ProdReducer {
  static T identity() { return T(1); }
  static T row(const T *p, int64_t n) { return ConstArrayMap<T>(p, n).prod(); }
  static void accumulate(T *acc, const T *r, int64_t n) {
    ArrayMap<T>(acc, n) *= ConstArrayMap<T>(r, n);
  }
  static T combine(T a, T b) { return a * b; }
};

template <typename T> struct MaxReducer {
  static T identity() {
    if constexpr (std::is_floating_point_v<T>)
      return -std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::lowest();
  }
  static T row(const T *p, int64_t n) {
    return ConstArrayMap<T>(p, n).template maxCoeff<Eigen::PropagateNaN>();
  }
  static void accumulate(T *acc, const T *r, int64_t n) {
    for (int64_t j = 0; j < n; ++j)
      acc[j] = combine(acc[j], r[j]);
  }
  // NaN in either operand wins.
  static T combine(T a, T b) { return (b > a || b != b) ? b : a; }
};

template <typename T> struct MinReducer {
  static T identity() {
    if constexpr (std::is_floating_point_v<T>)
      return std::numeric_limits<T>::infinity();
    else
      return std::numeric_limits<T>::max();
  }
  static T row(const T *p, int64_t n) {
    return ConstArrayMap<T>(p, n).template minCoeff<Eigen::PropagateNaN>();
  }
  static void accumulate(T *acc, const T *r, int64_t n) {
    for (int64_t j = 0; j < n; ++j)
      acc[j] = combine(acc[j], r[j]);
  }
  static T combine(T a, T b) { return (b < a || b != b) ? b : a; }
};

struct AllReducer {
  static bool identity() { return true; }
  static bool row(const bool *p, int64_t n) {
    return std::find(p, p + n, false) == p + n;
  }
  static void accumulate(bool *acc, const bool *r, int64_t n) {
    for (int64_t j = 0; j < n; ++j)
      acc[j] = acc[j] & r[j];
  }
  static bool combine(bool a, bool b) { return a && b; }
};

struct AnyReducer {
  static bool identity() { return false; }
  static bool row(const bool *p, int64_t n) {
    return std::find(p, p + n, true) != p + n;
  }
  static void accumulate(bool *acc, const bool *r, int64_t n) {
    for (int64_t j = 0; j < n; ++j)
      acc[j] = acc[j] | r[j];
  }
  static bool combine(bool a, bool b) { return a || b; }
};

/// out[o, i] = reduce over r of in[o, r, i]; reduce > 0.
template <typename T, typename R>
void reduce3(const Eigen::ThreadPoolDevice &device, const T *in, T *out,
             int64_t outer, int64_t reduce, int64_t inner) {
  if (inner == 1) {
    if (outer == 1 && reduce >= (int64_t(1) << 15)) {
      // One long row: partial results per chunk, combined in order.
      constexpr int64_t kChunk = 1 << 13;
      const int64_t chunks = (reduce + kChunk - 1) / kChunk;
      std::vector<T> partial(chunks);
      kernels::parallelFor(
          device, chunks, Eigen::TensorOpCost(kChunk * sizeof(T), 0, kChunk),
          [&](Eigen::Index first, Eigen::Index last) {
            for (Eigen::Index c = first; c < last; ++c) {
              const int64_t b = c * kChunk;
              partial[c] = R::row(in + b, std::min(kChunk, reduce - b));
            }
          });
      T acc = partial[0];
      for (int64_t c = 1; c < chunks; ++c)
        acc = R::combine(acc, partial[c]);
      out[0] = acc;
      return;
    }
    kernels::parallelFor(
        device, outer,
        Eigen::TensorOpCost(reduce * sizeof(T), sizeof(T), double(reduce)),
        [&](Eigen::Index first, Eigen::Index last) {
          for (Eigen::Index o = first; o < last; ++o)
            out[o] = R::row(in + o * reduce, reduce);
        });
    return;
  }
  // Units of (outer row, block of inner columns).
  constexpr int64_t kBlock = 1024;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  const double cost = double(std::min(inner, kBlock)) * double(reduce);
  kernels::parallelFor(device, outer * blocks,
                       Eigen::TensorOpCost(cost * sizeof(T), 0, cost),
                       [&](Eigen::Index first, Eigen::Index last) {
                         for (Eigen::Index u = first; u < last; ++u) {
                           const int64_t o = u / blocks;
                           const int64_t j0 = (u % blocks) * kBlock;
                           const int64_t n = std::min(kBlock, inner - j0);
                           T *acc = out + o * inner + j0;
                           const T *base = in + o * reduce * inner + j0;
                           std::copy(base, base + n, acc);
                           for (int64_t r = 1; r < reduce; ++r)
                             R::accumulate(acc, base + r * inner, n);
                         }
                       });
}

/// Reads the reduction axes into a per-dim mask.
template <typename Kernel>
Status readAxes(const Kernel &kernel, const Tensor &axes, int rank,
                std::vector<bool> *mask) {
  if (axes.rank() > 1 || !isIndexTensor(axes))
    return kernel.errorf("reduction_indices must be a scalar or vector, got "
                         "shape %s",
                         axes.shape().toString());
  mask->assign(rank, false);
  for (int64_t i = 0; i < axes.numElements(); ++i) {
    int64_t a = indexAt(axes, i);
    if (a < -rank || a >= rank)
      return kernel.errorf("Invalid reduction dimension (%d for input with %d "
                           "dimension(s)",
                           a, rank);
    (*mask)[a < 0 ? a + rank : a] = true;
  }
  return OkStatus();
}

enum class Finalize { None, Mean };

/// Sum / Prod / Max / Min / Mean / All / Any (input, reduction_indices;
/// keep_dims).
template <typename T, template <typename> class R, Finalize F>
class ReduceKernel final : public OpKernel {
public:
  explicit ReduceKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 getOptionalAttr(ctx, "keep_dims", &keepDims_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const int rank = input.rank();
    std::vector<bool> mask;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 readAxes(*this, ctx->input(1), rank, &mask));
    TensorShape::Dims outDims;
    for (int d = 0; d < rank; ++d) {
      if (!mask[d])
        outDims.push_back(input.dim(d));
      else if (keepDims_)
        outDims.push_back(1);
    }
    TensorShape outShape(outDims);
    const int64_t outN = outShape.numElements();
    const int64_t count = outN == 0 ? 0 : input.numElements() / outN;
    if (outN == 0) {
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
      return;
    }
    if (count == 1) {
      // Nothing is combined: the output is the input's data.
      ctx->setOutput(0, input.reshaped(std::move(outShape)));
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, outShape, &out));
    T *dst = out->data<T>();
    if (count == 0) {
      T identity = R<T>::identity();
      if constexpr (F == Finalize::Mean) {
        if constexpr (std::is_floating_point_v<T>)
          identity = std::numeric_limits<T>::quiet_NaN();
        else
          identity = T(0);
      }
      std::fill(dst, dst + outN, identity);
      return;
    }
    // Collapse into (size, reduced) segments, skipping size-1 dims.
    std::vector<std::pair<int64_t, bool>> segs;
    for (int d = 0; d < rank; ++d) {
      if (input.dim(d) == 1)
        continue;
      if (!segs.empty() && segs.back().second == mask[d])
        segs.back().first *= input.dim(d);
      else
        segs.push_back({input.dim(d), mask[d]});
    }
    const T *src = input.data<T>();
    std::unique_ptr<T[]> temp;
    while (true) {
      int last = -1, reducedSegs = 0;
      for (int s = 0; s < static_cast<int>(segs.size()); ++s)
        if (segs[s].second) {
          last = s;
          ++reducedSegs;
        }
      int64_t outer = 1, inner = 1;
      for (int s = 0; s < last; ++s)
        outer *= segs[s].first;
      for (int s = last + 1; s < static_cast<int>(segs.size()); ++s)
        inner *= segs[s].first;
      const int64_t reduce = segs[last].first;
      if (reducedSegs == 1) {
        reduce3<T, R<T>>(ctx->eigenDevice(), src, dst, outer, reduce, inner);
        break;
      }
      std::unique_ptr<T[]> next(new T[outer * inner]);
      reduce3<T, R<T>>(ctx->eigenDevice(), src, next.get(), outer, reduce,
                       inner);
      temp = std::move(next);
      src = temp.get();
      // Drop the segment and merge the kept neighbours.
      segs.erase(segs.begin() + last);
      if (last < static_cast<int>(segs.size()) && last > 0 &&
          segs[last - 1].second == segs[last].second) {
        segs[last - 1].first *= segs[last].first;
        segs.erase(segs.begin() + last);
      }
    }
    if constexpr (F == Finalize::Mean) {
      const T divisor = static_cast<T>(count);
      ArrayMap<T> o(dst, outN);
      o = o / divisor;
    }
  }

private:
  bool keepDims_ = false;
};

template <typename T> using AllR = AllReducer;
template <typename T> using AnyR = AnyReducer;

//===----------------------------------------------------------------------===//
// ArgMax, ArgMin
//===----------------------------------------------------------------------===//

/// ArgMax / ArgMin(input, dimension; output_type): the index of the largest
/// (smallest) value along `dimension` (an int32/int64 scalar in [-rank,
/// rank)); the first index wins ties. The axis must not be empty.
template <typename T, bool IsMax> class ArgKernel final : public OpKernel {
public:
  explicit ArgKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    const DType out = ctx->numOutputs() > 0 ? ctx->outputDType(0) : DType::I64;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, out == DType::I32 || out == DType::I64,
        errorf("output_type must be int32 or int64, got %s", dtypeName(out)));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    const Tensor &dimT = ctx->input(1);
    const int rank = input.rank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dimT.numElements() == 1 && dimT.rank() <= 1 && isIndexTensor(dimT),
        errorf("dim must be a scalar, but received tensor of shape: %s",
               dimT.shape().toString()));
    int64_t axis = indexAt(dimT, 0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, axis >= -rank && axis < rank,
        errorf("Expected dimension in the range [%d, %d), but got %d", -rank,
               rank, axis));
    if (axis < 0)
      axis += rank;
    TFRT_FALLBACK_OP_REQUIRES(ctx, input.dim(axis) > 0,
                              errorf("Reduction axis %d is empty in shape %s",
                                     axis, input.shape().toString()));
    TensorShape::Dims outDims;
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < rank; ++d) {
      if (d != axis)
        outDims.push_back(input.dim(d));
      if (d < axis)
        outer *= input.dim(d);
      if (d > axis)
        inner *= input.dim(d);
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape(outDims), &out));
    if (out->numElements() == 0)
      return;
    const int64_t reduce = input.dim(axis);
    if (out->dtype() == DType::I64)
      run<int64_t>(ctx, input.data<T>(), out->data<int64_t>(), outer, reduce,
                   inner);
    else
      run<int32_t>(ctx, input.data<T>(), out->data<int32_t>(), outer, reduce,
                   inner);
  }

private:
  static bool better(T a, T b) { return IsMax ? a > b : a < b; }

  template <typename Out>
  static void run(OpKernelContextInterface *ctx, const T *in, Out *out,
                  int64_t outer, int64_t reduce, int64_t inner) {
    const double cost = double(reduce) * double(inner);
    kernels::parallelFor(
        ctx->eigenDevice(), outer,
        Eigen::TensorOpCost(cost * sizeof(T), inner * sizeof(Out), cost),
        [&](Eigen::Index first, Eigen::Index last) {
          std::vector<T> best(inner);
          for (Eigen::Index o = first; o < last; ++o) {
            const T *base = in + o * reduce * inner;
            Out *idx = out + o * inner;
            std::copy(base, base + inner, best.begin());
            std::fill(idx, idx + inner, Out(0));
            for (int64_t r = 1; r < reduce; ++r) {
              const T *row = base + r * inner;
              for (int64_t j = 0; j < inner; ++j) {
                const bool take = better(row[j], best[j]);
                best[j] = take ? row[j] : best[j];
                idx[j] = take ? Out(r) : idx[j];
              }
            }
          }
        });
  }
};

template <typename T> using ArgMaxKernel = ArgKernel<T, true>;
template <typename T> using ArgMinKernel = ArgKernel<T, false>;

//===----------------------------------------------------------------------===//
// TopKV2
//===----------------------------------------------------------------------===//

/// TopKV2(input, k; sorted, index_type): the k largest values of each last-
/// dim row and their indices (int32, or index_type int64), largest first;
/// equal values keep the lower index first, as TF. k is a scalar (int32 or
/// int64), 0 <= k <= last dim. Output is always sorted (TF leaves the order
/// unspecified for sorted=false). TopK (v1) takes k from its attribute.
template <typename T> class TopKKernel final : public OpKernel {
public:
  explicit TopKKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    const DType out = ctx->numOutputs() > 1 ? ctx->outputDType(1) : DType::I32;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, out == DType::I32 || out == DType::I64,
        errorf("index_type must be int32 or int64, got %s", dtypeName(out)));
    if (ctx->numInputs() == 1)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("k", &kAttr_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &input = ctx->input(0);
    int64_t k = kAttr_;
    if (ctx->numInputs() > 1) {
      const Tensor &kT = ctx->input(1);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, kT.rank() == 0 && isIndexTensor(kT),
          errorf("k must be 0-D, got shape %s", kT.shape().toString()));
      k = indexAt(kT, 0);
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, k >= 0, errorf("Need k >= 0, got %d", k));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, input.rank() >= 1,
        errorf("input must be >= 1-D, got shape %s", input.shape().toString()));
    const int64_t cols = input.dim(input.rank() - 1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, cols >= k,
        errorf("input must have at least k columns. Had %d, needed %d", cols,
               k));
    TensorShape::Dims outDims(input.shape().dims().begin(),
                              input.shape().dims().end());
    outDims.back() = k;
    TensorShape outShape(outDims);
    Tensor *values = nullptr, *indices = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, outShape, &values));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(1, outShape, &indices));
    if (outShape.numElements() == 0)
      return;
    const int64_t rows = outShape.numElements() / k;
    const T *in = input.data<T>();
    T *vals = values->data<T>();
    const bool wide = indices->dtype() == DType::I64;
    void *idxOut = indices->rawData();
    const double cost = double(cols) * std::log2(double(k) + 1);
    kernels::parallelFor(
        ctx->eigenDevice(), rows,
        Eigen::TensorOpCost(cols * sizeof(T), k * 8, cost),
        [&](Eigen::Index first, Eigen::Index last) {
          std::vector<int64_t> order(cols);
          for (Eigen::Index r = first; r < last; ++r) {
            const T *row = in + r * cols;
            auto greater = [row](int64_t a, int64_t b) {
              return row[a] > row[b] || (row[a] == row[b] && a < b);
            };
            if (k == 1) {
              int64_t best = 0;
              for (int64_t j = 1; j < cols; ++j)
                if (row[j] > row[best])
                  best = j;
              order[0] = best;
            } else {
              std::iota(order.begin(), order.end(), int64_t(0));
              std::partial_sort(order.begin(), order.begin() + k, order.end(),
                                greater);
            }
            for (int64_t j = 0; j < k; ++j) {
              vals[r * k + j] = row[order[j]];
              if (wide)
                static_cast<int64_t *>(idxOut)[r * k + j] = order[j];
              else
                static_cast<int32_t *>(idxOut)[r * k + j] =
                    static_cast<int32_t>(order[j]);
            }
          }
        });
  }

private:
  int64_t kAttr_ = 0;
};

template <typename T>
using SumKernel = ReduceKernel<T, SumReducer, Finalize::None>;
template <typename T>
using MeanKernel = ReduceKernel<T, SumReducer, Finalize::Mean>;
template <typename T>
using ProdKernel = ReduceKernel<T, ProdReducer, Finalize::None>;
template <typename T>
using MaxKernel = ReduceKernel<T, MaxReducer, Finalize::None>;
template <typename T>
using MinKernel = ReduceKernel<T, MinReducer, Finalize::None>;
template <typename T> using AllKernel = ReduceKernel<T, AllR, Finalize::None>;
template <typename T> using AnyKernel = ReduceKernel<T, AnyR, Finalize::None>;

//===----------------------------------------------------------------------===//
// InTopK, InTopKV2
//===----------------------------------------------------------------------===//

/// InTopK(predictions: float [batch, classes], targets: T [batch]; k) and
/// InTopKV2(predictions, targets, k: T): whether targets[b]'s prediction
/// is among the k largest of row b: fewer than k classes predict strictly
/// more (ties count in the target's favour). A target outside [0, classes)
/// or a non-finite prediction in the row gives false. TF's errors:
/// "predictions must be 2-dimensional", "targets must be 1-dimensional",
/// "First dimension of predictions 2 must match length of targets 3", "k
/// must be 0-D, got shape [2]".
class InTopKKernel final : public OpKernel {
public:
  explicit InTopKKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    if (ctx->numInputs() == 2)
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("k", &kAttr_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &pred = ctx->input(0);
    const Tensor &targets = ctx->input(1);
    int64_t k = kAttr_;
    if (ctx->numInputs() > 2) {
      const Tensor &kT = ctx->input(2);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, kT.rank() == 0 && isIndexTensor(kT),
          errorf("k must be 0-D, got shape %s", kT.shape().toString()));
      k = indexAt(kT, 0);
    }
    TFRT_FALLBACK_OP_REQUIRES(ctx, pred.rank() == 2,
                              errorf("predictions must be 2-dimensional"));
    TFRT_FALLBACK_OP_REQUIRES(ctx,
                              targets.rank() == 1 && isIndexTensor(targets),
                              errorf("targets must be 1-dimensional"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, pred.dim(0) == targets.dim(0),
        errorf("First dimension of predictions %d must match length of "
               "targets %d",
               pred.dim(0), targets.dim(0)));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, targets.shape(), &out));
    const int64_t classes = pred.dim(1);
    const float *p = pred.data<float>();
    bool *o = out->data<bool>();
    for (int64_t b = 0; b < pred.dim(0); ++b) {
      const int64_t t = indexAt(targets, b);
      const float *row = p + b * classes;
      bool cannotSay = t < 0 || t >= classes || !std::isfinite(row[t]);
      int64_t more = 0;
      for (int64_t c = 0; !cannotSay && c < classes; ++c) {
        if (!std::isfinite(row[c]))
          cannotSay = true;
        else if (row[c] > row[t])
          ++more;
      }
      o[b] = !cannotSay && more < k;
    }
  }

private:
  int64_t kAttr_ = 0;
};

} // namespace

void registerReductionKernels(KernelRegistry &registry) {
  // Tidx types the reduction indices (TF's OpDef, the op table's "T, Tidx"):
  // the loader checks it against that operand when a node has it, and the
  // kernels accept int32 or int64 indices. It defaults to int32 and graphs
  // may leave it out, so it is not a registration constraint.
  registerKernel<OpId::kSum, SumKernel, float, double, int32_t, int64_t>(
      registry);
  registerKernel<OpId::kMean, MeanKernel, float, double, int32_t, int64_t>(
      registry);
  registerKernel<OpId::kProd, ProdKernel, float, double, int32_t, int64_t>(
      registry);
  registerKernel<OpId::kMax, MaxKernel, float, double, int32_t, int64_t>(
      registry);
  registerKernel<OpId::kMin, MinKernel, float, double, int32_t, int64_t>(
      registry);
  // f16 and bf16 sum in f32 and round once (ComputeInF32.h).
  registerKernel<OpId::kSum, InF32<SumKernel>::Kernel>(registry,
                                                       HalfFloatTypes{});
  registerKernel<OpId::kMean, InF32<MeanKernel>::Kernel>(registry,
                                                         HalfFloatTypes{});
  registerKernel<OpId::kProd, InF32<ProdKernel>::Kernel>(registry,
                                                         HalfFloatTypes{});
  registerKernel<OpId::kMax, InF32<MaxKernel>::Kernel>(registry,
                                                       HalfFloatTypes{});
  registerKernel<OpId::kMin, InF32<MinKernel>::Kernel>(registry,
                                                       HalfFloatTypes{});
  registerKernel<OpId::kAll, AllKernel<bool>>(registry);
  registerKernel<OpId::kAny, AnyKernel<bool>>(registry);
  registerKernel<OpId::kArgMax, ArgMaxKernel, float, double, int32_t, int64_t,
                 uint8_t, int8_t>(registry);
  registerKernel<OpId::kArgMin, ArgMinKernel, float, double, int32_t, int64_t,
                 uint8_t, int8_t>(registry);
  registerKernel<OpId::kTopKV2, TopKKernel, float, double, int32_t, int64_t,
                 uint8_t>(registry);
  registerKernel<OpId::kTopK, TopKKernel, float, double, int32_t, int64_t,
                 uint8_t>(registry);
  // T (the targets' dtype, int32 default) is read from the operand.
  registerKernel<OpId::kInTopK, InTopKKernel>(registry);
  registerKernel<OpId::kInTopKV2, InTopKKernel>(registry);
}

} // namespace tfrt_fallback::rt

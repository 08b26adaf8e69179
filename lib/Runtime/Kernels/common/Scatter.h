//===- Scatter.h - Scatters shared by the scatter kernels -------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the checks and the per-slice combine of
// TensorFlow's scatters into an existing tensor. The functional
// TensorScatter* ops (TensorScatterKernels.cpp) and the variable updates
// ResourceScatter* / ResourceScatterNd* (ResourceKernels.cpp) each check
// their operands as their TF kernel does (three rule sets, with TF's
// messages) into a ScatterPlan, before any element moves; applyScatter
// then combines update slice u into the output slice at plan.offsets[u].
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_SCATTER_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_SCATTER_H

#include "common/Elements.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace tfrt_fallback::rt::kernels {

enum class ScatterOp { Update, Add, Sub, Mul, Div, Min, Max };

/// The validated geometry of a scatter: for each update u the offset of
/// its slice in the output (in slices of `slice` elements), or -1 for one
/// to skip (bad_indices_policy "IGNORE").
struct ScatterPlan {
  std::vector<int64_t> offsets;
  int64_t slice = 1;
  /// One update value for every element of every slice (ResourceScatter*
  /// with a scalar `updates`).
  bool scalarUpdate = false;
};

/// The bad_indices_policy attribute: "" or "DEFAULT" and "ERROR" fail on
/// an index out of range (TF's CPU default), "IGNORE" skips its update.
Status readBadIndicesPolicy(const OpKernel &op,
                            OpKernelConstructionInterface *ctx, bool *ignore);

/// TensorScatterUpdate and friends (TF's TensorScatterOp): indices and
/// updates at least 1-D, the outer dims of indices and updates equal, the
/// inner dims of updates equal to shape[indices.shape[-1]:]; each index
/// tuple checked against `shape` ("indices[1] = [5] does not index into
/// shape [4,2]").
Status planTensorScatter(const OpKernel &op, const TensorShape &shape,
                         const Tensor &indices, const Tensor &updates,
                         bool ignoreBad, ScatterPlan *plan);

/// ResourceScatterNdUpdate and friends (TF's ScatterNdUpdateOp through
/// DoScatterNd): `shape` at least 1-D; indices [..., k] (a vector is k = 1
/// tuples) with 1 <= k <= 7; updates.shape = indices.shape[:-1] +
/// shape[k:] (ValidateScatterNdUpdateShape's messages); each tuple checked
/// against `shape`.
Status planScatterNd(const OpKernel &op, const TensorShape &shape,
                     const Tensor &indices, const Tensor &updates,
                     bool ignoreBad, ScatterPlan *plan);

/// ResourceScatterAdd and friends (TF's ResourceScatterUpdateOp): rows of
/// `shape` (at least 1-D) picked by the int32/int64 `indices` of any shape;
/// updates.shape = indices.shape + shape[1:], or a scalar for every
/// element of the picked rows; each index in [0, shape[0]).
/// `updatesHaveZero` (ResourceScatterDiv's containsZero) fails after the
/// rank check, where TF's kernel checks it.
Status planScatterRows(const OpKernel &op, const TensorShape &shape,
                       const Tensor &indices, const Tensor &updates,
                       bool updatesHaveZero, ScatterPlan *plan);

/// True when some element of `updates` (of T) is zero: ResourceScatterDiv
/// fails then ("updates must not contain 0"), for every dtype, as TF's CPU
/// kernel does.
template <typename T> bool containsZero(const Tensor &updates) {
  const T *values = updates.data<T>();
  for (int64_t i = 0, e = updates.numElements(); i < e; ++i)
    if (values[i] == T(0))
      return true;
  return false;
}

/// a / b for a nonzero b; the integer MIN / -1 wraps to MIN (undefined
/// in C++ and in TF).
template <typename T> T divide(T a, T b) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    if (b == -1)
      return static_cast<T>(0 - static_cast<std::make_unsigned_t<T>>(a));
  }
  return static_cast<T>(a / b);
}

/// Combines update slice u of `updates` (or its one value when
/// plan.scalarUpdate) into slice plan.offsets[u] of `out`: = (Update), +=,
/// -=, *=, /=, = min or = max of the two; repeated offsets apply in order.
/// Min and Max are Eigen's (as TF's functors), Div is `divide`.
template <typename T, ScatterOp Op>
void applyScatter(T *out, const ScatterPlan &plan, const T *updates) {
  const int64_t slice = plan.slice;
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  for (size_t u = 0; u < plan.offsets.size(); ++u) {
    if (plan.offsets[u] < 0)
      continue;
    ArrayMap<T> dst(out + plan.offsets[u] * slice, slice);
    auto combine = [&](const auto &src) {
      if constexpr (Op == ScatterOp::Update)
        dst = src;
      else if constexpr (Op == ScatterOp::Add)
        dst += src;
      else if constexpr (Op == ScatterOp::Sub)
        dst -= src;
      else if constexpr (Op == ScatterOp::Mul)
        dst *= src;
      else if constexpr (Op == ScatterOp::Min)
        dst = dst.min(src);
      else if constexpr (Op == ScatterOp::Max)
        dst = dst.max(src);
      else if constexpr (std::is_integral_v<T>)
        for (int64_t i = 0; i < slice; ++i)
          dst[i] = divide<T>(dst[i], src.coeff(i));
      else
        dst /= src;
    };
    if (plan.scalarUpdate)
      combine(Array::Constant(slice, updates[0]));
    else
      combine(ConstArrayMap<T>(updates + u * slice, slice));
  }
}

/// The Update form of applyScatter for any buffer dtype, moving raw
/// elements of `elementBytes` bytes.
void applyScatterUpdateBytes(void *out, const ScatterPlan &plan,
                             const void *updates, size_t elementBytes);

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_SCATTER_H

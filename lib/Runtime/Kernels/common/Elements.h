//===- Elements.h - Raw elements, index tensors, Eigen rows -----*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. What kernels that move or index raw elements
// share: the dtypes a tensor can hold, index tensors, element-size dispatch,
// index tuples, and Eigen array views of raw rows.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_ELEMENTS_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_ELEMENTS_H

#include "absl/types/span.h"
#include "common/Checks.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <unsupported/Eigen/CXX11/Tensor>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Dtypes and index tensors (shared by the data-movement and gather/scatter
// families)
//===----------------------------------------------------------------------===//

/// Every dtype a tensor can hold (the buffer dtypes of DTypes.def, in its
/// order): what kernels that move raw elements (data movement, Gather,
/// ZerosLike, ...) and Cast are registered for, as TF registers them on CPU
/// for every type.
/// Complex and quantized dtypes opt in kernel by kernel (DTypes.def).
inline constexpr DType kAllDTypes[] = {
#define TFRT_FALLBACK_DTYPE(Enum, ...) DType::Enum,
#define TFRT_FALLBACK_DTYPE_OPT_IN(...)
#include "tfrt_fallback/Runtime/DTypes.def"
};

/// Element `i` of an int32 or int64 tensor as int64.
inline int64_t indexAt(const Tensor &t, int64_t i) {
  return t.dtype() == DType::I32 ? t.data<int32_t>()[i] : t.data<int64_t>()[i];
}

inline bool isIndexTensor(const Tensor &t) {
  return t.dtype() == DType::I32 || t.dtype() == DType::I64;
}

/// Calls f(E{}) with an unsigned integer type E as wide as one element of
/// `dtype`.
template <typename F> void dispatchElementSize(DType dtype, F &&f) {
  switch (dtypeSize(dtype)) {
  case 1:
    return f(uint8_t{});
  case 2:
    return f(uint16_t{});
  case 4:
    return f(uint32_t{});
  default:
    return f(uint64_t{});
  }
}

/// TF's SliceDebugString: "" for rank 0, "[i]" for rank 1, "[i,j,...]" with
/// the coordinates of flat position `flat` in `dims` otherwise.
inline std::string sliceDebugString(absl::Span<const int64_t> dims,
                                    int64_t flat) {
  if (dims.empty())
    return "";
  std::vector<int64_t> coords(dims.size());
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    coords[d] = dims[d] == 0 ? 0 : flat % dims[d];
    flat = dims[d] == 0 ? 0 : flat / dims[d];
  }
  return strCat("[", strJoin(coords, ","), "]");
}

/// Validates [n, k] index tuples against dims[0:k] and returns the element
/// offsets (in units of `inner`-sized slices) into a row-major tensor of
/// `dims`. On error, returns the first bad tuple's row in *bad.
inline bool flattenIndexTuples(const Tensor &indices, int64_t n, int64_t k,
                               absl::Span<const int64_t> dims,
                               std::vector<int64_t> *offsets, int64_t *bad) {
  offsets->resize(n);
  for (int64_t i = 0; i < n; ++i) {
    int64_t offset = 0;
    for (int64_t j = 0; j < k; ++j) {
      const int64_t v = indexAt(indices, i * k + j);
      if (v < 0 || v >= dims[j]) {
        *bad = i;
        return false;
      }
      offset = offset * dims[j] + v;
    }
    (*offsets)[i] = offset;
  }
  return true;
}

inline std::string tupleString(const Tensor &indices, int64_t row, int64_t k) {
  std::vector<int64_t> values;
  for (int64_t j = 0; j < k; ++j)
    values.push_back(indexAt(indices, row * k + j));
  return strJoin(values, ", ");
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

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_ELEMENTS_H

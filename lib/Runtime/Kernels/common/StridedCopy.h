//===- StridedCopy.h - Raw element copies of data movement ------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: what the data-movement kernels
// (Transpose, Concat / Split, Slice, Pad, Tile / Reverse) share. They move
// elements as raw bits, so each kernel is one class dispatched on the
// element size (1, 2, 4 or 8 bytes) rather than on the dtype. Most of them
// reduce to one "strided copy": the output, in row-major order, reads the
// input at base + sum(i_d * stride_d). Plans are simplified (size-1 dims
// dropped, contiguous dims merged) so slices become memcpy's and transposes
// of the last two dims (2-D, NHWC <-> NCHW) use a cache-tiled loop.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRIDEDCOPY_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRIDEDCOPY_H

#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

#include <cstdint>

namespace tfrt_fallback::rt::kernels {

using Dims = absl::InlinedVector<int64_t, 8>;

/// Row-major element strides of `dims`.
inline Dims stridesOf(absl::Span<const int64_t> dims) {
  Dims strides(dims.size());
  int64_t s = 1;
  for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
    strides[d] = s;
    s *= dims[d];
  }
  return strides;
}

/// A view of `t`'s elements [offset, offset + shape.numElements()) with
/// `shape`, sharing its buffer.
inline Tensor subTensor(const Tensor &t, int64_t offset, TensorShape shape) {
  return Tensor(t.dtype(), std::move(shape), t.buffer(),
                t.byteOffset() + offset * dtypeSize(t.dtype()));
}

/// memcpy of `bytes` bytes split over the device's threads when large.
void parallelMemcpy(const Eigen::ThreadPoolDevice &device, char *dst,
                    const char *src, int64_t bytes);

/// Fills `out` (which has shape `dims`, non-empty) from `in` read at element
/// offset base + sum(i_d * strides[d]) (strides may be 0 or negative).
void stridedCopy(const Eigen::ThreadPoolDevice &device, const Tensor &in,
                 int64_t base, Dims dims, Dims strides, Tensor &out);

/// True if the plan reads one contiguous run of the input in order, so the
/// output can be a view.
bool isContiguousPlan(Dims dims, Dims strides);

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRIDEDCOPY_H

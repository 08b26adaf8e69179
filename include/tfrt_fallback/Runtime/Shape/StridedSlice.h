//===- StridedSlice.h - TF's strided-slice spec -----------------*- C++ -*-===//
//
// The rule of TF's StridedSlice family, shared by the kernels (StridedSlice,
// ResourceStridedSliceAssign, TensorStridedSliceUpdate) and the compiler's
// shape inference, as TF shares ValidateStridedSliceOp
// (util/strided_slice_op.cc) between its shape function and its kernels:
// the sparse spec (begin, end, strides, the five masks) expanded into one
// slice per input dim, over a partially known input shape.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_SHAPE_STRIDEDSLICE_H
#define TFRT_FALLBACK_RUNTIME_SHAPE_STRIDEDSLICE_H

#include "tfrt_fallback/Runtime/Status.h"

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

#include <cstdint>

namespace tfrt_fallback::rt::shape {

/// The op's mask attributes (bit i: entry i of the sparse spec).
struct StridedSliceMasks {
  int64_t begin = 0, end = 0, ellipsis = 0, newAxis = 0, shrinkAxis = 0;
};

/// The slice a strided slice takes of a shape: per input dim the canonical
/// begin, the stride and the number of elements taken (the processing
/// shape); the final shape (new axes added, shrunk axes removed) with, per
/// final dim, the input dim it walks (-1 for a new axis). Where an input
/// dim is unknown (-1) so are its begin and size, except that a shrunk dim
/// has size 1.
struct StridedSlicePlan {
  absl::InlinedVector<int64_t, 8> begin, stride, processingDims;
  absl::InlinedVector<int64_t, 6> finalDims;
  absl::InlinedVector<int, 8> finalToProcessing;
  /// Every dim taken whole with stride 1 (false when a dim is unknown).
  bool identity = true;
};

/// TF's ValidateStridedSliceOp for an input of `shape` (-1: an unknown
/// dim): expands the sparse spec into one entry per input dim (an ellipsis,
/// explicit or implied at the end, covers the dims no entry names; new axes
/// take none), applies the begin/end masks, clamps begin and end into the
/// valid range for the stride's sign, checks shrink indices and computes
/// the sizes. InvalidArgument with TF's texts: "Expected begin, end, and
/// strides to be 1D equal size tensors, but got shapes [2], [3], and [2]
/// instead.", "Multiple ellipses in slice spec not allowed", "Index out of
/// range using input dim 2; input has only 2 dims", "strides[0] must be
/// non-zero", "only stride 1 allowed on non-range indexing.", "slice index
/// 5 of dimension 0 out of bounds.".
StatusOr<StridedSlicePlan> planStridedSlice(absl::Span<const int64_t> shape,
                                            absl::Span<const int64_t> begin,
                                            absl::Span<const int64_t> end,
                                            absl::Span<const int64_t> strides,
                                            const StridedSliceMasks &masks);

} // namespace tfrt_fallback::rt::shape

#endif // TFRT_FALLBACK_RUNTIME_SHAPE_STRIDEDSLICE_H

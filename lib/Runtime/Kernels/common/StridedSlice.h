//===- StridedSlice.h - TF's strided-slice spec -----------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: TensorFlow's ValidateStridedSliceOp
// (strided_slice_op.cc, util/strided_slice_op.cc) on the op's tensors, over
// the shared rule of Runtime/Shape/StridedSlice.h. StridedSlice
// (SliceKernels.cpp) reads the slice it plans; ResourceStridedSliceAssign
// (ResourceKernels.cpp) and TensorStridedSliceUpdate (SliceKernels.cpp) write
// it.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRIDEDSLICE_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRIDEDSLICE_H

#include "common/StridedCopy.h"

#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Shape/StridedSlice.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt::kernels {

/// The slice a strided slice takes (Runtime/Shape/StridedSlice.h, the
/// rule the compiler's shape inference applies too).
using shape::StridedSlicePlan;

/// shape::planStridedSlice for an input of `shape` and the op's begin, end
/// and strides tensors (1-D int32/int64 of one size; the kernel's error
/// otherwise) and masks.
Status planStridedSlice(const OpKernel &kernel, const TensorShape &shape,
                        const Tensor &beginT, const Tensor &endT,
                        const Tensor &stridesT, int32_t beginMask,
                        int32_t endMask, int32_t ellipsisMask,
                        int32_t newAxisMask, int32_t shrinkMask,
                        StridedSlicePlan *plan);

/// TF's StridedSliceAssignBCast of a value of `shape` into the plan's
/// final shape (leading dims of the value beyond the final rank must be 1,
/// the others equal or 1), as element steps of the value along each input
/// dim (0 where it broadcasts or the dim is shrunk); false if it does not
/// broadcast.
bool stridedSliceValueSteps(const TensorShape &shape,
                            const StridedSlicePlan &plan, Dims *valueSteps);

/// Writes the elements of `value` (read at `valueSteps`, from
/// stridedSliceValueSteps) into the slice of `dst` (a tensor of the shape
/// the plan was made for, of value's dtype, not a string tensor) the plan
/// selects. Raw elements.
void writeStridedSlice(const StridedSlicePlan &plan, const Dims &valueSteps,
                       const Tensor &value, Tensor &dst);

/// writeStridedSlice for string elements: the views of `value` into `dst`,
/// the views of a tensor of `dims`.
void writeStridedSliceViews(const StridedSlicePlan &plan,
                            const Dims &valueSteps,
                            absl::Span<const std::string_view> value,
                            absl::Span<const int64_t> dims,
                            std::vector<std::string_view> *dst);

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRIDEDSLICE_H

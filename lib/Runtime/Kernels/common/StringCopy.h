//===- StringCopy.h - Element moves of string tensors -----------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: what the string forms of the
// data-movement kernels (ConcatV2, Pack, StridedSlice, GatherV2, Fill)
// share. They pick the output's elements as views of the inputs' and then
// copy them into a string tensor of its own (makeStringTensor), so an
// output never keeps an input's buffer alive. Numeric kernels move raw
// bits (StridedCopy.h) and never include this.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRINGCOPY_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRINGCOPY_H

#include "common/StridedCopy.h"

#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include "absl/types/span.h"

#include <cstdint>

namespace tfrt_fallback::rt::kernels {

/// Sets output 0 of `shape` to the rows of `inputs` interleaved: output row
/// o is input 0's row o (rowSizes[0] elements), then input 1's, ... (the
/// string form of ConcatV2's and Pack's copy).
void emitStringRows(OpKernelContextInterface *ctx,
                    absl::Span<const Tensor *const> inputs,
                    absl::Span<const int64_t> rowSizes, int64_t outer,
                    TensorShape shape);

/// Sets output 0 of `shape` (as many elements as dims hold) to `in` read at
/// element offsets base + sum(i_d * strides[d]), as stridedCopy reads it;
/// a view of `in` when the plan reads one contiguous run.
void emitStringStridedView(OpKernelContextInterface *ctx, const Tensor &in,
                           int64_t base, const Dims &dims, const Dims &strides,
                           TensorShape shape);

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_STRINGCOPY_H

//===- Reshape.h - Reshape's output shape -----------------------*- C++ -*-===//
//
// The shape rule of TF's Reshape, shared by the Reshape kernel and the
// compiler's shape inference: the requested sizes with a -1 worked out from
// the input's element count, as TF's ReshapeOp (kernels/reshape_op.h)
// computes it, over a partially known input.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_SHAPE_RESHAPE_H
#define TFRT_FALLBACK_RUNTIME_SHAPE_RESHAPE_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/Status.h"

#include "absl/types/span.h"

#include <cstdint>
#include <limits>

namespace tfrt_fallback::rt::shape {

/// An entry of a requested shape whose value the caller does not know (the
/// compiler's partially known shape tensors); -1 is TF's "infer this one".
inline constexpr int64_t kUnknownSize = std::numeric_limits<int64_t>::min();

/// The shape Reshape gives `input` for the requested `sizes` (TF's
/// ReshapeOp). At most one size may be -1: it becomes what makes the
/// element counts match, counted as TF's kernel counts them: when a size is
/// 0, zero dims of the input are left out on both sides ([0, 3] to [0, -1]
/// is [0, 3]; [3, 0, 2] to [-1, 0] is [6, 0]); otherwise an empty input
/// makes it 0. Dims that depend on an unknown input dim or size are
/// unknown (-1) in the result. Errors, TF's texts (InvalidArgument):
/// "Only one input size may be -1, not both 0 and 2", "Size 1 must be
/// non-negative, not -2", "Requested shape has too many elements", and,
/// when the input is fully known, "Input to reshape is a tensor with 7
/// values, but the requested shape requires a multiple of 3" and "Input to
/// reshape is a tensor with 6 values, but the requested shape has 4".
StatusOr<PartialShape> reshapeOutputShape(const PartialShape &input,
                                          absl::Span<const int64_t> sizes);

} // namespace tfrt_fallback::rt::shape

#endif // TFRT_FALLBACK_RUNTIME_SHAPE_RESHAPE_H

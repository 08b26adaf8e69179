//===- Pad.h - Padded shapes ------------------------------------*- C++ -*-===//
//
// The shape rule of Pad, PadV2 and MirrorPad (TF's PadOp and
// MirrorPadOp kernels, PadShapeFn): each dim grows by its paddings before
// and after it. Shared by the padding kernels and the compiler's shape
// inference.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_SHAPE_PAD_H
#define TFRT_FALLBACK_RUNTIME_SHAPE_PAD_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/Status.h"

#include "absl/types/span.h"

#include <cstdint>

namespace tfrt_fallback::rt::shape {

/// `input` (-1 where a dim is unknown) grown by `paddings`, the row-major
/// [rank, 2] paddings operand: dim d by paddings[2d] before and
/// paddings[2d + 1] after; an unknown dim stays unknown. InvalidArgument
/// "Paddings must be non-negative: -1 2" (TF's text) for a negative
/// padding, "Paddings 1 2 of dimension 0 overflow" when a dim overflows
/// int64. The caller checks that `paddings` has 2 * rank entries (its
/// message names its tensors' shapes); an input of unknown rank stays so.
StatusOr<PartialShape> paddedShape(const PartialShape &input,
                                   absl::Span<const int64_t> paddings);

} // namespace tfrt_fallback::rt::shape

#endif // TFRT_FALLBACK_RUNTIME_SHAPE_PAD_H

//===- Concat.h - Concatenated shapes ---------------------------*- C++ -*-===//
//
// The shape rule of ConcatV2 and Concat (TF's ConcatBaseOp kernel and
// ConcatShapeHelper): inputs of one rank, equal dims but along the axis,
// whose sizes add up. Shared by the concatenation kernels and the
// compiler's shape inference.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_SHAPE_CONCAT_H
#define TFRT_FALLBACK_RUNTIME_SHAPE_CONCAT_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/Status.h"

#include "absl/types/span.h"

#include <cstdint>

namespace tfrt_fallback::rt::shape {

/// The concatenation of `inputs` (one or more; -1 where a dim is unknown)
/// along `axis` (negative counts from the end): their dims merged, the
/// axis's sizes added (unknown if one is). Inputs of unknown rank take the
/// others' rank; all of unknown rank give unknown rank. InvalidArgument
/// with TF's texts: "ConcatOp : Expected concatenating dimensions in the
/// range [-2, 2), but got 2", "ConcatOp : Can't concatenate scalars (use
/// tf.stack instead)", "ConcatOp : Ranks of all input tensors should match:
/// shape[0] = [2,3] vs. shape[1] = [2]", "ConcatOp : Dimension 1 in both
/// shapes must be equal: shape[0] = [2,3] vs. shape[1] = [2,4]", and
/// "ConcatOp : the output dimension 0 overflows".
StatusOr<PartialShape> concatShape(absl::Span<const PartialShape> inputs,
                                   int64_t axis);

} // namespace tfrt_fallback::rt::shape

#endif // TFRT_FALLBACK_RUNTIME_SHAPE_CONCAT_H

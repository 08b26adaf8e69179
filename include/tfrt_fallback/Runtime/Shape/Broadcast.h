//===- Broadcast.h - NumPy broadcasting of shapes ---------------*- C++ -*-===//
//
// The broadcast rule of TF's element-wise ops (TF's BCast for kernels,
// BroadcastBinaryOpOutputShapeFn for shape inference), shared by the
// broadcasting kernels and the compiler's shape inference.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_SHAPE_BROADCAST_H
#define TFRT_FALLBACK_RUNTIME_SHAPE_BROADCAST_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/Status.h"

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

#include <cstdint>

namespace tfrt_fallback::rt::shape {

/// Broadcasts the dims `a` and `b` (-1 where unknown) NumPy's way into
/// `out`: right-aligned, a missing leading dim is 1, equal dims stay, a 1
/// takes the other dim (so 1 against 0 is 0). An unknown dim against a
/// known d is d unless d is 1 (the unknown one is 1 or d); otherwise
/// unknown. False if two known dims differ and neither is 1. No
/// allocation for up to 6 dims: kernels call it once per run.
bool broadcastDims(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                   absl::InlinedVector<int64_t, 6> *out);

/// The broadcast of `shapes` (one or more), broadcastDims from left to
/// right; of unknown rank if one is. InvalidArgument "Incompatible shapes:
/// [3,4] vs. [5]" (TF's text) naming the broadcast of the shapes before
/// the one that does not broadcast, and that one.
StatusOr<PartialShape> broadcastShapes(absl::Span<const PartialShape> shapes);

} // namespace tfrt_fallback::rt::shape

#endif // TFRT_FALLBACK_RUNTIME_SHAPE_BROADCAST_H

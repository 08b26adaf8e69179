//===- Pad.cpp - Padded shapes ----------------------------------*- C++ -*-===//
//
// shape::paddedShape: TF's PadOp checks (pad_op.cc) and PadShapeFn.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Pad.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <vector>

namespace tfrt_fallback::rt::shape {

StatusOr<PartialShape> paddedShape(const PartialShape &input,
                                   absl::Span<const int64_t> paddings) {
  if (!input.hasRank())
    return input;
  absl::Span<const int64_t> dims = input.dims();
  if (paddings.size() != 2 * dims.size())
    return makeError(StatusCode::kInvalidArgument,
                     "%zu paddings for a shape of rank %zu", paddings.size(),
                     dims.size());
  std::vector<int64_t> out(dims.size());
  for (size_t d = 0; d < dims.size(); ++d) {
    const int64_t before = paddings[2 * d], after = paddings[2 * d + 1];
    if (before < 0 || after < 0)
      return makeError(StatusCode::kInvalidArgument,
                       "Paddings must be non-negative: %lld %lld",
                       static_cast<long long>(before),
                       static_cast<long long>(after));
    if (dims[d] < 0) {
      out[d] = -1;
      continue;
    }
    if (__builtin_add_overflow(dims[d], before, &out[d]) ||
        __builtin_add_overflow(out[d], after, &out[d]))
      return makeError(StatusCode::kInvalidArgument,
                       "Paddings %lld %lld of dimension %zu overflow",
                       static_cast<long long>(before),
                       static_cast<long long>(after), d);
  }
  return PartialShape(out);
}

} // namespace tfrt_fallback::rt::shape

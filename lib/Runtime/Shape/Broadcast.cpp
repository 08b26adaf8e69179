//===- Broadcast.cpp - NumPy broadcasting of shapes -------------*- C++ -*-===//
//
// TF's BCast over known and unknown dims.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Broadcast.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <algorithm>

namespace tfrt_fallback::rt::shape {

bool broadcastDims(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                   absl::InlinedVector<int64_t, 6> *out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  const size_t offsetA = rank - a.size(), offsetB = rank - b.size();
  for (size_t i = 0; i < rank; ++i) {
    const int64_t x = i < offsetA ? 1 : a[i - offsetA];
    const int64_t y = i < offsetB ? 1 : b[i - offsetB];
    int64_t dim;
    if (x >= 0 && y >= 0) {
      if (x == y || y == 1)
        dim = x;
      else if (x == 1)
        dim = y;
      else
        return false;
    } else if (x >= 0) {
      dim = x == 1 ? -1 : x;
    } else if (y >= 0) {
      dim = y == 1 ? -1 : y;
    } else {
      dim = -1;
    }
    (*out)[i] = dim;
  }
  return true;
}

StatusOr<PartialShape> broadcastShapes(absl::Span<const PartialShape> shapes) {
  if (shapes.empty())
    return InvalidArgumentError("no shapes to broadcast");
  for (const PartialShape &shape : shapes)
    if (!shape.hasRank())
      return PartialShape::unknownRank();
  PartialShape result = shapes[0];
  absl::InlinedVector<int64_t, 6> dims;
  for (size_t i = 1; i < shapes.size(); ++i) {
    if (!broadcastDims(result.dims(), shapes[i].dims(), &dims))
      return makeError(StatusCode::kInvalidArgument,
                       "Incompatible shapes: %s vs. %s",
                       result.toString().c_str(), shapes[i].toString().c_str());
    result = PartialShape(dims);
  }
  return result;
}

} // namespace tfrt_fallback::rt::shape

//===- Concat.cpp - Concatenated shapes -------------------------*- C++ -*-===//
//
// shape::concatShape: TF's ConcatBaseOp checks (concat_op.cc), in its
// order, over partial shapes.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Concat.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <vector>

namespace tfrt_fallback::rt::shape {

StatusOr<PartialShape> concatShape(absl::Span<const PartialShape> inputs,
                                   int64_t axis) {
  const PartialShape *first = nullptr;
  for (size_t i = 0; i < inputs.size() && !first; ++i)
    if (inputs[i].hasRank())
      first = &inputs[i];
  if (!first)
    return PartialShape::unknownRank();
  const int64_t rank = first->rank();
  if (!((axis >= -rank && axis < rank) || (rank == 0 && axis == 0)))
    return makeError(StatusCode::kInvalidArgument,
                     "ConcatOp : Expected concatenating dimensions in the "
                     "range [%lld, %lld), but got %lld",
                     static_cast<long long>(-rank),
                     static_cast<long long>(rank),
                     static_cast<long long>(axis));
  if (rank == 0)
    return makeError(
        StatusCode::kInvalidArgument,
        "ConcatOp : Can't concatenate scalars (use tf.stack instead)");
  if (axis < 0)
    axis += rank;
  std::vector<int64_t> out(first->dims().begin(), first->dims().end());
  int64_t axisSize = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const PartialShape &in = inputs[i];
    if (!in.hasRank()) {
      axisSize = -1;
      continue;
    }
    if (in.rank() != rank)
      return makeError(StatusCode::kInvalidArgument,
                       "ConcatOp : Ranks of all input tensors should match: "
                       "shape[0] = %s vs. shape[%zu] = %s",
                       first->toString().c_str(), i, in.toString().c_str());
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t dim = in.dims()[d];
      if (d == axis || dim < 0)
        continue;
      if (out[d] >= 0 && out[d] != dim)
        return makeError(StatusCode::kInvalidArgument,
                         "ConcatOp : Dimension %lld in both shapes must be "
                         "equal: shape[0] = %s vs. shape[%zu] = %s",
                         static_cast<long long>(d), first->toString().c_str(),
                         i, in.toString().c_str());
      out[d] = dim;
    }
    const int64_t size = in.dims()[axis];
    if (axisSize < 0 || size < 0) {
      axisSize = -1;
      continue;
    }
    if (__builtin_add_overflow(axisSize, size, &axisSize))
      return makeError(StatusCode::kInvalidArgument,
                       "ConcatOp : the output dimension %lld overflows",
                       static_cast<long long>(axis));
  }
  out[axis] = axisSize;
  return PartialShape(out);
}

} // namespace tfrt_fallback::rt::shape

//===- Reshape.cpp - Reshape's output shape ---------------------*- C++ -*-===//
//
// TF's ReshapeOp (kernels/reshape_op.h) over a partially known input.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Reshape.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <cinttypes>

namespace tfrt_fallback::rt::shape {
namespace {

/// The product of known dims, or -1 if it overflows int64.
int64_t numElementsOrMinusOne(absl::Span<const int64_t> dims) {
  int64_t count = 1;
  for (int64_t dim : dims) {
    if (dim == 0)
      return 0;
    if (count > std::numeric_limits<int64_t>::max() / dim)
      count = -1;
    else if (count >= 0)
      count *= dim;
  }
  return count;
}

} // namespace

StatusOr<PartialShape> reshapeOutputShape(const PartialShape &input,
                                          absl::Span<const int64_t> sizes) {
  const int64_t rank = static_cast<int64_t>(sizes.size());
  absl::InlinedVector<int64_t, 6> dims;
  int64_t product = 1; // Of the positive known sizes.
  int64_t unknown = -1;
  bool sizesHaveZero = false, sizesKnown = true;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t s = sizes[d];
    if (s == kUnknownSize) {
      sizesKnown = false;
      dims.push_back(-1);
    } else if (s == -1) {
      if (unknown != -1)
        return makeError(StatusCode::kInvalidArgument,
                         "Only one input size may be -1, not both %" PRId64
                         " and %" PRId64,
                         unknown, d);
      unknown = d;
      dims.push_back(-1);
    } else {
      if (s < 0)
        return makeError(StatusCode::kInvalidArgument,
                         "Size %" PRId64 " must be non-negative, not %" PRId64,
                         d, s);
      if (s != 0 && product > std::numeric_limits<int64_t>::max() / s)
        return InvalidArgumentError("Requested shape has too many elements");
      dims.push_back(s);
      if (s == 0)
        sizesHaveZero = true;
      else
        product *= s;
    }
  }

  // The input's element count, with its zero dims left out when a size is
  // 0; -1 when it depends on an unknown dim.
  const bool inputKnown = input.isFullyDefined();
  int64_t inputCount = -1;
  bool inputHasZero = false;
  if (input.hasRank()) {
    inputCount = 1;
    bool countKnown = true;
    for (int64_t dim : input.dims()) {
      if (dim < 0) {
        countKnown = false;
      } else if (dim > 0 || !sizesHaveZero) {
        if (dim != 0 && inputCount > std::numeric_limits<int64_t>::max() / dim)
          countKnown = false;
        else
          inputCount *= dim;
      } else {
        inputHasZero = true;
      }
    }
    // An empty input has no elements whatever its unknown dims are.
    if (!countKnown && inputCount != 0)
      inputCount = -1;
  }

  if (unknown != -1 && sizesKnown && inputCount >= 0) {
    const int64_t missing = inputCount / product;
    if (inputKnown && !inputHasZero && product * missing != inputCount)
      return makeError(StatusCode::kInvalidArgument,
                       "Input to reshape is a tensor with %" PRId64
                       " values, but the requested shape requires a multiple "
                       "of %" PRId64,
                       inputCount, product);
    dims[unknown] = missing;
  }

  PartialShape result(dims);
  if (inputKnown && result.isFullyDefined()) {
    // The sizes' product fits (checked above); an input's may not (the
    // compiler's types are not checked tensors): then they differ.
    int64_t outputElements = 1;
    for (int64_t dim : dims)
      outputElements *= dim;
    const int64_t inputElements = numElementsOrMinusOne(input.dims());
    if (outputElements != inputElements)
      return makeError(StatusCode::kInvalidArgument,
                       "Input to reshape is a tensor with %" PRId64
                       " values, but the requested shape has %" PRId64,
                       inputElements, outputElements);
  }
  return result;
}

} // namespace tfrt_fallback::rt::shape

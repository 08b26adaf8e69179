//===- Window.cpp - Sliding windows: output size and padding ----*- C++ -*-===//
//
// TF's GetWindowedOutputSizeVerbose and the padding and data-format
// attributes.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Shape/Window.h"

#include "tfrt_fallback/Runtime/StrFormat.h"

#include <algorithm>
#include <cinttypes>

namespace tfrt_fallback::rt::shape {

StatusOr<Padding> parsePadding(std::string_view name, bool allowExplicit) {
  if (name == "SAME")
    return Padding::Same;
  if (name == "VALID")
    return Padding::Valid;
  if (name == "EXPLICIT" && allowExplicit)
    return Padding::Explicit;
  return makeError(StatusCode::kInvalidArgument, "Invalid padding '%.*s'",
                   TFRT_FALLBACK_SV(name));
}

StatusOr<DataFormat> parseDataFormat(std::string_view name) {
  if (name == "NHWC")
    return DataFormat{/*channelsFirst=*/false};
  if (name == "NCHW")
    return DataFormat{/*channelsFirst=*/true};
  return InvalidArgumentError("Invalid data format");
}

StatusOr<WindowDim> windowedOutputSize(int64_t in, int64_t k, int64_t dilation,
                                       int64_t stride, Padding padding,
                                       int64_t explicitBefore,
                                       int64_t explicitAfter) {
  if (stride <= 0)
    return makeError(StatusCode::kInvalidArgument,
                     "Stride must be > 0, but got %" PRId64, stride);
  if (dilation < 1)
    return makeError(StatusCode::kInvalidArgument,
                     "Dilation rate must be >= 1, but got %" PRId64, dilation);
  const int64_t eff = (k - 1) * dilation + 1;
  WindowDim dim;
  if (padding == Padding::Explicit) {
    dim.padBefore = explicitBefore;
    dim.padAfter = explicitAfter;
  }
  if (in < 0) {
    dim.out = -1;
    return dim;
  }
  switch (padding) {
  case Padding::Valid:
    dim.out = (in - eff + stride) / stride;
    break;
  case Padding::Same: {
    dim.out = (in + stride - 1) / stride;
    const int64_t needed =
        std::max<int64_t>(0, (dim.out - 1) * stride + eff - in);
    dim.padBefore = needed / 2;
    dim.padAfter = needed - dim.padBefore;
    break;
  }
  case Padding::Explicit:
    dim.out = (in + explicitBefore + explicitAfter - eff + stride) / stride;
    break;
  }
  if (dim.out < 0)
    return makeError(StatusCode::kInvalidArgument,
                     "Computed output size would be negative: %" PRId64
                     " [input_size: %" PRId64
                     ", effective_filter_size: %" PRId64 ", stride: %" PRId64
                     "]",
                     dim.out, in, eff, stride);
  return dim;
}

} // namespace tfrt_fallback::rt::shape

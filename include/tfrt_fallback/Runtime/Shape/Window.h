//===- Window.h - Sliding windows: output size and padding ------*- C++ -*-===//
//
// The window rules of TF's convolutions and poolings, shared by the kernels
// and the compiler's shape inference: the "padding" and "data_format"
// attributes, and GetWindowedOutputSizeVerbose (framework/
// kernel_shape_util.cc), the output size and padding of one spatial dim.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_SHAPE_WINDOW_H
#define TFRT_FALLBACK_RUNTIME_SHAPE_WINDOW_H

#include "tfrt_fallback/Runtime/Status.h"

#include <cstdint>
#include <string_view>

namespace tfrt_fallback::rt::shape {

/// TF's Padding.
enum class Padding { Same, Valid, Explicit };

/// TF's "padding" attribute: "SAME", "VALID" or, when `allowExplicit`,
/// "EXPLICIT". InvalidArgument "Invalid padding 'FULL'" otherwise.
StatusOr<Padding> parsePadding(std::string_view name,
                               bool allowExplicit = true);

/// The indices of the batch, channel and spatial dims of a 4-D image
/// tensor (TF's GetTensorDimIndex).
struct DataFormat {
  bool channelsFirst = false;
  int batch() const { return 0; }
  int channels() const { return channelsFirst ? 1 : 3; }
  int height() const { return channelsFirst ? 2 : 1; }
  int width() const { return channelsFirst ? 3 : 2; }
};

/// TF's "data_format" attribute of 2-D image ops: "NHWC" or "NCHW".
/// InvalidArgument "Invalid data format" (TF's text) otherwise.
StatusOr<DataFormat> parseDataFormat(std::string_view name);

/// One spatial dim of a sliding window: the output size and the padding
/// before and after.
struct WindowDim {
  int64_t out = 0;
  int64_t padBefore = 0;
  int64_t padAfter = 0;
};

/// TF's GetWindowedOutputSizeVerbose for an input of `in` (-1: unknown), a
/// window of `k`, `dilation` and `stride`: with eff = (k - 1) * dilation
/// + 1, VALID: out = (in - eff + stride) / stride, no padding; SAME: out =
/// ceil(in / stride), pad_needed = max(0, (out - 1) * stride + eff - in)
/// split with the smaller half before; EXPLICIT: out = (in + before + after
/// - eff + stride) / stride with the given padding. An unknown input gives
/// an unknown (-1) output (and SAME padding). InvalidArgument, TF's texts:
/// "Stride must be > 0, but got 0", "Dilation rate must be >= 1, but got
/// 0", "Computed output size would be negative: -1 [input_size: 2,
/// effective_filter_size: 4, stride: 1]".
StatusOr<WindowDim> windowedOutputSize(int64_t in, int64_t k, int64_t dilation,
                                       int64_t stride, Padding padding,
                                       int64_t explicitBefore = 0,
                                       int64_t explicitAfter = 0);

} // namespace tfrt_fallback::rt::shape

#endif // TFRT_FALLBACK_RUNTIME_SHAPE_WINDOW_H

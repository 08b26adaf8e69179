//===- Window.h - Convolution and pooling windows ---------------*- C++ -*-===//
//
// Private to lib/Runtime/Kernels. Convolution and pooling windows (the shape
// layer's rules, Shape/Window.h, with each error naming the op), layout copies
// and per-thread scratch.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_WINDOW_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_WINDOW_H

#include "common/Checks.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Shape/Window.h"
#include "tfrt_fallback/Runtime/Status.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tfrt_fallback::rt::kernels {

//===----------------------------------------------------------------------===//
// Convolution / pooling windows (shared by the Conv, Pooling and MatMul
// families)
//===----------------------------------------------------------------------===//

// The rules are the shape layer's (Shape/Window.h), which the compiler's
// shape inference uses too; these adapt them to the kernels' errors.
using WindowPadding = shape::Padding;
using WindowDim = shape::WindowDim;

/// Reads the node's "padding" attribute (TF's Padding): "SAME", "VALID"
/// and, when `allowExplicit`, "EXPLICIT". Any other value is the one error
/// every kernel gives, shape::parsePadding's ("Invalid padding 'FULL'"),
/// naming `kernel`.
inline Status readPadding(const OpKernel &kernel,
                          OpKernelConstructionInterface *ctx,
                          bool allowExplicit, WindowPadding *out) {
  std::string name;
  if (Status status = ctx->getAttr("padding", &name); !status.ok())
    return status;
  StatusOr<WindowPadding> padding = shape::parsePadding(name, allowExplicit);
  if (!padding.ok())
    return opError(kernel, padding.status());
  *out = *padding;
  return OkStatus();
}

/// shape::windowedOutputSize, its error naming `kernel`.
inline Status computeWindow(const OpKernel &kernel, int64_t in, int64_t k,
                            int64_t dilation, int64_t stride,
                            WindowPadding padding, int64_t explicitBefore,
                            int64_t explicitAfter, WindowDim *dim) {
  StatusOr<WindowDim> window = shape::windowedOutputSize(
      in, k, dilation, stride, padding, explicitBefore, explicitAfter);
  if (!window.ok())
    return opError(kernel, window.status());
  *dim = *window;
  return OkStatus();
}

/// Copies an NCHW tensor of `n` images, `c` channels and `hw` pixels to
/// NHWC (`toNhwc`) or back.
template <typename T>
void transposeChannels(const T *in, T *out, int64_t n, int64_t c, int64_t hw,
                       bool toNhwc) {
  for (int64_t b = 0; b < n; ++b) {
    const T *src = in + b * c * hw;
    T *dst = out + b * c * hw;
    for (int64_t ch = 0; ch < c; ++ch)
      for (int64_t p = 0; p < hw; ++p) {
        if (toNhwc)
          dst[p * c + ch] = src[ch * hw + p];
        else
          dst[ch * hw + p] = src[p * c + ch];
      }
  }
}

/// A per-thread scratch buffer of at least `n` elements, reused across
/// calls (slot distinguishes buffers needed at the same time).
template <typename T, int Slot> T *threadScratch(size_t n) {
  thread_local std::vector<T> buffer;
  if (buffer.size() < n)
    buffer.resize(n);
  return buffer.data();
}

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_WINDOW_H

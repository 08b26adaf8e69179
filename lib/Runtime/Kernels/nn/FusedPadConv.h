//===- FusedPadConv.h - FusedPadConv2D, FusedResizeAndPadConv2D -*- C++ -*-===//
//
// Private to lib/Runtime/Kernels: the entry point into ConvKernels.cpp's
// Conv2D path (im2col + the runtime's GEMM for f32, Eigen's contraction for
// f64) that FusedPadConv2D and FusedResizeAndPadConv2D
// (FusedPadConvKernels.cpp) run on the padded image.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_NN_FUSEDPADCONV_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_NN_FUSEDPADCONV_H

#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdint>

namespace tfrt_fallback::rt::kernels {

/// Conv2D's NHWC convolution (no epilogue) of `in` [n, inH, inW, inC] with
/// `filter` [kH, kW, inC, outC] into `out` [n, outH, outW, outC]: output
/// pixel (y, x) reads input rows y * strideH - padTop + i and columns
/// x * strideW - padLeft + j, zeros outside the input. padTop and padLeft
/// may be negative (windows shifted into the input). Instantiated for
/// float and double.
template <typename T>
void conv2dNhwcNoEpilogue(const Eigen::ThreadPoolDevice &device, const T *in,
                          const T *filter, T *out, int64_t n, int64_t inH,
                          int64_t inW, int64_t inC, int64_t kH, int64_t kW,
                          int64_t outC, int64_t outH, int64_t outW,
                          int64_t strideH, int64_t strideW, int64_t padTop,
                          int64_t padLeft);

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_NN_FUSEDPADCONV_H

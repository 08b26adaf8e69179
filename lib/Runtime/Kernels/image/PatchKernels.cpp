//===- PatchKernels.cpp - ExtractImagePatches -------------------*- C++ -*-===//
//
// ExtractImagePatches (tensorflow/core/kernels/image/
// extract_image_patches_op.cc): every ksize_rows x ksize_cols patch of an
// NHWC image, sampled with `rates` and moved by `strides`, flattened into
// the depth of the output. Moves element bytes: one kernel for every dtype.
//
//===----------------------------------------------------------------------===//

#include "common/Registration.h"
#include "common/Window.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// ExtractImagePatches(images [batch, rows, cols, depth]; ksizes, strides,
/// rates: [1, r, c, 1], padding SAME or VALID): output [batch, out_rows,
/// out_cols, ksize_rows * ksize_cols * depth], where patch element (i, j,
/// d) of output (r, c) is input (r * stride_rows - pad_top + i *
/// rate_rows, c * stride_cols - pad_left + j * rate_cols, d), 0 where that
/// is outside the image. Output sizes and SAME padding as convolutions
/// with the effective kernel ksize + (ksize - 1) * (rate - 1). TF's
/// errors: (Unimplemented) "Only support ksizes across space.",
/// (OutOfRange) "strides is out of range.", "input must be
/// 4-dimensional[..]".
class ExtractImagePatchesKernel final : public OpKernel {
public:
  explicit ExtractImagePatchesKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    for (auto [name, attr] :
         {std::pair<const char *, std::vector<int64_t> *>{"ksizes", &ksizes_},
          {"strides", &strides_},
          {"rates", &rates_}}) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr(name, attr));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, attr->size() == 4,
          errorf("%s must have 4 elements, got %d", name, attr->size()));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, (*attr)[0] == 1 && (*attr)[3] == 1,
          makeOpError(StatusCode::kUnimplemented, opName(), nodeName(),
                      strCat("Only support ", name, " across space.")));
      TFRT_FALLBACK_OP_REQUIRES(ctx, (*attr)[1] >= 1 && (*attr)[2] >= 1,
                                makeOpError(StatusCode::kOutOfRange, opName(),
                                            nodeName(),
                                            strCat(name, " is out of range.")));
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readPadding(*this, ctx, /*allowExplicit=*/false, &padding_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, in.rank() == 4,
        errorf("input must be 4-dimensional%s", in.shape().toString()));
    const int64_t batch = in.dim(0), rows = in.dim(1), cols = in.dim(2);
    const int64_t depth = in.dim(3);
    const int64_t kr = ksizes_[1], kc = ksizes_[2];
    WindowDim dr, dc;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeWindow(*this, rows, kr + (kr - 1) * (rates_[1] - 1), 1,
                           strides_[1], padding_, 0, 0, &dr));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, computeWindow(*this, cols, kc + (kc - 1) * (rates_[2] - 1), 1,
                           strides_[2], padding_, 0, 0, &dc));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(
                 0, TensorShape{batch, dr.out, dc.out, kr * kc * depth}, &out));
    if (out->numElements() == 0)
      return;
    const size_t bytes = depth * dtypeSize(in.dtype());
    const char *src = static_cast<const char *>(in.rawData());
    char *dst = static_cast<char *>(out->rawData());
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t r = 0; r < dr.out; ++r)
        for (int64_t c = 0; c < dc.out; ++c)
          for (int64_t i = 0; i < kr; ++i) {
            const int64_t y = r * strides_[1] - dr.padBefore + i * rates_[1];
            for (int64_t j = 0; j < kc; ++j, dst += bytes) {
              const int64_t x = c * strides_[2] - dc.padBefore + j * rates_[2];
              if (y < 0 || y >= rows || x < 0 || x >= cols)
                std::memset(dst, 0, bytes);
              else
                std::memcpy(dst, src + ((b * rows + y) * cols + x) * bytes,
                            bytes);
            }
          }
  }

private:
  std::vector<int64_t> ksizes_, strides_, rates_;
  WindowPadding padding_ = WindowPadding::Valid;
};

} // namespace

void registerPatchKernels(KernelRegistry &registry) {
  registerKernel<OpId::kExtractImagePatches, ExtractImagePatchesKernel>(
      registry, {{"T", kRealNumberDTypes}});
}

} // namespace tfrt_fallback::rt

//===- FakeQuantKernels.cpp - FakeQuantWithMinMax* --------------*- C++ -*-===//
//
// Fake quantization (tensorflow/core/kernels/fake_quant_ops.cc,
// fake_quant_ops_functor.h): float tensors clamped to a range and rounded
// to the 2^num_bits levels a quantized model would use, with TF's range
// nudging so that 0.0 is exactly representable. Float only, as TF.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// TF's Nudge: the scale (max - min) / (quant_max - quant_min), and the
/// range moved so that its zero point (quant_min - min / scale, rounded
/// half away from zero and clamped to the levels) is an integer.
struct Nudged {
  float min, max, scale, invScale;
};
Nudged nudge(float min, float max, int quantMin, int quantMax) {
  const float qmin = static_cast<float>(quantMin);
  const float qmax = static_cast<float>(quantMax);
  Nudged n;
  n.scale = (max - min) / (qmax - qmin);
  n.invScale = (qmax - qmin) / (max - min);
  const float zeroFromMin = qmin - min / n.scale;
  uint16_t zero;
  if (zeroFromMin < qmin)
    zero = static_cast<uint16_t>(quantMin);
  else if (zeroFromMin > qmax)
    zero = static_cast<uint16_t>(quantMax);
  else
    zero = static_cast<uint16_t>(std::round(zeroFromMin));
  n.min = (qmin - zero) * n.scale;
  n.max = (qmax - zero) * n.scale;
  return n;
}

/// out = floor((clamp(x, nmin, nmax) - nmin) * inv_scale - quant_zero +
/// 0.5) * scale for n values, quant_zero = floor(-nmin * inv_scale + 0.5).
/// `divide` divides by the scale instead of multiplying by its inverse
/// (FakeQuantWithMinMaxVars does). min == max == 0 gives zeros.
void fakeQuant(const float *in, float *out, int64_t n, int64_t stride,
               float min, float max, int quantMin, int quantMax, bool divide) {
  if (min == 0.0f && max == 0.0f) {
    for (int64_t i = 0; i < n; ++i)
      out[i * stride] = 0.0f;
    return;
  }
  const Nudged q = nudge(min, max, quantMin, quantMax);
  const float quantZero = std::floor(-q.min * q.invScale + 0.5f);
  for (int64_t i = 0; i < n; ++i) {
    const float shifted =
        std::max(std::min(in[i * stride], q.max), q.min) - q.min;
    const float scaled = divide ? shifted / q.scale : shifted * q.invScale;
    out[i * stride] = std::floor(scaled - quantZero + 0.5f) * q.scale;
  }
}

/// The num_bits (2..16, default 8) and narrow_range (default false)
/// attributes as the quantized range [narrow ? 1 : 0, 2^num_bits - 1].
/// "num_bits must be between 2 and 16, inclusive".
Status readQuantRange(const OpKernel &op, OpKernelConstructionInterface *ctx,
                      int *quantMin, int *quantMax) {
  int64_t numBits = 8;
  bool narrow = false;
  if (Status s = getOptionalAttr(ctx, "num_bits", &numBits); !s.ok())
    return s;
  if (Status s = getOptionalAttr(ctx, "narrow_range", &narrow); !s.ok())
    return s;
  if (numBits < 2 || numBits > 16)
    return op.errorf("num_bits must be between 2 and 16, inclusive");
  *quantMin = narrow ? 1 : 0;
  *quantMax = (1 << numBits) - 1;
  return OkStatus();
}

/// FakeQuantWithMinMaxArgs(inputs; min = -6, max = 6, num_bits,
/// narrow_range): the range from attributes ("min has to be smaller than
/// max, was: 1 >= 1").
class FakeQuantArgsKernel final : public OpKernel {
public:
  explicit FakeQuantArgsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "min", &min_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, getOptionalAttr(ctx, "max", &max_));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, min_ < max_,
        errorf("min has to be smaller than max, was: %s >= %s", min_, max_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readQuantRange(*this, ctx, &quantMin_, &quantMax_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    fakeQuant(in.data<float>(), out->data<float>(), in.numElements(), 1, min_,
              max_, quantMin_, quantMax_, false);
  }

private:
  float min_ = -6.0f, max_ = 6.0f;
  int quantMin_ = 0, quantMax_ = 255;
};

/// FakeQuantWithMinMaxVars(inputs, min, max; num_bits, narrow_range): the
/// range from scalar tensors ("`min` must be rank 0 but is rank 1").
/// FakeQuantWithMinMaxVarsPerChannel: min and max are vectors with one
/// range per element of the last dim ("`min` must be rank 1 but is rank
/// 0", "min has incorrect size, expected 3 was 2").
template <bool PerChannel> class FakeQuantVarsKernel final : public OpKernel {
public:
  explicit FakeQuantVarsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, readQuantRange(*this, ctx, &quantMin_, &quantMax_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const Tensor &min = ctx->input(1);
    const Tensor &max = ctx->input(2);
    const int64_t depth =
        PerChannel && in.rank() > 0 ? in.dim(in.rank() - 1) : 1;
    for (auto [name, t] : {std::pair<const char *, const Tensor *>{"min", &min},
                           {"max", &max}}) {
      if (PerChannel) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t->rank() == 1,
            errorf("`%s` must be rank 1 but is rank %d", name, t->rank()));
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t->dim(0) == depth,
            errorf("%s has incorrect size, expected %d was %d", name, depth,
                   t->dim(0)));
      } else {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, t->rank() == 0,
            errorf("`%s` must be rank 0 but is rank %d", name, t->rank()));
      }
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->forwardInputOrAllocateOutput({0}, 0, in.shape(), &out));
    if (in.numElements() == 0)
      return;
    const int64_t rows = in.numElements() / depth;
    for (int64_t c = 0; c < depth; ++c)
      fakeQuant(in.data<float>() + c, out->data<float>() + c, rows, depth,
                min.data<float>()[c], max.data<float>()[c], quantMin_,
                quantMax_, /*divide=*/!PerChannel);
  }

private:
  int quantMin_ = 0, quantMax_ = 255;
};

} // namespace

void registerFakeQuantKernels(KernelRegistry &registry) {
  registerKernel<OpId::kFakeQuantWithMinMaxArgs, FakeQuantArgsKernel>(registry);
  registerKernel<OpId::kFakeQuantWithMinMaxVars, FakeQuantVarsKernel<false>>(
      registry);
  registerKernel<OpId::kFakeQuantWithMinMaxVarsPerChannel,
                 FakeQuantVarsKernel<true>>(registry);
}

} // namespace tfrt_fallback::rt

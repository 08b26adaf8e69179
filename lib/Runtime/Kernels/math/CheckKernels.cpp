//===- CheckKernels.cpp - Assert, CheckNumerics -----------------*- C++ -*-===//
//
// Runtime checks a graph makes on its values (tensorflow/core/kernels/
// logging_ops.cc, check_numerics_op.cc): Assert fails the op with the
// summarized data tensors when its condition is false; CheckNumerics and
// CheckNumericsV2 pass their input through and fail on a NaN or infinity.
// The failure is an InvalidArgument error naming the node, as TF's.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"
#include "common/Summarize.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Assert
//===----------------------------------------------------------------------===//

/// Assert(condition: bool scalar, data: [T]; summarize = 3): nothing when
/// the condition holds, else "assertion failed: [d0] [d1] ...", each data
/// tensor summarized to `summarize` elements. "In[0] should be a scalar:
/// [2]".
class AssertKernel final : public OpKernel {
public:
  explicit AssertKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "summarize", &summarize_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &cond = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, cond.rank() == 0 && cond.dtype() == DType::Bool,
        errorf("In[0] should be a scalar: %s", cond.shape().toString()));
    if (cond.data<bool>()[0])
      return;
    std::string msg = "assertion failed: ";
    for (int i = 1; i < ctx->numInputs(); ++i) {
      strAppend(&msg, "[", summarizeValue(ctx->input(i), summarize_), "]");
      if (i < ctx->numInputs() - 1)
        msg.push_back(' ');
    }
    ctx->ctxFailure(errorf("%s", msg));
  }

private:
  int64_t summarize_ = 3;
};

//===----------------------------------------------------------------------===//
// CheckNumerics, CheckNumericsV2
//===----------------------------------------------------------------------===//

/// CheckNumerics(tensor; message) / CheckNumericsV2: the tensor itself,
/// unless an element is NaN or infinite: then "<message> : Tensor had NaN
/// values" (V1: "Inf", "NaN" or "Inf and NaN"; V2 tells -Inf from +Inf:
/// "-Inf, +Inf, and NaN", "+Inf and NaN", ...).
template <typename T, bool V2>
class CheckNumericsKernel final : public OpKernel {
public:
  explicit CheckNumericsKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("message", &message_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &in = ctx->input(0);
    const T *p = in.data<T>();
    bool nan = false, negInf = false, posInf = false;
    for (int64_t i = 0; i < in.numElements(); ++i) {
      const float v = static_cast<float>(p[i]);
      if constexpr (std::is_same_v<T, double>) {
        const double d = p[i];
        nan |= std::isnan(d);
        negInf |= std::isinf(d) && d < 0;
        posInf |= std::isinf(d) && d > 0;
      } else {
        nan |= std::isnan(v);
        negInf |= std::isinf(v) && v < 0;
        posInf |= std::isinf(v) && v > 0;
      }
    }
    if (nan || negInf || posInf) {
      std::vector<const char *> what;
      if (V2) {
        if (negInf)
          what.push_back("-Inf");
        if (posInf)
          what.push_back("+Inf");
        if (nan)
          what.push_back("NaN");
      } else {
        if (negInf || posInf)
          what.push_back("Inf");
        if (nan)
          what.push_back("NaN");
      }
      std::string status = what[0];
      if (what.size() == 3)
        status = strCat(what[0], ", ", what[1], ", and ", what[2]);
      else if (what.size() == 2)
        status = strCat(what[0], " and ", what[1]);
      ctx->ctxFailure(errorf("%s : Tensor had %s values", message_, status));
      return;
    }
    ctx->setOutput(0, in);
  }

private:
  std::string message_;
};

template <typename T> using CheckNumericsV1 = CheckNumericsKernel<T, false>;
template <typename T> using CheckNumericsV2 = CheckNumericsKernel<T, true>;

} // namespace

void registerCheckKernels(KernelRegistry &registry) {
  registerKernel<OpId::kAssert, AssertKernel>(registry);
  registerKernel<OpId::kCheckNumerics, CheckNumericsV1>(registry, FloatTypes{});
  registerKernel<OpId::kCheckNumericsV2, CheckNumericsV2>(registry,
                                                          FloatTypes{});
}

} // namespace tfrt_fallback::rt

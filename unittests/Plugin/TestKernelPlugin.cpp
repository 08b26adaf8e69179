//===- TestKernelPlugin.cpp - a kernel plugin for the tests -----*- C++ -*-===//
//
// Adds "TestSquarePlusOne" (y = x * x + 1 on f32), a kernel the built-in
// library lacks. Built twice: as libtest-kernel-plugin.so, and with
// TEST_WRONG_ABI as libtest-kernel-plugin-wrong-abi.so, which claims another
// ABI version and must be refused. test/Runtime/kernel-plugin.test runs them.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/KernelPlugin.h"

using namespace tfrt_fallback::rt;

namespace {
class SquarePlusOneKernel final : public OpKernel {
public:
  using OpKernel::OpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &x = ctx->input(0);
    Tensor *y;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, x.shape(), &y));
    const float *in = x.data<float>();
    float *out = y->data<float>();
    for (int64_t i = 0; i < x.numElements(); ++i)
      out[i] = in[i] * in[i] + 1.0f;
  }
};

void registerTestKernels(KernelRegistry &registry) {
  registerKernel<SquarePlusOneKernel>(
      registry,
      KernelDefBuilder("TestSquarePlusOne").typeConstraint<float>("T"));
  registry.setInputArity("TestSquarePlusOne", 1, 1);
}
} // namespace

#ifdef TEST_WRONG_ABI
extern "C" __attribute__((visibility("default")))
const KernelPluginInfo *tfrt_fallback_kernel_plugin() {
  static const KernelPluginInfo info = {kKernelPluginAbiVersion + 1,
                                        &registerTestKernels};
  return &info;
}
#else
TFRT_FALLBACK_KERNEL_PLUGIN(registerTestKernels)
#endif

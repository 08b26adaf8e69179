//===- MatMulKernels.cpp - Matrix multiplication ----------------*- C++ -*-===//
//
// MatMul as an Eigen tensor contraction on the context's thread-pool device.
//
//===----------------------------------------------------------------------===//

// Eigen 3.4's thread-pool contraction schedules work with std::bind, whose
// libstdc++ implementation uses the C++17-deprecated std::result_of; the
// warning fires inside <functional> when the contraction is instantiated
// here, so it is silenced for this file before any header is read.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cstdint>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// MatMul(a, b): a * b for rank-2 a and b, with transpose_a / transpose_b
/// (default false) transposing an operand first. With a' = op(a) of shape
/// [m, k] and b' = op(b) of shape [k, n] the output is [m, n]; k == 0
/// yields zeros. Errors: "In[0] is not a matrix. Instead it has shape [..]"
/// (likewise In[1]) and "Matrix size-incompatible: In[0]: [..], In[1]: [..]"
/// when the contracted dims differ. The output never aliases an input.
template <typename T> class MatMulKernel final : public OpKernel {
public:
  explicit MatMulKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "transpose_a", &transposeA_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "transpose_b", &transposeB_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, a.rank() == 2,
        errorf("In[0] is not a matrix. Instead it has shape %s",
               a.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, b.rank() == 2,
        errorf("In[1] is not a matrix. Instead it has shape %s",
               b.shape().toString()));
    const int contractA = transposeA_ ? 0 : 1;
    const int contractB = transposeB_ ? 1 : 0;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, a.dim(contractA) == b.dim(contractB),
        errorf("Matrix size-incompatible: In[0]: %s, In[1]: %s",
               a.shape().toString(), b.shape().toString()));
    const int64_t m = a.dim(1 - contractA);
    const int64_t n = b.dim(1 - contractB);
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(0, TensorShape{m, n}, &out));
    if (out->numElements() == 0)
      return;
    auto result = out->tensor<T, 2>();
    const Eigen::ThreadPoolDevice &device = ctx->eigenDevice();
    if (a.dim(contractA) == 0) {
      result.device(device) = result.constant(T(0));
      return;
    }
    Eigen::array<Eigen::IndexPair<Eigen::DenseIndex>, 1> dims = {
        Eigen::IndexPair<Eigen::DenseIndex>(contractA, contractB)};
    result.device(device) = a.tensor<T, 2>().contract(b.tensor<T, 2>(), dims);
  }

private:
  bool transposeA_ = false;
  bool transposeB_ = false;
};

} // namespace

void registerMatMulKernels(KernelRegistry &registry) {
  registerForTypes<MatMulKernel, float, double>(registry, "MatMul");
}

} // namespace tfrt_fallback::rt

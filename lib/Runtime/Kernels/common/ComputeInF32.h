//===- ComputeInF32.h - 16-bit float kernels that compute in f32 -*- C++
//-*-===//
//
// Private to lib/Runtime/Kernels. The f16 and bf16 forms of the kernels whose
// work is a long sum (convolutions, matrix products, reductions): the
// operands are widened to f32, the f32 kernel runs (with its GEMM, packing
// and vector paths), and each result is rounded once to the 16-bit type.
// A sum of thousands of f16 products rounded at every step loses most of its
// digits; TensorFlow's CPU kernels accumulate half in float for the same
// reason (Eigen's half reducers, MatMul's float accumulation), and XNNPACK's
// fp16 GEMMs keep f16 only where the CPU has fp16 arithmetic.
//
//   registerKernel<OpId::kSum, InF32<SumKernel>::Kernel>(registry,
//                                                       HalfFloatTypes{});
//
// ComputeInF32<Kernel, T> builds Kernel<float> through a construction
// context that says f32 wherever the node says T (input, output and type
// attributes) and hands it the program's constant T inputs widened once, so
// a constant filter is packed for the GEMM when the kernel is built, as the
// f32 kernel's is. At run time the other T inputs are widened per call.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_COMPUTEINF32_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_COMPUTEINF32_H

#include "common/ConvertElements.h"
#include "common/Registration.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <Eigen/Core>

#include <memory>
#include <optional>
#include <vector>

namespace tfrt_fallback::rt::kernels {

namespace detail {

/// `t` (of dtype `narrow`) widened to a new f32 tensor of its shape.
template <typename T> StatusOr<Tensor> widen(const Tensor &t) {
  StatusOr<Tensor> wide = Tensor::allocate(DType::F32, t.shape());
  if (wide.ok())
    convertElements(t.data<T>(), wide->data<float>(), t.numElements());
  return wide;
}

/// The node's construction context with f32 for `narrow` everywhere, and
/// its constant `narrow` inputs as f32 tensors (`wideConstants`, which the
/// caller keeps for the kernel's lifetime).
class F32Construction final : public OpKernelConstructionInterface {
public:
  F32Construction(OpKernelConstructionInterface *outer, DType narrow,
                  const std::vector<std::optional<Tensor>> &wideConstants)
      : outer_(outer), narrow_(narrow), wideConstants_(wideConstants) {}

  std::string_view opName() const override { return outer_->opName(); }
  std::string_view nodeName() const override { return outer_->nodeName(); }
  int numInputs() const override { return outer_->numInputs(); }
  int numOutputs() const override { return outer_->numOutputs(); }
  DType inputDType(int index) const override {
    return widened(outer_->inputDType(index));
  }
  DType outputDType(int index) const override {
    return widened(outer_->outputDType(index));
  }
  bool hasAttr(std::string_view name) const override {
    return outer_->hasAttr(name);
  }
  Status getAttr(std::string_view name, DType *value) const override {
    Status status = outer_->getAttr(name, value);
    if (status.ok())
      *value = widened(*value);
    return status;
  }
  Status getAttr(std::string_view name,
                 std::vector<DType> *value) const override {
    Status status = outer_->getAttr(name, value);
    if (status.ok())
      for (DType &dtype : *value)
        dtype = widened(dtype);
    return status;
  }
#define TFRT_FALLBACK_FORWARD_ATTR(Type)                                       \
  Status getAttr(std::string_view name, Type *value) const override {          \
    return outer_->getAttr(name, value);                                       \
  }
  TFRT_FALLBACK_FORWARD_ATTR(int64_t)
  TFRT_FALLBACK_FORWARD_ATTR(int32_t)
  TFRT_FALLBACK_FORWARD_ATTR(float)
  TFRT_FALLBACK_FORWARD_ATTR(bool)
  TFRT_FALLBACK_FORWARD_ATTR(std::string)
  TFRT_FALLBACK_FORWARD_ATTR(PartialShape)
  TFRT_FALLBACK_FORWARD_ATTR(Tensor)
  TFRT_FALLBACK_FORWARD_ATTR(std::vector<int64_t>)
  TFRT_FALLBACK_FORWARD_ATTR(std::vector<int32_t>)
  TFRT_FALLBACK_FORWARD_ATTR(std::vector<float>)
  TFRT_FALLBACK_FORWARD_ATTR(std::vector<std::string>)
  TFRT_FALLBACK_FORWARD_ATTR(std::vector<PartialShape>)
#undef TFRT_FALLBACK_FORWARD_ATTR

  const Tensor *constantInput(int index) const override {
    if (outer_->inputDType(index) != narrow_)
      return outer_->constantInput(index);
    const std::optional<Tensor> &wide = wideConstants_[index];
    return wide ? &*wide : nullptr;
  }
  // The f32 copy is ours: the program's constant stays (the run-time
  // widening reads it when the copy is not the one built here).
  void releaseConstantInput(int index) override {
    if (outer_->inputDType(index) != narrow_)
      outer_->releaseConstantInput(index);
  }
  void ctxFailure(Status status) override {
    outer_->ctxFailure(std::move(status));
  }
  const Status &status() const override { return outer_->status(); }

private:
  DType widened(DType dtype) const {
    return dtype == narrow_ ? DType::F32 : dtype;
  }

  OpKernelConstructionInterface *outer_;
  DType narrow_;
  const std::vector<std::optional<Tensor>> &wideConstants_;
};

/// The node's run-time context with f32 inputs and outputs where the node
/// has `narrow` ones: the inner kernel's outputs stay here (`outputs`)
/// until the caller rounds them into the node's.
class F32Context final : public OpKernelContextInterface {
public:
  F32Context(OpKernelContextInterface *outer, const Tensor *const *inputs,
             uint64_t constantInputs, DType narrow)
      : OpKernelContextInterface(inputs, outer->numInputs(),
                                 outer->numOutputs()),
        outputs(outer->numOutputs()), outer_(outer),
        constantInputs_(constantInputs), narrow_(narrow) {
    functionRunner_ = outer->functionRunner();
  }

  std::string_view opName() const override { return outer_->opName(); }
  std::string_view nodeName() const override { return outer_->nodeName(); }
  bool isInputConstant(int index) const override {
    return index < 64 && (constantInputs_ >> index & 1);
  }
  ResourceManager *resourceManager() const override {
    return outer_->resourceManager();
  }
  DType expectedOutputDType(int index) const override {
    DType dtype = outer_->expectedOutputDType(index);
    return dtype == narrow_ ? DType::F32 : dtype;
  }
  Status allocateOutput(int index, const TensorShape &shape,
                        Tensor **out) override {
    StatusOr<Tensor> t = Tensor::allocate(expectedOutputDType(index), shape);
    if (!t.ok())
      return t.status();
    outputs[index] = std::move(*t);
    *out = &outputs[index];
    return Status();
  }
  void setOutput(int index, Tensor tensor) override {
    outputs[index] = std::move(tensor);
  }
  Status forwardInputOrAllocateOutput(absl::Span<const int> candidateInputs,
                                      int outputIndex, const TensorShape &shape,
                                      Tensor **out) override {
    (void)candidateInputs;
    return allocateOutput(outputIndex, shape, out);
  }
  const Eigen::ThreadPoolDevice &eigenDevice() const override {
    return outer_->eigenDevice();
  }
  HostContext &host() const override { return outer_->host(); }
  void ctxFailure(Status status) override {
    outer_->ctxFailure(std::move(status));
  }
  const Status &status() const override { return outer_->status(); }

  std::vector<Tensor> outputs;

private:
  OpKernelContextInterface *outer_;
  uint64_t constantInputs_;
  DType narrow_;
};

} // namespace detail

/// Kernel<float> run for the 16-bit float type T (see the file comment).
template <template <typename> class Kernel, typename T>
class ComputeInF32 final : public OpKernel {
public:
  static constexpr OpShapeRule kShapeRule = kKernelShapeRule<Kernel<float>>;

  explicit ComputeInF32(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx), wideConstants_(ctx->numInputs()) {
    for (int i = 0, e = ctx->numInputs(); i < e; ++i) {
      if (ctx->inputDType(i) != kNarrow)
        continue;
      const Tensor *constant = ctx->constantInput(i);
      if (!constant || constant->dtype() != kNarrow)
        continue;
      StatusOr<Tensor> wide = detail::widen<T>(*constant);
      if (!wide.ok()) {
        ctx->ctxFailure(wide.status());
        return;
      }
      wideConstants_[i] = std::move(*wide);
      constantData_.resize(e, nullptr);
      constantData_[i] = constant->data<T>();
    }
    detail::F32Construction inner(ctx, kNarrow, wideConstants_);
    kernel_ = std::make_unique<Kernel<float>>(&inner);
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int numInputs = ctx->numInputs();
    absl::InlinedVector<Tensor, 4> widened(numInputs);
    absl::InlinedVector<const Tensor *, 4> inputs(numInputs);
    uint64_t constantInputs = 0;
    for (int i = 0; i < numInputs; ++i) {
      const Tensor &input = ctx->input(i);
      inputs[i] = &input;
      if (input.dtype() != kNarrow) {
        if (ctx->isInputConstant(i) && i < 64)
          constantInputs |= uint64_t{1} << i;
        continue;
      }
      // A constant widened when the kernel was built: the inner kernel
      // finds it (and what it packed from it) by its f32 data.
      if (i < static_cast<int>(constantData_.size()) && constantData_[i] &&
          constantData_[i] == input.data<T>() && ctx->isInputConstant(i)) {
        inputs[i] = &*wideConstants_[i];
        constantInputs |= uint64_t{1} << i;
        continue;
      }
      StatusOr<Tensor> wide = detail::widen<T>(input);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, wide.status());
      widened[i] = std::move(*wide);
      inputs[i] = &widened[i];
    }
    detail::F32Context inner(ctx, inputs.data(), constantInputs, kNarrow);
    kernel_->compute(&inner);
    if (!ctx->status().ok())
      return;
    for (int i = 0, e = ctx->numOutputs(); i < e; ++i) {
      Tensor &result = inner.outputs[i];
      if (result.dtype() != DType::F32 ||
          ctx->expectedOutputDType(i) != kNarrow) {
        ctx->setOutput(i, std::move(result));
        continue;
      }
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(i, result.shape(), &out));
      convertElements(result.data<float>(), out->data<T>(),
                      result.numElements());
    }
  }

private:
  static constexpr DType kNarrow = dtypeOf<T>();

  /// Per input, its constant widened at construction (kept for the kernel's
  /// lifetime: the inner kernel may keep pointers into it), and the
  /// constant's own data, by which compute() recognizes it.
  std::vector<std::optional<Tensor>> wideConstants_;
  std::vector<const T *> constantData_;
  std::unique_ptr<Kernel<float>> kernel_;
};

/// ComputeInF32 as a one-parameter template, for registerKernel:
/// registerKernel<OpId::kSum, InF32<SumKernel>::Kernel>(registry,
/// HalfFloatTypes{}).
template <template <typename> class F32Kernel> struct InF32 {
  template <typename T> using Kernel = ComputeInF32<F32Kernel, T>;
};

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_COMMON_COMPUTEINF32_H

//===- OpKernel.h - Kernel fallback interfaces ------------------*- C++ -*-===//
//
// The interfaces of the TFRT Kernel Fallback RFC: kernels are written against
// OpKernelConstructionInterface (attributes, dtypes) and
// OpKernelContextInterface (inputs, outputs, device), so they do not depend
// on any particular runtime. SimpleOpKernelConstruction and
// SimpleOpKernelContext are the final implementations the executor uses.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_OPKERNEL_H
#define TFRT_FALLBACK_RUNTIME_OPKERNEL_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {

/// "Conv2D 'loc(...)': message" with the given code.
absl::Status makeOpError(absl::StatusCode code, absl::string_view opName,
                         absl::string_view nodeName, absl::string_view message);

//===----------------------------------------------------------------------===//
// OpKernelConstructionInterface
//===----------------------------------------------------------------------===//

class OpKernelConstructionInterface {
public:
  virtual ~OpKernelConstructionInterface();

  virtual absl::string_view opName() const = 0;
  /// Source location of the node, for messages.
  virtual absl::string_view nodeName() const = 0;
  virtual int numInputs() const = 0;
  virtual int numOutputs() const = 0;
  virtual DType inputDType(int index) const = 0;
  virtual DType outputDType(int index) const = 0;

  virtual bool hasAttr(absl::string_view name) const = 0;
  /// Each getter returns InvalidArgument naming the attribute, op and node
  /// if the attribute is missing or of another kind.
  virtual absl::Status getAttr(absl::string_view name,
                               int64_t *value) const = 0;
  /// Also fails if the value does not fit in int32.
  virtual absl::Status getAttr(absl::string_view name,
                               int32_t *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name, float *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name, bool *value) const = 0;
  /// Accepts string and function attributes (the function's name).
  virtual absl::Status getAttr(absl::string_view name,
                               std::string *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name, DType *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name,
                               PartialShape *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name, Tensor *value) const = 0;
  /// List getters accept an empty list of any element kind.
  virtual absl::Status getAttr(absl::string_view name,
                               std::vector<int64_t> *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name,
                               std::vector<int32_t> *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name,
                               std::vector<float> *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name,
                               std::vector<std::string> *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name,
                               std::vector<DType> *value) const = 0;
  virtual absl::Status getAttr(absl::string_view name,
                               std::vector<PartialShape> *value) const = 0;

  /// Records a construction failure; the first one wins.
  virtual void ctxFailure(absl::Status status) = 0;
  virtual const absl::Status &status() const = 0;
};

//===----------------------------------------------------------------------===//
// OpKernelContextInterface
//===----------------------------------------------------------------------===//

class OpKernelContextInterface {
public:
  virtual ~OpKernelContextInterface();

  virtual absl::string_view opName() const = 0;
  virtual absl::string_view nodeName() const = 0;
  virtual int numInputs() const = 0;
  virtual int numOutputs() const = 0;
  virtual const Tensor &input(int index) const = 0;
  virtual DType expectedOutputDType(int index) const = 0;

  /// Allocates output `index` with its expected dtype and `shape`.
  virtual absl::Status allocateOutput(int index, const TensorShape &shape,
                                      Tensor **out) = 0;
  virtual void setOutput(int index, Tensor tensor) = 0;
  /// Makes output `outputIndex` share the buffer of the first candidate
  /// input that may be forwarded (see SimpleOpKernelContext), is uniquely
  /// owned and has the output's dtype and element count; otherwise
  /// allocates.
  virtual absl::Status
  forwardInputOrAllocateOutput(absl::Span<const int> candidateInputs,
                               int outputIndex, const TensorShape &shape,
                               Tensor **out) = 0;

  virtual const Eigen::ThreadPoolDevice &eigenDevice() const = 0;

  /// Records a failure; the first one wins. The kernel should return.
  virtual void ctxFailure(absl::Status status) = 0;
  virtual const absl::Status &status() const = 0;
};

/// Record `status` on `ctx` and return from the kernel if it is not ok.
#define TFRT_FALLBACK_OP_REQUIRES_OK(ctx, expr)                                \
  do {                                                                         \
    absl::Status _tfrt_fallback_status = (expr);                               \
    if (!_tfrt_fallback_status.ok()) {                                         \
      (ctx)->ctxFailure(std::move(_tfrt_fallback_status));                     \
      return;                                                                  \
    }                                                                          \
  } while (false)

/// Record `status` on `ctx` and return from the kernel unless `cond`.
#define TFRT_FALLBACK_OP_REQUIRES(ctx, cond, status)                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      (ctx)->ctxFailure(status);                                               \
      return;                                                                  \
    }                                                                          \
  } while (false)

//===----------------------------------------------------------------------===//
// OpKernel
//===----------------------------------------------------------------------===//

class OpKernel {
public:
  explicit OpKernel(OpKernelConstructionInterface *ctx);
  virtual ~OpKernel();
  OpKernel(const OpKernel &) = delete;
  OpKernel &operator=(const OpKernel &) = delete;

  virtual void compute(OpKernelContextInterface *ctx) = 0;

  const std::string &opName() const { return opName_; }
  const std::string &nodeName() const { return nodeName_; }

  /// InvalidArgument "<op> '<node>': <formatted message>".
  template <typename... Args>
  absl::Status errorf(const absl::FormatSpec<Args...> &format,
                      const Args &...args) const {
    return makeOpError(absl::StatusCode::kInvalidArgument, opName_, nodeName_,
                       absl::StrFormat(format, args...));
  }

private:
  std::string opName_;
  std::string nodeName_;
};

//===----------------------------------------------------------------------===//
// SimpleOpKernelConstruction
//===----------------------------------------------------------------------===//

/// Construction context backed by an AttrMap and dtype vectors. Does not own
/// the attribute map; it must outlive the construction.
class SimpleOpKernelConstruction final : public OpKernelConstructionInterface {
public:
  SimpleOpKernelConstruction(std::string opName, std::string nodeName,
                             const AttrMap &attrs,
                             std::vector<DType> inputDTypes,
                             std::vector<DType> outputDTypes);

  absl::string_view opName() const override { return opName_; }
  absl::string_view nodeName() const override { return nodeName_; }
  int numInputs() const override {
    return static_cast<int>(inputDTypes_.size());
  }
  int numOutputs() const override {
    return static_cast<int>(outputDTypes_.size());
  }
  DType inputDType(int index) const override;
  DType outputDType(int index) const override;
  const AttrMap &attrs() const { return attrs_; }

  bool hasAttr(absl::string_view name) const override {
    return attrs_.contains(name);
  }
  absl::Status getAttr(absl::string_view name, int64_t *value) const override;
  absl::Status getAttr(absl::string_view name, int32_t *value) const override;
  absl::Status getAttr(absl::string_view name, float *value) const override;
  absl::Status getAttr(absl::string_view name, bool *value) const override;
  absl::Status getAttr(absl::string_view name,
                       std::string *value) const override;
  absl::Status getAttr(absl::string_view name, DType *value) const override;
  absl::Status getAttr(absl::string_view name,
                       PartialShape *value) const override;
  absl::Status getAttr(absl::string_view name, Tensor *value) const override;
  absl::Status getAttr(absl::string_view name,
                       std::vector<int64_t> *value) const override;
  absl::Status getAttr(absl::string_view name,
                       std::vector<int32_t> *value) const override;
  absl::Status getAttr(absl::string_view name,
                       std::vector<float> *value) const override;
  absl::Status getAttr(absl::string_view name,
                       std::vector<std::string> *value) const override;
  absl::Status getAttr(absl::string_view name,
                       std::vector<DType> *value) const override;
  absl::Status getAttr(absl::string_view name,
                       std::vector<PartialShape> *value) const override;

  void ctxFailure(absl::Status status) override;
  const absl::Status &status() const override { return status_; }

private:
  /// The attribute if present and of kind `kind` (an empty list of any kind
  /// is accepted when `kind` is a list kind), else an error in `*status`.
  const AttrValue *lookup(absl::string_view name, AttrValue::Kind kind,
                          absl::Status *status) const;

  std::string opName_;
  std::string nodeName_;
  const AttrMap &attrs_;
  std::vector<DType> inputDTypes_;
  std::vector<DType> outputDTypes_;
  absl::Status status_;
};

//===----------------------------------------------------------------------===//
// SimpleOpKernelContext
//===----------------------------------------------------------------------===//

/// Compute context backed by input tensor pointers and an output vector.
/// Built once per node and reused: call reset() before each compute().
///
/// Forwarding: an input may only donate its buffer if its bit is set in
/// `forwardableInputs` (the executor sets it for an input's last use, so no
/// later reader can see the overwritten data) and the buffer is uniquely
/// owned. Inputs at index >= 64 are never forwarded.
class SimpleOpKernelContext final : public OpKernelContextInterface {
public:
  SimpleOpKernelContext(absl::string_view opName, absl::string_view nodeName,
                        absl::Span<const DType> outputDTypes,
                        const Eigen::ThreadPoolDevice &device);

  /// Sets the inputs for the next compute(), clears the outputs and status.
  /// The pointer array and the tensors must outlive the compute() call.
  void reset(absl::Span<const Tensor *const> inputs,
             uint64_t forwardableInputs = 0);

  absl::string_view opName() const override { return opName_; }
  absl::string_view nodeName() const override { return nodeName_; }
  int numInputs() const override { return static_cast<int>(inputs_.size()); }
  int numOutputs() const override {
    return static_cast<int>(outputDTypes_.size());
  }
  const Tensor &input(int index) const override {
    assert(index >= 0 && index < numInputs() && "input index out of range");
    return *inputs_[index];
  }
  DType expectedOutputDType(int index) const override {
    assert(index >= 0 && index < numOutputs() && "output index out of range");
    return outputDTypes_[index];
  }

  absl::Status allocateOutput(int index, const TensorShape &shape,
                              Tensor **out) override;
  void setOutput(int index, Tensor tensor) override;
  absl::Status forwardInputOrAllocateOutput(absl::Span<const int> candidates,
                                            int outputIndex,
                                            const TensorShape &shape,
                                            Tensor **out) override;

  const Eigen::ThreadPoolDevice &eigenDevice() const override {
    return device_;
  }

  void ctxFailure(absl::Status status) override;
  const absl::Status &status() const override { return status_; }

  /// Outputs of the last compute(); unset outputs are invalid tensors.
  absl::Span<Tensor> outputs() { return absl::MakeSpan(outputs_); }
  Tensor &output(int index) { return outputs_[index]; }

private:
  absl::Status checkOutputIndex(int index) const;

  std::string opName_;
  std::string nodeName_;
  absl::InlinedVector<DType, 2> outputDTypes_;
  const Eigen::ThreadPoolDevice &device_;
  absl::Span<const Tensor *const> inputs_;
  uint64_t forwardable_ = 0;
  absl::InlinedVector<Tensor, 2> outputs_;
  absl::Status status_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_OPKERNEL_H

//===- OpKernel.h - Kernel fallback interfaces ------------------*- C++ -*-===//
//
// The interfaces of the TFRT Kernel Fallback RFC: kernels are written against
// OpKernelConstructionInterface (attributes, dtypes) and
// OpKernelContextInterface (inputs, outputs, device), so they do not depend
// on any particular runtime. SimpleOpKernelConstruction and OpKernelContext
// are the one implementation of each: the program loader constructs every
// kernel through KernelRegistry::createKernel and the executor runs it
// through OpKernelContext. AsyncOpKernel is the interface of kernels that
// finish later (TensorFlow's AsyncOpKernel::ComputeAsync).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_OPKERNEL_H
#define TFRT_FALLBACK_RUNTIME_OPKERNEL_H

#include "tfrt_fallback/Runtime/Attr.h"
#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/container/inlined_vector.h"
#include "absl/functional/any_invocable.h"
#include "absl/types/span.h"
#include "tfrt_fallback/Runtime/StrCat.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace tfrt_fallback::rt {

class FunctionRunner;
class HostContext;
class PlannedArena;
class ResourceManager;

/// "Conv2D 'loc(...)': message" with the given code.
Status makeOpError(StatusCode code, std::string_view opName,
                   std::string_view nodeName, std::string_view message);

//===----------------------------------------------------------------------===//
// OpKernelConstructionInterface
//===----------------------------------------------------------------------===//

class OpKernelConstructionInterface {
public:
  virtual ~OpKernelConstructionInterface();

  virtual std::string_view opName() const = 0;
  /// Source location of the node, for messages.
  virtual std::string_view nodeName() const = 0;
  virtual int numInputs() const = 0;
  virtual int numOutputs() const = 0;
  virtual DType inputDType(int index) const = 0;
  virtual DType outputDType(int index) const = 0;

  virtual bool hasAttr(std::string_view name) const = 0;
  /// Each getter returns InvalidArgument naming the attribute, op and node
  /// if the attribute is missing or of another kind.
  virtual Status getAttr(std::string_view name, int64_t *value) const = 0;
  /// Also fails if the value does not fit in int32.
  virtual Status getAttr(std::string_view name, int32_t *value) const = 0;
  virtual Status getAttr(std::string_view name, float *value) const = 0;
  virtual Status getAttr(std::string_view name, bool *value) const = 0;
  /// Accepts string and function attributes (the function's name).
  virtual Status getAttr(std::string_view name, std::string *value) const = 0;
  virtual Status getAttr(std::string_view name, DType *value) const = 0;
  virtual Status getAttr(std::string_view name, PartialShape *value) const = 0;
  virtual Status getAttr(std::string_view name, Tensor *value) const = 0;
  /// List getters accept an empty list of any element kind.
  virtual Status getAttr(std::string_view name,
                         std::vector<int64_t> *value) const = 0;
  virtual Status getAttr(std::string_view name,
                         std::vector<int32_t> *value) const = 0;
  virtual Status getAttr(std::string_view name,
                         std::vector<float> *value) const = 0;
  virtual Status getAttr(std::string_view name,
                         std::vector<std::string> *value) const = 0;
  virtual Status getAttr(std::string_view name,
                         std::vector<DType> *value) const = 0;
  virtual Status getAttr(std::string_view name,
                         std::vector<PartialShape> *value) const = 0;

  /// The program constant every node of this kernel binds to input
  /// `index`, or null (not a constant, or unknown). A kernel may prepare
  /// from it when it is built, before any run, e.g. pack weights for the
  /// GEMM (TFLite's Prepare): its data never changes and outlives the kernel,
  /// as isInputConstant says at run time.
  virtual const Tensor *constantInput(int index) const {
    (void)index;
    return nullptr;
  }
  /// releaseConstantInput of OpKernelContextInterface, for what construction
  /// derived from constantInput(index).
  virtual void releaseConstantInput(int index) { (void)index; }

  /// Records a construction failure; the first one wins.
  virtual void ctxFailure(Status status) = 0;
  virtual const Status &status() const = 0;
};

//===----------------------------------------------------------------------===//
// OpKernelContextInterface
//===----------------------------------------------------------------------===//

class OpKernelContextInterface {
public:
  virtual ~OpKernelContextInterface() = default;

  virtual std::string_view opName() const = 0;
  virtual std::string_view nodeName() const = 0;
  // The inputs are read without a virtual call: a kernel reads them on
  // every call, and most kernels' work is small (shape arithmetic).
  int numInputs() const { return numInputs_; }
  int numOutputs() const { return numOutputs_; }
  const Tensor &input(int index) const {
    assert(index >= 0 && index < numInputs_ && "input index out of range");
    return *inputs_[index];
  }
  /// Whether input `index` is a constant of the loaded program: its data
  /// never changes and outlives the kernel, so the kernel may keep what it
  /// derives from it (packed weights) keyed by its data pointer. False when
  /// unknown.
  virtual bool isInputConstant(int index) const {
    (void)index;
    return false;
  }
  /// Tells the runtime that this kernel keeps what it needs of constant
  /// input `index` (e.g. weights packed for the GEMM) and will not read the
  /// constant again: the runtime may give back its memory (the pages of a
  /// program file mapped by TensorBuffer::readFile; they are read from the
  /// file again should anything touch them). Call it once, when the copy is
  /// made. A no-op for an input that is not a program constant.
  virtual void releaseConstantInput(int index) { (void)index; }
  /// The resources (variables, ...) of the executor running this kernel;
  /// null outside an executor.
  virtual ResourceManager *resourceManager() const { return nullptr; }
  virtual DType expectedOutputDType(int index) const = 0;

  /// Allocates output `index` with its expected dtype and `shape`.
  virtual Status allocateOutput(int index, const TensorShape &shape,
                                Tensor **out) = 0;
  /// allocateOutput() for dims the kernel computed: InvalidArgument
  /// (TensorShape::create's text, which the executor prefixes with the op)
  /// when one is negative or their product overflows.
  Status allocateOutput(int index, absl::Span<const int64_t> dims,
                        Tensor **out) {
    StatusOr<TensorShape> shape = TensorShape::create(dims);
    if (!shape.ok())
      return shape.status();
    return allocateOutput(index, *shape, out);
  }
  virtual void setOutput(int index, Tensor tensor) = 0;
  /// Makes output `outputIndex` share the buffer of the first candidate
  /// input that may be forwarded (see OpKernelContext), is uniquely owned
  /// and has the output's dtype and element count; otherwise allocates.
  virtual Status
  forwardInputOrAllocateOutput(absl::Span<const int> candidateInputs,
                               int outputIndex, const TensorShape &shape,
                               Tensor **out) = 0;

  virtual const Eigen::ThreadPoolDevice &eigenDevice() const = 0;
  /// The host context running the kernel: an async kernel hands blocking
  /// work to host().enqueueBlockingWork().
  virtual HostContext &host() const = 0;

  /// Records a failure; the first one wins. The kernel should return.
  virtual void ctxFailure(Status status) = 0;
  virtual const Status &status() const = 0;

  /// The functions of the running program, for kernels that call them
  /// (control flow, FunctionRunner.h); null outside an executor.
  FunctionRunner *functionRunner() const { return functionRunner_; }
  /// Input `index` for a kernel that keeps it past the call (hands it to a
  /// function it calls): the input itself, left empty, when this is its
  /// last use (the caller reads it no more, see OpKernelContext), else a
  /// copy sharing its buffer.
  Tensor takeInput(int index) {
    Tensor &input = *const_cast<Tensor *>(inputs_[index]);
    if (index < 64 && (forwardable_ >> index & 1))
      return std::move(input);
    return input;
  }

protected:
  /// `inputs` holds `numInputs` pointers and outlives the context; bit i
  /// of `forwardable` says that input i is at its last use (takeInput).
  OpKernelContextInterface(const Tensor *const *inputs, int numInputs,
                           int numOutputs, uint64_t forwardable = 0)
      : inputs_(inputs), numInputs_(numInputs), numOutputs_(numOutputs),
        forwardable_(forwardable) {}

private:
  const Tensor *const *inputs_;
  int numInputs_;
  int numOutputs_;

protected:
  /// Bit i set when input i (i < 64) is at its last use and exists.
  uint64_t forwardable_;
  FunctionRunner *functionRunner_ = nullptr;
};

/// Record `status` on `ctx` and return from the kernel if it is not ok.
#define TFRT_FALLBACK_OP_REQUIRES_OK(ctx, expr)                                \
  do {                                                                         \
    Status _tfrt_fallback_status = (expr);                                     \
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

class AsyncOpKernel;

class OpKernel {
public:
  explicit OpKernel(OpKernelConstructionInterface *ctx);
  virtual ~OpKernel();
  OpKernel(const OpKernel &) = delete;
  OpKernel &operator=(const OpKernel &) = delete;

  /// Computes the outputs on the calling thread before returning.
  virtual void compute(OpKernelContextInterface *ctx) = 0;

  /// This kernel as an AsyncOpKernel, or nullptr for a synchronous one.
  virtual AsyncOpKernel *asAsync() { return nullptr; }

  const std::string &opName() const { return opName_; }
  const std::string &nodeName() const { return nodeName_; }
  /// The dtypes of the node's outputs, from the construction context.
  absl::Span<const DType> outputDTypes() const { return outputDTypes_; }

  /// InvalidArgument "<op> '<node>': <message>", the message being
  /// strSubstitute(format, args...): each `%d` or `%s` replaced by the next
  /// of `args` (printed as strCat prints it) and `%%` by `%`.
  template <typename... Args>
  Status errorf(std::string_view format, const Args &...args) const {
    return makeOpError(StatusCode::kInvalidArgument, opName_, nodeName_,
                       strSubstitute(format, args...));
  }

private:
  std::string opName_;
  std::string nodeName_;
  absl::InlinedVector<DType, 4> outputDTypes_;
};

/// A kernel that completes later, as TensorFlow's AsyncOpKernel: it starts
/// its work in computeAsync() and returns without waiting; whoever finishes
/// the work sets the outputs (or records a failure) on `ctx` and then calls
/// `done` exactly once, from any thread. `ctx` and its inputs stay valid
/// until then. Kernels must not block a compute thread: long or blocking
/// work goes to ctx->host().enqueueBlockingWork().
class AsyncOpKernel : public OpKernel {
public:
  using DoneCallback = absl::AnyInvocable<void() &&>;
  using OpKernel::OpKernel;

  virtual void computeAsync(OpKernelContextInterface *ctx,
                            DoneCallback done) = 0;

  /// Runs computeAsync() and blocks until it is done (for callers that
  /// cannot continue later; the executor never calls it).
  void compute(OpKernelContextInterface *ctx) final;
  AsyncOpKernel *asAsync() final { return this; }
};

//===----------------------------------------------------------------------===//
// SimpleOpKernelConstruction
//===----------------------------------------------------------------------===//

/// Construction context backed by an AttrMap and dtype vectors. Does not own
/// the attribute map; it must outlive the construction.
class SimpleOpKernelConstruction final : public OpKernelConstructionInterface {
public:
  /// `constantInputs`: per input, the program constant it is bound to, or
  /// null (empty: none known).
  SimpleOpKernelConstruction(
      std::string opName, std::string nodeName, const AttrMap &attrs,
      std::vector<DType> inputDTypes, std::vector<DType> outputDTypes,
      absl::Span<const Tensor *const> constantInputs = {});

  std::string_view opName() const override { return opName_; }
  std::string_view nodeName() const override { return nodeName_; }
  int numInputs() const override {
    return static_cast<int>(inputDTypes_.size());
  }
  int numOutputs() const override {
    return static_cast<int>(outputDTypes_.size());
  }
  DType inputDType(int index) const override;
  DType outputDType(int index) const override;
  const AttrMap &attrs() const { return attrs_; }

  bool hasAttr(std::string_view name) const override {
    return attrs_.contains(name);
  }
  Status getAttr(std::string_view name, int64_t *value) const override;
  Status getAttr(std::string_view name, int32_t *value) const override;
  Status getAttr(std::string_view name, float *value) const override;
  Status getAttr(std::string_view name, bool *value) const override;
  Status getAttr(std::string_view name, std::string *value) const override;
  Status getAttr(std::string_view name, DType *value) const override;
  Status getAttr(std::string_view name, PartialShape *value) const override;
  Status getAttr(std::string_view name, Tensor *value) const override;
  Status getAttr(std::string_view name,
                 std::vector<int64_t> *value) const override;
  Status getAttr(std::string_view name,
                 std::vector<int32_t> *value) const override;
  Status getAttr(std::string_view name,
                 std::vector<float> *value) const override;
  Status getAttr(std::string_view name,
                 std::vector<std::string> *value) const override;
  Status getAttr(std::string_view name,
                 std::vector<DType> *value) const override;
  Status getAttr(std::string_view name,
                 std::vector<PartialShape> *value) const override;

  const Tensor *constantInput(int index) const override {
    return index >= 0 && static_cast<size_t>(index) < constantInputs_.size()
               ? constantInputs_[index]
               : nullptr;
  }
  void releaseConstantInput(int index) override;

  void ctxFailure(Status status) override;
  const Status &status() const override { return status_; }

private:
  /// The attribute if present and of kind `kind` (an empty list of any kind
  /// is accepted when `kind` is a list kind), else an error in `*status`.
  const AttrValue *lookup(std::string_view name, AttrValue::Kind kind,
                          Status *status) const;

  std::string opName_;
  std::string nodeName_;
  const AttrMap &attrs_;
  std::vector<DType> inputDTypes_;
  std::vector<DType> outputDTypes_;
  absl::Span<const Tensor *const> constantInputs_;
  Status status_;
};

//===----------------------------------------------------------------------===//
// OpKernelContext
//===----------------------------------------------------------------------===//

/// The compute context of one kernel invocation: inputs borrowed from the
/// caller (the executor's registers), outputs written straight into the
/// caller's (empty) output tensors.
///
/// Forwarding: an input may only donate its buffer if its bit is set in
/// `forwardableInputs` (the executor sets it for an input's last use, so no
/// later reader can see the overwritten data) and the buffer is uniquely
/// owned. Inputs at index >= 64 are never forwarded. A forwardable input is
/// the caller's no more: when it is forwarded to an output of its own shape,
/// the kernel writes through the input's tensor and finish() moves that
/// tensor into the output, leaving the input empty (no reference count
/// update, no shape copy). The caller calls finish() after every compute().
///
/// One context may serve several calls of its kernel in turn (the executor
/// keeps one per call site): finish() and clearStatus() reset it.
class OpKernelContext final : public OpKernelContextInterface {
public:
  /// A context for one call of `kernel`, whose output dtypes and names it
  /// reports. Bit i of `constantInputs` says that input i is bound to a
  /// program constant (isInputConstant).
  OpKernelContext(const OpKernel &kernel,
                  absl::Span<const Tensor *const> inputs,
                  uint64_t forwardableInputs, absl::Span<Tensor *const> outputs,
                  HostContext &host, uint64_t constantInputs = 0)
      : OpKernelContextInterface(
            inputs.data(), static_cast<int>(inputs.size()),
            static_cast<int>(outputs.size()),
            inputs.size() >= 64
                ? forwardableInputs
                : forwardableInputs & ((uint64_t(1) << inputs.size()) - 1)),
        kernel_(kernel), outputDTypes_(kernel.outputDTypes().data()),
        constant_(constantInputs), outputs_(outputs.data()), host_(host) {
    assert(kernel.outputDTypes().size() == outputs.size() &&
           "one output pointer per output of the kernel");
  }

  std::string_view opName() const override { return kernel_.opName(); }
  std::string_view nodeName() const override { return kernel_.nodeName(); }
  bool isInputConstant(int index) const override {
    return index >= 0 && index < 64 && (constant_ >> index & 1);
  }
  void releaseConstantInput(int index) override;
  ResourceManager *resourceManager() const override { return resources_; }
  void setResourceManager(ResourceManager *resources) {
    resources_ = resources;
  }
  void setFunctionRunner(FunctionRunner *runner) { functionRunner_ = runner; }
  /// allocateOutput(i) takes planned buffer `buffers[i]` of `arena` when it
  /// is free (MemoryPlan.h); an entry of kNotPlanned allocates as usual.
  static constexpr uint32_t kNotPlanned = 0xFFFFFFFFu;
  void setMemoryPlan(PlannedArena *arena, const uint32_t *buffers) {
    arena_ = arena;
    plannedBuffers_ = buffers;
  }
  DType expectedOutputDType(int index) const override {
    assert(index >= 0 && index < numOutputs() && "output index out of range");
    return outputDTypes_[index];
  }

  using OpKernelContextInterface::allocateOutput;
  Status allocateOutput(int index, const TensorShape &shape,
                        Tensor **out) override;
  void setOutput(int index, Tensor tensor) override;
  Status forwardInputOrAllocateOutput(absl::Span<const int> candidates,
                                      int outputIndex, const TensorShape &shape,
                                      Tensor **out) override;

  const Eigen::ThreadPoolDevice &eigenDevice() const override;
  HostContext &host() const override { return host_; }

  void ctxFailure(Status status) override;
  const Status &status() const override { return status_; }
  /// Back to OK, so that an executor may call the kernel again with this
  /// context (it keeps one per call site across runs).
  void clearStatus() { status_ = Status(); }

  /// Completes a call after compute() (or an async kernel's done): the
  /// input the kernel forwarded in place moves into its output, unless the
  /// kernel set that output itself afterwards. Returns the index of the
  /// input left empty, or -1.
  int finish() {
    const int moved = movedInput_;
    if (moved < 0)
      return -1;
    movedInput_ = -1;
    Tensor *output = outputs_[movedOutput_];
    if (output->isValid())
      return -1;
    const_cast<Tensor *>(&input(moved))->moveInto(output);
    return moved;
  }

private:
  Status outputIndexError(int index) const;
  /// Hands the kernel input `index`'s own tensor as output `outputIndex`:
  /// finish() moves it into the output.
  Tensor *lendInput(int index, int outputIndex) {
    movedInput_ = index;
    movedOutput_ = outputIndex;
    return const_cast<Tensor *>(&input(index));
  }
  /// forwardInputOrAllocateOutput() but for its usual case.
  Status forwardOrAllocate(absl::Span<const int> candidates, int outputIndex,
                           const TensorShape &shape, Tensor **out);

  const OpKernel &kernel_;
  /// kernel_.outputDTypes(), read without the inlined vector's checks.
  const DType *outputDTypes_;
  uint64_t constant_;
  Tensor *const *outputs_;
  HostContext &host_;
  ResourceManager *resources_ = nullptr;
  PlannedArena *arena_ = nullptr;
  const uint32_t *plannedBuffers_ = nullptr;
  /// The input forwarded in place (-1: none) and its output, for finish().
  int movedInput_ = -1;
  int movedOutput_ = 0;
  Status status_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_OPKERNEL_H

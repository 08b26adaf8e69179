//===- OpKernel.cpp - Kernel fallback interfaces ----------------*- C++ -*-===//
//
// Attribute getters of SimpleOpKernelConstruction, output handling and input
// forwarding of OpKernelContext, and AsyncOpKernel's blocking compute().
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/OpKernel.h"

#include "../Features.h"

#include "tfrt_fallback/Runtime/HostContext.h"
#include "tfrt_fallback/Runtime/MemoryPlan.h"
#include "tfrt_fallback/Runtime/StrFormat.h"

#include "absl/base/optimization.h"

#include <condition_variable>
#include <mutex>

#include <limits>
#include <memory>
#include <new>

namespace tfrt_fallback::rt {

Status makeOpError(StatusCode code, std::string_view opName,
                   std::string_view nodeName, std::string_view message) {
  // Appended, not formatted: a kernel's message may hold any byte.
  std::string text(opName);
  text += " '";
  text.append(nodeName.data(), nodeName.size());
  text += "': ";
  text.append(message.data(), message.size());
  return Status(code, text);
}

OpKernelConstructionInterface::~OpKernelConstructionInterface() = default;

OpKernel::OpKernel(OpKernelConstructionInterface *ctx)
    : opName_(ctx->opName()), nodeName_(ctx->nodeName()) {
  for (int i = 0, e = ctx->numOutputs(); i < e; ++i)
    outputDTypes_.push_back(ctx->outputDType(i));
}

OpKernel::~OpKernel() = default;

//===----------------------------------------------------------------------===//
// SimpleOpKernelConstruction
//===----------------------------------------------------------------------===//

SimpleOpKernelConstruction::SimpleOpKernelConstruction(
    std::string opName, std::string nodeName, const AttrMap &attrs,
    std::vector<DType> inputDTypes, std::vector<DType> outputDTypes,
    absl::Span<const Tensor *const> constantInputs)
    : opName_(std::move(opName)), nodeName_(std::move(nodeName)), attrs_(attrs),
      inputDTypes_(std::move(inputDTypes)),
      outputDTypes_(std::move(outputDTypes)), constantInputs_(constantInputs) {}

void SimpleOpKernelConstruction::releaseConstantInput(int index) {
  if (const Tensor *t = constantInput(index); t && t->buffer())
    t->buffer()->discardPages(t->rawData(), t->totalBytes());
}

DType SimpleOpKernelConstruction::inputDType(int index) const {
  if (index < 0 || index >= numInputs())
    return DType::Invalid;
  return inputDTypes_[index];
}

DType SimpleOpKernelConstruction::outputDType(int index) const {
  if (index < 0 || index >= numOutputs())
    return DType::Invalid;
  return outputDTypes_[index];
}

const AttrValue *SimpleOpKernelConstruction::lookup(std::string_view name,
                                                    AttrValue::Kind kind,
                                                    Status *status) const {
  const AttrValue *value = attrs_.find(name);
  if (!value) {
    std::string_view expected = attrKindName(kind);
    *status = makeError(StatusCode::kInvalidArgument,
                        "attribute '%.*s' of %s '%s' is missing, expected %.*s",
                        TFRT_FALLBACK_SV(name), opName_.c_str(),
                        nodeName_.c_str(), TFRT_FALLBACK_SV(expected));
    return nullptr;
  }
  bool listKind = kind >= AttrValue::Kind::IntList;
  if (value->kind() == kind ||
      (listKind && value->isList() && value->listSize() == 0))
    return value;
  std::string_view actual = attrKindName(value->kind());
  std::string_view expected = attrKindName(kind);
  *status =
      makeError(StatusCode::kInvalidArgument,
                "attribute '%.*s' of %s '%s' is %.*s, expected %.*s",
                TFRT_FALLBACK_SV(name), opName_.c_str(), nodeName_.c_str(),
                TFRT_FALLBACK_SV(actual), TFRT_FALLBACK_SV(expected));
  return nullptr;
}

namespace {
/// Copies a list attribute into `out`; an empty list of another kind yields
/// an empty vector.
template <typename T>
void copyList(const AttrValue &value, std::vector<T> *out) {
  if (const auto *list = value.getIf<std::vector<T>>())
    *out = *list;
  else
    out->clear();
}
} // namespace

#define TFRT_FALLBACK_SCALAR_GETTER(TYPE, KIND)                                \
  Status SimpleOpKernelConstruction::getAttr(std::string_view name, TYPE *out) \
      const {                                                                  \
    Status status;                                                             \
    const AttrValue *value = lookup(name, AttrValue::Kind::KIND, &status);     \
    if (!value)                                                                \
      return status;                                                           \
    *out = *value->getIf<TYPE>();                                              \
    return OkStatus();                                                         \
  }
TFRT_FALLBACK_SCALAR_GETTER(int64_t, Int)
TFRT_FALLBACK_SCALAR_GETTER(float, Float)
TFRT_FALLBACK_SCALAR_GETTER(bool, Bool)
TFRT_FALLBACK_SCALAR_GETTER(DType, DType)
TFRT_FALLBACK_SCALAR_GETTER(PartialShape, Shape)
TFRT_FALLBACK_SCALAR_GETTER(Tensor, Tensor)
#undef TFRT_FALLBACK_SCALAR_GETTER

#define TFRT_FALLBACK_LIST_GETTER(TYPE, KIND)                                  \
  Status SimpleOpKernelConstruction::getAttr(std::string_view name,            \
                                             std::vector<TYPE> *out) const {   \
    Status status;                                                             \
    const AttrValue *value = lookup(name, AttrValue::Kind::KIND, &status);     \
    if (!value)                                                                \
      return status;                                                           \
    copyList(*value, out);                                                     \
    return OkStatus();                                                         \
  }
TFRT_FALLBACK_LIST_GETTER(int64_t, IntList)
TFRT_FALLBACK_LIST_GETTER(float, FloatList)
TFRT_FALLBACK_LIST_GETTER(std::string, StringList)
TFRT_FALLBACK_LIST_GETTER(DType, DTypeList)
TFRT_FALLBACK_LIST_GETTER(PartialShape, ShapeList)
#undef TFRT_FALLBACK_LIST_GETTER

static bool fitsInt32(int64_t v) {
  return v >= std::numeric_limits<int32_t>::min() &&
         v <= std::numeric_limits<int32_t>::max();
}

Status SimpleOpKernelConstruction::getAttr(std::string_view name,
                                           int32_t *out) const {
  int64_t v = 0;
  if (Status status = getAttr(name, &v); !status.ok())
    return status;
  if (!fitsInt32(v))
    return makeError(StatusCode::kInvalidArgument,
                     "attribute '%.*s' of %s '%s' value %lld does not fit in "
                     "int32",
                     TFRT_FALLBACK_SV(name), opName_.c_str(), nodeName_.c_str(),
                     static_cast<long long>(v));
  *out = static_cast<int32_t>(v);
  return OkStatus();
}

Status SimpleOpKernelConstruction::getAttr(std::string_view name,
                                           std::vector<int32_t> *out) const {
  Status status;
  const AttrValue *value = lookup(name, AttrValue::Kind::IntList, &status);
  if (!value)
    return status;
  out->clear();
  if (const auto *list = value->getIf<std::vector<int64_t>>()) {
    out->reserve(list->size());
    for (int64_t v : *list) {
      if (!fitsInt32(v))
        return makeError(StatusCode::kInvalidArgument,
                         "attribute '%.*s' of %s '%s' element %lld does not "
                         "fit in int32",
                         TFRT_FALLBACK_SV(name), opName_.c_str(),
                         nodeName_.c_str(), static_cast<long long>(v));
      out->push_back(static_cast<int32_t>(v));
    }
  }
  return OkStatus();
}

Status SimpleOpKernelConstruction::getAttr(std::string_view name,
                                           std::string *out) const {
  // Function attributes read as strings too (their symbol name).
  if (const AttrValue *value = attrs_.find(name))
    if (const auto *func = value->getIf<FuncAttr>()) {
      *out = func->name;
      return OkStatus();
    }
  Status status;
  const AttrValue *value = lookup(name, AttrValue::Kind::String, &status);
  if (!value)
    return status;
  *out = *value->getIf<std::string>();
  return OkStatus();
}

void SimpleOpKernelConstruction::ctxFailure(Status status) {
  if (status_.ok())
    status_ = std::move(status);
}

//===----------------------------------------------------------------------===//
// AsyncOpKernel
//===----------------------------------------------------------------------===//

void AsyncOpKernel::compute(OpKernelContextInterface *ctx) {
  struct Done {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
  };
  auto state = std::make_shared<Done>();
  computeAsync(ctx, [state]() {
    std::lock_guard<std::mutex> lock(state->mu);
    state->done = true;
    state->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(state->mu);
  state->cv.wait(lock, [&] { return state->done; });
}

//===----------------------------------------------------------------------===//
// OpKernelContext
//===----------------------------------------------------------------------===//

const Eigen::ThreadPoolDevice &OpKernelContext::eigenDevice() const {
  return host_.eigenDevice();
}

Status OpKernelContext::outputIndexError(int index) const {
  return makeOpError(StatusCode::kInvalidArgument, opName(), nodeName(),
                     strFormat("output index %d is out of range [0, %zu)",
                               index, static_cast<size_t>(numOutputs())));
}

Status OpKernelContext::allocateOutput(int index, const TensorShape &shape,
                                       Tensor **out) {
  if (index < 0 || index >= numOutputs())
    return outputIndexError(index);
  if (kHasMemoryPlan && arena_ && plannedBuffers_[index] != kNotPlanned &&
      arena_->allocate(plannedBuffers_[index], outputDTypes_[index], shape,
                       outputs_[index])) {
    *out = outputs_[index];
    return OkStatus();
  }
  StatusOr<Tensor> tensor = Tensor::allocate(outputDTypes_[index], shape);
  if (!tensor.ok())
    return makeOpError(tensor.status().code(), opName(), nodeName(),
                       strFormat("output %d: %.*s", index,
                                 TFRT_FALLBACK_SV(tensor.status().message())));
  *outputs_[index] = *std::move(tensor);
  *out = outputs_[index];
  return OkStatus();
}

void OpKernelContext::releaseConstantInput(int index) {
  if (!isInputConstant(index))
    return;
  const Tensor &t = input(index);
  if (t.buffer())
    t.buffer()->discardPages(t.rawData(), t.totalBytes());
}

void OpKernelContext::setOutput(int index, Tensor tensor) {
  if (index < 0 || index >= numOutputs()) {
    ctxFailure(outputIndexError(index));
    return;
  }
  *outputs_[index] = std::move(tensor);
}

/// forwardInputOrAllocateOutput's uncommon cases, out of line so that the
/// usual one (an empty output register, an input of the same shape) needs
/// no stack frame for the temporaries of these.
[[gnu::noinline]] static void forwardInto(Tensor *output, const Tensor &input,
                                          const TensorShape &shape) {
  if (input.shape() != shape)
    *output = input.reshaped(shape);
  else
    *output = input;
}

Status OpKernelContext::forwardInputOrAllocateOutput(
    absl::Span<const int> candidates, int outputIndex, const TensorShape &shape,
    Tensor **out) {
  // The usual case, decided from the first candidate alone (few registers,
  // no loop, a scalar's shape without a call): an empty output takes over
  // that input when it has the output's dtype and shape (moved at
  // finish()). Anything else (another candidate, a planned buffer, a
  // reshape, an allocation, an error) is decided by forwardOrAllocate(),
  // which sees every candidate again.
  if (ABSL_PREDICT_TRUE(!candidates.empty())) {
    const unsigned first = static_cast<unsigned>(candidates[0]);
    if (first < 64 && (forwardable_ >> first & 1) && movedInput_ < 0 &&
        static_cast<unsigned>(outputIndex) <
            static_cast<unsigned>(numOutputs()) &&
        !outputs_[outputIndex]->isValid()) {
      const Tensor &in = input(static_cast<int>(first));
      if (in.dtype() == outputDTypes_[outputIndex] &&
          in.isBufferUniquelyOwned() &&
          !(kHasMemoryPlan && in.buffer()->isPlanned()) &&
          in.rank() == shape.rank() &&
          (shape.rank() == 0 || in.shape() == shape)) {
        *out = lendInput(static_cast<int>(first), outputIndex);
        return OkStatus();
      }
    }
  }
  return forwardOrAllocate(candidates, outputIndex, shape, out);
}

// Out of line: the usual forward above needs no stack frame for this.
[[gnu::noinline]] Status
OpKernelContext::forwardOrAllocate(absl::Span<const int> candidates,
                                   int outputIndex, const TensorShape &shape,
                                   Tensor **out) {
  if (ABSL_PREDICT_FALSE(static_cast<unsigned>(outputIndex) >=
                         static_cast<unsigned>(numOutputs())))
    return outputIndexError(outputIndex);
  // Only inputs that exist may be forwarded (the constructor masked the
  // others out).
  const uint64_t forwardable = forwardable_;
  if (forwardable != 0) {
    const DType dtype = outputDTypes_[outputIndex];
    for (int candidate : candidates) {
      // An input already moved to an output is taken.
      if (static_cast<unsigned>(candidate) >= 64 ||
          !(forwardable >> candidate & 1) || candidate == movedInput_)
        continue;
      // The register holding this input dies with this kernel: when it is
      // the buffer's only holder, the output may take the buffer over.
      const Tensor &in = input(candidate);
      if (in.dtype() != dtype || in.numElements() != shape.numElements() ||
          !in.isBufferUniquelyOwned())
        continue;
      // Planned memory goes only where the plan put it (docs/MemoryPlan.md):
      // taken over by a result the plan placed in the same buffer, else the
      // buffer would outlive its planned end.
      if (kHasMemoryPlan && ABSL_PREDICT_FALSE(in.buffer()->isPlanned()) &&
          (!arena_ || plannedBuffers_[outputIndex] == kNotPlanned ||
           arena_->indexOf(in.buffer().get()) != plannedBuffers_[outputIndex]))
        continue;
      Tensor *output = outputs_[outputIndex];
      if (ABSL_PREDICT_TRUE(!output->isValid() && movedInput_ < 0 &&
                            in.shape() == shape)) {
        // An empty output of the input's shape: the kernel writes through
        // the input's own tensor, and finish() moves it into the output.
        *out = lendInput(candidate, outputIndex);
        return OkStatus();
      }
      forwardInto(output, in, shape);
      *out = output;
      return OkStatus();
    }
  }
  return allocateOutput(outputIndex, shape, out);
}

void OpKernelContext::ctxFailure(Status status) {
  if (status_.ok())
    status_ = std::move(status);
}

} // namespace tfrt_fallback::rt

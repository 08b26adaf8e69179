//===- OpKernel.cpp - Kernel fallback interfaces ----------------*- C++ -*-===//
//
// Attribute getters of SimpleOpKernelConstruction and output handling of
// SimpleOpKernelContext.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/OpKernel.h"

#include <limits>

namespace tfrt_fallback::rt {

absl::Status makeOpError(absl::StatusCode code, absl::string_view opName,
                         absl::string_view nodeName,
                         absl::string_view message) {
  return absl::Status(code,
                      absl::StrCat(opName, " '", nodeName, "': ", message));
}

OpKernelConstructionInterface::~OpKernelConstructionInterface() = default;
OpKernelContextInterface::~OpKernelContextInterface() = default;

OpKernel::OpKernel(OpKernelConstructionInterface *ctx)
    : opName_(ctx->opName()), nodeName_(ctx->nodeName()) {}

OpKernel::~OpKernel() = default;

//===----------------------------------------------------------------------===//
// SimpleOpKernelConstruction
//===----------------------------------------------------------------------===//

SimpleOpKernelConstruction::SimpleOpKernelConstruction(
    std::string opName, std::string nodeName, const AttrMap &attrs,
    std::vector<DType> inputDTypes, std::vector<DType> outputDTypes)
    : opName_(std::move(opName)), nodeName_(std::move(nodeName)), attrs_(attrs),
      inputDTypes_(std::move(inputDTypes)),
      outputDTypes_(std::move(outputDTypes)) {}

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

const AttrValue *
SimpleOpKernelConstruction::lookup(absl::string_view name, AttrValue::Kind kind,
                                   absl::Status *status) const {
  const AttrValue *value = attrs_.find(name);
  if (!value) {
    *status = absl::InvalidArgumentError(
        absl::StrCat("attribute '", name, "' of ", opName_, " '", nodeName_,
                     "' is missing, expected ", attrKindName(kind)));
    return nullptr;
  }
  bool listKind = kind >= AttrValue::Kind::IntList;
  if (value->kind() == kind ||
      (listKind && value->isList() && value->listSize() == 0))
    return value;
  *status = absl::InvalidArgumentError(absl::StrCat(
      "attribute '", name, "' of ", opName_, " '", nodeName_, "' is ",
      attrKindName(value->kind()), ", expected ", attrKindName(kind)));
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
  absl::Status SimpleOpKernelConstruction::getAttr(absl::string_view name,     \
                                                   TYPE *out) const {          \
    absl::Status status;                                                       \
    const AttrValue *value = lookup(name, AttrValue::Kind::KIND, &status);     \
    if (!value)                                                                \
      return status;                                                           \
    *out = *value->getIf<TYPE>();                                              \
    return absl::OkStatus();                                                   \
  }
TFRT_FALLBACK_SCALAR_GETTER(int64_t, Int)
TFRT_FALLBACK_SCALAR_GETTER(float, Float)
TFRT_FALLBACK_SCALAR_GETTER(bool, Bool)
TFRT_FALLBACK_SCALAR_GETTER(DType, DType)
TFRT_FALLBACK_SCALAR_GETTER(PartialShape, Shape)
TFRT_FALLBACK_SCALAR_GETTER(Tensor, Tensor)
#undef TFRT_FALLBACK_SCALAR_GETTER

#define TFRT_FALLBACK_LIST_GETTER(TYPE, KIND)                                  \
  absl::Status SimpleOpKernelConstruction::getAttr(                            \
      absl::string_view name, std::vector<TYPE> *out) const {                  \
    absl::Status status;                                                       \
    const AttrValue *value = lookup(name, AttrValue::Kind::KIND, &status);     \
    if (!value)                                                                \
      return status;                                                           \
    copyList(*value, out);                                                     \
    return absl::OkStatus();                                                   \
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

absl::Status SimpleOpKernelConstruction::getAttr(absl::string_view name,
                                                 int32_t *out) const {
  int64_t v = 0;
  if (absl::Status status = getAttr(name, &v); !status.ok())
    return status;
  if (!fitsInt32(v))
    return absl::InvalidArgumentError(
        absl::StrCat("attribute '", name, "' of ", opName_, " '", nodeName_,
                     "' value ", v, " does not fit in int32"));
  *out = static_cast<int32_t>(v);
  return absl::OkStatus();
}

absl::Status
SimpleOpKernelConstruction::getAttr(absl::string_view name,
                                    std::vector<int32_t> *out) const {
  absl::Status status;
  const AttrValue *value = lookup(name, AttrValue::Kind::IntList, &status);
  if (!value)
    return status;
  out->clear();
  if (const auto *list = value->getIf<std::vector<int64_t>>()) {
    out->reserve(list->size());
    for (int64_t v : *list) {
      if (!fitsInt32(v))
        return absl::InvalidArgumentError(
            absl::StrCat("attribute '", name, "' of ", opName_, " '", nodeName_,
                         "' element ", v, " does not fit in int32"));
      out->push_back(static_cast<int32_t>(v));
    }
  }
  return absl::OkStatus();
}

absl::Status SimpleOpKernelConstruction::getAttr(absl::string_view name,
                                                 std::string *out) const {
  // Function attributes read as strings too (their symbol name).
  if (const AttrValue *value = attrs_.find(name))
    if (const auto *func = value->getIf<FuncAttr>()) {
      *out = func->name;
      return absl::OkStatus();
    }
  absl::Status status;
  const AttrValue *value = lookup(name, AttrValue::Kind::String, &status);
  if (!value)
    return status;
  *out = *value->getIf<std::string>();
  return absl::OkStatus();
}

void SimpleOpKernelConstruction::ctxFailure(absl::Status status) {
  if (status_.ok())
    status_ = std::move(status);
}

//===----------------------------------------------------------------------===//
// SimpleOpKernelContext
//===----------------------------------------------------------------------===//

SimpleOpKernelContext::SimpleOpKernelContext(
    absl::string_view opName, absl::string_view nodeName,
    absl::Span<const DType> outputDTypes, const Eigen::ThreadPoolDevice &device)
    : opName_(opName), nodeName_(nodeName),
      outputDTypes_(outputDTypes.begin(), outputDTypes.end()), device_(device),
      outputs_(outputDTypes.size()) {}

void SimpleOpKernelContext::reset(absl::Span<const Tensor *const> inputs,
                                  uint64_t forwardableInputs) {
  inputs_ = inputs;
  forwardable_ = forwardableInputs;
  for (Tensor &output : outputs_)
    output = Tensor();
  status_ = absl::OkStatus();
}

absl::Status SimpleOpKernelContext::checkOutputIndex(int index) const {
  if (index >= 0 && index < numOutputs())
    return absl::OkStatus();
  return makeOpError(absl::StatusCode::kInvalidArgument, opName_, nodeName_,
                     absl::StrCat("output index ", index, " out of range [0, ",
                                  numOutputs(), ")"));
}

absl::Status SimpleOpKernelContext::allocateOutput(int index,
                                                   const TensorShape &shape,
                                                   Tensor **out) {
  if (absl::Status s = checkOutputIndex(index); !s.ok())
    return s;
  absl::StatusOr<Tensor> tensor = Tensor::allocate(outputDTypes_[index], shape);
  if (!tensor.ok())
    return makeOpError(
        tensor.status().code(), opName_, nodeName_,
        absl::StrCat("output ", index, ": ", tensor.status().message()));
  outputs_[index] = *std::move(tensor);
  *out = &outputs_[index];
  return absl::OkStatus();
}

void SimpleOpKernelContext::setOutput(int index, Tensor tensor) {
  assert(index >= 0 && index < numOutputs() && "output index out of range");
  outputs_[index] = std::move(tensor);
}

absl::Status SimpleOpKernelContext::forwardInputOrAllocateOutput(
    absl::Span<const int> candidates, int outputIndex, const TensorShape &shape,
    Tensor **out) {
  if (absl::Status s = checkOutputIndex(outputIndex); !s.ok())
    return s;
  DType dtype = outputDTypes_[outputIndex];
  for (int candidate : candidates) {
    if (candidate < 0 || candidate >= numInputs() || candidate >= 64 ||
        !(forwardable_ & (uint64_t(1) << candidate)))
      continue;
    const Tensor &in = *inputs_[candidate];
    if (in.dtype() != dtype || in.numElements() != shape.numElements() ||
        !in.isBufferUniquelyOwned())
      continue;
    outputs_[outputIndex] = Tensor(dtype, shape, in.buffer(), in.byteOffset());
    *out = &outputs_[outputIndex];
    return absl::OkStatus();
  }
  return allocateOutput(outputIndex, shape, out);
}

void SimpleOpKernelContext::ctxFailure(absl::Status status) {
  if (status_.ok())
    status_ = std::move(status);
}

} // namespace tfrt_fallback::rt

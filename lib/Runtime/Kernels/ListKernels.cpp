//===- ListKernels.cpp - TensorList ops -------------------------*- C++ -*-===//
//
// TensorFlow's TensorList ops (tensorflow/core/kernels/list_kernels.h): a
// list is a scalar `variant` tensor holding a TensorList, the element
// dtype, the element shape (partially known) and the elements, each a
// tensor or empty (not set yet). Lists are values: SetItem makes a new list
// sharing the other elements' buffers, so a list read elsewhere never
// changes. The kernels move elements of any buffer dtype.
//
// - TensorListReserve(element_shape, num_elements): num_elements unset
//   elements (element_dtype; element_shape -1 or [-1, 3]: unknown parts).
// - TensorListFromTensor(tensor, element_shape): the slices of `tensor`
//   along its first dimension, whose shape must fit element_shape.
// - TensorListGetItem(list, index, element_shape): element `index`; an
//   unset element is zeros of the list's (or the given) element shape,
//   which must then be fully known.
// - TensorListSetItem(list, index, item): the list with element `index`
//   replaced (resize_if_index_out_of_bounds grows it first).
// - TensorListStack(list, element_shape): the elements stacked along a new
//   first dimension; unset ones are zeros; every element must have the same
//   shape. num_elements, when not -1, must be the list's length.
// - TensorListLength(list): its length, an int32 scalar.
// Errors take TensorFlow's wording where it has one.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// The value of a TensorList.
struct TensorList {
  DType elementDType = DType::Invalid;
  PartialShape elementShape;
  std::vector<Tensor> elements;
};

/// A variant scalar holding `list`.
Tensor makeListTensor(TensorList list) {
  auto *object = new TensorList(std::move(list));
  RCReference<TensorBuffer> buffer =
      TensorBuffer::wrapExternal(object, 0, [object] { delete object; });
  return Tensor(DType::Variant, TensorShape{}, std::move(buffer));
}

/// The list held by input `index` of `ctx`, or null after recording an
/// error.
const TensorList *getList(OpKernelContextInterface *ctx, const OpKernel &op,
                          int index) {
  const Tensor &handle = ctx->input(index);
  if (handle.dtype() != DType::Variant || handle.rank() != 0 ||
      !handle.rawData()) {
    ctx->ctxFailure(op.errorf("input %s is not a TensorList (a variant scalar)",
                              std::to_string(index)));
    return nullptr;
  }
  return static_cast<const TensorList *>(handle.rawData());
}

/// An element_shape input: a scalar -1 (unknown rank) or a 1-D int32/int64
/// list of dims, -1 for unknown ones.
StatusOr<PartialShape> readElementShape(const Tensor &shape,
                                        const OpKernel &op) {
  auto dim = [&](int64_t i) -> int64_t {
    return shape.dtype() == DType::I32 ? shape.data<int32_t>()[i]
                                       : shape.data<int64_t>()[i];
  };
  if (shape.dtype() != DType::I32 && shape.dtype() != DType::I64)
    return op.errorf("element_shape must be int32 or int64, got %s",
                     dtypeName(shape.dtype()));
  if (shape.rank() == 0) {
    if (dim(0) != -1)
      return op.errorf("The only valid scalar shape tensor is the fully "
                       "unknown shape specified as -1.");
    return PartialShape::unknownRank();
  }
  if (shape.rank() != 1)
    return op.errorf("Shape must be at most rank 1 but is rank %s",
                     std::to_string(shape.rank()));
  std::vector<int64_t> dims(shape.numElements());
  for (int64_t i = 0; i < shape.numElements(); ++i) {
    dims[i] = dim(i);
    if (dims[i] < -1)
      return op.errorf("element_shape has a dimension below -1");
  }
  return PartialShape(dims);
}

/// The known parts of `a` and `b` together, or an error when they differ.
StatusOr<PartialShape> mergeShapes(const PartialShape &a, const PartialShape &b,
                                   const OpKernel &op) {
  if (!a.hasRank())
    return b;
  if (!b.hasRank())
    return a;
  if (a.rank() != b.rank())
    return op.errorf("Incompatible ranks during merge: %s vs. %s",
                     std::to_string(a.rank()), std::to_string(b.rank()));
  std::vector<int64_t> dims(a.rank());
  for (int i = 0; i < a.rank(); ++i) {
    int64_t x = a.dims()[i], y = b.dims()[i];
    if (x >= 0 && y >= 0 && x != y)
      return op.errorf("Incompatible shapes during merge: %s vs. %s",
                       a.toString(), b.toString());
    dims[i] = x >= 0 ? x : y;
  }
  return PartialShape(dims);
}

/// A new tensor of zeros.
StatusOr<Tensor> zeros(DType dtype, const TensorShape &shape) {
  StatusOr<Tensor> tensor = Tensor::allocate(dtype, shape);
  if (tensor.ok() && tensor->totalBytes())
    std::memset(tensor->rawData(), 0, tensor->totalBytes());
  return tensor;
}

/// Reads an int32 scalar index.
StatusOr<int64_t> readIndex(const Tensor &index, const OpKernel &op) {
  if (index.dtype() != DType::I32 || index.numElements() != 1)
    return op.errorf("index must be an int32 scalar");
  return index.data<int32_t>()[0];
}

class TensorListReserveKernel final : public OpKernel {
public:
  explicit TensorListReserveKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("element_dtype", &elementDType));
  }
  void compute(OpKernelContextInterface *ctx) override {
    StatusOr<PartialShape> shape = readElementShape(ctx->input(0), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    StatusOr<int64_t> count = readIndex(ctx->input(1), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, count.status());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, *count >= 0,
        errorf("The num_elements to reserve must be a non negative number, "
               "but got %s",
               std::to_string(*count)));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        checkHostAllocation(static_cast<uint64_t>(*count), sizeof(Tensor)));
    TensorList list;
    list.elementDType = elementDType;
    list.elementShape = *std::move(shape);
    list.elements.resize(*count);
    ctx->setOutput(0, makeListTensor(std::move(list)));
  }

private:
  DType elementDType = DType::Invalid;
};

class TensorListFromTensorKernel final : public OpKernel {
public:
  explicit TensorListFromTensorKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &tensor = ctx->input(0);
    StatusOr<PartialShape> declared = readElementShape(ctx->input(1), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, declared.status());
    TFRT_FALLBACK_OP_REQUIRES(ctx, tensor.rank() >= 1,
                              errorf("Tensor must be at least a vector, but "
                                     "saw shape: %s",
                                     tensor.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isBufferDType(tensor.dtype()),
                              errorf("elements of dtype %s are not supported",
                                     dtypeName(tensor.dtype())));
    absl::Span<const int64_t> dims = tensor.shape().dims();
    TensorShape elementShape(dims.subspan(1));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, declared->isCompatibleWith(elementShape),
        errorf("Specified a list with shape %s from a tensor with shape %s",
               declared->toString(), tensor.shape().toString()));
    TensorList list;
    list.elementDType = tensor.dtype();
    list.elementShape = PartialShape(elementShape.dims());
    const size_t bytes = elementShape.numElements() * dtypeSize(tensor.dtype());
    for (int64_t i = 0; i < dims[0]; ++i) {
      StatusOr<Tensor> element = Tensor::allocate(tensor.dtype(), elementShape);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, element.status());
      if (bytes)
        std::memcpy(element->rawData(),
                    static_cast<const char *>(tensor.rawData()) + i * bytes,
                    bytes);
      list.elements.push_back(*std::move(element));
    }
    ctx->setOutput(0, makeListTensor(std::move(list)));
  }
};

class TensorListGetItemKernel final : public OpKernel {
public:
  explicit TensorListGetItemKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("element_dtype", &elementDType));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, list->elementDType == elementDType,
        errorf("Invalid data types; op elements %s but list elements %s",
               dtypeName(elementDType), dtypeName(list->elementDType)));
    StatusOr<int64_t> index = readIndex(ctx->input(1), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, index.status());
    const int64_t size = static_cast<int64_t>(list->elements.size());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, *index >= 0 && *index < size,
        errorf("Trying to access element %s in a list with %s elements.",
               std::to_string(*index), std::to_string(size)));
    const Tensor &element = list->elements[*index];
    if (element.isValid()) {
      ctx->setOutput(0, element);
      return;
    }
    // An unset element reads as zeros of the element shape.
    StatusOr<PartialShape> given = readElementShape(ctx->input(2), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, given.status());
    StatusOr<PartialShape> shape =
        mergeShapes(list->elementShape, *given, *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape->isFullyDefined(),
        errorf("Trying to read an uninitialized tensor but element_shape is "
               "not fully defined: %s",
               shape->toString()));
    StatusOr<Tensor> result = zeros(elementDType, *shape->toTensorShape());
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, result.status());
    ctx->setOutput(0, *std::move(result));
  }

private:
  DType elementDType = DType::Invalid;
};

class TensorListSetItemKernel final : public OpKernel {
public:
  explicit TensorListSetItemKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("element_dtype", &elementDType));
    if (ctx->hasAttr("resize_if_index_out_of_bounds"))
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("resize_if_index_out_of_bounds", &resize));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    const Tensor &item = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, list->elementDType == elementDType,
        errorf("Invalid data types; op elements %s but list elements %s",
               dtypeName(elementDType), dtypeName(list->elementDType)));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, list->elementShape.isCompatibleWith(item.shape()),
        errorf("Tried to set a tensor with incompatible shape at a list "
               "index. Item element shape: %s list shape: %s",
               item.shape().toString(), list->elementShape.toString()));
    StatusOr<int64_t> index = readIndex(ctx->input(1), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, index.status());
    int64_t size = static_cast<int64_t>(list->elements.size());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, *index >= 0 && (resize || *index < size),
        errorf("Trying to modify element %s in a list with %s elements.",
               std::to_string(*index), std::to_string(size)));
    if (*index >= size)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkHostAllocation(static_cast<uint64_t>(*index) + 1,
                                   sizeof(Tensor)));
    TensorList result = *list;
    if (*index >= size)
      result.elements.resize(*index + 1);
    result.elements[*index] = item;
    ctx->setOutput(0, makeListTensor(std::move(result)));
  }

private:
  DType elementDType = DType::Invalid;
  bool resize = false;
};

class TensorListStackKernel final : public OpKernel {
public:
  explicit TensorListStackKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("element_dtype", &elementDType));
    if (ctx->hasAttr("num_elements"))
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   ctx->getAttr("num_elements", &numElements));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, list->elementDType == elementDType,
        errorf("Invalid data types; op elements %s but list elements %s",
               dtypeName(elementDType), dtypeName(list->elementDType)));
    TFRT_FALLBACK_OP_REQUIRES(ctx, isBufferDType(elementDType),
                              errorf("elements of dtype %s are not supported",
                                     dtypeName(elementDType)));
    const int64_t size = static_cast<int64_t>(list->elements.size());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numElements == -1 || numElements == size,
        errorf("Operation expected a list with %s elements but got a list "
               "with %s elements.",
               std::to_string(numElements), std::to_string(size)));
    StatusOr<PartialShape> given = readElementShape(ctx->input(1), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, given.status());
    StatusOr<PartialShape> shape =
        mergeShapes(list->elementShape, *given, *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    // The set elements fix the shape; all must agree.
    for (const Tensor &element : list->elements) {
      if (!element.isValid())
        continue;
      PartialShape own(element.shape().dims());
      shape = mergeShapes(*shape, own, *this);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape->isFullyDefined(),
        errorf("Tried to stack elements of an empty list with non-fully-"
               "defined element_shape: %s",
               shape->toString()));
    TensorShape elementShape = *shape->toTensorShape();
    TensorShape::Dims dims{size};
    for (int64_t dim : elementShape.dims())
      dims.push_back(dim);
    StatusOr<TensorShape> outShape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    const size_t bytes = elementShape.numElements() * dtypeSize(elementDType);
    char *dest = static_cast<char *>(out->rawData());
    for (int64_t i = 0; i < size; ++i) {
      const Tensor &element = list->elements[i];
      if (!bytes)
        continue;
      if (element.isValid())
        std::memcpy(dest + i * bytes, element.rawData(), bytes);
      else
        std::memset(dest + i * bytes, 0, bytes);
    }
  }

private:
  DType elementDType = DType::Invalid;
  int64_t numElements = -1;
};

class TensorListLengthKernel final : public OpKernel {
public:
  explicit TensorListLengthKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape{}, &out));
    out->data<int32_t>()[0] = static_cast<int32_t>(list->elements.size());
  }
};

} // namespace

void registerListKernels(KernelRegistry &registry) {
  registerKernel<OpId::kTensorListReserve, TensorListReserveKernel>(registry);
  registerKernel<OpId::kTensorListFromTensor, TensorListFromTensorKernel>(
      registry);
  registerKernel<OpId::kTensorListGetItem, TensorListGetItemKernel>(registry);
  registerKernel<OpId::kTensorListSetItem, TensorListSetItemKernel>(registry);
  registerKernel<OpId::kTensorListStack, TensorListStackKernel>(registry);
  registerKernel<OpId::kTensorListLength, TensorListLengthKernel>(registry);
}

} // namespace tfrt_fallback::rt

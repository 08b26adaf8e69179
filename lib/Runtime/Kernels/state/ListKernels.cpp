//===- ListKernels.cpp - TensorList ops -------------------------*- C++ -*-===//
//
// TensorFlow's TensorList ops (tensorflow/core/kernels/list_kernels.h/.cc):
// a list is a scalar `variant` tensor holding a TensorList, the element
// dtype, the element shape (partially known), the elements, each a tensor
// or empty (not set yet), and the most elements it may hold (-1: no
// limit). Lists are values: an op that changes a list makes a new one
// sharing the other elements' buffers, so a list read elsewhere never
// changes. A variant tensor of another shape holds one list per element,
// side by side (a batch of lists: TensorListPushBackBatch,
// TensorListConcatLists); a scalar list reshaped to [1] is a batch of one.
// The kernels move elements of any buffer dtype.
//
// - TensorListReserve(element_shape, num_elements) / EmptyTensorList(
//   element_shape, max_num_elements): num_elements unset elements / none
//   (element_dtype; element_shape -1 or [-1, 3]: unknown parts).
// - TensorListFromTensor(tensor, element_shape): the slices of `tensor`
//   along its first dimension, whose shape must fit element_shape;
//   TensorListSplit(tensor, element_shape, lengths) the pieces of `lengths`
//   rows; TensorListScatter(tensor, indices, element_shape) / V2(...,
//   num_elements) row i at element indices[i] of a new list.
// - TensorListGetItem(list, index, element_shape): element `index`; an
//   unset element is zeros of the list's (or the given) element shape,
//   which must then be fully known. TensorListPopBack(list, element_shape)
//   the last element and the list without it.
// - TensorListSetItem(list, index, item): the list with element `index`
//   replaced (resize_if_index_out_of_bounds grows it first);
//   TensorListPushBack(list, tensor) with `tensor` appended;
//   TensorListScatterIntoExistingList(list, tensor, indices) with row i at
//   indices[i]; TensorListResize(list, size) cut or grown to `size`.
// - TensorListStack(list, element_shape): the elements stacked along a new
//   first dimension; TensorListGather(list, indices, element_shape) those
//   of `indices`; TensorListConcat(list) / V2(list, element_shape,
//   leading_dims) concatenated along their first dimension, with their
//   lengths. Unset ones are zeros; the set ones fix the shape and must
//   agree.
// - TensorListLength(list): its length, an int32 scalar;
//   TensorListElementShape(list) its element shape (-1: unknown).
// - TensorListConcatLists(a, b) / TensorListPushBackBatch(lists, tensor):
//   per list of a batch, b's elements appended to a's / row b of `tensor`
//   appended to list b.
// Errors take TensorFlow's wording where it has one.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"
#include "common/Variant.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// The value of a TensorList.
struct TensorList : VariantObject {
  TensorList() : VariantObject(VariantKind::TensorList) {}
  DType elementDType = DType::Invalid;
  PartialShape elementShape;
  std::vector<Tensor> elements;
  /// EmptyTensorList's max_num_elements: PushBack fails beyond it.
  int64_t maxNumElements = -1;
};

/// A variant scalar holding `list`.
Tensor makeListTensor(TensorList list) {
  auto *object = new TensorList(std::move(list));
  return makeVariantTensor(TensorShape{}, object, [object] { delete object; });
}

/// A variant tensor of `shape` holding `lists` (one per element, side by
/// side, as a scalar holds its one).
Tensor makeListsTensor(TensorShape shape, std::vector<TensorList> lists) {
  auto *objects = new std::vector<TensorList>(std::move(lists));
  return makeVariantTensor(std::move(shape), objects->data(),
                           [objects] { delete objects; });
}

/// The lists held by input `index` of `ctx` (its element count of them),
/// or null after recording an error.
const TensorList *getLists(OpKernelContextInterface *ctx, const OpKernel &op,
                           int index) {
  const Tensor &handle = ctx->input(index);
  if (handle.dtype() == DType::Variant && handle.numElements() == 0)
    return static_cast<const TensorList *>(
        static_cast<const VariantObject *>(handle.rawData()));
  const TensorList *lists =
      variantObjects<TensorList>(handle, VariantKind::TensorList);
  if (!lists) {
    // TensorFlow's "Input handle is not a list" when it is another variant.
    const VariantObject *other = firstVariantObject(handle);
    ctx->ctxFailure(
        other ? op.errorf("Input handle is not a list. Saw: '%s'",
                          variantKindName(other->variantKind))
              : op.errorf("input %s is not a TensorList (a variant scalar)",
                          std::to_string(index)));
    return nullptr;
  }
  return lists;
}

/// The list held by input `index` of `ctx`, or null after recording an
/// error.
const TensorList *getList(OpKernelContextInterface *ctx, const OpKernel &op,
                          int index) {
  const Tensor &handle = ctx->input(index);
  if (handle.rank() != 0) {
    ctx->ctxFailure(op.errorf("Input list must be a scalar saw: %s",
                              handle.shape().toString()));
    return nullptr;
  }
  return getLists(ctx, op, index);
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

/// TF's "Invalid data types" check of an op's element_dtype against a
/// list's.
Status checkElementDType(const OpKernel &op, DType elementDType,
                         const TensorList &list) {
  if (list.elementDType == elementDType)
    return OkStatus();
  return op.errorf("Invalid data types; op elements %s but list elements %s",
                   dtypeName(elementDType), dtypeName(list.elementDType));
}

/// TF's GetElementShapeFromInput: the element_shape input `shape` merged
/// with the list's element shape.
StatusOr<PartialShape> elementShapeFromInput(const Tensor &shape,
                                             const TensorList &list,
                                             const OpKernel &op) {
  StatusOr<PartialShape> given = readElementShape(shape, op);
  if (!given.ok())
    return given.status();
  return mergeShapes(*given, list.elementShape, op);
}

/// A new tensor of rows [begin, end) of `t` (at least 1-D, a buffer
/// dtype); with `dropFirstDim` (end = begin + 1) without the first
/// dimension.
StatusOr<Tensor> copyRows(const Tensor &t, int64_t begin, int64_t end,
                          bool dropFirstDim) {
  absl::Span<const int64_t> dims = t.shape().dims();
  TensorShape::Dims rowDims;
  if (!dropFirstDim)
    rowDims.push_back(end - begin);
  rowDims.insert(rowDims.end(), dims.begin() + 1, dims.end());
  StatusOr<Tensor> rows = Tensor::allocate(t.dtype(), TensorShape(rowDims));
  if (!rows.ok() || !rows->totalBytes())
    return rows;
  const size_t rowBytes = (dims[0] ? t.totalBytes() / dims[0] : 0);
  std::memcpy(rows->rawData(),
              static_cast<const char *>(t.rawData()) + begin * rowBytes,
              rows->totalBytes());
  return rows;
}

/// Writes the elements `parts` (null: `zeroBytes[i]` zero bytes) one after
/// another at `dest`.
void writeParts(char *dest, absl::Span<const Tensor *const> parts,
                absl::Span<const size_t> zeroBytes) {
  for (size_t i = 0; i < parts.size(); ++i) {
    const size_t bytes = parts[i] ? parts[i]->totalBytes() : zeroBytes[i];
    if (!bytes)
      continue;
    if (parts[i])
      std::memcpy(dest, parts[i]->rawData(), bytes);
    else
      std::memset(dest, 0, bytes);
    dest += bytes;
  }
}

/// Checks that the elements of `elementDType` are moved as bytes.
Status checkBufferElements(const OpKernel &op, DType elementDType) {
  if (isBufferDType(elementDType))
    return OkStatus();
  return op.errorf("elements of dtype %s are not supported",
                   dtypeName(elementDType));
}

/// The base of the list kernels that read the "element_dtype" attribute.
class ListOpKernel : public OpKernel {
public:
  explicit ListOpKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("element_dtype", &elementDType));
  }

protected:
  DType elementDType = DType::Invalid;
};

class TensorListReserveKernel final : public ListOpKernel {
public:
  using ListOpKernel::ListOpKernel;
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

class TensorListGetItemKernel final : public ListOpKernel {
public:
  using ListOpKernel::ListOpKernel;
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
};

class TensorListSetItemKernel final : public ListOpKernel {
public:
  explicit TensorListSetItemKernel(OpKernelConstructionInterface *ctx)
      : ListOpKernel(ctx) {
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
  bool resize = false;
};

class TensorListStackKernel final : public ListOpKernel {
public:
  explicit TensorListStackKernel(OpKernelConstructionInterface *ctx)
      : ListOpKernel(ctx) {
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

/// EmptyTensorList(element_shape, max_num_elements): a list with no
/// elements that may grow to max_num_elements (-1: no limit).
class EmptyTensorListKernel final : public ListOpKernel {
public:
  using ListOpKernel::ListOpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &max = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(ctx, max.rank() == 0,
                              errorf("max_num_elements expected to be a scalar "
                                     "but got shape: %s",
                                     max.shape().toString()));
    StatusOr<int64_t> maxNumElements = readIndex(max, *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, maxNumElements.status());
    StatusOr<PartialShape> shape = readElementShape(ctx->input(0), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    TensorList list;
    list.elementDType = elementDType;
    list.elementShape = *std::move(shape);
    list.maxNumElements = *maxNumElements;
    ctx->setOutput(0, makeListTensor(std::move(list)));
  }
};

/// TensorListPushBack(input_handle, tensor): the list with `tensor`
/// appended, which must fit the element shape and max_num_elements.
class TensorListPushBackKernel final : public ListOpKernel {
public:
  using ListOpKernel::ListOpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &item = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, item.dtype() == elementDType,
        errorf("Invalid data types; list elements %s but tried to append %s",
               dtypeName(elementDType), dtypeName(item.dtype())));
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, list->elementShape.isCompatibleWith(item.shape()),
        errorf("Tried to append a tensor with incompatible shape to a list. "
               "Op element shape: %s list shape: %s",
               item.shape().toString(), list->elementShape.toString()));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkElementDType(*this, elementDType, *list));
    const int64_t size = static_cast<int64_t>(list->elements.size());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, list->maxNumElements == -1 || size < list->maxNumElements,
        errorf("Tried to push item into a full list list size: %d "
               "max_num_elements: %d",
               size, list->maxNumElements));
    TensorList result = *list;
    result.elements.push_back(item);
    ctx->setOutput(0, makeListTensor(std::move(result)));
  }
};

/// TensorListPopBack(input_handle, element_shape): the list without its
/// last element, and that element (zeros of the element shape when unset).
class TensorListPopBackKernel final : public ListOpKernel {
public:
  using ListOpKernel::ListOpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkElementDType(*this, elementDType, *list));
    TFRT_FALLBACK_OP_REQUIRES(ctx, !list->elements.empty(),
                              errorf("Trying to pop from an empty list."));
    const Tensor &last = list->elements.back();
    Tensor item = last;
    if (!last.isValid()) {
      StatusOr<PartialShape> shape =
          elementShapeFromInput(ctx->input(1), *list, *this);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
      // TF's message runs the shape into the sentence.
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, shape->isFullyDefined(),
          errorf("Trying to read an uninitialized tensor but element_shape is "
                 "not fully defined.%s",
                 shape->toString()));
      StatusOr<Tensor> result = zeros(elementDType, *shape->toTensorShape());
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, result.status());
      item = *std::move(result);
    }
    TensorList rest = *list;
    rest.elements.pop_back();
    ctx->setOutput(0, makeListTensor(std::move(rest)));
    ctx->setOutput(1, std::move(item));
  }
};

/// TensorListElementShape(input_handle): the element shape as a vector of
/// shape_type (int32 or int64), -1 for unknown dims; -1 (a scalar) for an
/// unknown rank.
class TensorListElementShapeKernel final : public OpKernel {
public:
  explicit TensorListElementShapeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    shapeType = ctx->outputDType(0);
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "shape_type", &shapeType));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shapeType == DType::I32 || shapeType == DType::I64,
        errorf("shape_type must be int32 or int64, got %s",
               dtypeName(shapeType)));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    const PartialShape &shape = list->elementShape;
    std::vector<int64_t> dims(shape.dims().begin(), shape.dims().end());
    if (!shape.hasRank())
      dims = {-1};
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx,
        ctx->allocateOutput(0,
                            shape.hasRank()
                                ? TensorShape{static_cast<int64_t>(dims.size())}
                                : TensorShape{},
                            &out));
    TFRT_FALLBACK_OP_REQUIRES(ctx, out->dtype() == shapeType,
                              errorf("the output is %s, shape_type says %s",
                                     dtypeName(out->dtype()),
                                     dtypeName(shapeType)));
    for (size_t i = 0; i < dims.size(); ++i) {
      if (shapeType == DType::I32)
        out->data<int32_t>()[i] = static_cast<int32_t>(dims[i]);
      else
        out->data<int64_t>()[i] = dims[i];
    }
  }

private:
  DType shapeType = DType::I32;
};

/// TensorListGather(input_handle, indices, element_shape): the elements at
/// `indices` (int32, any shape) stacked along a new first dimension; unset
/// ones are zeros. The set elements gathered fix the element shape when
/// the list's is not fully known.
class TensorListGatherKernel final : public ListOpKernel {
public:
  using ListOpKernel::ListOpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkElementDType(*this, elementDType, *list));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkBufferElements(*this, elementDType));
    const Tensor &indices = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.dtype() == DType::I32,
        errorf("indices must be int32, got %s", dtypeName(indices.dtype())));
    StatusOr<PartialShape> shape =
        elementShapeFromInput(ctx->input(2), *list, *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    const int64_t n = indices.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape->isFullyDefined() || n > 0,
        errorf("Tried to gather 0-elements from a list with "
               "non-fully-defined shape: %s",
               shape->toString()));
    const int64_t size = static_cast<int64_t>(list->elements.size());
    const int32_t *index = indices.data<int32_t>();
    if (!list->elementShape.isFullyDefined()) {
      for (int64_t k = 0; k < n; ++k) {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, index[k] >= 0 && index[k] < size,
            errorf("Trying to gather element %d in a list with %d elements.",
                   index[k], size));
        const Tensor &element = list->elements[index[k]];
        if (!element.isValid())
          continue;
        shape =
            mergeShapes(*shape, PartialShape(element.shape().dims()), *this);
        TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
      }
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape->isFullyDefined(),
        errorf("Tried to gather uninitialized tensors from a list with "
               "non-fully-defined element_shape: %s",
               shape->toString()));
    const TensorShape elementShape = *shape->toTensorShape();
    TensorShape::Dims dims{n};
    dims.insert(dims.end(), elementShape.dims().begin(),
                elementShape.dims().end());
    StatusOr<TensorShape> outShape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    std::vector<const Tensor *> parts(n);
    for (int64_t k = 0; k < n; ++k) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, index[k] >= 0 && index[k] < size,
          errorf("Index %d out o range; list only has %d elements.", index[k],
                 size));
      const Tensor &element = list->elements[index[k]];
      if (!element.isValid())
        continue;
      // The merge above checked this unless the list's shape is fully
      // known, which every element fits.
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, element.shape() == elementShape,
          errorf("Incompatible shapes during merge: %s vs. %s",
                 elementShape.toString(), element.shape().toString()));
      parts[k] = &element;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    const size_t bytes = elementShape.numElements() * dtypeSize(elementDType);
    writeParts(static_cast<char *>(out->rawData()), parts,
               std::vector<size_t>(n, bytes));
  }
};

/// The scatters' common part: row k of `tensor` to element indices[k] of
/// `elements` (int32 indices, one per row; a later row wins), which grows
/// to the largest index + 1 and to `numElements` (unless -1), which also
/// bounds the indices. Indices must be non-negative (TF's
/// ScatterIntoExistingList writes at a negative one, out of bounds).
Status scatterRows(const OpKernel &op, const Tensor &tensor,
                   const Tensor &indices, int64_t numElements,
                   std::vector<Tensor> *elements) {
  const int32_t *index = indices.data<int32_t>();
  const int64_t n = indices.numElements();
  int64_t highest = -1;
  for (int64_t k = 0; k < n; ++k) {
    if (index[k] < 0)
      return op.errorf("Indices in TensorListScatter must all be "
                       "non-negative.");
    if (numElements != -1 && index[k] >= numElements)
      return op.errorf("TensorListScatter: Trying to scatter at index %d in "
                       "list with size %d",
                       index[k], numElements);
    highest = std::max<int64_t>(highest, index[k]);
  }
  const int64_t length = std::max(highest + 1, numElements);
  if (Status s =
          checkHostAllocation(static_cast<uint64_t>(length), sizeof(Tensor));
      !s.ok())
    return s;
  if (length > static_cast<int64_t>(elements->size()))
    elements->resize(length);
  for (int64_t k = 0; k < n; ++k) {
    StatusOr<Tensor> row = copyRows(tensor, k, k + 1, true);
    if (!row.ok())
      return row.status();
    (*elements)[index[k]] = *std::move(row);
  }
  return OkStatus();
}

/// TensorListScatter(tensor, indices, element_shape) and, with
/// `NumElements`, TensorListScatterV2(..., num_elements): a new list of
/// element_shape with row i of `tensor` at element indices[i] (a later row
/// wins), as long as the largest index (or num_elements, when not -1).
template <bool NumElements>
class TensorListScatterKernel final : public OpKernel {
public:
  explicit TensorListScatterKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &tensor = ctx->input(0);
    const Tensor &indices = ctx->input(1);
    const Tensor &shapeT = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shapeT.rank() <= 1,
        errorf("TensorListScatter: element_shape must be at most rank 1 but "
               "has the shape of %s",
               shapeT.shape().toString()));
    StatusOr<PartialShape> shape = readElementShape(shapeT, *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    int64_t numElements = -1;
    if (NumElements) {
      const Tensor &count = ctx->input(3);
      TFRT_FALLBACK_OP_REQUIRES(ctx, count.rank() == 0,
                                errorf("num_elements must be a scalar"));
      StatusOr<int64_t> value = readIndex(count, *this);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, value.status());
      numElements = *value;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, numElements >= -1,
        errorf("TensorListScatter expects num_elements >= -1, found: %d",
               numElements));
    TFRT_FALLBACK_OP_REQUIRES(ctx, tensor.rank() >= 1,
                              errorf("Tensor must be at least a vector, but "
                                     "saw shape: %s",
                                     tensor.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkBufferElements(*this, tensor.dtype()));
    const TensorShape rowShape(tensor.shape().dims().subspan(1));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, shape->isCompatibleWith(rowShape),
        errorf("Specified a list with shape %s from a tensor with shape %s",
               shape->toString(), rowShape.toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.dtype() == DType::I32,
        errorf("indices must be int32, got %s", dtypeName(indices.dtype())));
    const int64_t n = indices.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, n == tensor.dim(0),
        errorf("Invalid number of rows in input tensor. Expected: %d "
               "Actual: %d",
               n, tensor.dim(0)));
    TensorList list;
    list.elementDType = tensor.dtype();
    list.elementShape = *std::move(shape);
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, scatterRows(*this, tensor, indices, numElements, &list.elements));
    ctx->setOutput(0, makeListTensor(std::move(list)));
  }
};

/// TensorListScatterIntoExistingList(input_handle, tensor, indices): the
/// list with row i of `tensor` at element indices[i] (a vector; a later row
/// wins), grown to the largest index. As in TF, the rows are not checked
/// against the list's element shape.
class TensorListScatterIntoExistingListKernel final : public OpKernel {
public:
  explicit TensorListScatterIntoExistingListKernel(
      OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    const Tensor &tensor = ctx->input(1);
    const Tensor &indices = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, tensor.dtype() == list->elementDType,
        errorf("Invalid data types; input tensor type: %s list element_type: "
               "%s",
               dtypeName(tensor.dtype()), dtypeName(list->elementDType)));
    TFRT_FALLBACK_OP_REQUIRES(ctx, tensor.rank() >= 1,
                              errorf("Tensor must be at least a vector, but "
                                     "saw shape: %s",
                                     tensor.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkBufferElements(*this, tensor.dtype()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.rank() == 1,
        errorf("Expected indices to be a vector, but received shape: %s",
               indices.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, indices.dtype() == DType::I32,
        errorf("indices must be int32, got %s", dtypeName(indices.dtype())));
    const int64_t n = indices.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, n == tensor.dim(0),
        errorf("Expected len(indices) == tensor.shape[0], but saw: %d vs. %d",
               n, tensor.dim(0)));
    TensorList result = *list;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, scatterRows(*this, tensor, indices, -1, &result.elements));
    ctx->setOutput(0, makeListTensor(std::move(result)));
  }
};

/// TensorListResize(input_handle, size): the list cut to its first `size`
/// elements or grown with unset ones.
class TensorListResizeKernel final : public OpKernel {
public:
  explicit TensorListResizeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    StatusOr<int64_t> size = readIndex(ctx->input(1), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, size.status());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, *size >= 0,
        errorf("TensorListSlice expects size to be non-negative. Got: %d",
               *size));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkHostAllocation(static_cast<uint64_t>(*size), sizeof(Tensor)));
    TensorList result;
    result.elementDType = list->elementDType;
    result.elementShape = list->elementShape;
    result.maxNumElements = list->maxNumElements;
    const size_t kept = std::min<size_t>(*size, list->elements.size());
    result.elements.assign(list->elements.begin(),
                           list->elements.begin() + kept);
    result.elements.resize(*size);
    ctx->setOutput(0, makeListTensor(std::move(result)));
  }
};

/// TensorListConcat(input_handle; element_shape) and, with `V2`,
/// TensorListConcatV2(input_handle, element_shape, leading_dims): the
/// elements (at least vectors, equal past their first dimension)
/// concatenated along their first dimension, and the int64 length of each.
/// An unset element is zeros whose length is the set elements' common first
/// dimension, else (V2) leading_dims[i]; the dims past the first must be
/// known from element_shape (attribute / input) or the set elements.
template <bool V2> class TensorListConcatKernel final : public ListOpKernel {
public:
  explicit TensorListConcatKernel(OpKernelConstructionInterface *ctx)
      : ListOpKernel(ctx) {
    if (!V2)
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "element_shape", &elementShapeAttr));
  }
  void compute(OpKernelContextInterface *ctx) override {
    PartialShape exceptFirst;
    if (!V2 && elementShapeAttr.hasRank()) {
      TFRT_FALLBACK_OP_REQUIRES(ctx, elementShapeAttr.rank() > 0,
                                errorf("element_shape must not be empty"));
      exceptFirst = PartialShape(elementShapeAttr.dims().subspan(1));
    }
    const TensorList *list = getList(ctx, *this, 0);
    if (!list)
      return;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkElementDType(*this, elementDType, *list));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkBufferElements(*this, elementDType));
    int64_t firstDim = -1;
    if (V2) {
      StatusOr<PartialShape> shape =
          elementShapeFromInput(ctx->input(1), *list, *this);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, !shape->hasRank() || shape->rank() >= 1,
          errorf("Concat requires elements to be at least vectors, found "
                 "scalars instead."));
      if (shape->hasRank()) {
        firstDim = shape->dims()[0];
        exceptFirst = PartialShape(shape->dims().subspan(1));
      }
    }
    const std::vector<Tensor> &elements = list->elements;
    const int64_t size = static_cast<int64_t>(elements.size());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, size > 0 || exceptFirst.isFullyDefined(),
        errorf("All except the first dimension must be fully defined when "
               "concating an empty tensor list. element_shape: %s",
               exceptFirst.toString()));
    if (!list->elementShape.isFullyDefined()) {
      bool checkDim = firstDim == -1;
      int64_t inferred = firstDim;
      for (int64_t i = 0; i < size; ++i) {
        const Tensor &t = elements[i];
        if (!t.isValid())
          continue;
        TFRT_FALLBACK_OP_REQUIRES(ctx, t.rank() >= 1,
                                  errorf("Concat saw a scalar shape at index "
                                         "%d but requires at least vectors.",
                                         i));
        StatusOr<PartialShape> merged = mergeShapes(
            exceptFirst, PartialShape(t.shape().dims().subspan(1)), *this);
        TFRT_FALLBACK_OP_REQUIRES_OK(ctx, merged.status());
        exceptFirst = *std::move(merged);
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, firstDim == -1 || firstDim == t.dim(0),
            errorf("First entry of element_shape input does not match the "
                   "first dim of list element at index: %d Expected: %d "
                   "Actual: %d",
                   i, firstDim, t.dim(0)));
        if (checkDim) {
          if (inferred == -1) {
            inferred = t.dim(0);
          } else if (inferred != t.dim(0)) {
            inferred = -1;
            checkDim = false;
          }
        }
      }
      firstDim = inferred;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, exceptFirst.isFullyDefined(),
        errorf("Trying to concat list with only uninitialized tensors but "
               "element_shape_except_first_dim is not fully defined: %s",
               exceptFirst.toString()));
    const TensorShape inner = *exceptFirst.toTensorShape();
    Tensor *lengths = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape{size}, &lengths));
    int64_t *length = lengths->data<int64_t>();
    const Tensor *leading = V2 ? &ctx->input(2) : nullptr;
    const int64_t leadingCount = leading ? leading->numElements() : 0;
    const size_t rowBytes = inner.numElements() * dtypeSize(elementDType);
    std::vector<const Tensor *> parts(size);
    std::vector<size_t> zeroBytes(size);
    int64_t total = 0;
    for (int64_t i = 0; i < size; ++i) {
      const Tensor &t = elements[i];
      if (t.isValid()) {
        // Checked above unless the list's element shape is fully known;
        // then element_shape may still disagree with it.
        TFRT_FALLBACK_OP_REQUIRES(
            ctx,
            t.rank() >= 1 && TensorShape(t.shape().dims().subspan(1)) == inner,
            errorf("Incompatible shapes during merge: %s vs. %s",
                   inner.toString(), t.shape().toString()));
        length[i] = t.dim(0);
        parts[i] = &t;
      } else {
        if ((!V2 || i >= leadingCount) && firstDim != -1) {
          length[i] = firstDim;
        } else {
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, V2,
              errorf("Concating lists with uninitialized tensors is not "
                     "supported in this version of TensorListConcat. Consider "
                     "updating your GraphDef to run the newer version."));
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, i < leadingCount,
              errorf("List contains uninitialized tensor at index %d but "
                     "leading_dims has only %d elements.",
                     i, leadingCount));
          TFRT_FALLBACK_OP_REQUIRES(ctx, isIndexTensor(*leading),
                                    errorf("leading_dims must be int64"));
          length[i] = indexAt(*leading, i);
          // TF would make a shape of a negative size.
          TFRT_FALLBACK_OP_REQUIRES(
              ctx, length[i] >= 0,
              errorf("Invalid value in leading_dims: %d", length[i]));
        }
        zeroBytes[i] = length[i] * rowBytes;
      }
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, total <= std::numeric_limits<int64_t>::max() - length[i],
          errorf("Concatenated length overflows int64"));
      total += length[i];
    }
    TensorShape::Dims dims{total};
    dims.insert(dims.end(), inner.dims().begin(), inner.dims().end());
    StatusOr<TensorShape> outShape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    if (out->totalBytes())
      writeParts(static_cast<char *>(out->rawData()), parts, zeroBytes);
  }

private:
  PartialShape elementShapeAttr;
};

/// TensorListSplit(tensor, element_shape, lengths): a list of the pieces of
/// `tensor` along its first dimension, lengths[i] rows each (int64, which
/// must use every row).
class TensorListSplitKernel final : public OpKernel {
public:
  explicit TensorListSplitKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &tensor = ctx->input(0);
    const Tensor &lengths = ctx->input(2);
    StatusOr<PartialShape> shape = readElementShape(ctx->input(1), *this);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, !shape->hasRank() || shape->rank() >= 1,
        errorf("TensorListSplit requires element_shape to be at least of "
               "rank 1, but saw: %s",
               shape->toString()));
    TFRT_FALLBACK_OP_REQUIRES(ctx, tensor.rank() >= 1,
                              errorf("Tensor must be at least a vector, but "
                                     "saw shape: %s",
                                     tensor.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkBufferElements(*this, tensor.dtype()));
    const TensorShape rowShape(tensor.shape().dims().subspan(1));
    const PartialShape exceptFirst =
        shape->hasRank() ? PartialShape(shape->dims().subspan(1))
                         : PartialShape::unknownRank();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, exceptFirst.isCompatibleWith(rowShape),
        errorf("tensor shape %s is not compatible with element_shape %s",
               tensor.shape().toString(), shape->toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, lengths.rank() == 1,
        errorf("Expected lengths to be a vector, received shape: %s",
               lengths.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, isIndexTensor(lengths),
        errorf("lengths must be int64, got %s", dtypeName(lengths.dtype())));
    TensorList list;
    list.elementDType = tensor.dtype();
    list.elementShape = *std::move(shape);
    const int64_t rows = tensor.dim(0);
    int64_t start = 0, end = 0;
    for (int64_t i = 0; i < lengths.numElements(); ++i) {
      const int64_t length = indexAt(lengths, i);
      TFRT_FALLBACK_OP_REQUIRES(ctx, length >= 0,
                                errorf("Invalid value in lengths: %d", length));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, length <= rows - start,
          errorf("Attempting to slice [%d, %d] from tensor with length %d",
                 start, start + length, rows));
      end = start + length;
      StatusOr<Tensor> piece = copyRows(tensor, start, end, false);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, piece.status());
      list.elements.push_back(*std::move(piece));
      start = end;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, end == rows,
        errorf("Unused values in tensor. Length of tensor: %d Values used: %d",
               rows, end));
    ctx->setOutput(0, makeListTensor(std::move(list)));
  }
};

/// TensorListConcatLists(input_a, input_b): for each list of the batches
/// a and b (variant tensors of one shape), a's elements followed by b's;
/// their element dtypes must be element_dtype and their element shapes
/// identical.
class TensorListConcatListsKernel final : public ListOpKernel {
public:
  using ListOpKernel::ListOpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &a = ctx->input(0);
    const Tensor &b = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, a.shape() == b.shape(),
        errorf("Incompatible input TensorList tensor shapes: %s vs. %s",
               a.shape().toString(), b.shape().toString()));
    const TensorList *listsA = getLists(ctx, *this, 0);
    const TensorList *listsB = listsA ? getLists(ctx, *this, 1) : nullptr;
    if (!listsB)
      return;
    const int64_t n = a.numElements();
    std::vector<TensorList> result;
    result.reserve(n);
    for (int64_t i = 0; i < n; ++i) {
      const TensorList &la = listsA[i], &lb = listsB[i];
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, la.elementDType == elementDType,
          errorf("input_a[%d].dtype != element_dtype.  Saw: %s vs. %s", i,
                 dtypeName(la.elementDType), dtypeName(elementDType)));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, lb.elementDType == elementDType,
          errorf("input_b[%d].dtype != element_dtype.  Saw: %s vs. %s", i,
                 dtypeName(lb.elementDType), dtypeName(elementDType)));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, la.elementShape == lb.elementShape,
          errorf("input_a and input_b TensorList element shapes are not "
                 "identical at index %d.  Saw %s vs. %s",
                 i, la.elementShape.toString(), lb.elementShape.toString()));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, checkHostAllocation(static_cast<uint64_t>(la.elements.size()) +
                                       lb.elements.size(),
                                   sizeof(Tensor)));
      TensorList out = la;
      out.elements.insert(out.elements.end(), lb.elements.begin(),
                          lb.elements.end());
      result.push_back(std::move(out));
    }
    ctx->setOutput(0, makeListsTensor(a.shape(), std::move(result)));
  }
};

/// TensorListPushBackBatch(input_handles, tensor): for the batch of lists
/// input_handles (a variant vector), list b with row b of `tensor`
/// appended.
class TensorListPushBackBatchKernel final : public ListOpKernel {
public:
  using ListOpKernel::ListOpKernel;
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &handles = ctx->input(0);
    const Tensor &tensor = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, tensor.dtype() == elementDType,
        errorf("Invalid data types; list elements %s but tried to append %s",
               dtypeName(elementDType), dtypeName(tensor.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, tensor.rank() >= 1,
        errorf("Expected tensor to be at least a vector, but saw shape: %s",
               tensor.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 checkBufferElements(*this, tensor.dtype()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, handles.dtype() == DType::Variant,
        errorf("Expected input_handles dtype to be Variant, but saw: %s",
               dtypeName(handles.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, handles.rank() == 1,
        errorf("Expected input_handles to be a vector, but saw shape: %s",
               handles.shape().toString()));
    const int64_t batch = handles.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, tensor.dim(0) == batch,
        errorf("Expected tensor.shape[0] == input_handles.size, but saw %d "
               "vs. %d",
               tensor.dim(0), batch));
    const TensorList *lists = getLists(ctx, *this, 0);
    if (!lists)
      return;
    const TensorShape rowShape(tensor.shape().dims().subspan(1));
    for (int64_t b = 0; b < batch; ++b) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, lists[b].elementShape.isCompatibleWith(rowShape),
          errorf("Tried to append a tensor with incompatible shape to a list "
                 "at index %d. Op element shape: %s list shape: %s",
                 b, rowShape.toString(), lists[b].elementShape.toString()));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, lists[b].elementDType == elementDType,
          errorf("Invalid data type at index %d; op elements %s but list "
                 "elements %s",
                 b, dtypeName(elementDType), dtypeName(lists[b].elementDType)));
    }
    std::vector<TensorList> result;
    result.reserve(batch);
    for (int64_t b = 0; b < batch; ++b) {
      StatusOr<Tensor> row = copyRows(tensor, b, b + 1, true);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, row.status());
      result.push_back(lists[b]);
      result.back().elements.push_back(*std::move(row));
    }
    ctx->setOutput(0, makeListsTensor(handles.shape(), std::move(result)));
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
  registerKernel<OpId::kEmptyTensorList, EmptyTensorListKernel>(registry);
  registerKernel<OpId::kTensorListPushBack, TensorListPushBackKernel>(registry);
  registerKernel<OpId::kTensorListPopBack, TensorListPopBackKernel>(registry);
  registerKernel<OpId::kTensorListElementShape, TensorListElementShapeKernel>(
      registry, {{"shape_type", {DType::I32, DType::I64}}});
  registerKernel<OpId::kTensorListGather, TensorListGatherKernel>(registry);
  registerKernel<OpId::kTensorListScatter, TensorListScatterKernel<false>>(
      registry);
  registerKernel<OpId::kTensorListScatterV2, TensorListScatterKernel<true>>(
      registry);
  registerKernel<OpId::kTensorListScatterIntoExistingList,
                 TensorListScatterIntoExistingListKernel>(registry);
  registerKernel<OpId::kTensorListResize, TensorListResizeKernel>(registry);
  registerKernel<OpId::kTensorListConcat, TensorListConcatKernel<false>>(
      registry);
  registerKernel<OpId::kTensorListConcatV2, TensorListConcatKernel<true>>(
      registry);
  registerKernel<OpId::kTensorListConcatLists, TensorListConcatListsKernel>(
      registry);
  registerKernel<OpId::kTensorListSplit, TensorListSplitKernel>(registry);
  registerKernel<OpId::kTensorListPushBackBatch, TensorListPushBackBatchKernel>(
      registry);
}

} // namespace tfrt_fallback::rt

//===- TensorArrayKernels.cpp - TensorArray V1, V2 and V3 ops -------------===//
//
// TensorFlow's TensorArrays (tensorflow/core/kernels/tensor_array.h and
// tensor_array_ops.cc). A TensorArray is a resource: a resource scalar
// holds its handle, which owns it (TensorFlow keeps it in the per-step
// resource manager; here it lives as long as a tensor holds the handle, so
// it ends with the run that made it). Every op also takes and returns a
// float `flow` scalar, which only orders the ops in TensorFlow's graphs; the
// ops are stateful here, so chains order them too. The kernels move
// elements of any buffer dtype.
//
// The deprecated V1 ops (TensorArray, TensorArrayWrite, ..., whose handle
// is a Ref(string), read as a string here) and V2 ops (TensorArrayV2,
// TensorArrayWriteV2, ...) run on the same kernels as V3, as in TensorFlow,
// which registers one kernel class for the three names. Their handle is a
// string vector ["_tensor_arrays", "<tensor_array_name>_<counter>"], and
// TensorArray / TensorArrayV2 make no flow. TensorFlow finds the array by
// those strings in the step's resource container; here a process-wide
// table maps them to the array, and the buffer of the handle tensor the
// creating op returns owns the array (so, as for V3, the array lives as
// long as that tensor) and removes it from the table when freed. V1 adds
// TensorArrayPack (a gather of every element) and TensorArrayUnpack (a
// scatter of value's rows to elements 0, 1, ..., whose count must be the
// array's size).
//
// - TensorArrayV3(size): `size` empty elements of `dtype`. element_shape
//   (unknown by default) constrains every written element;
//   identical_element_shapes fixes it at the first write; dynamic_size lets
//   writes grow the array; clear_after_read (the default) drops an element
//   at its read. Outputs the handle and a flow of 0.
// - TensorArrayWriteV3(handle, index, value, flow): sets element `index`,
//   which must be in range (or >= 0 with dynamic_size), not written yet and
//   not read.
// - TensorArrayReadV3(handle, index, flow): element `index`. An element
//   never written reads as zeros when the element shape is fully known,
//   as in TensorFlow (which then counts it as written).
// - TensorArrayGatherV3(handle, indices, flow): the elements at `indices`
//   stacked along a new first dimension; all must have the same shape.
//   element_shape merges into the array's; gathering nothing needs it fully
//   known.
// - TensorArrayScatterV3(handle, indices, value, flow): writes value[i] to
//   element indices[i].
// - TensorArrayConcatV3(handle, flow): every element concatenated along
//   dimension 0, and each one's length along it (int64).
// - TensorArraySplitV3(handle, value, lengths, flow): value cut along
//   dimension 0 into pieces of `lengths`, written to elements 0, 1, ...
// - TensorArraySizeV3(handle, flow): the number of elements, int32.
// - TensorArrayCloseV3(handle): drops the elements; later ops fail.
// Errors take TensorFlow's wording.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Elements.h"
#include "common/Registration.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/Resource.h"

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

constexpr std::string_view kTensorArrayKind = "TensorArray";

/// The most elements an array may have: TensorFlow's int32 sizes would let
/// one bookkeeping vector take hundreds of gigabytes.
constexpr int64_t kMaxElements = int64_t(1) << 24;

Status checkSize(int64_t size) {
  if (size > kMaxElements)
    return ResourceExhaustedError(
        strCat("a TensorArray of ", size,
               " elements exceeds this runtime's limit of ", kMaxElements));
  return OkStatus();
}

/// The state of a TensorArray. Every member function expects `mutex` held.
class TensorArray final : public Resource {
public:
  TensorArray(std::string name, DType dtype, PartialShape elementShape,
              bool identicalShapes, bool dynamicSize, bool clearAfterRead,
              int64_t size)
      : name(std::move(name)), dtype(dtype),
        elementShape(std::move(elementShape)), identicalShapes(identicalShapes),
        dynamicSize(dynamicSize), clearAfterRead(clearAfterRead),
        elements(size) {}
  std::string_view kind() const override { return kTensorArrayKind; }

  Status checkOpen() const {
    if (closed)
      return InvalidArgumentError(
          strCat("TensorArray ", name, " has already been closed."));
    return OkStatus();
  }

  /// TensorArray::LockedWriteOrAggregate without aggregation.
  Status write(int64_t index, const Tensor &value) {
    if (Status status = checkOpen(); !status.ok())
      return status;
    const int64_t size = static_cast<int64_t>(elements.size());
    if (index < 0 || (!dynamicSize && index >= size))
      return InvalidArgumentError(
          strCat("TensorArray ", name, ": Tried to write to index ", index,
                 " but array is not resizeable and size is: ", size));
    if (value.dtype() != dtype)
      return InvalidArgumentError(strCat(
          "TensorArray ", name, ": Could not write to TensorArray index ",
          index, " because the value dtype is ", dtypeName(value.dtype()),
          " but TensorArray dtype is ", dtypeName(dtype), "."));
    if (!elementShape.isCompatibleWith(value.shape()))
      return InvalidArgumentError(strCat(
          "TensorArray ", name, ": Could not write to TensorArray index ",
          index, " because the value shape is ", value.shape().toString(),
          " which is incompatible with the TensorArray's inferred element "
          "shape: ",
          elementShape.toString(), " (consider setting infer_shape=False)."));
    if (index >= size) {
      if (Status status = checkSize(index + 1); !status.ok())
        return status;
      elements.resize(index + 1);
    }
    Element &element = elements[index];
    if (element.read)
      return InvalidArgumentError(strCat(
          "TensorArray ", name, ": Could not write to TensorArray index ",
          index, " because it has already been read."));
    if (element.written)
      return InvalidArgumentError(strCat(
          "TensorArray ", name, ": Could not write to TensorArray index ",
          index, " because it has already been written to."));
    if (identicalShapes && !elementShape.isFullyDefined())
      elementShape = PartialShape(value.shape().dims());
    element.tensor = value;
    element.shape = value.shape();
    element.written = true;
    return OkStatus();
  }

  /// TensorArray::LockedRead of a forward (not gradient) array.
  StatusOr<Tensor> read(int64_t index) {
    if (Status status = checkOpen(); !status.ok())
      return status;
    const int64_t size = static_cast<int64_t>(elements.size());
    if (index < 0 || index >= size)
      return InvalidArgumentError(strCat("Tried to read from index ", index,
                                         " but array size is: ", size));
    Element &element = elements[index];
    if (!element.written) {
      // TensorFlow reads an element never written as zeros of the element
      // shape, when it is known.
      StatusOr<TensorShape> shape = elementShape.toTensorShape();
      if (!shape.ok())
        return InvalidArgumentError(strCat(
            "TensorArray ", name, ": Could not read from TensorArray index ",
            index, ".  Furthermore, the element shape is not fully defined: ",
            elementShape.toString(),
            ".  It is possible you are working with a resizeable TensorArray "
            "and stop_gradients is not allowing the gradients to be written.  "
            "If you set the full element_shape property on the forward "
            "TensorArray, the proper all-zeros tensor will be returned "
            "instead of incurring this error."));
      element.shape = *std::move(shape);
      element.written = true;
    }
    if (element.cleared)
      return InvalidArgumentError(strCat(
          "TensorArray ", name, ": Could not read index ", index,
          " twice because it was cleared after a previous read (perhaps try "
          "setting clear_after_read = false?)."));
    if (!element.tensor.isValid()) {
      StatusOr<Tensor> zeros = Tensor::allocate(dtype, element.shape);
      if (!zeros.ok())
        return zeros.status();
      if (zeros->totalBytes())
        std::memset(zeros->rawData(), 0, zeros->totalBytes());
      element.tensor = *std::move(zeros);
    }
    Tensor value = element.tensor;
    if (clearAfterRead) {
      element.tensor = Tensor();
      element.cleared = true;
    }
    element.read = true;
    return value;
  }

  /// TensorArray::SetElemShape: the known parts of both, or an error.
  Status mergeElementShape(const PartialShape &other) {
    if (!other.hasRank())
      return OkStatus();
    if (!elementShape.hasRank()) {
      elementShape = other;
      return OkStatus();
    }
    if (elementShape.rank() != other.rank())
      return InvalidArgumentError(
          strCat("Incompatible ranks during merge: ", elementShape.rank(),
                 " vs. ", other.rank()));
    std::vector<int64_t> dims(elementShape.dims().begin(),
                              elementShape.dims().end());
    for (size_t i = 0; i < dims.size(); ++i) {
      int64_t theirs = other.dims()[i];
      if (dims[i] >= 0 && theirs >= 0 && dims[i] != theirs)
        return InvalidArgumentError(strCat(
            "Incompatible shapes during merge: ", elementShape.toString(),
            " vs. ", other.toString()));
      if (dims[i] < 0)
        dims[i] = theirs;
    }
    elementShape = PartialShape(dims);
    return OkStatus();
  }

  std::mutex mutex;
  const std::string name;
  const DType dtype;
  PartialShape elementShape;
  const bool identicalShapes;
  const bool dynamicSize;
  const bool clearAfterRead;
  bool closed = false;

  struct Element {
    Tensor tensor;
    TensorShape shape;
    bool written = false;
    bool read = false;
    bool cleared = false;
  };
  std::vector<Element> elements;
};

//===----------------------------------------------------------------------===//
// String handles (TensorArray, TensorArrayV2)
//===----------------------------------------------------------------------===//

/// The arrays of live string handles, by TensorFlow's key: the container
/// and the unique name concatenated. The handle tensor made by the creating
/// op owns the array; its buffer's release removes the entry.
class StringHandleTable {
public:
  static StringHandleTable &get() {
    // Never destroyed: a handle may be freed while the process exits.
    static StringHandleTable *table = new StringHandleTable;
    return *table;
  }

  /// A new unique name: `name`, "_" and a process-wide counter, as
  /// TensorFlow's TensorArray::tensor_array_counter makes them.
  std::string uniqueName(std::string_view name) {
    return strCat(name, "_", counter_.fetch_add(1));
  }

  void insert(const std::string &key, std::weak_ptr<TensorArray> array) {
    std::lock_guard<std::mutex> lock(mutex_);
    arrays_[key] = std::move(array);
  }
  void erase(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex_);
    arrays_.erase(key);
  }
  std::shared_ptr<TensorArray> find(const std::string &key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = arrays_.find(key);
    return it == arrays_.end() ? nullptr : it->second.lock();
  }

private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::weak_ptr<TensorArray>> arrays_;
  std::atomic<int64_t> counter_{0};
};

constexpr std::string_view kTensorArrayContainer = "_tensor_arrays";

/// A string handle of `array`: the string vector [container, uniqueName],
/// whose buffer owns the array and its table entry.
Tensor makeStringHandle(std::shared_ptr<TensorArray> array,
                        const std::string &uniqueName) {
  struct Owner {
    std::string strings[2];
    std::string_view views[2];
    std::string key;
    std::shared_ptr<TensorArray> array;
  };
  auto *owner = new Owner;
  owner->strings[0] = std::string(kTensorArrayContainer);
  owner->strings[1] = uniqueName;
  owner->views[0] = owner->strings[0];
  owner->views[1] = owner->strings[1];
  owner->key = strCat(owner->strings[0], owner->strings[1]);
  owner->array = std::move(array);
  StringHandleTable::get().insert(owner->key, owner->array);
  RCReference<TensorBuffer> buffer =
      TensorBuffer::wrapExternal(owner->views, sizeof(owner->views), [owner]() {
        StringHandleTable::get().erase(owner->key);
        delete owner;
      });
  return Tensor(DType::String, TensorShape{2}, std::move(buffer));
}

/// The array of string handle `handle`, or an error in TensorFlow's words.
StatusOr<std::shared_ptr<TensorArray>> findByString(const Tensor &handle) {
  if (handle.numElements() != 2)
    return InvalidArgumentError(
        strCat("Tensor array handle must be 2-element vector, but had shape: ",
               handle.shape().toString()));
  absl::Span<const std::string_view> strings = stringElements(handle);
  std::string key = strCat(strings[0], strings[1]);
  if (std::shared_ptr<TensorArray> array = StringHandleTable::get().find(key))
    return array;
  return NotFoundError(
      strCat("Resource ", strings[0], "/", strings[1], " does not exist."));
}

/// The TensorArray whose handle (a resource or a string handle) is input
/// 0, locked, or null after recording
/// an error.
struct LockedArray {
  std::shared_ptr<TensorArray> array;
  std::unique_lock<std::mutex> lock;
  TensorArray *operator->() const { return array.get(); }
  explicit operator bool() const { return array != nullptr; }
};

LockedArray lockArray(OpKernelContextInterface *ctx, const OpKernel &op) {
  LockedArray locked;
  const Tensor &input = ctx->input(0);
  if (input.dtype() == DType::String) {
    StatusOr<std::shared_ptr<TensorArray>> array = findByString(input);
    if (!array.ok()) {
      ctx->ctxFailure(makeOpError(array.status().code(), op.opName(),
                                  op.nodeName(), array.status().message()));
      return locked;
    }
    locked.array = *std::move(array);
  } else {
    const ResourceHandle *handle = getResourceHandle(input);
    if (!handle || !handle->owned ||
        handle->owned->kind() != kTensorArrayKind) {
      ctx->ctxFailure(op.errorf("input 0 is not a TensorArray handle"));
      return locked;
    }
    locked.array = std::static_pointer_cast<TensorArray>(handle->owned);
  }
  locked.lock = std::unique_lock<std::mutex>(locked.array->mutex);
  if (Status status = locked.array->checkOpen(); !status.ok()) {
    ctx->ctxFailure(makeOpError(status.code(), op.opName(), op.nodeName(),
                                status.message()));
    locked.array.reset();
  }
  return locked;
}

/// Records `status`, a TensorArray's error, as the op's.
void fail(OpKernelContextInterface *ctx, const OpKernel &op,
          const Status &status) {
  ctx->ctxFailure(
      makeOpError(status.code(), op.opName(), op.nodeName(), status.message()));
}

/// An int32 scalar input (an index or the size).
StatusOr<int64_t> readScalar(const Tensor &t, const OpKernel &op,
                             std::string_view what) {
  if (t.dtype() != DType::I32 || t.rank() != 0)
    return op.errorf("TensorArray %s must be scalar, but had shape: %s", what,
                     t.shape().toString());
  return t.data<int32_t>()[0];
}

/// An int32 vector input (indices).
Status checkIndices(const Tensor &t, const OpKernel &op) {
  if (t.dtype() != DType::I32 || t.rank() != 1)
    return op.errorf("Expected indices to be a vector, but received shape: %s",
                     t.shape().toString());
  return OkStatus();
}

/// Forwards the flow input `index` to output `output` (flow_out).
void forwardFlow(OpKernelContextInterface *ctx, int index, int output) {
  ctx->setOutput(output, ctx->input(index));
}

/// The rows of `value` along dimension 0 from `begin` (`count` of them) as a
/// new tensor of `shape`.
StatusOr<Tensor> copyRows(const Tensor &value, int64_t begin, int64_t count,
                          const TensorShape &shape) {
  StatusOr<Tensor> piece = Tensor::allocate(value.dtype(), shape);
  if (!piece.ok())
    return piece.status();
  const int64_t rowBytes = value.shape().dims()[0]
                               ? value.totalBytes() / value.shape().dims()[0]
                               : 0;
  if (count * rowBytes)
    std::memcpy(piece->rawData(),
                static_cast<const char *>(value.rawData()) + begin * rowBytes,
                count * rowBytes);
  return piece;
}

/// TensorArrayV3, and TensorArray / TensorArrayV2 (a string handle).
class TensorArrayV3Kernel final : public OpKernel {
public:
  explicit TensorArrayV3Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "element_shape", &elementShape));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "dynamic_size", &dynamicSize));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "clear_after_read", &clearAfterRead));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "identical_element_shapes", &identical));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "tensor_array_name", &name));
    if (name.empty())
      name = nodeName();
  }
  void compute(OpKernelContextInterface *ctx) override {
    StatusOr<int64_t> size = readScalar(ctx->input(0), *this, "size");
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, size.status());
    TFRT_FALLBACK_OP_REQUIRES(ctx, *size >= 0, errorf("Size should be >= 0."));
    if (Status status = checkSize(*size); !status.ok())
      return fail(ctx, *this, status);
    auto array =
        std::make_shared<TensorArray>(name, dtype, elementShape, identical,
                                      dynamicSize, clearAfterRead, *size);
    if (ctx->expectedOutputDType(0) == DType::String) {
      // TensorArray and TensorArrayV2: a string handle, no flow.
      ctx->setOutput(
          0, makeStringHandle(std::move(array),
                              StringHandleTable::get().uniqueName(name)));
    } else {
      ResourceHandle handle;
      handle.container = std::string(kTensorArrayContainer);
      handle.name = name;
      handle.dtype = dtype;
      handle.shape = elementShape;
      handle.owned = std::move(array);
      ctx->setOutput(0, makeResourceTensor(std::move(handle)));
    }
    if (ctx->numOutputs() == 2) {
      Tensor *flow = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(1, TensorShape{}, &flow));
      flow->data<float>()[0] = 0;
    }
  }

private:
  DType dtype = DType::Invalid;
  PartialShape elementShape;
  bool dynamicSize = false;
  bool clearAfterRead = true;
  bool identical = false;
  std::string name;
};

class TensorArrayWriteV3Kernel final : public OpKernel {
public:
  explicit TensorArrayWriteV3Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    StatusOr<int64_t> index = readScalar(ctx->input(1), *this, "index");
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, index.status());
    LockedArray array = lockArray(ctx, *this);
    if (!array)
      return;
    const Tensor &value = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.dtype() == array->dtype,
        errorf("TensorArray dtype is %s but Op is trying to write dtype %s.",
               dtypeName(array->dtype), dtypeName(value.dtype())));
    if (Status status = array->write(*index, value); !status.ok())
      return fail(ctx, *this, status);
    forwardFlow(ctx, 3, 0);
  }
};

class TensorArrayReadV3Kernel final : public OpKernel {
public:
  explicit TensorArrayReadV3Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype));
  }
  void compute(OpKernelContextInterface *ctx) override {
    StatusOr<int64_t> index = readScalar(ctx->input(1), *this, "index");
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, index.status());
    LockedArray array = lockArray(ctx, *this);
    if (!array)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dtype == array->dtype,
        errorf("TensorArray dtype is %s but Op requested dtype %s.",
               dtypeName(array->dtype), dtypeName(dtype)));
    StatusOr<Tensor> value = array->read(*index);
    if (!value.ok())
      return fail(ctx, *this, value.status());
    ctx->setOutput(0, *std::move(value));
  }

private:
  DType dtype = DType::Invalid;
};

/// TensorArrayGather{,V2,V3}(handle, indices, flow), and with `Pack`
/// TensorArrayPack(handle, flow), which gathers elements 0, 1, ..., size - 1.
template <bool Pack> class TensorArrayGatherKernel final : public OpKernel {
public:
  explicit TensorArrayGatherKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "element_shape", &elementShape));
  }
  void compute(OpKernelContextInterface *ctx) override {
    LockedArray array = lockArray(ctx, *this);
    if (!array)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dtype == array->dtype,
        errorf("TensorArray dtype is %s but Op requested dtype %s.",
               dtypeName(array->dtype), dtypeName(dtype)));
    if (Status status = array->mergeElementShape(elementShape); !status.ok())
      return fail(ctx, *this, status);
    std::vector<int64_t> indices;
    if constexpr (Pack) {
      indices.resize(array->elements.size());
      for (size_t i = 0; i < indices.size(); ++i)
        indices[i] = static_cast<int64_t>(i);
    } else {
      const Tensor &input = ctx->input(1);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkIndices(input, *this));
      const int32_t *data = input.data<int32_t>();
      indices.assign(data, data + input.numElements());
    }
    const int64_t count = static_cast<int64_t>(indices.size());
    if (count == 0) {
      StatusOr<TensorShape> shape = elementShape.toTensorShape();
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, shape.ok(),
          makeOpError(StatusCode::kUnimplemented, opName(), nodeName(),
                      strCat("TensorArray has size zero, but element shape ",
                             elementShape.toString(),
                             " is not fully defined. Currently only static "
                             "shapes are supported when packing zero-size "
                             "TensorArrays.")));
      TensorShape::Dims dims{0};
      for (int64_t dim : shape->dims())
        dims.push_back(dim);
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(0, TensorShape(dims), &out));
      return;
    }
    std::vector<Tensor> values;
    values.reserve(count);
    for (int64_t i = 0; i < count; ++i) {
      StatusOr<Tensor> value = array->read(indices[i]);
      if (!value.ok())
        return fail(ctx, *this, value.status());
      values.push_back(*std::move(value));
    }
    const TensorShape &first = values[0].shape();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, elementShape.isCompatibleWith(first),
        errorf("TensorArray was passed element_shape %s which does not match "
               "the Tensor at index 0: %s",
               elementShape.toString(), first.toString()));
    TensorShape::Dims dims{count};
    for (int64_t dim : first.dims())
      dims.push_back(dim);
    StatusOr<TensorShape> outShape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    for (int64_t i = 1; i < count; ++i)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, values[i].shape() == first,
          errorf("TensorArray has inconsistent shapes.  Index 0 has shape: "
                 "%s but index %s has shape: %s",
                 first.toString(), std::to_string(i),
                 values[i].shape().toString()));
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    const size_t bytes = values[0].totalBytes();
    char *dest = static_cast<char *>(out->rawData());
    for (int64_t i = 0; i < count && bytes; ++i)
      std::memcpy(dest + i * bytes, values[i].rawData(), bytes);
  }

private:
  DType dtype = DType::Invalid;
  PartialShape elementShape;
};

/// TensorArrayScatter{,V2,V3}(handle, indices, value, flow), and with
/// `Unpack` TensorArrayUnpack(handle, value, flow), which writes value's rows
/// to elements 0, 1, ..., and needs as many rows as the array has elements.
template <bool Unpack> class TensorArrayScatterKernel final : public OpKernel {
public:
  explicit TensorArrayScatterKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedArray array = lockArray(ctx, *this);
    if (!array)
      return;
    const Tensor &value = ctx->input(Unpack ? 1 : 2);
    TFRT_FALLBACK_OP_REQUIRES(ctx,
                              value.rank() == 0 ||
                                  value.dim(0) <=
                                      std::numeric_limits<int32_t>::max(),
                              errorf("tensor dim0 too large to unpack"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.dtype() == array->dtype,
        errorf("TensorArray dtype is %s but Op is trying to write dtype %s.",
               dtypeName(array->dtype), dtypeName(value.dtype())));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.rank() > 0,
        errorf("Input value for unpack must be at least a vector but "
               "received shape: %s",
               value.shape().toString()));
    const int64_t rows = value.shape().dims()[0];
    std::vector<int64_t> index;
    if constexpr (Unpack) {
      index.resize(rows);
      for (int64_t i = 0; i < rows; ++i)
        index[i] = i;
    } else {
      const Tensor &indices = ctx->input(1);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkIndices(indices, *this));
      const int64_t count = indices.numElements();
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, count == rows,
          errorf("Expected len(indices) == values.shape[0], but saw: %s vs. "
                 "%s",
                 std::to_string(count), std::to_string(rows)));
      const int32_t *data = indices.data<int32_t>();
      index.assign(data, data + count);
    }
    const int64_t count = static_cast<int64_t>(index.size());
    int64_t maxIndex = -1;
    for (int64_t i = 0; i < count; ++i)
      maxIndex = std::max<int64_t>(maxIndex, index[i]);
    int64_t size = static_cast<int64_t>(array->elements.size());
    if (array->dynamicSize && size < maxIndex + 1)
      size = maxIndex + 1;
    if constexpr (Unpack)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, rows == size,
          errorf("Input value must have first dimension equal to the array "
                 "size (%s vs. %s)",
                 std::to_string(rows), std::to_string(size)));
    else
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, maxIndex < size,
          errorf("Max scatter index must be < array size (%s vs. %s)",
                 std::to_string(maxIndex), std::to_string(size)));
    TensorShape elementShape(value.shape().dims().subspan(1));
    for (int64_t i = 0; i < count; ++i) {
      StatusOr<Tensor> element = copyRows(value, i, 1, elementShape);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, element.status());
      if (Status status = array->write(index[i], *element); !status.ok())
        return fail(ctx, *this, status);
    }
    forwardFlow(ctx, Unpack ? 2 : 3, 0);
  }
};

class TensorArrayConcatV3Kernel final : public OpKernel {
public:
  explicit TensorArrayConcatV3Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dtype", &dtype));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "element_shape_except0", &exceptFirst));
  }
  void compute(OpKernelContextInterface *ctx) override {
    LockedArray array = lockArray(ctx, *this);
    if (!array)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, dtype == array->dtype,
        errorf("TensorArray dtype is %s but Op requested dtype %s.",
               dtypeName(array->dtype), dtypeName(dtype)));
    const int64_t count = static_cast<int64_t>(array->elements.size());
    Tensor *lengths = nullptr;
    if (count == 0) {
      StatusOr<TensorShape> shape = exceptFirst.toTensorShape();
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, shape.ok(),
          makeOpError(StatusCode::kUnimplemented, opName(), nodeName(),
                      strCat("TensorArray has size zero, but "
                             "element_shape_except0 ",
                             exceptFirst.toString(),
                             " is not fully defined. Currently only static "
                             "shapes are supported when concatenating "
                             "zero-size TensorArrays.")));
      TensorShape::Dims dims{0};
      for (int64_t dim : shape->dims())
        dims.push_back(dim);
      Tensor *out = nullptr;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(0, TensorShape(dims), &out));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->allocateOutput(1, TensorShape{0}, &lengths));
      return;
    }
    std::vector<Tensor> values;
    values.reserve(count);
    for (int64_t i = 0; i < count; ++i) {
      StatusOr<Tensor> value = array->read(i);
      if (!value.ok())
        return fail(ctx, *this, value.status());
      values.push_back(*std::move(value));
    }
    TensorShape::Dims rest;
    int64_t total = 0;
    for (int64_t i = 0; i < count; ++i) {
      const TensorShape &shape = values[i].shape();
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, shape.rank() >= 1,
          errorf("Concat saw a scalar shape at index %s but requires at "
                 "least vectors.  Did you mean to call pack?",
                 std::to_string(i)));
      TensorShape::Dims own(shape.dims().begin() + 1, shape.dims().end());
      if (i == 0) {
        rest = own;
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, exceptFirst.isCompatibleWith(TensorShape(rest)),
            errorf("TensorArray was passed element_shape_except0 %s but "
                   "index 0 has (excepting dimension 0) shape: %s which does "
                   "not match.",
                   exceptFirst.toString(), TensorShape(own).toString()));
      } else {
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, own == rest,
            errorf("TensorArray has inconsistent shapes.  Index 0 has "
                   "(excepting dimension 0) shape: %s but index %s has "
                   "(excepting dimension 0) shape: %s",
                   TensorShape(rest).toString(), std::to_string(i),
                   TensorShape(own).toString()));
      }
      total += shape.dims()[0];
    }
    TensorShape::Dims dims{total};
    dims.insert(dims.end(), rest.begin(), rest.end());
    StatusOr<TensorShape> outShape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, outShape.status());
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *outShape, &out));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->allocateOutput(1, TensorShape{count}, &lengths));
    char *dest = static_cast<char *>(out->rawData());
    for (int64_t i = 0; i < count; ++i) {
      lengths->data<int64_t>()[i] = values[i].shape().dims()[0];
      if (size_t bytes = values[i].totalBytes()) {
        std::memcpy(dest, values[i].rawData(), bytes);
        dest += bytes;
      }
    }
  }

private:
  DType dtype = DType::Invalid;
  PartialShape exceptFirst;
};

class TensorArraySplitV3Kernel final : public OpKernel {
public:
  explicit TensorArraySplitV3Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedArray array = lockArray(ctx, *this);
    if (!array)
      return;
    const Tensor &value = ctx->input(1);
    const Tensor &lengths = ctx->input(2);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, lengths.dtype() == DType::I64 && lengths.rank() == 1,
        errorf("Expected lengths to be a vector, received shape: %s",
               lengths.shape().toString()));
    const int64_t count = lengths.numElements();
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, count <= std::numeric_limits<int32_t>::max(),
        errorf("Expected lengths to have < max int32 entries"));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.rank() >= 1,
        errorf("Expected value to be at least a vector, but received "
               "shape: %s",
               value.shape().toString()));
    const int64_t *length = lengths.data<int64_t>();
    const int64_t rows = value.shape().dims()[0];
    int64_t total = 0;
    bool valid = true;
    for (int64_t i = 0; i < count; ++i) {
      // Each length is a count of rows: negative or past the value's rows
      // (which bounds the sum) is invalid.
      valid &= length[i] >= 0 && length[i] <= rows - total;
      if (!valid)
        break;
      total += length[i];
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, valid && total == rows,
        errorf("Expected sum of lengths to be equal to values.shape[0], but "
               "sum of lengths is %s and value's shape is: %s",
               valid ? std::to_string(total) : std::string("invalid"),
               value.shape().toString()));
    int64_t size = static_cast<int64_t>(array->elements.size());
    if (array->dynamicSize && size < count)
      size = count;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, size == count,
        errorf("TensorArray's size is not equal to the size of lengths (%s "
               "vs. %s), and the TensorArray is not marked as dynamically "
               "resizeable",
               std::to_string(size), std::to_string(count)));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.dtype() == array->dtype,
        errorf("TensorArray dtype is %s but Op is trying to write dtype %s.",
               dtypeName(array->dtype), dtypeName(value.dtype())));
    TensorShape::Dims dims(value.shape().dims().begin(),
                           value.shape().dims().end());
    int64_t begin = 0;
    for (int64_t i = 0; i < count; ++i) {
      dims[0] = length[i];
      StatusOr<Tensor> piece =
          copyRows(value, begin, length[i], TensorShape(dims));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, piece.status());
      if (Status status = array->write(i, *piece); !status.ok())
        return fail(ctx, *this, status);
      begin += length[i];
    }
    forwardFlow(ctx, 3, 0);
  }
};

class TensorArraySizeV3Kernel final : public OpKernel {
public:
  explicit TensorArraySizeV3Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedArray array = lockArray(ctx, *this);
    if (!array)
      return;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape{}, &out));
    out->data<int32_t>()[0] = static_cast<int32_t>(array->elements.size());
  }
};

class TensorArrayCloseV3Kernel final : public OpKernel {
public:
  explicit TensorArrayCloseV3Kernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedArray array = lockArray(ctx, *this);
    if (!array)
      return;
    array->elements.clear();
    array->closed = true;
  }
};

} // namespace

void registerTensorArrayKernels(KernelRegistry &registry) {
  // TensorFlow registers one kernel class for the V1 (deprecated, Ref(string)
  // handle), V2 (string handle) and V3 (resource handle) names of each op.
  // The creating ops' dtype types no operand: any is accepted here; the
  // writes and reads check it (and have kernels for buffer dtypes only).
  registerKernel<OpId::kTensorArray, TensorArrayV3Kernel>(registry);
  registerKernel<OpId::kTensorArrayV2, TensorArrayV3Kernel>(registry);
  registerKernel<OpId::kTensorArrayV3, TensorArrayV3Kernel>(registry);
  registerKernel<OpId::kTensorArrayWrite, TensorArrayWriteV3Kernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArrayWriteV2, TensorArrayWriteV3Kernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArrayWriteV3, TensorArrayWriteV3Kernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArrayRead, TensorArrayReadV3Kernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayReadV2, TensorArrayReadV3Kernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayReadV3, TensorArrayReadV3Kernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayPack, TensorArrayGatherKernel<true>>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayGather, TensorArrayGatherKernel<false>>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayGatherV2, TensorArrayGatherKernel<false>>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayGatherV3, TensorArrayGatherKernel<false>>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayUnpack, TensorArrayScatterKernel<true>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArrayScatter, TensorArrayScatterKernel<false>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArrayScatterV2, TensorArrayScatterKernel<false>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArrayScatterV3, TensorArrayScatterKernel<false>>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArrayConcat, TensorArrayConcatV3Kernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayConcatV2, TensorArrayConcatV3Kernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArrayConcatV3, TensorArrayConcatV3Kernel>(
      registry, {{"dtype", kAllDTypes}});
  registerKernel<OpId::kTensorArraySplit, TensorArraySplitV3Kernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArraySplitV2, TensorArraySplitV3Kernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArraySplitV3, TensorArraySplitV3Kernel>(
      registry, {{"T", kAllDTypes}});
  registerKernel<OpId::kTensorArraySize, TensorArraySizeV3Kernel>(registry);
  registerKernel<OpId::kTensorArraySizeV2, TensorArraySizeV3Kernel>(registry);
  registerKernel<OpId::kTensorArraySizeV3, TensorArraySizeV3Kernel>(registry);
  registerKernel<OpId::kTensorArrayClose, TensorArrayCloseV3Kernel>(registry);
  registerKernel<OpId::kTensorArrayCloseV2, TensorArrayCloseV3Kernel>(registry);
  registerKernel<OpId::kTensorArrayCloseV3, TensorArrayCloseV3Kernel>(registry);
}

} // namespace tfrt_fallback::rt

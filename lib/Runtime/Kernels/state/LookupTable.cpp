//===- LookupTable.cpp - TensorFlow's lookup tables --------------*- C++
//-*-===//
//
// The LookupTable resource: checks and messages after TensorFlow's
// lookup_interface.cc, lookup_table_op.cc and
// initializable_lookup_table.cc.
//
//===----------------------------------------------------------------------===//

#include "state/LookupTable.h"
#include "common/Summarize.h"

#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cstring>

namespace tfrt_fallback::rt::kernels {

std::string keyIdentity(const Tensor &keys, int64_t row, int64_t count) {
  if (keys.dtype() == DType::String) {
    std::string id;
    for (std::string_view s :
         stringElements(keys).subspan(row * count, count)) {
      const uint64_t size = s.size();
      id.append(reinterpret_cast<const char *>(&size), sizeof(size));
      id.append(s);
    }
    return id;
  }
  const size_t bytes = count * dtypeSize(keys.dtype());
  return std::string(static_cast<const char *>(keys.rawData()) + row * bytes,
                     bytes);
}

Tensor rowView(const Tensor &t, int64_t row, const TensorShape &shape) {
  const int64_t count = shape.numElements();
  if (t.dtype() == DType::String)
    return stringSubTensor(t, row * count, shape);
  return Tensor(t.dtype(), shape, t.buffer(),
                t.byteOffset() + row * count * dtypeSize(t.dtype()));
}

namespace {

/// `shape` without its last `drop` dims, followed by `tail`.
TensorShape replaceTail(const TensorShape &shape, int drop,
                        const TensorShape &tail) {
  TensorShape::Dims dims(shape.dims().begin(), shape.dims().end() - drop);
  dims.insert(dims.end(), tail.dims().begin(), tail.dims().end());
  return TensorShape(dims);
}

/// Copies `count` elements of `src` from element `from` to `dest` at
/// element `to` (both of one buffer dtype).
void copyElements(const Tensor &src, int64_t from, Tensor &dest, int64_t to,
                  int64_t count) {
  const size_t size = dtypeSize(src.dtype());
  if (count)
    std::memcpy(static_cast<char *>(dest.rawData()) + to * size,
                static_cast<const char *>(src.rawData()) + from * size,
                count * size);
}

/// A tensor of `dtype` and `shape` whose elements the calls of `fill`
/// give: fill(append) calls append(tensor, firstElement, count) in order.
template <typename Fill>
StatusOr<Tensor> assemble(DType dtype, const TensorShape &shape, Fill fill) {
  if (dtype == DType::String) {
    std::vector<std::string_view> views;
    views.reserve(shape.numElements());
    fill([&](const Tensor &src, int64_t first, int64_t count) {
      absl::Span<const std::string_view> strings = stringElements(src);
      views.insert(views.end(), strings.begin() + first,
                   strings.begin() + first + count);
    });
    return makeStringTensor(shape, views);
  }
  StatusOr<Tensor> out = Tensor::allocate(dtype, shape);
  if (!out.ok())
    return out.status();
  int64_t next = 0;
  fill([&](const Tensor &src, int64_t first, int64_t count) {
    copyElements(src, first, *out, next, count);
    next += count;
  });
  return out;
}

} // namespace

Status LookupTable::checkKeyShape(const TensorShape &shape) const {
  const int rank = keyShape.rank();
  if (shape.rank() < rank ||
      !std::equal(keyShape.dims().begin(), keyShape.dims().end(),
                  shape.dims().end() - rank))
    return InvalidArgumentError(strCat("Input key shape ", shape.toString(),
                                       " must end with the table's key shape ",
                                       keyShape.toString()));
  return OkStatus();
}

Status LookupTable::checkTypes(const Tensor &keys, const Tensor &values) const {
  if (keys.dtype() != keyDType)
    return InvalidArgumentError(strCat("Key must be type ", dtypeName(keyDType),
                                       " but got ", dtypeName(keys.dtype())));
  if (values.dtype() != valueDType)
    return InvalidArgumentError(strCat("Value must be type ",
                                       dtypeName(valueDType), " but got ",
                                       dtypeName(values.dtype())));
  return OkStatus();
}

Status LookupTable::checkKeysAndValues(const Tensor &keys,
                                       const Tensor &values) const {
  if (Status status = checkTypes(keys, values); !status.ok())
    return status;
  if (Status status = checkKeyShape(keys.shape()); !status.ok())
    return status;
  TensorShape expected = replaceTail(keys.shape(), keyShape.rank(), valueShape);
  if (values.shape() != expected)
    return InvalidArgumentError(strCat("Expected shape ", expected.toString(),
                                       " for value, got ",
                                       values.shape().toString()));
  return OkStatus();
}

Status LookupTable::checkDenseKeys(const Tensor &keys, int64_t count) const {
  if (tableKind != Kind::MutableDenseHash)
    return OkStatus();
  const int64_t keySize = keyShape.numElements();
  const std::string empty = keyIdentity(emptyKey, 0, keySize);
  const std::string deleted = keyIdentity(deletedKey, 0, keySize);
  for (int64_t i = 0; i < count; ++i) {
    const std::string id = keyIdentity(keys, i, keySize);
    if (id == empty)
      return InvalidArgumentError(
          "Using the empty_key as a table key is not allowed");
    if (id == deleted)
      return InvalidArgumentError(
          "Using the deleted_key as a table key is not allowed");
  }
  return OkStatus();
}

void LookupTable::put(const Tensor &keys, const Tensor &values, int64_t row) {
  auto [it, inserted] = entries.try_emplace(
      keyIdentity(keys, row, keyShape.numElements()), Entry());
  if (inserted) {
    it->second.key = rowView(keys, row, keyShape);
    it->second.order = nextOrder++;
  }
  it->second.value = rowView(values, row, valueShape);
}

StatusOr<Tensor> LookupTable::find(const Tensor &keys,
                                   const Tensor &defaultValue) const {
  if (Status status = checkTypes(keys, defaultValue); !status.ok())
    return status;
  if (Status status = checkKeyShape(keys.shape()); !status.ok())
    return status;
  const TensorShape outShape =
      replaceTail(keys.shape(), keyShape.rank(), valueShape);
  if (defaultValue.shape() != valueShape && defaultValue.shape() != outShape)
    return InvalidArgumentError(strCat(
        "Expected shape ", valueShape.toString(), " or ", outShape.toString(),
        " for default value, got ", defaultValue.shape().toString()));
  if (tableKind == Kind::Hash && !initialized)
    return FailedPreconditionError("Table not initialized.");
  const int64_t keySize = keyShape.numElements();
  const int64_t valueSize = valueShape.numElements();
  int64_t count = keySize ? keys.numElements() / keySize : 0;
  if (tableKind == Kind::MutableDenseHash) {
    // MutableDenseHashTable::Find counts the keys along dimension 0.
    count = keys.rank() == 0 ? 1 : keys.dim(0);
    if (keys.numElements() != count * keySize) {
      TensorShape::Dims dims{count};
      dims.insert(dims.end(), keyShape.dims().begin(), keyShape.dims().end());
      return InvalidArgumentError(strCat("Expected key shape ",
                                         TensorShape(dims).toString(), " got ",
                                         keys.shape().toString()));
    }
    if (Status status = checkDenseKeys(keys, count); !status.ok())
      return status;
  }
  // A full-size default gives each key its own, but for HashTable, which
  // takes its first element for every key; the dense table takes the first
  // value_shape elements.
  const bool fullDefault =
      tableKind != Kind::Hash && tableKind != Kind::MutableDenseHash &&
      defaultValue.numElements() == count * valueSize && count > 1;
  return assemble(valueDType, outShape, [&](auto append) {
    for (int64_t i = 0; i < count; ++i) {
      auto it = entries.find(keyIdentity(keys, i, keySize));
      if (it != entries.end())
        append(it->second.value, 0, valueSize);
      else if (tableKind == Kind::Hash)
        for (int64_t j = 0; j < valueSize; ++j)
          append(defaultValue, 0, 1);
      else
        append(defaultValue, fullDefault ? i * valueSize : 0, valueSize);
    }
  });
}

Status LookupTable::insert(const Tensor &keys, const Tensor &values) {
  if (Status status = checkKeysAndValues(keys, values); !status.ok())
    return status;
  if (tableKind == Kind::Hash)
    return UnimplementedError(
        "Insert not supported by InitializableLookupTable implementations");
  const int64_t keySize = keyShape.numElements();
  const int64_t count = keySize ? keys.numElements() / keySize : 0;
  if (Status status = checkDenseKeys(keys, count); !status.ok())
    return status;
  for (int64_t i = 0; i < count; ++i)
    put(keys, values, i);
  return OkStatus();
}

Status LookupTable::remove(const Tensor &keys) {
  if (keys.dtype() != keyDType)
    return InvalidArgumentError(strCat("Key must be type ", dtypeName(keyDType),
                                       " but got ", dtypeName(keys.dtype())));
  if (Status status = checkKeyShape(keys.shape()); !status.ok())
    return status;
  if (tableKind == Kind::Hash)
    return UnimplementedError(
        "Remove not supported by InitializableLookupTable implementations");
  const int64_t keySize = keyShape.numElements();
  const int64_t count = keySize ? keys.numElements() / keySize : 0;
  if (Status status = checkDenseKeys(keys, count); !status.ok())
    return status;
  for (int64_t i = 0; i < count; ++i)
    entries.erase(keyIdentity(keys, i, keySize));
  return OkStatus();
}

Status LookupTable::initialize(const Tensor &keys, const Tensor &values) {
  // KeyValueTensorIterator's checks, then Initialize's.
  if (keys.numElements() != values.numElements())
    return InvalidArgumentError(
        strCat("keys and values should have the same dimension.",
               keys.shape().toString(), " vs ", values.shape().toString()));
  if (keys.numElements() == 0)
    return InvalidArgumentError("keys and values cannot be empty tensors.");
  if (Status status = checkKeysAndValues(keys, values); !status.ok())
    return status;
  const int64_t count = keys.numElements();
  if (initialized) {
    if (count != size())
      return FailedPreconditionError(
          "Table was already initialized with different data.");
    return OkStatus();
  }
  // Entries go in at once: a conflict leaves the table as it was.
  LookupTable staged(tableKind, keyDType, valueDType, keyShape, valueShape);
  for (int64_t i = 0; i < count; ++i) {
    std::string id = keyIdentity(keys, i, 1);
    auto it = staged.entries.find(id);
    if (it != staged.entries.end() &&
        keyIdentity(it->second.value, 0, 1) != keyIdentity(values, i, 1)) {
      Tensor one = rowView(keys, i, TensorShape{});
      Tensor newValue = rowView(values, i, TensorShape{});
      return FailedPreconditionError(
          strCat("HashTable has different value for same key. Key ",
                 summarizeValue(one, -1), " has ",
                 summarizeValue(it->second.value, -1),
                 " and trying to add value ", summarizeValue(newValue, -1)));
    }
    staged.put(keys, values, i);
  }
  entries = std::move(staged.entries);
  nextOrder = staged.nextOrder;
  initialized = true;
  return OkStatus();
}

Status LookupTable::import(const Tensor &keys, const Tensor &values) {
  if (tableKind == Kind::Hash)
    return initialize(keys, values);
  if (Status status = checkKeysAndValues(keys, values); !status.ok())
    return status;
  const int64_t keySize = keyShape.numElements();
  const int64_t count = keySize ? keys.numElements() / keySize : 0;
  if (Status status = checkDenseKeys(keys, count); !status.ok())
    return status;
  entries.clear();
  for (int64_t i = 0; i < count; ++i)
    put(keys, values, i);
  return OkStatus();
}

Status LookupTable::exportValues(Tensor *keys, Tensor *values) const {
  if (tableKind == Kind::Hash && !initialized)
    return AbortedError("HashTable is not initialized.");
  std::vector<const Entry *> sorted;
  sorted.reserve(entries.size());
  for (const auto &[id, entry] : entries)
    sorted.push_back(&entry);
  std::sort(sorted.begin(), sorted.end(),
            [](const Entry *a, const Entry *b) { return a->order < b->order; });
  const int64_t n = static_cast<int64_t>(sorted.size());
  StatusOr<Tensor> keyOut = assemble(
      keyDType, replaceTail(TensorShape{n}, 0, keyShape), [&](auto append) {
        for (const Entry *entry : sorted)
          append(entry->key, 0, keyShape.numElements());
      });
  if (!keyOut.ok())
    return keyOut.status();
  StatusOr<Tensor> valueOut = assemble(
      valueDType, replaceTail(TensorShape{n}, 0, valueShape), [&](auto append) {
        for (const Entry *entry : sorted)
          append(entry->value, 0, valueShape.numElements());
      });
  if (!valueOut.ok())
    return valueOut.status();
  *keys = *std::move(keyOut);
  *values = *std::move(valueOut);
  return OkStatus();
}

LockedTable lockTable(OpKernelContextInterface *ctx, const OpKernel &op) {
  LockedTable locked;
  const ResourceHandle *handle = getResourceHandle(ctx->input(0));
  if (!handle || handle->name.empty()) {
    ctx->ctxFailure(op.errorf("input 0 is not a resource handle"));
    return locked;
  }
  if (!ctx->resourceManager()) {
    ctx->ctxFailure(makeOpError(StatusCode::kFailedPrecondition, op.opName(),
                                op.nodeName(),
                                "no resource manager: the kernel runs "
                                "outside an executor"));
    return locked;
  }
  StatusOr<std::shared_ptr<Resource>> resource =
      ctx->resourceManager()->lookup(*handle);
  if (!resource.ok()) {
    failWith(ctx, op, resource.status());
    return locked;
  }
  if (!*resource || (*resource)->kind() != kLookupTableKind) {
    ctx->ctxFailure(
        op.errorf("Resource %s is not a lookup table", handle->debugName()));
    return locked;
  }
  locked.table = std::static_pointer_cast<LookupTable>(*std::move(resource));
  locked.lock = std::unique_lock<std::mutex>(locked.table->mutex);
  return locked;
}

void failWith(OpKernelContextInterface *ctx, const OpKernel &op,
              const Status &status) {
  ctx->ctxFailure(
      makeOpError(status.code(), op.opName(), op.nodeName(), status.message()));
}

} // namespace tfrt_fallback::rt::kernels

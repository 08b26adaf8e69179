//===- MapKernels.cpp - TensorMap ops ---------------------------*- C++ -*-===//
//
// TensorFlow's TensorMap ops (tensorflow/core/kernels/map_kernels.h,
// tensor_map.h, core/ops/map_ops.cc): a map is a scalar `variant` tensor
// holding a TensorMap, a hash map from key tensors to value tensors. Two
// keys are the same key when they have the same dtype, shape and values
// (TensorFlow's TensorKey); keys are tensors of any buffer dtype or
// strings, values tensors of any dtype. Maps are values: Insert and Erase
// return a new map sharing the other entries' buffers, so a map read
// elsewhere never changes.
//
// - EmptyTensorMap(): a map with no entries.
// - TensorMapSize(map): its entry count, an int32 scalar.
// - TensorMapLookup(map, key): the value of `key` (key_dtype,
//   value_dtype); a missing key is an error.
// - TensorMapInsert(map, key, value): the map with `key` set to `value`,
//   replacing its value if it has one.
// - TensorMapErase(map, key): the map without `key`, which must be there.
// - TensorMapHasKey(map, key): whether the map has `key`, a bool scalar.
// - TensorMapStackKeys(map): the keys stacked along a new first dimension
//   (key_dtype); they must all have key_dtype and one shape. TensorFlow
//   stacks them in its hash map's order; here in the order they were
//   first inserted.
// Errors take TensorFlow's wording.
//
//===----------------------------------------------------------------------===//

#include "common/Registration.h"
#include "common/Summarize.h"
#include "common/Variant.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

/// The value of a TensorMap.
struct TensorMap : VariantObject {
  TensorMap() : VariantObject(VariantKind::TensorMap) {}
  struct Entry {
    Tensor key;
    Tensor value;
    /// When the key was first inserted: TensorMapStackKeys' order.
    uint64_t order = 0;
  };
  /// By keyIdentity() of the key.
  std::unordered_map<std::string, Entry> entries;
  uint64_t nextOrder = 0;
};

/// A scalar variant tensor holding `map`.
Tensor makeMapTensor(TensorMap map) {
  auto *object = new TensorMap(std::move(map));
  return makeVariantTensor(TensorShape{}, object, [object] { delete object; });
}

/// What makes two keys the same key: the dtype, the shape and the values
/// (bytes; each string with its length), as bytes.
std::string keyIdentity(const Tensor &key) {
  std::string id;
  auto appendInt = [&](int64_t v) {
    id.append(reinterpret_cast<const char *>(&v), sizeof(v));
  };
  appendInt(static_cast<int64_t>(key.dtype()));
  appendInt(key.rank());
  for (int64_t dim : key.shape().dims())
    appendInt(dim);
  if (key.dtype() == DType::String) {
    for (std::string_view s : stringElements(key)) {
      appendInt(static_cast<int64_t>(s.size()));
      id.append(s);
    }
  } else if (size_t bytes = key.totalBytes()) {
    id.append(static_cast<const char *>(key.rawData()), bytes);
  }
  return id;
}

/// The map held by input 0 of `ctx`, or null after recording TensorFlow's
/// GetInputMap error.
const TensorMap *getMap(OpKernelContextInterface *ctx, const OpKernel &op) {
  const Tensor &handle = ctx->input(0);
  if (handle.rank() != 0) {
    ctx->ctxFailure(op.errorf("Input map must be a scalar. Saw: %s",
                              handle.shape().toString()));
    return nullptr;
  }
  const TensorMap *map =
      variantObjects<TensorMap>(handle, VariantKind::TensorMap);
  if (!map) {
    const VariantObject *other = firstVariantObject(handle);
    ctx->ctxFailure(op.errorf("Input handle is not a map. Saw: '%s'",
                              other ? variantKindName(other->variantKind)
                                    : dtypeName(handle.dtype())));
  }
  return map;
}

/// Checks that input 1, a key, is of a dtype keys may have.
Status checkKey(const OpKernel &op, const Tensor &key) {
  if (key.dtype() == DType::String || isBufferDType(key.dtype()))
    return OkStatus();
  return op.errorf("a TensorMap key must be a tensor of numbers, bools or "
                   "strings, got %s",
                   dtypeName(key.dtype()));
}

/// TensorFlow's quoting of a key in its messages: SummarizeValue(100).
std::string quoteKey(const Tensor &key) {
  return strCat("\"", summarizeValue(key, 100), "\"");
}

class EmptyTensorMapKernel final : public OpKernel {
public:
  explicit EmptyTensorMapKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    ctx->setOutput(0, makeMapTensor(TensorMap()));
  }
};

class TensorMapSizeKernel final : public OpKernel {
public:
  explicit TensorMapSizeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const TensorMap *map = getMap(ctx, *this);
    if (!map)
      return;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape{}, &out));
    out->data<int32_t>()[0] = static_cast<int32_t>(map->entries.size());
  }
};

class TensorMapLookupKernel final : public OpKernel {
public:
  explicit TensorMapLookupKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &key = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkKey(*this, key));
    const TensorMap *map = getMap(ctx, *this);
    if (!map)
      return;
    auto it = map->entries.find(keyIdentity(key));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, it != map->entries.end(),
        errorf("Trying to lookup non-existent key. Could not find key %s.",
               quoteKey(key)));
    // TensorFlow's executor fails an output of another dtype than the op's.
    const Tensor &value = it->second.value;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, value.dtype() == ctx->expectedOutputDType(0),
        errorf("the value of key %s is %s, but value_dtype is %s",
               quoteKey(key), dtypeName(value.dtype()),
               dtypeName(ctx->expectedOutputDType(0))));
    ctx->setOutput(0, value);
  }
};

class TensorMapInsertKernel final : public OpKernel {
public:
  explicit TensorMapInsertKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &key = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkKey(*this, key));
    const TensorMap *map = getMap(ctx, *this);
    if (!map)
      return;
    TensorMap result = *map;
    auto [it, inserted] = result.entries.try_emplace(keyIdentity(key));
    if (inserted) {
      it->second.key = key;
      it->second.order = result.nextOrder++;
    }
    it->second.value = ctx->input(2);
    ctx->setOutput(0, makeMapTensor(std::move(result)));
  }
};

class TensorMapEraseKernel final : public OpKernel {
public:
  explicit TensorMapEraseKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &key = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkKey(*this, key));
    const TensorMap *map = getMap(ctx, *this);
    if (!map)
      return;
    const std::string id = keyIdentity(key);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, map->entries.count(id),
        errorf("Trying to erase non-existent item. Could not find key %s.",
               quoteKey(key)));
    TensorMap result = *map;
    result.entries.erase(id);
    ctx->setOutput(0, makeMapTensor(std::move(result)));
  }
};

class TensorMapHasKeyKernel final : public OpKernel {
public:
  explicit TensorMapHasKeyKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &key = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkKey(*this, key));
    const TensorMap *map = getMap(ctx, *this);
    if (!map)
      return;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape{}, &out));
    out->data<bool>()[0] = map->entries.count(keyIdentity(key)) != 0;
  }
};

class TensorMapStackKeysKernel final : public OpKernel {
public:
  explicit TensorMapStackKeysKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("key_dtype", &keyDType));
  }
  void compute(OpKernelContextInterface *ctx) override {
    const TensorMap *map = getMap(ctx, *this);
    if (!map)
      return;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, !map->entries.empty(),
        errorf("TensorMapStackKeys cannot be called on empty map."));
    std::vector<const TensorMap::Entry *> entries;
    entries.reserve(map->entries.size());
    for (const auto &[id, entry] : map->entries)
      entries.push_back(&entry);
    std::sort(entries.begin(), entries.end(),
              [](const TensorMap::Entry *a, const TensorMap::Entry *b) {
                return a->order < b->order;
              });
    const TensorShape &keyShape = entries[0]->key.shape();
    for (const TensorMap::Entry *entry : entries) {
      TFRT_FALLBACK_OP_REQUIRES(ctx, entry->key.dtype() == keyDType,
                                errorf("Key does not match requested dtype."));
      TFRT_FALLBACK_OP_REQUIRES(ctx, entry->key.shape() == keyShape,
                                errorf("Keys must all have the same shape."));
    }
    TensorShape::Dims dims{static_cast<int64_t>(entries.size())};
    dims.insert(dims.end(), keyShape.dims().begin(), keyShape.dims().end());
    StatusOr<TensorShape> shape = TensorShape::create(dims);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, shape.status());
    if (keyDType == DType::String) {
      std::vector<std::string_view> views;
      views.reserve(shape->numElements());
      for (const TensorMap::Entry *entry : entries)
        for (std::string_view s : stringElements(entry->key))
          views.push_back(s);
      StatusOr<Tensor> keys = makeStringTensor(*shape, views);
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, keys.status());
      ctx->setOutput(0, *std::move(keys));
      return;
    }
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->allocateOutput(0, *shape, &out));
    char *dest = static_cast<char *>(out->rawData());
    const size_t bytes = entries[0]->key.totalBytes();
    for (size_t i = 0; i < entries.size() && bytes; ++i)
      std::memcpy(dest + i * bytes, entries[i]->key.rawData(), bytes);
  }

private:
  DType keyDType = DType::Invalid;
};

/// The dtypes a key may have: every buffer dtype but the complex and
/// quantized ones, and string.
constexpr DType kKeyDTypes[] = {
#define TFRT_FALLBACK_DTYPE(Enum, ...) DType::Enum,
#define TFRT_FALLBACK_DTYPE_OPT_IN(...)
#include "tfrt_fallback/Runtime/DTypes.def"
    DType::String};

} // namespace

void registerMapKernels(KernelRegistry &registry) {
  // TensorFlow registers one kernel per op for every dtype; keys are
  // limited to those TensorKey compares (numbers, bools and strings).
  registerKernel<OpId::kEmptyTensorMap, EmptyTensorMapKernel>(registry);
  registerKernel<OpId::kTensorMapSize, TensorMapSizeKernel>(registry);
  registerKernel<OpId::kTensorMapLookup, TensorMapLookupKernel>(
      registry, {{"key_dtype", kKeyDTypes}});
  registerKernel<OpId::kTensorMapInsert, TensorMapInsertKernel>(
      registry, {{"key_dtype", kKeyDTypes}});
  registerKernel<OpId::kTensorMapErase, TensorMapEraseKernel>(
      registry, {{"key_dtype", kKeyDTypes}});
  registerKernel<OpId::kTensorMapHasKey, TensorMapHasKeyKernel>(
      registry, {{"key_dtype", kKeyDTypes}});
  registerKernel<OpId::kTensorMapStackKeys, TensorMapStackKeysKernel>(
      registry, {{"key_dtype", kKeyDTypes}});
}

} // namespace tfrt_fallback::rt

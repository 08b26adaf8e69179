//===- LookupTableKernels.cpp - Lookup table ops ----------------*- C++ -*-===//
//
// TensorFlow's lookup tables (tensorflow/core/kernels/lookup_table_op.h/.cc,
// core/ops/lookup_ops.cc): a table is a resource of the executor's
// ResourceManager, as a variable is (ResourceKernels.cpp), so it outlives a
// run: a table initialized by one run (an --init function) serves the next.
//
// - HashTableV2, MutableHashTableV2, MutableHashTableOfTensorsV2 (values of
//   value_shape), MutableDenseHashTableV2(empty_key, deleted_key) (keys of
//   empty_key's shape, values of value_shape): the handle of the table
//   named by `container` and `shared_name` (the node's name when
//   shared_name is empty: TF's use_node_name_sharing, or a name private to
//   the kernel when that is false), made on first use with key_dtype and
//   value_dtype; a table of that name with other dtypes is an error.
// - LookupTableFindV2(table, keys, default_value): each key's value, or
//   the default (of value_shape, or one per key) where the table has none.
//   A HashTable must be initialized.
// - LookupTableInsertV2(table, keys, values) / LookupTableRemoveV2(table,
//   keys): set or remove entries (mutable tables only).
// - LookupTableSizeV2(table): the number of entries, int64.
// - LookupTableExportV2(table): every key and value, stacked.
// - LookupTableImportV2(table, keys, values): the entries replace the
//   table's (a HashTable is initialized with them).
// The initializers are in LookupInitKernels.cpp; the table in
// LookupTable.cpp. Errors take TensorFlow's wording.
//
//===----------------------------------------------------------------------===//

#include "common/Checks.h"
#include "common/Registration.h"
#include "state/LookupTable.h"

#include "tfrt_fallback/Runtime/Kernels.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

using Kind = LookupTable::Kind;

/// A (key_dtype, value_dtype) pair TF registers a table op for.
struct DTypePair {
  DType key, value;
};

// TF's pairs (lookup_table_op.cc), but for the Variant and ResourceHandle
// values of the mutable tables (no such values here).
constexpr DTypePair kHashPairs[] = {
    {DType::I32, DType::F64},      {DType::I32, DType::F32},
    {DType::I32, DType::I32},      {DType::I32, DType::String},
    {DType::I64, DType::F64},      {DType::I64, DType::F32},
    {DType::I64, DType::I32},      {DType::I64, DType::I64},
    {DType::I64, DType::String},   {DType::String, DType::Bool},
    {DType::String, DType::F64},   {DType::String, DType::F32},
    {DType::String, DType::I32},   {DType::String, DType::I64},
    {DType::String, DType::String}};
constexpr DTypePair kMutablePairs[] = {
    {DType::I32, DType::F64},     {DType::I32, DType::F32},
    {DType::I32, DType::I32},     {DType::I64, DType::F64},
    {DType::I64, DType::F32},     {DType::I64, DType::I32},
    {DType::I64, DType::I64},     {DType::I64, DType::String},
    {DType::String, DType::Bool}, {DType::String, DType::F64},
    {DType::String, DType::F32},  {DType::String, DType::I32},
    {DType::String, DType::I64}};
constexpr DTypePair kDensePairs[] = {
    {DType::I32, DType::F64},     {DType::I32, DType::F32},
    {DType::I32, DType::I32},     {DType::I64, DType::Bool},
    {DType::I64, DType::F64},     {DType::I64, DType::F32},
    {DType::I64, DType::I32},     {DType::I64, DType::I64},
    {DType::String, DType::Bool}, {DType::String, DType::F64},
    {DType::String, DType::F32},  {DType::String, DType::I32},
    {DType::String, DType::I64}};
constexpr DType kDenseKeyDTypes[] = {DType::I32, DType::I64, DType::String};

absl::Span<const DTypePair> supportedPairs(Kind kind) {
  switch (kind) {
  case Kind::Hash:
    return kHashPairs;
  case Kind::MutableHash:
  case Kind::MutableHashOfTensors:
    return kMutablePairs;
  case Kind::MutableDenseHash:
    return kDensePairs;
  }
  return {};
}

/// HashTableV2, MutableHashTableV2, MutableHashTableOfTensorsV2 and
/// MutableDenseHashTableV2 (TF's LookupTableOp).
template <Kind TableKind> class TableKernel final : public OpKernel {
public:
  explicit TableKernel(OpKernelConstructionInterface *ctx) : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "container", &handle.container));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "shared_name", &handle.name));
    bool useNodeName = false;
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "use_node_name_sharing", &useNodeName));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("key_dtype", &keyDType));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("value_dtype", &valueDType));
    // TF registers a kernel per (key_dtype, value_dtype) pair; the dtypes
    // type no operand of the op (but for the dense table's keys), so one
    // kernel takes them all and refuses the others as TF's registry does.
    std::vector<std::string> pairs;
    bool supported = false;
    for (const DTypePair &pair : supportedPairs(TableKind)) {
      supported |= pair.key == keyDType && pair.value == valueDType;
      pairs.push_back(
          strCat("(", dtypeName(pair.key), ", ", dtypeName(pair.value), ")"));
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, supported,
        makeOpError(StatusCode::kNotFound, opName(), nodeName(),
                    strCat("no kernel for key_dtype=", dtypeName(keyDType),
                           ", value_dtype=", dtypeName(valueDType),
                           "; registered (key_dtype, value_dtype): ",
                           strJoin(pairs, ", "))));
    if (handle.name.empty()) {
      // TF's ContainerInfo: the node's name, or one private to this kernel.
      static std::atomic<int64_t> counter{0};
      handle.name = useNodeName
                        ? nodeName()
                        : strCat("_", counter.fetch_add(1), "_", nodeName());
    }
    if constexpr (TableKind == Kind::MutableHashOfTensors ||
                  TableKind == Kind::MutableDenseHash) {
      PartialShape shape(std::vector<int64_t>{});
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   getOptionalAttr(ctx, "value_shape", &shape));
      StatusOr<TensorShape> known = shape.toTensorShape();
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, known.ok(),
          errorf("value_shape must be fully defined, got %s",
                 shape.toString()));
      valueShape = *std::move(known);
      if constexpr (TableKind == Kind::MutableHashOfTensors)
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, valueShape.rank() == 1,
            errorf("Default value must be a vector, got shape %s",
                   valueShape.toString()));
      else
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, valueShape.rank() <= 1,
            errorf("Empty value must be a scalar or a vector, got shape %s",
                   valueShape.toString()));
    }
    if constexpr (TableKind == Kind::MutableDenseHash) {
      float maxLoadFactor = 0.8f;
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, getOptionalAttr(ctx, "max_load_factor", &maxLoadFactor));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, maxLoadFactor > 0 && maxLoadFactor < 1,
          errorf("max_load_factor must be between 0 and 1, got: %s",
                 maxLoadFactor));
    }
  }

  void compute(OpKernelContextInterface *ctx) override {
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->resourceManager(),
        makeOpError(StatusCode::kFailedPrecondition, opName(), nodeName(),
                    "no resource manager: the kernel runs outside an "
                    "executor"));
    Status created;
    std::shared_ptr<Resource> resource = ctx->resourceManager()->lookupOrCreate(
        handle, [&]() -> std::shared_ptr<Resource> {
          StatusOr<std::shared_ptr<LookupTable>> table = create(ctx);
          if (!table.ok()) {
            created = table.status();
            return nullptr;
          }
          return *std::move(table);
        });
    if (!created.ok()) {
      // Nothing was made: leave no empty entry behind.
      (void)ctx->resourceManager()->erase(handle);
      ctx->ctxFailure(created); // Already named after the op.
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, resource && resource->kind() == kLookupTableKind,
        errorf("Resource %s is not a lookup table", handle.debugName()));
    const auto &table = static_cast<const LookupTable &>(*resource);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, table.keyDType == keyDType && table.valueDType == valueDType,
        errorf("Conflicting key/value dtypes %s->%s with %s-%s for table %s",
               dtypeName(keyDType), dtypeName(valueDType),
               dtypeName(table.keyDType), dtypeName(table.valueDType),
               handle.name));
    ctx->setOutput(0, makeResourceTensor(handle));
  }

private:
  StatusOr<std::shared_ptr<LookupTable>>
  create(OpKernelContextInterface *ctx) const {
    TensorShape keyShape;
    if constexpr (TableKind == Kind::MutableDenseHash) {
      const Tensor &emptyKey = ctx->input(0);
      const Tensor &deletedKey = ctx->input(1);
      keyShape = emptyKey.shape();
      if (keyShape.rank() > 1)
        return errorf("Empty key must be a scalar or a vector, got shape %s",
                      keyShape.toString());
      if (deletedKey.shape() != keyShape)
        return errorf("Empty and deleted keys must have same shape, got "
                      "shapes: %s and %s",
                      keyShape.toString(), deletedKey.shape().toString());
      const int64_t n = keyShape.numElements();
      if (keyIdentity(emptyKey, 0, n) == keyIdentity(deletedKey, 0, n))
        return errorf("Empty and deleted keys cannot be equal");
      auto table = std::make_shared<LookupTable>(
          TableKind, keyDType, valueDType, keyShape, valueShape);
      table->emptyKey = emptyKey;
      table->deletedKey = deletedKey;
      return table;
    }
    return std::make_shared<LookupTable>(TableKind, keyDType, valueDType,
                                         keyShape, valueShape);
  }

  ResourceHandle handle;
  DType keyDType = DType::Invalid;
  DType valueDType = DType::Invalid;
  TensorShape valueShape;
};

class LookupTableFindKernel final : public OpKernel {
public:
  explicit LookupTableFindKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedTable table = lockTable(ctx, *this);
    if (!table)
      return;
    StatusOr<Tensor> values = table->find(ctx->input(1), ctx->input(2));
    if (!values.ok())
      return failWith(ctx, *this, values.status());
    ctx->setOutput(0, *std::move(values));
  }
};

class LookupTableInsertKernel final : public OpKernel {
public:
  explicit LookupTableInsertKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedTable table = lockTable(ctx, *this);
    if (!table)
      return;
    if (Status status = table->insert(ctx->input(1), ctx->input(2));
        !status.ok())
      failWith(ctx, *this, status);
  }
};

class LookupTableRemoveKernel final : public OpKernel {
public:
  explicit LookupTableRemoveKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedTable table = lockTable(ctx, *this);
    if (!table)
      return;
    if (Status status = table->remove(ctx->input(1)); !status.ok())
      failWith(ctx, *this, status);
  }
};

class LookupTableSizeKernel final : public OpKernel {
public:
  explicit LookupTableSizeKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedTable table = lockTable(ctx, *this);
    if (!table)
      return;
    Tensor *out = nullptr;
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->allocateOutput(0, TensorShape{}, &out));
    out->data<int64_t>()[0] = table->size();
  }
};

class LookupTableExportKernel final : public OpKernel {
public:
  explicit LookupTableExportKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedTable table = lockTable(ctx, *this);
    if (!table)
      return;
    // TF's MatchSignature: the outputs must have the table's dtypes.
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        ctx->expectedOutputDType(0) == table->keyDType &&
            ctx->expectedOutputDType(1) == table->valueDType,
        errorf("Signature mismatch, have: %s, %s expected: %s, %s",
               dtypeName(ctx->expectedOutputDType(0)),
               dtypeName(ctx->expectedOutputDType(1)),
               dtypeName(table->keyDType), dtypeName(table->valueDType)));
    Tensor keys, values;
    if (Status status = table->exportValues(&keys, &values); !status.ok())
      return failWith(ctx, *this, status);
    ctx->setOutput(0, std::move(keys));
    ctx->setOutput(1, std::move(values));
  }
};

class LookupTableImportKernel final : public OpKernel {
public:
  explicit LookupTableImportKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {}
  void compute(OpKernelContextInterface *ctx) override {
    LockedTable table = lockTable(ctx, *this);
    if (!table)
      return;
    if (Status status = table->import(ctx->input(1), ctx->input(2));
        !status.ok())
      failWith(ctx, *this, status);
  }
};

} // namespace

void registerLookupTableKernels(KernelRegistry &registry) {
  // One kernel per table op for TF's (key_dtype, value_dtype) pairs (it
  // checks them), as those attributes type no operand.
  registerKernel<OpId::kHashTableV2, TableKernel<Kind::Hash>>(registry);
  registerKernel<OpId::kMutableHashTableV2, TableKernel<Kind::MutableHash>>(
      registry);
  registerKernel<OpId::kMutableHashTableOfTensorsV2,
                 TableKernel<Kind::MutableHashOfTensors>>(registry);
  registerKernel<OpId::kMutableDenseHashTableV2,
                 TableKernel<Kind::MutableDenseHash>>(
      registry, {{"key_dtype", kDenseKeyDTypes}});
  // TF registers the table ops for every dtype: the table checks them.
  registerKernel<OpId::kLookupTableFindV2, LookupTableFindKernel>(registry);
  registerKernel<OpId::kLookupTableInsertV2, LookupTableInsertKernel>(registry);
  registerKernel<OpId::kLookupTableRemoveV2, LookupTableRemoveKernel>(registry);
  registerKernel<OpId::kLookupTableSizeV2, LookupTableSizeKernel>(registry);
  registerKernel<OpId::kLookupTableExportV2, LookupTableExportKernel>(registry);
  registerKernel<OpId::kLookupTableImportV2, LookupTableImportKernel>(registry);
  registerLookupInitKernels(registry);
}

} // namespace tfrt_fallback::rt

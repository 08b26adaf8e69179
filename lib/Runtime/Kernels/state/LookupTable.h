//===- LookupTable.h - TensorFlow's lookup tables ----------------*- C++
//-*-===//
//
// Private to lib/Runtime/Kernels: the lookup table resource of the lookup
// kernels (LookupTableKernels.cpp), after TensorFlow's lookup_table_op.h,
// initializable_lookup_table.h and lookup_interface.cc. One class serves
// the four kinds of table: an entry maps a key (a tensor of the table's key
// shape: a scalar but for MutableDenseHashTable, whose empty_key gives it)
// to a value (a tensor of its value shape: a scalar, or value_shape). Keys
// and values are elements of any buffer dtype or strings; an entry's key
// and value are views of the tensors they were inserted from. Every member
// function expects `mutex` held.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STATE_LOOKUPTABLE_H
#define TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STATE_LOOKUPTABLE_H

#include "tfrt_fallback/Runtime/KernelRegistry.h"
#include "tfrt_fallback/Runtime/OpKernel.h"
#include "tfrt_fallback/Runtime/Resource.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tfrt_fallback::rt::kernels {

inline constexpr std::string_view kLookupTableKind = "LookupTable";

class LookupTable final : public Resource {
public:
  enum class Kind {
    /// HashTableV2: initialized once (InitializeTableV2,
    /// InitializeTableFromTextFileV2, LookupTableImportV2), then read-only.
    Hash,
    /// MutableHashTableV2: scalar values.
    MutableHash,
    /// MutableHashTableOfTensorsV2: values of value_shape.
    MutableHashOfTensors,
    /// MutableDenseHashTableV2: keys of empty_key's shape, values of
    /// value_shape; empty_key and deleted_key may not be used as keys.
    MutableDenseHash,
  };

  LookupTable(Kind kind, DType keyDType, DType valueDType, TensorShape keyShape,
              TensorShape valueShape)
      : tableKind(kind), keyDType(keyDType), valueDType(valueDType),
        keyShape(std::move(keyShape)), valueShape(std::move(valueShape)) {}
  std::string_view kind() const override { return kLookupTableKind; }

  /// The number of entries (0 for a HashTable not initialized).
  int64_t size() const { return static_cast<int64_t>(entries.size()); }

  /// LookupInterface::CheckFindArguments and Find: the values of `keys`
  /// (default_value's where missing) as `out`.
  StatusOr<Tensor> find(const Tensor &keys, const Tensor &defaultValue) const;
  /// CheckKeyAndValueTensorsForInsert and Insert: sets the value of each key.
  Status insert(const Tensor &keys, const Tensor &values);
  /// CheckKeyTensorForRemove and Remove.
  Status remove(const Tensor &keys);
  /// ImportValues: the entries of `keys` and `values` replace the table's
  /// (a HashTable is initialized with them: KeyValueTensorIterator and
  /// InitializableLookupTable::Initialize).
  Status import(const Tensor &keys, const Tensor &values);
  /// ExportValues: every key and value, stacked, into `keys` and `values`.
  Status exportValues(Tensor *keys, Tensor *values) const;

  /// InitializableLookupTable::Initialize of a HashTable from `count`
  /// entries: row i of `keys` to row i of `values` (each a vector of
  /// `count` scalars). An initialized table accepts the same number of
  /// entries again and ignores them (TF's AreEntriesSame).
  Status initialize(const Tensor &keys, const Tensor &values);

  std::mutex mutex;
  const Kind tableKind;
  const DType keyDType;
  const DType valueDType;
  const TensorShape keyShape;
  const TensorShape valueShape;
  /// MutableDenseHashTable's empty_key and deleted_key.
  Tensor emptyKey, deletedKey;
  /// A HashTable's: whether it was initialized.
  bool initialized = false;

private:
  struct Entry {
    Tensor key;
    Tensor value;
    /// When the key was first inserted: the export order.
    uint64_t order = 0;
  };
  Status checkKeyShape(const TensorShape &shape) const;
  Status checkTypes(const Tensor &keys, const Tensor &values) const;
  Status checkKeysAndValues(const Tensor &keys, const Tensor &values) const;
  /// MutableDenseHashTable: fails for a key equal to empty_key or
  /// deleted_key.
  Status checkDenseKeys(const Tensor &keys, int64_t count) const;
  /// Sets entry `key` (row `row` of `keys`) to row `row` of `values`.
  void put(const Tensor &keys, const Tensor &values, int64_t row);

  std::unordered_map<std::string, Entry> entries;
  uint64_t nextOrder = 0;
};

/// The identity of key `row` (of `count` elements) of `keys`: its bytes,
/// each string with its length.
std::string keyIdentity(const Tensor &keys, int64_t row, int64_t count);

/// Row `row` (of `shape`'s element count) of `t`, a view of its buffer.
Tensor rowView(const Tensor &t, int64_t row, const TensorShape &shape);

/// The table input 0 names, locked, or null table after recording TF's
/// error (no such resource, or another kind of resource).
struct LockedTable {
  std::shared_ptr<LookupTable> table;
  std::unique_lock<std::mutex> lock;
  LookupTable *operator->() const { return table.get(); }
  explicit operator bool() const { return table != nullptr; }
};
LockedTable lockTable(OpKernelContextInterface *ctx, const OpKernel &op);

/// Records `status`, a table's error, as the op's.
void failWith(OpKernelContextInterface *ctx, const OpKernel &op,
              const Status &status);

/// The initializers' half of the family (LookupInitKernels.cpp).
void registerLookupInitKernels(KernelRegistry &registry);

} // namespace tfrt_fallback::rt::kernels

#endif // TFRT_FALLBACK_LIB_RUNTIME_KERNELS_STATE_LOOKUPTABLE_H

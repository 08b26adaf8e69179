//===- Attr.h - Op attribute values -----------------------------*- C++ -*-===//
//
// AttrValue, the small variant of the attribute kinds TF kernels read at
// construction time, PartialShape, and AttrMap, a name-sorted flat vector of
// attributes filled by the program loader.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_RUNTIME_ATTR_H
#define TFRT_FALLBACK_RUNTIME_ATTR_H

#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/Status.h"
#include "tfrt_fallback/Runtime/Tensor.h"

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tfrt_fallback::rt {

/// A shape that may have unknown dims (-1) or an unknown rank.
class PartialShape {
public:
  /// Unknown rank.
  PartialShape() = default;
  /// Known rank; -1 marks an unknown dim.
  explicit PartialShape(absl::Span<const int64_t> dims)
      : knownRank_(true), dims_(dims.begin(), dims.end()) {}
  PartialShape(std::initializer_list<int64_t> dims)
      : PartialShape(absl::MakeConstSpan(dims.begin(), dims.size())) {}
  static PartialShape unknownRank() { return PartialShape(); }
  // Element-wise copies, see TensorShape.
  PartialShape(const PartialShape &other)
      : knownRank_(other.knownRank_),
        dims_(other.dims_.begin(), other.dims_.end()) {}
  PartialShape(PartialShape &&other) noexcept : PartialShape(other) {}
  PartialShape &operator=(const PartialShape &other) {
    knownRank_ = other.knownRank_;
    dims_.assign(other.dims_.begin(), other.dims_.end());
    return *this;
  }
  PartialShape &operator=(PartialShape &&other) noexcept {
    return *this = other;
  }

  bool hasRank() const { return knownRank_; }
  int rank() const { return knownRank_ ? static_cast<int>(dims_.size()) : -1; }
  absl::Span<const int64_t> dims() const { return dims_; }
  bool isFullyDefined() const;
  /// InvalidArgument unless fully defined.
  StatusOr<TensorShape> toTensorShape() const;
  /// True if `shape` is an instance of this partial shape.
  bool isCompatibleWith(const TensorShape &shape) const;
  /// "[2,?,3]", or "<unknown rank>".
  std::string toString() const;

  friend bool operator==(const PartialShape &a, const PartialShape &b) {
    return a.knownRank_ == b.knownRank_ && a.dims_ == b.dims_;
  }
  friend bool operator!=(const PartialShape &a, const PartialShape &b) {
    return !(a == b);
  }

private:
  bool knownRank_ = false;
  absl::InlinedVector<int64_t, 6> dims_;
};

/// A function attribute: the symbol name of a function in the program.
struct FuncAttr {
  std::string name;
  friend bool operator==(const FuncAttr &a, const FuncAttr &b) {
    return a.name == b.name;
  }
};

class AttrValue {
public:
  enum class Kind : uint8_t {
    Int,
    Float,
    Bool,
    String,
    DType,
    Shape,
    Tensor,
    Func,
    IntList,
    FloatList,
    BoolList,
    StringList,
    DTypeList,
    ShapeList,
  };

  // One alternative per Kind, in Kind order.
  using Storage =
      std::variant<int64_t, float, bool, std::string, rt::DType, PartialShape,
                   rt::Tensor, FuncAttr, std::vector<int64_t>,
                   std::vector<float>, std::vector<bool>,
                   std::vector<std::string>, std::vector<rt::DType>,
                   std::vector<PartialShape>>;

  AttrValue() : storage_(int64_t(0)) {}
  AttrValue(int64_t v) : storage_(v) {}
  AttrValue(int v) : storage_(int64_t(v)) {}
  AttrValue(float v) : storage_(v) {}
  AttrValue(bool v) : storage_(v) {}
  AttrValue(std::string v) : storage_(std::move(v)) {}
  AttrValue(const char *v) : storage_(std::string(v)) {}
  AttrValue(rt::DType v) : storage_(v) {}
  AttrValue(PartialShape v) : storage_(std::move(v)) {}
  AttrValue(rt::Tensor v) : storage_(std::move(v)) {}
  AttrValue(FuncAttr v) : storage_(std::move(v)) {}
  AttrValue(std::vector<int64_t> v) : storage_(std::move(v)) {}
  AttrValue(std::vector<float> v) : storage_(std::move(v)) {}
  AttrValue(std::vector<bool> v) : storage_(std::move(v)) {}
  AttrValue(std::vector<std::string> v) : storage_(std::move(v)) {}
  AttrValue(std::vector<rt::DType> v) : storage_(std::move(v)) {}
  AttrValue(std::vector<PartialShape> v) : storage_(std::move(v)) {}

  Kind kind() const { return static_cast<Kind>(storage_.index()); }
  bool isList() const { return kind() >= Kind::IntList; }
  /// Number of elements of a list attribute; 0 for non-lists.
  size_t listSize() const;

  /// The value if it has kind T's alternative, else nullptr.
  template <typename T> const T *getIf() const {
    return std::get_if<T>(&storage_);
  }
  const Storage &storage() const { return storage_; }

  /// Short human-readable form for messages: "3", "f32", "[1,2]", ...
  std::string toString() const;

private:
  Storage storage_;
};

/// "an int", "a list of ints", ... for error messages.
std::string_view attrKindName(AttrValue::Kind kind);

/// Attributes of one node, sorted by name for binary-search lookup.
class AttrMap {
public:
  using Entry = std::pair<std::string, AttrValue>;

  AttrMap() = default;
  /// Later duplicates of a name are dropped (assert in debug builds).
  AttrMap(std::initializer_list<Entry> entries);

  /// Builds a map from unsorted entries; InvalidArgument on a duplicate
  /// name (for the program loader).
  static StatusOr<AttrMap> fromEntries(std::vector<Entry> entries);

  /// Inserts or replaces `name`.
  void set(std::string_view name, AttrValue value);
  /// The attribute named `name`, or nullptr.
  const AttrValue *find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != nullptr; }

  size_t size() const { return entries_.size(); }
  bool empty() const { return entries_.empty(); }
  std::vector<Entry>::const_iterator begin() const { return entries_.begin(); }
  std::vector<Entry>::const_iterator end() const { return entries_.end(); }

private:
  std::vector<Entry> entries_;
};

} // namespace tfrt_fallback::rt

#endif // TFRT_FALLBACK_RUNTIME_ATTR_H

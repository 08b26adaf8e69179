//===- Attr.cpp - Op attribute values ---------------------------*- C++ -*-===//
//
// PartialShape helpers, AttrValue printing and AttrMap lookup.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Runtime/Attr.h"

#include "tfrt_fallback/Runtime/StrCat.h"
#include "tfrt_fallback/Runtime/StrFormat.h"

#include <algorithm>

namespace tfrt_fallback::rt {

//===----------------------------------------------------------------------===//
// PartialShape
//===----------------------------------------------------------------------===//

bool PartialShape::isFullyDefined() const {
  if (!knownRank_)
    return false;
  for (int64_t d : dims_)
    if (d < 0)
      return false;
  return true;
}

StatusOr<TensorShape> PartialShape::toTensorShape() const {
  if (!isFullyDefined())
    return makeError(StatusCode::kInvalidArgument,
                     "shape %s is not fully defined", toString().c_str());
  return TensorShape::create(dims_);
}

bool PartialShape::isCompatibleWith(const TensorShape &shape) const {
  if (!knownRank_)
    return true;
  if (rank() != shape.rank())
    return false;
  for (int i = 0; i < shape.rank(); ++i)
    if (dims_[i] >= 0 && dims_[i] != shape.dim(i))
      return false;
  return true;
}

std::string PartialShape::toString() const {
  if (!knownRank_)
    return "<unknown rank>";
  return strCat("[",
                strJoin(dims_, ",",
                        [](std::string *out, int64_t d) {
                          if (d < 0)
                            out->push_back('?');
                          else
                            strAppend(out, d);
                        }),
                "]");
}

//===----------------------------------------------------------------------===//
// AttrValue
//===----------------------------------------------------------------------===//

std::string_view attrKindName(AttrValue::Kind kind) {
  switch (kind) {
  case AttrValue::Kind::Int:
    return "an int";
  case AttrValue::Kind::Float:
    return "a float";
  case AttrValue::Kind::Bool:
    return "a bool";
  case AttrValue::Kind::String:
    return "a string";
  case AttrValue::Kind::DType:
    return "a dtype";
  case AttrValue::Kind::Shape:
    return "a shape";
  case AttrValue::Kind::Tensor:
    return "a tensor";
  case AttrValue::Kind::Func:
    return "a function";
  case AttrValue::Kind::IntList:
    return "a list of ints";
  case AttrValue::Kind::FloatList:
    return "a list of floats";
  case AttrValue::Kind::BoolList:
    return "a list of bools";
  case AttrValue::Kind::StringList:
    return "a list of strings";
  case AttrValue::Kind::DTypeList:
    return "a list of dtypes";
  case AttrValue::Kind::ShapeList:
    return "a list of shapes";
  }
  return "an unknown kind";
}

size_t AttrValue::listSize() const {
  return std::visit(
      [](const auto &v) -> size_t {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::vector<int64_t>> ||
                      std::is_same_v<V, std::vector<float>> ||
                      std::is_same_v<V, std::vector<bool>> ||
                      std::is_same_v<V, std::vector<std::string>> ||
                      std::is_same_v<V, std::vector<rt::DType>> ||
                      std::is_same_v<V, std::vector<PartialShape>>)
          return v.size();
        else
          return 0;
      },
      storage_);
}

namespace {
std::string scalarToString(int64_t v) { return strCat(v); }
std::string scalarToString(float v) { return strCat(v); }
std::string scalarToString(bool v) { return v ? "true" : "false"; }
std::string scalarToString(const std::string &v) {
  return strCat("\"", v, "\"");
}
std::string scalarToString(DType v) { return std::string(dtypeName(v)); }
std::string scalarToString(const PartialShape &v) { return v.toString(); }
std::string scalarToString(const Tensor &v) {
  return strCat("tensor<", v.shape().toString(), " ", dtypeName(v.dtype()),
                ">");
}
std::string scalarToString(const FuncAttr &v) { return strCat("@", v.name); }
template <typename T> std::string scalarToString(const std::vector<T> &v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      out += ",";
    out += scalarToString(static_cast<T>(v[i]));
  }
  out += "]";
  return out;
}
} // namespace

std::string AttrValue::toString() const {
  return std::visit([](const auto &v) { return scalarToString(v); }, storage_);
}

//===----------------------------------------------------------------------===//
// AttrMap
//===----------------------------------------------------------------------===//

namespace {
struct EntryLess {
  bool operator()(const AttrMap::Entry &a, std::string_view b) const {
    return std::string_view(a.first) < b;
  }
};
} // namespace

AttrMap::AttrMap(std::initializer_list<Entry> entries) {
  entries_.reserve(entries.size());
  for (const Entry &entry : entries) {
    assert(!contains(entry.first) && "duplicate attribute name");
    if (!contains(entry.first))
      set(entry.first, entry.second);
  }
}

StatusOr<AttrMap> AttrMap::fromEntries(std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const Entry &a, const Entry &b) { return a.first < b.first; });
  for (size_t i = 1; i < entries.size(); ++i)
    if (entries[i].first == entries[i - 1].first)
      return makeError(StatusCode::kInvalidArgument, "duplicate attribute '%s'",
                       entries[i].first.c_str());
  AttrMap map;
  map.entries_ = std::move(entries);
  return map;
}

void AttrMap::set(std::string_view name, AttrValue value) {
  auto it =
      std::lower_bound(entries_.begin(), entries_.end(), name, EntryLess());
  if (it != entries_.end() && it->first == name) {
    it->second = std::move(value);
    return;
  }
  entries_.insert(it, Entry(std::string(name), std::move(value)));
}

const AttrValue *AttrMap::find(std::string_view name) const {
  auto it =
      std::lower_bound(entries_.begin(), entries_.end(), name, EntryLess());
  if (it != entries_.end() && it->first == name)
    return &it->second;
  return nullptr;
}

} // namespace tfrt_fallback::rt

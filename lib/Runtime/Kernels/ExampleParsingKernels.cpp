//===- ExampleParsingKernels.cpp - tf.Example parsing -----------*- C++ -*-===//
//
// ParseExample, ParseExampleV2 and ParseSingleExample with TensorFlow's
// fast parser (tensorflow/core/util/example_proto_fast_parsing.cc, the
// kernels of example_parsing_ops.cc and the attribute rules of
// example_proto_helper.cc), without protobuf: a hand-written reader of the
// wire format of
//
//   Example  { Features features = 1; }
//   Features { map<string, Feature> feature = 1; }   // entries: key = 1,
//                                                    // value = 2
//   Feature  { oneof kind { BytesList bytes_list = 1;
//                           FloatList float_list = 2;
//                           Int64List int64_list = 3; } }
//   BytesList { repeated bytes value = 1; }
//   FloatList { repeated float value = 1 [packed]; }   // packed or not
//   Int64List { repeated int64 value = 1 [packed]; }   // packed or not
//
// with TF's leniencies and strictness: unknown fields of Example are
// skipped (groups are an error), a map entry must hold a key and a value,
// a Feature's kind is its first byte (another one is "Unsupported
// datatype."; an empty Feature counts as missing), bytes after a Feature's
// list are ignored, a packed list is read from its first field only. The
// last entry of a key wins. Every length is checked against the bytes
// left: hostile input gives an error, never a read out of bounds.
//
// Features are dense (dense_keys, Tdense, dense_shapes, dense_defaults: a
// missing feature takes its default, an empty default makes it required; a
// first dim of -1 makes it variable-length, padded with the default's one
// element), sparse (sparse_keys, sparse_types -> indices, values, dense
// shape) or, for ParseExampleV2, ragged (ragged_keys, ragged_value_types,
// ragged_split_types -> values, row_splits). Types are float, int64 and
// string.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "tfrt_fallback/Runtime/Kernels.h"
#include "tfrt_fallback/Runtime/StringTensor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tfrt_fallback::rt {
namespace {
using namespace kernels;

//===----------------------------------------------------------------------===//
// Wire format
//===----------------------------------------------------------------------===//

/// A bounded reader of protobuf wire data.
class Wire {
public:
  explicit Wire(std::string_view bytes)
      : p_(reinterpret_cast<const uint8_t *>(bytes.data())),
        end_(p_ + bytes.size()) {}

  bool atEnd() const { return p_ == end_; }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }
  /// The next byte (remaining() > 0).
  uint8_t peek() const { return *p_; }
  /// Consumes `byte` if it is next.
  bool expect(uint8_t byte) {
    if (atEnd() || *p_ != byte)
      return false;
    ++p_;
    return true;
  }
  /// A varint of at most 10 bytes (protobuf's limit), as uint64.
  bool varint(uint64_t *value) {
    uint64_t result = 0;
    for (int i = 0; i < 10; ++i) {
      if (atEnd())
        return false;
      const uint8_t b = *p_++;
      result |= static_cast<uint64_t>(b & 0x7f) << (7 * i);
      if (!(b & 0x80)) {
        *value = result;
        return true;
      }
    }
    return false;
  }
  /// A varint length (protobuf's ReadVarint32: the low 32 bits).
  bool length(uint32_t *value) {
    uint64_t v = 0;
    if (!varint(&v))
      return false;
    *value = static_cast<uint32_t>(v);
    return true;
  }
  /// The next `n` bytes as a view.
  bool bytes(size_t n, std::string_view *out) {
    if (n > remaining())
      return false;
    *out = std::string_view(reinterpret_cast<const char *>(p_), n);
    p_ += n;
    return true;
  }
  bool skip(size_t n) {
    if (n > remaining())
      return false;
    p_ += n;
    return true;
  }
  /// A reader of the next `n` bytes (consumed here).
  bool sub(size_t n, Wire *out) {
    std::string_view view;
    if (!bytes(n, &view))
      return false;
    *out = Wire(view);
    return true;
  }
  /// A length-prefixed sub-message.
  bool delimited(Wire *out) {
    uint32_t n = 0;
    return length(&n) && sub(n, out);
  }
  void skipToEnd() { p_ = end_; }

private:
  const uint8_t *p_;
  const uint8_t *end_;
};

constexpr uint8_t kDelimited1 = (1 << 3) | 2, kDelimited2 = (2 << 3) | 2,
                  kDelimited3 = (3 << 3) | 2, kVarint1 = (1 << 3) | 0,
                  kFixed32_1 = (1 << 3) | 5;

/// One entry of the feature map: key and serialized Feature.
struct FeatureEntry {
  std::string_view key;
  std::string_view feature;
};

/// TF's SkipExtraneousTag: skips one field of an unknown tag; groups and
/// wire types 6 and 7 fail. A length beyond the data ends it (TF ignores
/// Skip's result).
bool skipField(Wire &w) {
  uint64_t tag = 0, value = 0;
  if (!w.varint(&tag))
    return false;
  switch (tag & 7) {
  case 0:
    return w.varint(&value);
  case 1:
    return w.skip(8);
  case 2: {
    uint32_t n = 0;
    if (!w.length(&n))
      return false;
    if (!w.skip(n))
      w.skipToEnd();
    return true;
  }
  case 5:
    return w.skip(4);
  default:
    return false;
  }
}

/// TF's ParseFeatureMapEntry: exactly two fields, each the key (1) or the
/// value (2), and nothing after them.
bool parseMapEntry(Wire &w, FeatureEntry *entry) {
  Wire e(std::string_view{});
  if (!w.delimited(&e))
    return false;
  for (int n = 0; n < 2; ++n) {
    uint32_t len = 0;
    if (e.expect(kDelimited1)) {
      if (!e.length(&len) || !e.bytes(len, &entry->key))
        return false;
    } else if (e.expect(kDelimited2)) {
      if (!e.length(&len) || !e.bytes(len, &entry->feature))
        return false;
    } else {
      return false;
    }
  }
  return e.atEnd();
}

/// TF's ParseExample: the feature map entries in order.
bool parseExample(std::string_view serialized,
                  std::vector<FeatureEntry> *entries) {
  Wire w(serialized);
  while (!w.atEnd()) {
    if (!w.expect(kDelimited1)) {
      if (!skipField(w))
        return false;
      continue;
    }
    Wire features(std::string_view{});
    if (!w.delimited(&features))
      return false;
    while (!features.atEnd()) {
      FeatureEntry entry;
      if (!features.expect(kDelimited1) || !parseMapEntry(features, &entry))
        return false;
      entries->push_back(entry);
    }
  }
  return true;
}

enum class Kind { Missing, Bytes, Float, Int64 };

/// A feature's kind from its first byte; false for another byte (TF's
/// "Unsupported datatype."). `list` is what follows.
bool featureKind(std::string_view feature, Kind *kind, std::string_view *list) {
  if (feature.empty()) {
    *kind = Kind::Missing;
    return true;
  }
  switch (static_cast<uint8_t>(feature[0])) {
  case kDelimited1:
    *kind = Kind::Bytes;
    break;
  case kDelimited2:
    *kind = Kind::Float;
    break;
  case kDelimited3:
    *kind = Kind::Int64;
    break;
  default:
    return false;
  }
  *list = feature.substr(1);
  return true;
}

/// The values of one feature's list.
struct Values {
  std::vector<std::string_view> bytes;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  size_t size(Kind kind) const {
    return kind == Kind::Bytes   ? bytes.size()
           : kind == Kind::Float ? floats.size()
                                 : ints.size();
  }
};

/// TF's Parse{Bytes,Float,Int64}List of the list after a Feature's kind
/// byte; appends to `out`.
bool parseList(std::string_view data, Kind kind, Values *out) {
  Wire outer(data), w(std::string_view{});
  if (!outer.delimited(&w))
    return false;
  if (kind == Kind::Bytes) {
    while (!w.atEnd()) {
      uint32_t n = 0;
      std::string_view value;
      if (!w.expect(kDelimited1) || !w.length(&n) || !w.bytes(n, &value))
        return false;
      out->bytes.push_back(value);
    }
    return true;
  }
  if (w.atEnd())
    return true;
  if (w.expect(kDelimited1)) { // Packed: the first field only.
    uint32_t n = 0;
    Wire packed(std::string_view{});
    if (!w.length(&n) || !w.sub(n, &packed))
      return false;
    if (kind == Kind::Float) {
      std::string_view raw;
      packed.bytes(n / 4 * 4, &raw);
      for (size_t i = 0; i < raw.size(); i += 4) {
        uint32_t bits = 0;
        for (int b = 3; b >= 0; --b)
          bits = bits << 8 | static_cast<uint8_t>(raw[i + b]);
        float f;
        std::memcpy(&f, &bits, 4);
        out->floats.push_back(f);
      }
      return true;
    }
    while (!packed.atEnd()) {
      uint64_t v = 0;
      if (!packed.varint(&v))
        return false;
      out->ints.push_back(static_cast<int64_t>(v));
    }
    return true;
  }
  // Unpacked: every field is one value.
  while (!w.atEnd()) {
    if (kind == Kind::Float) {
      std::string_view raw;
      if (!w.expect(kFixed32_1) || !w.bytes(4, &raw))
        return false;
      uint32_t bits = 0;
      for (int b = 3; b >= 0; --b)
        bits = bits << 8 | static_cast<uint8_t>(raw[b]);
      float f;
      std::memcpy(&f, &bits, 4);
      out->floats.push_back(f);
    } else {
      uint64_t v = 0;
      if (!w.expect(kVarint1) || !w.varint(&v))
        return false;
      out->ints.push_back(static_cast<int64_t>(v));
    }
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

Kind kindOf(DType dtype) {
  return dtype == DType::String ? Kind::Bytes
         : dtype == DType::F32  ? Kind::Float
                                : Kind::Int64;
}

const char *kindName(Kind kind) {
  return kind == Kind::Bytes   ? "string"
         : kind == Kind::Float ? "float"
                               : "int64";
}

/// What the kernels parse, from the attributes (TF's ParseExampleAttrs and
/// GetDenseShapes).
struct ParseSpec {
  std::vector<DType> denseTypes, sparseTypes, raggedTypes, splitTypes;
  std::vector<PartialShape> denseShapes;
  std::vector<bool> variableLength;
  /// Elements per example (fixed) or per row of the first dim (variable).
  std::vector<int64_t> stride;
  /// The shape of one example's value (variable length: the inner dims).
  std::vector<TensorShape::Dims> denseDims;
};

Status checkValidType(const OpKernel &op, DType dtype) {
  if (dtype == DType::F32 || dtype == DType::I64 || dtype == DType::String)
    return OkStatus();
  return op.errorf("Received input dtype: %s", dtypeName(dtype));
}

Status finishSpec(const OpKernel &op, ParseSpec *spec) {
  for (DType t : spec->denseTypes)
    if (Status s = checkValidType(op, t); !s.ok())
      return s;
  for (DType t : spec->sparseTypes)
    if (Status s = checkValidType(op, t); !s.ok())
      return s;
  for (DType t : spec->raggedTypes)
    if (Status s = checkValidType(op, t); !s.ok())
      return s;
  for (DType t : spec->splitTypes)
    if (t != DType::I32 && t != DType::I64)
      return op.errorf("Invalid ragged_split_type: %s", dtypeName(t));
  if (spec->denseShapes.size() != spec->denseTypes.size())
    return op.errorf("len(dense_keys) != len(dense_shapes)");
  for (size_t i = 0; i < spec->denseShapes.size(); ++i) {
    const PartialShape &shape = spec->denseShapes[i];
    bool ok = shape.hasRank();
    for (int d = 0; ok && d < shape.rank(); ++d)
      ok = shape.dims()[d] >= (d == 0 ? -1 : 0);
    if (!ok)
      return op.errorf("dense_shapes[%d] has unknown rank or unknown inner "
                       "dimensions: %s",
                       i, shape.toString());
    const bool variable = shape.rank() > 0 && shape.dims()[0] == -1;
    TensorShape::Dims dims(shape.dims().begin() + (variable ? 1 : 0),
                           shape.dims().end());
    StatusOr<TensorShape> one = TensorShape::create(dims);
    if (!one.ok())
      return op.errorf("dense_shapes[%d]: %s", i, one.status().message());
    // A variable-length feature of no elements per row would divide by 0
    // in TF.
    if (variable && one->numElements() == 0)
      return op.errorf("dense_shapes[%d] is a variable length shape with no "
                       "elements per row: %s",
                       i, shape.toString());
    spec->variableLength.push_back(variable);
    spec->stride.push_back(one->numElements());
    spec->denseDims.push_back(dims);
  }
  return OkStatus();
}

/// Where a configured key goes.
struct Target {
  enum class Type { Dense, Sparse, Ragged } type;
  size_t index;
};

/// The parse of a batch (or of one example, `single`).
class Parser {
public:
  Parser(const OpKernel &op, const ParseSpec &spec, bool single)
      : op_(op), spec_(spec), single_(single) {}

  /// Maps the keys; duplicate keys fail as TF's (its hash map cannot take
  /// them).
  Status setKeys(const std::vector<std::string_view> &dense,
                 const std::vector<std::string_view> &sparse,
                 const std::vector<std::string_view> &ragged) {
    denseKeys_ = dense;
    sparseKeys_ = sparse;
    raggedKeys_ = ragged;
    auto add = [&](const std::vector<std::string_view> &keys,
                   Target::Type type) {
      for (size_t i = 0; i < keys.size(); ++i)
        if (!targets_.emplace(keys[i], Target{type, i}).second)
          return false;
      return true;
    };
    if (!add(dense, Target::Type::Dense) ||
        !add(sparse, Target::Type::Sparse) ||
        !add(ragged, Target::Type::Ragged))
      return makeOpError(StatusCode::kInternal, op_.opName(), op_.nodeName(),
                         "Could not avoid collision. This should not happen.");
    dense_.resize(dense.size());
    sparse_.resize(sparse.size());
    ragged_.resize(ragged.size());
    return OkStatus();
  }

  /// Parses example `index` (name `name`) into the buffers; `defaults` are
  /// the dense defaults.
  Status parse(std::string_view serialized, std::string_view name,
               int64_t index, absl::Span<const Tensor *const> defaults) {
    entries_.clear();
    if (!parseExample(serialized, &entries_))
      return op_.errorf("Could not parse example input, value: '%s'",
                        serialized);
    std::vector<bool> denseSeen(dense_.size()), sparseSeen(sparse_.size()),
        raggedSeen(ragged_.size());
    // The last entry of a key wins: walk backwards, skip keys seen.
    for (size_t i = entries_.size(); i-- > 0;) {
      const FeatureEntry &entry = entries_[i];
      auto it = targets_.find(entry.key);
      if (it == targets_.end())
        continue;
      const Target target = it->second;
      Kind kind;
      std::string_view list;
      if (!featureKind(entry.feature, &kind, &list))
        return op_.errorf("Unsupported datatype.");
      auto exampleError = [&](const std::string &suffix) {
        if (single_)
          return op_.errorf("Key: %s.  %s", entry.key, suffix);
        return op_.errorf("Name: %s, Key: %s, Index: %d.  %s", name, entry.key,
                          index, suffix);
      };
      auto parseError = [&](const char *what) {
        if (single_)
          return exampleError(strCat("Can't parse serialized Example: ", what));
        return exampleError("Can't parse serialized Example.");
      };
      if (target.type == Target::Type::Dense) {
        const size_t d = target.index;
        if (kind == Kind::Missing || denseSeen[d])
          continue;
        denseSeen[d] = true;
        const Kind want = kindOf(spec_.denseTypes[d]);
        if (kind != want)
          return exampleError(
              strCat("Data types don't match. Data type: ", kindName(kind),
                     " but expected type: ", kindName(want)));
        Values values;
        if (!parseList(list, kind, &values))
          return parseError(kind == Kind::Bytes ? "Parsing bytes_list failed."
                            : kind == Kind::Float
                                ? "Parsing float_list failed."
                                : "Parsing int64_list failed.");
        const size_t count = values.size(kind);
        const int64_t stride = spec_.stride[d];
        const char *typeStr = kind == Kind::Bytes   ? "bytes"
                              : kind == Kind::Float ? "float"
                                                    : "int64";
        if (!spec_.variableLength[d]) {
          if (count != static_cast<size_t>(stride)) {
            if (single_)
              return parseError(kind == Kind::Bytes &&
                                        count > static_cast<size_t>(stride)
                                    ? "Parsing bytes_list failed."
                                : kind == Kind::Bytes
                                    ? "Some bytes_list slice was not parsed."
                                : kind == Kind::Float
                                    ? "Some float_list slice was not parsed."
                                    : "Some int64_list slice was not parsed.");
            if (kind == Kind::Bytes && count > static_cast<size_t>(stride))
              return parseError("");
            return exampleError(
                strCat("Number of ", typeStr,
                       " values != expected.  Values size: ", count,
                       " but output shape: ", spec_.denseShapes[d].toString()));
          }
        } else if (count % stride != 0) {
          if (single_)
            return op_.errorf("Error while parsing feature with key %s: number "
                              "of elements should be divisible by %d, found "
                              "%d instead",
                              entry.key, stride, count);
          return exampleError(
              strCat("Number of ", typeStr,
                     " values is not a multiple of stride length. Saw ", count,
                     " values but output shape is: ",
                     spec_.denseShapes[d].toString()));
        }
        append(dense_[d], kind, values, index);
        continue;
      }
      const bool isSparse = target.type == Target::Type::Sparse;
      const size_t d = target.index;
      std::vector<bool> &seen = isSparse ? sparseSeen : raggedSeen;
      if (single_ && kind == Kind::Missing)
        continue;
      if (seen[d])
        continue;
      seen[d] = true;
      const Kind want =
          kindOf(isSparse ? spec_.sparseTypes[d] : spec_.raggedTypes[d]);
      if (kind != Kind::Missing && kind != want)
        return exampleError(
            strCat("Data types don't match. Expected type: ", kindName(want),
                   ", Actual type: ", kindName(kind)));
      Values values;
      if (kind != Kind::Missing && !parseList(list, kind, &values))
        return parseError(kind == Kind::Bytes   ? "Parsing bytes_list failed."
                          : kind == Kind::Float ? "Parsing float_list failed."
                                                : "Parsing int64_list failed.");
      append((isSparse ? sparse_ : ragged_)[d], want, values, index);
    }
    // Missing fixed-length dense features take their defaults.
    for (size_t d = 0; d < dense_.size(); ++d) {
      if (denseSeen[d] || spec_.variableLength[d])
        continue;
      if (defaults[d]->numElements() == 0) {
        const std::string what =
            strCat("Feature: ", denseKeys_[d],
                   " (data type: ", kindName(kindOf(spec_.denseTypes[d])), ")",
                   " is required but could not be found.");
        if (single_)
          return op_.errorf("%s", what);
        return op_.errorf("Name: %s, %s", name, what);
      }
      Values values;
      const Tensor &def = *defaults[d];
      const int64_t n = def.numElements();
      // Defaults repeat per example: bound what they add up to.
      if (Status s = checkHostAllocation(
              dense_[d].values.size(kindOf(spec_.denseTypes[d])) + n,
              sizeof(std::string_view));
          !s.ok())
        return s;
      switch (kindOf(spec_.denseTypes[d])) {
      case Kind::Bytes: {
        auto e = stringElements(def);
        values.bytes.assign(e.begin(), e.end());
        break;
      }
      case Kind::Float:
        values.floats.assign(def.data<float>(), def.data<float>() + n);
        break;
      default:
        values.ints.assign(def.data<int64_t>(), def.data<int64_t>() + n);
        break;
      }
      append(dense_[d], kindOf(spec_.denseTypes[d]), values, index);
    }
    return OkStatus();
  }

  /// The values gathered for a feature: one run per example.
  struct Buffer {
    Values values;
    /// Per example, its run's end in `values` and its example index.
    std::vector<size_t> ends;
    std::vector<int64_t> examples;
  };

  const std::vector<Buffer> &dense() const { return dense_; }
  const std::vector<Buffer> &sparse() const { return sparse_; }
  const std::vector<Buffer> &ragged() const { return ragged_; }

private:
  static void append(Buffer &buffer, Kind kind, const Values &values,
                     int64_t example) {
    switch (kind) {
    case Kind::Bytes:
      buffer.values.bytes.insert(buffer.values.bytes.end(),
                                 values.bytes.begin(), values.bytes.end());
      break;
    case Kind::Float:
      buffer.values.floats.insert(buffer.values.floats.end(),
                                  values.floats.begin(), values.floats.end());
      break;
    default:
      buffer.values.ints.insert(buffer.values.ints.end(), values.ints.begin(),
                                values.ints.end());
      break;
    }
    buffer.ends.push_back(buffer.values.size(kind));
    buffer.examples.push_back(example);
  }

  const OpKernel &op_;
  const ParseSpec &spec_;
  bool single_;
  std::vector<std::string_view> denseKeys_, sparseKeys_, raggedKeys_;
  std::unordered_map<std::string_view, Target> targets_;
  std::vector<FeatureEntry> entries_;
  std::vector<Buffer> dense_, sparse_, ragged_;
};

//===----------------------------------------------------------------------===//
// Outputs
//===----------------------------------------------------------------------===//

/// Writes outputs from gathered values; strings are copied into a new
/// tensor.
class OutputWriter {
public:
  explicit OutputWriter(OpKernelContextInterface *ctx) : ctx_(ctx) {}

  /// Emits output `index` with `shape`: element i is value `source[i]` of
  /// `values` (`source[i] < 0`: the fill value, element 0 of `fill`), or
  /// value i when `source` is null.
  Status emit(int index, Kind kind, const TensorShape &shape,
              const Values &values, const int64_t *source, const Tensor *fill) {
    const int64_t n = shape.numElements();
    if (kind == Kind::Bytes) {
      if (Status s = checkHostAllocation(n, sizeof(std::string_view)); !s.ok())
        return s;
      std::vector<std::string_view> views(n);
      for (int64_t i = 0; i < n; ++i) {
        const int64_t from = source ? source[i] : i;
        views[i] = from < 0 ? stringElements(*fill)[0] : values.bytes[from];
      }
      StatusOr<Tensor> t = makeStringTensor(shape, views);
      if (!t.ok())
        return t.status();
      ctx_->setOutput(index, *std::move(t));
      return OkStatus();
    }
    Tensor *out = nullptr;
    if (Status s = ctx_->allocateOutput(index, shape, &out); !s.ok())
      return s;
    if (kind == Kind::Float) {
      float *o = out->data<float>();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t from = source ? source[i] : i;
        o[i] = from < 0 ? fill->data<float>()[0] : values.floats[from];
      }
    } else {
      int64_t *o = out->data<int64_t>();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t from = source ? source[i] : i;
        o[i] = from < 0 ? fill->data<int64_t>()[0] : values.ints[from];
      }
    }
    return OkStatus();
  }

  /// An int64 output from `values`.
  Status emitInts(int index, const TensorShape &shape,
                  const std::vector<int64_t> &values) {
    Tensor *out = nullptr;
    if (Status s = ctx_->allocateOutput(index, shape, &out); !s.ok())
      return s;
    std::copy(values.begin(), values.end(), out->data<int64_t>());
    return OkStatus();
  }

private:
  OpKernelContextInterface *ctx_;
};

/// Sequence 0, 1, ..., n - 1.
std::vector<int64_t> iotaOf(int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

/// Output positions of the parse (see the kernels' op signatures).
struct OutputLayout {
  int sparseIndices, sparseValues, sparseShapes, denseValues, raggedValues,
      raggedSplits;
  OutputLayout(size_t numSparse, size_t numDense, size_t numRagged) {
    const int s = static_cast<int>(numSparse), d = static_cast<int>(numDense),
              r = static_cast<int>(numRagged);
    sparseIndices = 0;
    sparseValues = s;
    sparseShapes = 2 * s;
    denseValues = 3 * s;
    raggedValues = 3 * s + d;
    raggedSplits = 3 * s + d + r;
  }
};

/// Writes the outputs of a batch of `batch` examples (TF's FastParseExample
/// result).
Status writeBatch(OpKernelContextInterface *ctx, const ParseSpec &spec,
                  const Parser &parser, int64_t batch,
                  absl::Span<const Tensor *const> defaults,
                  const OutputLayout &layout) {
  OutputWriter writer(ctx);
  for (size_t d = 0; d < parser.dense().size(); ++d) {
    const Parser::Buffer &buffer = parser.dense()[d];
    const Kind kind = kindOf(spec.denseTypes[d]);
    const int64_t stride = spec.stride[d];
    TensorShape::Dims dims{batch};
    std::vector<int64_t> source;
    if (!spec.variableLength[d]) {
      dims.insert(dims.end(), spec.denseDims[d].begin(),
                  spec.denseDims[d].end());
      StatusOr<TensorShape> shape = TensorShape::create(dims);
      if (!shape.ok())
        return shape.status();
      // Every example has exactly one run of `stride` values, in order.
      if (Status s = writer.emit(layout.denseValues + static_cast<int>(d), kind,
                                 *shape, buffer.values, nullptr, nullptr);
          !s.ok())
        return s;
      continue;
    }
    // Variable length: rows padded to the longest example.
    int64_t longest = 0;
    std::vector<int64_t> begin(batch, 0), count(batch, 0);
    size_t previous = 0;
    for (size_t r = 0; r < buffer.ends.size(); ++r) {
      begin[buffer.examples[r]] = static_cast<int64_t>(previous);
      count[buffer.examples[r]] =
          static_cast<int64_t>(buffer.ends[r] - previous);
      longest = std::max<int64_t>(longest, buffer.ends[r] - previous);
      previous = buffer.ends[r];
    }
    dims.push_back(longest / stride);
    dims.insert(dims.end(), spec.denseDims[d].begin(), spec.denseDims[d].end());
    StatusOr<TensorShape> shape = TensorShape::create(dims);
    if (!shape.ok())
      return shape.status();
    if (Status s = checkHostAllocation(shape->numElements(), sizeof(int64_t));
        !s.ok())
      return s;
    source.assign(shape->numElements(), -1);
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t i = 0; i < count[b]; ++i)
        source[b * longest + i] = begin[b] + i;
    if (Status s =
            writer.emit(layout.denseValues + static_cast<int>(d), kind, *shape,
                        buffer.values, source.data(), defaults[d]);
        !s.ok())
      return s;
  }
  for (size_t d = 0; d < parser.sparse().size(); ++d) {
    const Parser::Buffer &buffer = parser.sparse()[d];
    const Kind kind = kindOf(spec.sparseTypes[d]);
    const int64_t total = static_cast<int64_t>(buffer.values.size(kind));
    std::vector<int64_t> indices;
    indices.reserve(2 * total);
    int64_t longest = 0;
    size_t previous = 0;
    for (size_t r = 0; r < buffer.ends.size(); ++r) {
      const int64_t n = static_cast<int64_t>(buffer.ends[r] - previous);
      for (int64_t i = 0; i < n; ++i) {
        indices.push_back(buffer.examples[r]);
        indices.push_back(i);
      }
      longest = std::max(longest, n);
      previous = buffer.ends[r];
    }
    const int i = static_cast<int>(d);
    if (Status s = writer.emitInts(layout.sparseIndices + i,
                                   TensorShape{total, 2}, indices);
        !s.ok())
      return s;
    if (Status s =
            writer.emit(layout.sparseValues + i, kind, TensorShape{total},
                        buffer.values, nullptr, nullptr);
        !s.ok())
      return s;
    if (Status s = writer.emitInts(layout.sparseShapes + i, TensorShape{2},
                                   {batch, longest});
        !s.ok())
      return s;
  }
  for (size_t d = 0; d < parser.ragged().size(); ++d) {
    const Parser::Buffer &buffer = parser.ragged()[d];
    const Kind kind = kindOf(spec.raggedTypes[d]);
    const int64_t total = static_cast<int64_t>(buffer.values.size(kind));
    const int i = static_cast<int>(d);
    if (Status s =
            writer.emit(layout.raggedValues + i, kind, TensorShape{total},
                        buffer.values, nullptr, nullptr);
        !s.ok())
      return s;
    Tensor *splits = nullptr;
    if (Status s = ctx->allocateOutput(layout.raggedSplits + i,
                                       TensorShape{batch + 1}, &splits);
        !s.ok())
      return s;
    // Row b + 1 ends where example b's run ends (examples without the
    // feature have an empty row).
    std::vector<int64_t> values(batch + 1, 0);
    size_t previous = 0;
    for (size_t r = 0; r < buffer.ends.size(); ++r) {
      values[buffer.examples[r] + 1] =
          static_cast<int64_t>(buffer.ends[r] - previous);
      previous = buffer.ends[r];
    }
    for (int64_t k = 1; k <= batch; ++k)
      values[k] += values[k - 1];
    for (int64_t k = 0; k <= batch; ++k) {
      if (spec.splitTypes[d] == DType::I32)
        splits->data<int32_t>()[k] = static_cast<int32_t>(values[k]);
      else
        splits->data<int64_t>()[k] = values[k];
    }
  }
  return OkStatus();
}

/// Writes the outputs of one example (TF's FastParseSingleExample result).
Status writeSingle(OpKernelContextInterface *ctx, const ParseSpec &spec,
                   const Parser &parser, const OutputLayout &layout) {
  OutputWriter writer(ctx);
  for (size_t d = 0; d < parser.dense().size(); ++d) {
    const Parser::Buffer &buffer = parser.dense()[d];
    const Kind kind = kindOf(spec.denseTypes[d]);
    const int64_t n = static_cast<int64_t>(buffer.values.size(kind));
    TensorShape::Dims dims;
    if (spec.variableLength[d])
      dims.push_back(n / spec.stride[d]);
    dims.insert(dims.end(), spec.denseDims[d].begin(), spec.denseDims[d].end());
    StatusOr<TensorShape> shape = TensorShape::create(dims);
    if (!shape.ok())
      return shape.status();
    if (Status s = writer.emit(layout.denseValues + static_cast<int>(d), kind,
                               *shape, buffer.values, nullptr, nullptr);
        !s.ok())
      return s;
  }
  for (size_t d = 0; d < parser.sparse().size(); ++d) {
    const Parser::Buffer &buffer = parser.sparse()[d];
    const Kind kind = kindOf(spec.sparseTypes[d]);
    const int64_t n = static_cast<int64_t>(buffer.values.size(kind));
    const int i = static_cast<int>(d);
    if (Status s = writer.emitInts(layout.sparseIndices + i, TensorShape{n, 1},
                                   iotaOf(n));
        !s.ok())
      return s;
    if (Status s = writer.emit(layout.sparseValues + i, kind, TensorShape{n},
                               buffer.values, nullptr, nullptr);
        !s.ok())
      return s;
    if (Status s =
            writer.emitInts(layout.sparseShapes + i, TensorShape{1}, {n});
        !s.ok())
      return s;
  }
  for (size_t d = 0; d < parser.ragged().size(); ++d) {
    const Parser::Buffer &buffer = parser.ragged()[d];
    const Kind kind = kindOf(spec.raggedTypes[d]);
    const int64_t n = static_cast<int64_t>(buffer.values.size(kind));
    const int i = static_cast<int>(d);
    if (Status s = writer.emit(layout.raggedValues + i, kind, TensorShape{n},
                               buffer.values, nullptr, nullptr);
        !s.ok())
      return s;
    // TF leaves the row splits of a scalar input empty.
    Tensor *splits = nullptr;
    if (Status s = ctx->allocateOutput(layout.raggedSplits + i, TensorShape{0},
                                       &splits);
        !s.ok())
      return s;
  }
  return OkStatus();
}

/// TF's dense_defaults checks (CheckInputShapes).
Status checkDefaults(const OpKernel &op, const ParseSpec &spec,
                     absl::Span<const Tensor *const> defaults) {
  if (defaults.size() != spec.denseTypes.size())
    return op.errorf("Expected len(dense_defaults) == len(dense_keys) but "
                     "got: %d vs. %d",
                     defaults.size(), spec.denseTypes.size());
  for (size_t d = 0; d < defaults.size(); ++d) {
    const Tensor &def = *defaults[d];
    if (spec.variableLength[d]) {
      if (def.numElements() != 1)
        return op.errorf("dense_shape[%d] is a variable length shape: %s, "
                         "therefore def_value[%d] must contain a single "
                         "element (the padding element).  But its shape is: "
                         "%s",
                         d, spec.denseShapes[d].toString(), d,
                         def.shape().toString());
    } else if (def.numElements() > 0) {
      if (!spec.denseShapes[d].isCompatibleWith(def.shape()))
        return op.errorf("def_value[%d].shape() == %s is not compatible with "
                         "dense_shapes_[%d] == %s",
                         d, def.shape().toString(), d,
                         spec.denseShapes[d].toString());
    }
    if (def.dtype() != spec.denseTypes[d])
      return op.errorf("dense_defaults[%d].dtype() == %s != dense_types_[%d] "
                       "== %s",
                       d, dtypeName(def.dtype()), d,
                       dtypeName(spec.denseTypes[d]));
  }
  return OkStatus();
}

/// The string elements of key input `t` (V2: any shape, flattened).
Status keysOf(const OpKernel &op, const Tensor &t, const char *what,
              std::vector<std::string_view> *keys) {
  if (t.dtype() != DType::String)
    return op.errorf("%s must be strings", what);
  auto e = stringElements(t);
  keys->insert(keys->end(), e.begin(), e.end());
  return OkStatus();
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// ParseExample (V1: serialized and names vectors, one scalar input per
/// key) and ParseExampleV2 (V2: serialized a scalar or vector, keys as
/// string tensors, ragged features).
template <bool V2> class ParseExampleKernel final : public OpKernel {
public:
  explicit ParseExampleKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("sparse_types", &spec_.sparseTypes));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("Tdense", &spec_.denseTypes));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("dense_shapes", &spec_.denseShapes));
    int64_t numSparse = 0, numDense = 0;
    if constexpr (V2) {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("ragged_value_types", &spec_.raggedTypes));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("ragged_split_types", &spec_.splitTypes));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("num_sparse", &numSparse));
      numDense = static_cast<int64_t>(spec_.denseTypes.size());
    } else {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("Nsparse", &numSparse));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("Ndense", &numDense));
    }
    if (numSparse != static_cast<int64_t>(spec_.sparseTypes.size())) {
      ctx->ctxFailure(errorf("len(sparse_keys) != len(sparse_types)"));
      return;
    }
    if (numDense != static_cast<int64_t>(spec_.denseTypes.size())) {
      ctx->ctxFailure(errorf("len(dense_keys) != len(dense_types)"));
      return;
    }
    if (spec_.raggedTypes.size() != spec_.splitTypes.size()) {
      ctx->ctxFailure(errorf("len(ragged_keys) != len(ragged_split_types)"));
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, finishSpec(*this, &spec_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &serialized = ctx->input(0);
    const Tensor &names = ctx->input(1);
    const size_t numSparse = spec_.sparseTypes.size(),
                 numDense = spec_.denseTypes.size(),
                 numRagged = spec_.raggedTypes.size();
    std::vector<std::string_view> denseKeys, sparseKeys, raggedKeys;
    std::vector<const Tensor *> defaults;
    int next = 2;
    if constexpr (V2) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, ctx->numInputs() == 5 + int(numDense),
          errorf("expected %d inputs, got %d", 5 + numDense, ctx->numInputs()));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, keysOf(*this, ctx->input(2), "sparse_keys", &sparseKeys));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, keysOf(*this, ctx->input(3), "dense_keys", &denseKeys));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, keysOf(*this, ctx->input(4), "ragged_keys", &raggedKeys));
      next = 5;
    } else {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx,
          ctx->numInputs() ==
              2 + 2 * int(numSparse + numDense) - int(numSparse),
          errorf("expected %d inputs, got %d", 2 + numSparse + 2 * numDense,
                 ctx->numInputs()));
      for (size_t i = 0; i < numSparse + numDense; ++i) {
        const Tensor &key = ctx->input(next++);
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, key.rank() == 0 && key.dtype() == DType::String,
            errorf("%s[%d] must be a string scalar, got shape %s",
                   i < numSparse ? "sparse_keys" : "dense_keys",
                   i < numSparse ? i : i - numSparse, key.shape().toString()));
        (i < numSparse ? sparseKeys : denseKeys)
            .push_back(stringElements(key)[0]);
      }
    }
    for (size_t d = 0; d < numDense; ++d)
      defaults.push_back(&ctx->input(next++));
    TFRT_FALLBACK_OP_REQUIRES(ctx, serialized.dtype() == DType::String,
                              errorf("serialized must be strings"));
    if constexpr (V2)
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, serialized.rank() <= 1,
          errorf("Expected serialized to be a scalar or vector, got shape: %s",
                 serialized.shape().toString()));
    else
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, serialized.rank() == 1,
          errorf("Expected serialized to be a vector, got shape: %s",
                 serialized.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        names.numElements() == 0 || (names.shape() == serialized.shape() &&
                                     names.dtype() == DType::String),
        errorf("Expected names have the same shape as serialized: "
               "name.shape=%s, serialized.shape=%s",
               names.shape().toString(), serialized.shape().toString()));
    if constexpr (V2) {
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, denseKeys.size() == numDense,
          errorf("Expected len(dense_keys) == len(dense_types) but got: %d "
                 "vs. %d",
                 denseKeys.size(), numDense));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, sparseKeys.size() == numSparse,
          errorf("Expected len(sparse_keys) == num_sparse but got: %d vs. %d",
                 sparseKeys.size(), numSparse));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, raggedKeys.size() == numRagged,
          errorf("Expected len(ragged_keys) == len(ragged_value_types) but "
                 "got: %d vs. %d",
                 raggedKeys.size(), numRagged));
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkDefaults(*this, spec_, defaults));
    const OutputLayout layout(numSparse, numDense, numRagged);
    const bool single = serialized.rank() == 0;
    Parser parser(*this, spec_, single);
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, parser.setKeys(denseKeys, sparseKeys, raggedKeys));
    auto examples = stringElements(serialized);
    if (single) {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   parser.parse(examples[0], "", 0, defaults));
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   writeSingle(ctx, spec_, parser, layout));
      return;
    }
    const int64_t batch = serialized.numElements();
    for (int64_t e = 0; e < batch; ++e) {
      const std::string_view name = names.numElements() > 0
                                        ? stringElements(names)[e]
                                        : std::string_view("<unknown>");
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, parser.parse(examples[e], name, e, defaults));
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, writeBatch(ctx, spec_, parser, batch, defaults, layout));
  }

private:
  ParseSpec spec_;
};

/// ParseSingleExample(serialized scalar, dense_defaults; num_sparse,
/// sparse_keys, dense_keys, sparse_types, Tdense, dense_shapes).
class ParseSingleExampleKernel final : public OpKernel {
public:
  explicit ParseSingleExampleKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("sparse_keys", &sparseKeys_));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, ctx->getAttr("dense_keys", &denseKeys_));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("sparse_types", &spec_.sparseTypes));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 ctx->getAttr("Tdense", &spec_.denseTypes));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, ctx->getAttr("dense_shapes", &spec_.denseShapes));
    int64_t numSparse = static_cast<int64_t>(sparseKeys_.size());
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, getOptionalAttr(ctx, "num_sparse", &numSparse));
    if (sparseKeys_.size() != spec_.sparseTypes.size() ||
        numSparse != static_cast<int64_t>(sparseKeys_.size())) {
      ctx->ctxFailure(errorf("len(sparse_keys) != len(sparse_types)"));
      return;
    }
    if (denseKeys_.size() != spec_.denseTypes.size()) {
      ctx->ctxFailure(errorf("len(dense_keys) != len(dense_types)"));
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, finishSpec(*this, &spec_));
  }

  void compute(OpKernelContextInterface *ctx) override {
    const Tensor &serialized = ctx->input(0);
    std::vector<const Tensor *> defaults;
    for (int i = 1; i < ctx->numInputs(); ++i)
      defaults.push_back(&ctx->input(i));
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, serialized.rank() == 0 && serialized.dtype() == DType::String,
        errorf("Expected serialized to be a scalar, got shape: %s",
               serialized.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, checkDefaults(*this, spec_, defaults));
    std::vector<std::string_view> dense(denseKeys_.begin(), denseKeys_.end()),
        sparse(sparseKeys_.begin(), sparseKeys_.end());
    Parser parser(*this, spec_, /*single=*/true);
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, parser.setKeys(dense, sparse, {}));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, parser.parse(stringElements(serialized)[0], "", 0, defaults));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, writeSingle(ctx, spec_, parser,
                         OutputLayout(sparse.size(), dense.size(), 0)));
  }

private:
  ParseSpec spec_;
  std::vector<std::string> sparseKeys_, denseKeys_;
};

} // namespace

void registerExampleParsingKernels(KernelRegistry &registry) {
  registerKernel<OpId::kParseExample, ParseExampleKernel<false>>(registry);
  registerKernel<OpId::kParseExampleV2, ParseExampleKernel<true>>(registry);
  registerKernel<OpId::kParseSingleExample, ParseSingleExampleKernel>(registry);
}

} // namespace tfrt_fallback::rt

//===- ExampleParsingKernels.cpp - tf.(Sequence)Example parsing -*- C++ -*-===//
//
// ParseExample, ParseExampleV2 and ParseSingleExample, and the
// SequenceExample parsers ParseSequenceExample, ParseSequenceExampleV2 and
// ParseSingleSequenceExample (TF's FastParseSequenceExample; see the
// SequenceExample sections below), with TensorFlow's
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

#include "common/Checks.h"
#include "common/Registration.h"
#include "strings/ProtoWire.h"

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
/// byte; appends to `out`. `wholeFloats` (the SequenceExample parser's
/// ParseFloatFeature) refuses a packed float list whose length is no
/// multiple of 4; the Example parser drops the bytes left over.
bool parseList(std::string_view data, Kind kind, Values *out,
               bool wholeFloats = false) {
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
      if (wholeFloats && n % 4 != 0)
        return false;
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

//===----------------------------------------------------------------------===//
// SequenceExample wire format
//===----------------------------------------------------------------------===//
//
//   SequenceExample { Features context = 1; FeatureLists feature_lists = 2; }
//   FeatureLists    { map<string, FeatureList> feature_list = 1; }
//   FeatureList     { repeated Feature feature = 1; }
//
// as TF's FastParseSequenceExample reads it: unknown fields of
// SequenceExample are skipped, a map entry is its key then its value and
// nothing else, the last entry of a key wins, a Feature must hold a list of
// the configured kind.

/// TF's ExtractFeaturesFromSequenceExamples for one example: the entries of
/// its context and of its feature lists, in order.
bool parseSequenceExample(std::string_view serialized,
                          std::vector<FeatureEntry> *context,
                          std::vector<FeatureEntry> *lists) {
  Wire w(serialized);
  while (!w.atEnd()) {
    std::vector<FeatureEntry> *entries = nullptr;
    if (w.expect(kDelimited1))
      entries = context;
    else if (w.expect(kDelimited2))
      entries = lists;
    else if (!skipField(w))
      return false;
    if (!entries)
      continue;
    Wire map(std::string_view{});
    if (!w.delimited(&map))
      return false;
    while (!map.atEnd()) {
      Wire e(std::string_view{});
      uint32_t len = 0;
      FeatureEntry entry;
      if (!map.expect(kDelimited1) || !map.delimited(&e) ||
          !e.expect(kDelimited1) || !e.length(&len) ||
          !e.bytes(len, &entry.key) || !e.expect(kDelimited2) ||
          !e.length(&len) || !e.bytes(len, &entry.feature) || !e.atEnd())
        return false;
      entries->push_back(entry);
    }
  }
  return true;
}

/// TF's ParseFeature in a SequenceExample: the (non-empty) Feature must
/// hold a list of `kind`; appends its values. False for another kind or
/// malformed bytes.
bool parseTypedFeature(std::string_view feature, Kind kind, Values *out) {
  Kind actual;
  std::string_view list;
  if (!featureKind(feature, &actual, &list) || actual != kind)
    return false;
  return parseList(list, kind, out, /*wholeFloats=*/true);
}

enum class ListError { None, Malformed, WrongType };

/// The rows of a FeatureList: each row's values appended to `values`, its
/// end pushed to `rowEnds`. A row of 0 bytes is empty, one of 2 bytes must
/// be an empty list of `kind` (TF's SkipEmptyFeature), one of 1 byte is
/// malformed.
ListError parseFeatureList(std::string_view list, Kind kind, Values *values,
                           std::vector<size_t> *rowEnds) {
  Wire w(list);
  const uint8_t tag = kind == Kind::Bytes   ? kDelimited1
                      : kind == Kind::Float ? kDelimited2
                                            : kDelimited3;
  while (!w.atEnd()) {
    uint32_t n = 0;
    std::string_view feature;
    if (!w.expect(kDelimited1) || !w.length(&n) || !w.bytes(n, &feature))
      return ListError::Malformed;
    if (n > 2) {
      if (!parseTypedFeature(feature, kind, values))
        return ListError::WrongType;
    } else if (n == 2) {
      if (static_cast<uint8_t>(feature[0]) != tag || feature[1] != 0)
        return ListError::WrongType;
    } else if (n == 1) {
      return ListError::Malformed;
    }
    rowEnds->push_back(values->size(kind));
  }
  return ListError::None;
}

//===----------------------------------------------------------------------===//
// SequenceExample parsing
//===----------------------------------------------------------------------===//

/// The configuration of the context or of the feature lists.
struct GroupSpec {
  std::vector<DType> dense, sparse, ragged, splits;
  std::vector<PartialShape> shapes;
};

/// The keys of a group, in the order of its types.
struct GroupKeys {
  std::vector<std::string_view> dense, sparse, ragged;
};

/// First output of each kind of result; -1 where the op has none. Sparse
/// results are indices, values, shapes (n each); ragged ones values, (outer)
/// splits and, for feature lists, inner splits.
struct SequenceLayout {
  int contextSparse = 0, contextDense = 0, contextRagged = 0, listSparse = 0,
      listDense = 0, listLengths = -1, listRagged = 0;
};

enum class FeatureType { Dense, Sparse, Ragged };

/// One configured key of a group and what the examples hold for it.
struct SeqFeature {
  std::string_view key;
  Kind kind = Kind::Float;
  /// Dense until configured otherwise (TF's FeatureProtos default).
  FeatureType type = FeatureType::Dense;
  /// Per example: the last entry of the key, and whether there was one.
  std::vector<std::string_view> protos;
  std::vector<bool> present;
  /// Values of every example in order; per example the end of its values
  /// and (feature lists) of its rows; every row's end in `values`.
  Values values;
  std::vector<size_t> exampleEnd, exampleRowEnd, rowEnd;
  /// TF's FeatureProtos::length: the most values of one example (dense) or
  /// the total (sparse, ragged).
  size_t length = 0;
};

/// The parse of a batch of SequenceExamples (or of one, `batch` false):
/// TF's FastParseSequenceExample.
class SequenceParser {
public:
  SequenceParser(const OpKernel &op, bool batch, bool singleOp,
                 absl::Span<const std::string_view> names)
      : op_(op), batch_(batch), singleOp_(singleOp), names_(names) {}

  /// Maps the keys of both groups; a key configured as two kinds of one
  /// group fails as TF's.
  Status setKeys(const GroupSpec (&spec)[2], const GroupKeys (&keys)[2],
                 absl::Span<const Tensor *const> defaults) {
    for (int g = 0; g < 2; ++g) {
      const char *what = g == 0 ? "Context" : "Sequence";
      auto get = [&](std::string_view key) {
        auto [it, inserted] = index_[g].emplace(key, features_[g].size());
        if (inserted) {
          features_[g].emplace_back();
          features_[g].back().key = key;
        }
        return it->second;
      };
      for (size_t i = 0; i < keys[g].sparse.size(); ++i) {
        const size_t r = get(keys[g].sparse[i]);
        features_[g][r].type = FeatureType::Sparse;
        features_[g][r].kind = kindOf(spec[g].sparse[i]);
        sparse_[g].push_back(r);
      }
      for (size_t i = 0; i < keys[g].ragged.size(); ++i) {
        const size_t r = get(keys[g].ragged[i]);
        if (features_[g][r].type == FeatureType::Sparse)
          return op_.errorf("%s feature %s cannot be both ragged and sparse",
                            what, keys[g].ragged[i]);
        features_[g][r].type = FeatureType::Ragged;
        features_[g][r].kind = kindOf(spec[g].ragged[i]);
        ragged_[g].push_back(r);
      }
      for (size_t i = 0; i < keys[g].dense.size(); ++i) {
        const size_t r = get(keys[g].dense[i]);
        if (features_[g][r].type != FeatureType::Dense)
          return op_.errorf("%s feature %s cannot be both dense and sparse",
                            what, keys[g].dense[i]);
        features_[g][r].kind = kindOf(spec[g].dense[i]);
        features_[g][r].length = g == 0 ? defaults[i]->numElements() : 0;
        dense_[g].push_back(r);
      }
    }
    return OkStatus();
  }

  /// Finds every example's entries, then parses them.
  Status parse(absl::Span<const std::string_view> serialized) {
    const size_t n = serialized.size();
    numExamples_ = static_cast<int64_t>(n);
    for (int g = 0; g < 2; ++g)
      for (SeqFeature &f : features_[g]) {
        f.protos.resize(n);
        f.present.resize(n);
      }
    std::vector<FeatureEntry> entries[2];
    for (size_t e = 0; e < n; ++e) {
      entries[0].clear();
      entries[1].clear();
      if (!parseSequenceExample(serialized[e], &entries[0], &entries[1]))
        return op_.errorf("Invalid protocol message input, example id: %s",
                          name(e));
      for (int g = 0; g < 2; ++g)
        for (const FeatureEntry &entry : entries[g]) {
          auto it = index_[g].find(entry.key);
          if (it == index_[g].end())
            continue;
          features_[g][it->second].protos[e] = entry.feature;
          features_[g][it->second].present[e] = true;
        }
    }
    for (SeqFeature &f : features_[0])
      for (size_t e = 0; e < n; ++e) {
        const size_t before = f.values.size(f.kind);
        if (!f.protos[e].empty() &&
            !parseTypedFeature(f.protos[e], f.kind, &f.values))
          return op_.errorf("Name: %s, Context feature: %s.  Data types don't "
                            "match. Expected type: %s",
                            name(e), f.key, kindName(f.kind));
        const size_t count = f.values.size(f.kind) - before;
        f.length = f.type == FeatureType::Dense ? std::max(f.length, count)
                                                : f.length + count;
        f.exampleEnd.push_back(f.values.size(f.kind));
      }
    for (SeqFeature &f : features_[1])
      for (size_t e = 0; e < n; ++e) {
        const size_t before = f.values.size(f.kind), firstRow = f.rowEnd.size();
        switch (f.protos[e].empty() ? ListError::None
                                    : parseFeatureList(f.protos[e], f.kind,
                                                       &f.values, &f.rowEnd)) {
        case ListError::None:
          break;
        case ListError::Malformed:
          return op_.errorf("Error in sequence feature %s in example %s", f.key,
                            name(e));
        case ListError::WrongType:
          return op_.errorf("Name: %s, Feature list: %s, Index: %d.  Data "
                            "types don't match. Expected type: %s",
                            name(e), f.key, f.rowEnd.size() - firstRow,
                            kindName(f.kind));
        }
        const size_t count = f.values.size(f.kind) - before;
        f.length = f.type == FeatureType::Dense ? std::max(f.length, count)
                                                : f.length + count;
        f.exampleEnd.push_back(f.values.size(f.kind));
        f.exampleRowEnd.push_back(f.rowEnd.size());
      }
    return OkStatus();
  }

  /// Writes the outputs in TF's order (context dense, sparse, ragged, then
  /// the feature lists').
  Status write(OpKernelContextInterface *ctx, const GroupSpec (&spec)[2],
               const SequenceLayout &layout,
               absl::Span<const Tensor *const> defaults,
               const std::vector<bool> &missingAssumedEmpty) const {
    OutputWriter writer(ctx);
    if (Status s = writeContextDense(writer, spec[0], layout, defaults);
        !s.ok())
      return s;
    if (Status s = writeSparse(ctx, writer, 0, layout.contextSparse); !s.ok())
      return s;
    if (Status s = writeRagged(ctx, writer, 0, spec[0], layout.contextRagged);
        !s.ok())
      return s;
    if (Status s =
            writeListDense(ctx, writer, spec[1], layout, missingAssumedEmpty);
        !s.ok())
      return s;
    if (Status s = writeSparse(ctx, writer, 1, layout.listSparse); !s.ok())
      return s;
    return writeRagged(ctx, writer, 1, spec[1], layout.listRagged);
  }

private:
  std::string_view name(size_t e) const {
    return names_.empty() ? std::string_view("<unknown>") : names_[e];
  }
  /// Example e's values [begin, end) of `f`.
  static size_t beginOf(const std::vector<size_t> &ends, size_t e) {
    return e == 0 ? 0 : ends[e - 1];
  }
  /// Prefixes output dims with the batch dim.
  TensorShape::Dims batchDims() const {
    return batch_ ? TensorShape::Dims{numExamples_} : TensorShape::Dims{};
  }

  static Status emitSplits(OpKernelContextInterface *ctx, int index,
                           DType dtype, const TensorShape &shape,
                           const std::vector<int64_t> &values) {
    Tensor *out = nullptr;
    if (Status s = ctx->allocateOutput(index, shape, &out); !s.ok())
      return s;
    for (size_t k = 0; k < values.size(); ++k) {
      if (dtype == DType::I32)
        out->data<int32_t>()[k] = static_cast<int32_t>(values[k]);
      else
        out->data<int64_t>()[k] = values[k];
    }
    return OkStatus();
  }

  static void appendRange(Values &dst, const Values &src, Kind kind,
                          size_t begin, size_t end) {
    switch (kind) {
    case Kind::Bytes:
      dst.bytes.insert(dst.bytes.end(), src.bytes.begin() + begin,
                       src.bytes.begin() + end);
      break;
    case Kind::Float:
      dst.floats.insert(dst.floats.end(), src.floats.begin() + begin,
                        src.floats.begin() + end);
      break;
    default:
      dst.ints.insert(dst.ints.end(), src.ints.begin() + begin,
                      src.ints.begin() + end);
      break;
    }
  }

  Status writeContextDense(OutputWriter &writer, const GroupSpec &spec,
                           const SequenceLayout &layout,
                           absl::Span<const Tensor *const> defaults) const {
    for (size_t t = 0; t < dense_[0].size(); ++t) {
      const SeqFeature &f = features_[0][dense_[0][t]];
      const PartialShape &shape = spec.shapes[t];
      if (!shape.isFullyDefined())
        return op_.errorf("context_dense_shapes[%d] must be fully defined, "
                          "got %s",
                          t, shape.toString());
      StatusOr<TensorShape> one = TensorShape::create(shape.dims());
      if (!one.ok())
        return one.status();
      if (f.length != static_cast<size_t>(one->numElements()))
        return op_.errorf("Inconsistent max number of elements for feature "
                          "%s: expected %d, but found %d",
                          f.key, one->numElements(), f.length);
      const Kind kind = kindOf(spec.dense[t]);
      Values out;
      for (int64_t e = 0; e < numExamples_; ++e) {
        if (!f.present[e]) {
          const Tensor &def = *defaults[t];
          if (def.numElements() == 0) {
            if (singleOp_)
              return op_.errorf("Name: %s, Context feature '%s' is required "
                                "but could not be found.",
                                name(e), f.key);
            return op_.errorf("Feature: %s (data type: %s) is required but "
                              "could not be found.",
                              f.key, kindName(kind));
          }
          if (Status s = checkHostAllocation(out.size(kind) + def.numElements(),
                                             sizeof(int64_t));
              !s.ok())
            return s;
          switch (kind) {
          case Kind::Bytes: {
            auto v = stringElements(def);
            out.bytes.insert(out.bytes.end(), v.begin(), v.end());
            break;
          }
          case Kind::Float:
            out.floats.insert(out.floats.end(), def.data<float>(),
                              def.data<float>() + def.numElements());
            break;
          default:
            out.ints.insert(out.ints.end(), def.data<int64_t>(),
                            def.data<int64_t>() + def.numElements());
            break;
          }
          continue;
        }
        const size_t begin = beginOf(f.exampleEnd, e), end = f.exampleEnd[e];
        if (end - begin != f.length)
          return op_.errorf("Unexpected number of elements in example %s",
                            name(e));
        appendRange(out, f.values, kind, begin, end);
      }
      TensorShape::Dims dims = batchDims();
      dims.insert(dims.end(), shape.dims().begin(), shape.dims().end());
      StatusOr<TensorShape> outShape = TensorShape::create(dims);
      if (!outShape.ok())
        return outShape.status();
      if (Status s = writer.emit(layout.contextDense + static_cast<int>(t),
                                 kind, *outShape, out, nullptr, nullptr);
          !s.ok())
        return s;
    }
    return OkStatus();
  }

  /// Sparse results of group `g` from output `first`: context features
  /// index (example, value), feature lists (example, row, value); without
  /// the example for one example.
  Status writeSparse(OpKernelContextInterface *ctx, OutputWriter &writer, int g,
                     int first) const {
    const int num = static_cast<int>(sparse_[g].size());
    for (int t = 0; t < num; ++t) {
      const SeqFeature &f = features_[g][sparse_[g][t]];
      const int64_t total = static_cast<int64_t>(f.values.size(f.kind));
      const int64_t rank = (g == 0 ? 1 : 2) + (batch_ ? 1 : 0);
      std::vector<int64_t> indices;
      if (Status s = checkHostAllocation(total * rank, sizeof(int64_t));
          !s.ok())
        return s;
      indices.reserve(total * rank);
      int64_t maxRows = 0, maxCols = 0;
      for (int64_t e = 0; e < numExamples_; ++e) {
        if (f.protos[e].empty())
          continue;
        if (g == 0) {
          const int64_t count =
              static_cast<int64_t>(f.exampleEnd[e] - beginOf(f.exampleEnd, e));
          for (int64_t i = 0; i < count; ++i) {
            if (batch_)
              indices.push_back(e);
            indices.push_back(i);
          }
          maxCols = std::max(maxCols, count);
          continue;
        }
        const size_t firstRow = beginOf(f.exampleRowEnd, e);
        const int64_t rows =
            static_cast<int64_t>(f.exampleRowEnd[e] - firstRow);
        for (int64_t r = 0; r < rows; ++r) {
          const size_t begin =
              firstRow + r == 0 ? 0 : f.rowEnd[firstRow + r - 1];
          const int64_t count =
              static_cast<int64_t>(f.rowEnd[firstRow + r] - begin);
          for (int64_t i = 0; i < count; ++i) {
            if (batch_)
              indices.push_back(e);
            indices.push_back(r);
            indices.push_back(i);
          }
          maxCols = std::max(maxCols, count);
        }
        maxRows = std::max(maxRows, rows);
      }
      std::vector<int64_t> shape;
      if (batch_)
        shape.push_back(numExamples_);
      if (g == 1)
        shape.push_back(maxRows);
      shape.push_back(maxCols);
      if (Status s =
              writer.emitInts(first + t, TensorShape{total, rank}, indices);
          !s.ok())
        return s;
      if (Status s = writer.emit(first + num + t, f.kind, TensorShape{total},
                                 f.values, nullptr, nullptr);
          !s.ok())
        return s;
      if (Status s =
              writer.emitInts(first + 2 * num + t, TensorShape{rank}, shape);
          !s.ok())
        return s;
    }
    (void)ctx;
    return OkStatus();
  }

  /// Ragged results of group `g` from output `first`: values, row splits
  /// (feature lists: outer splits by example, then inner splits by row).
  /// One example has a scalar outer split.
  Status writeRagged(OpKernelContextInterface *ctx, OutputWriter &writer, int g,
                     const GroupSpec &spec, int first) const {
    const int num = static_cast<int>(ragged_[g].size());
    for (int t = 0; t < num; ++t) {
      const SeqFeature &f = features_[g][ragged_[g][t]];
      const int64_t total = static_cast<int64_t>(f.values.size(f.kind));
      if (Status s = writer.emit(first + t, f.kind, TensorShape{total},
                                 f.values, nullptr, nullptr);
          !s.ok())
        return s;
      const std::vector<size_t> &ends = g == 0 ? f.exampleEnd : f.exampleRowEnd;
      std::vector<int64_t> outer{0};
      for (size_t end : ends)
        outer.push_back(static_cast<int64_t>(end));
      if (!batch_)
        outer.resize(1);
      if (Status s = emitSplits(
              ctx, first + num + t, spec.splits[t],
              batch_ ? TensorShape{numExamples_ + 1} : TensorShape{}, outer);
          !s.ok())
        return s;
      if (g == 1) {
        std::vector<int64_t> inner{0};
        for (size_t end : f.rowEnd)
          inner.push_back(static_cast<int64_t>(end));
        if (Status s = emitSplits(
                ctx, first + 2 * num + t, spec.splits[t],
                TensorShape{static_cast<int64_t>(inner.size())}, inner);
            !s.ok())
          return s;
      }
    }
    return OkStatus();
  }

  Status writeListDense(OpKernelContextInterface *ctx, OutputWriter &writer,
                        const GroupSpec &spec, const SequenceLayout &layout,
                        const std::vector<bool> &missingAssumedEmpty) const {
    for (size_t t = 0; t < dense_[1].size(); ++t) {
      const SeqFeature &f = features_[1][dense_[1][t]];
      const PartialShape &shape = spec.shapes[t];
      if (!shape.isFullyDefined())
        return op_.errorf("feature_list_dense_shapes[%d] must be fully "
                          "defined, got %s",
                          t, shape.toString());
      StatusOr<TensorShape> row = TensorShape::create(shape.dims());
      if (!row.ok())
        return row.status();
      const int64_t rowElements = row->numElements();
      // TF divides by the row's elements.
      if (rowElements == 0)
        return op_.errorf("feature_list_dense_shapes[%d] has no elements: %s",
                          t, shape.toString());
      if (f.length % rowElements != 0) {
        TensorShape::Dims total{-1};
        total.insert(total.end(), shape.dims().begin(), shape.dims().end());
        return op_.errorf("Feature list '%s' has an unexpected number of "
                          "values.  Total values size: %d is not consistent "
                          "with output shape: %s",
                          f.key, f.length, PartialShape(total).toString());
      }
      const int64_t maxRows = static_cast<int64_t>(f.length) / rowElements;
      const Kind kind = kindOf(spec.dense[t]);
      TensorShape::Dims dims = batchDims();
      dims.push_back(maxRows);
      dims.insert(dims.end(), shape.dims().begin(), shape.dims().end());
      StatusOr<TensorShape> outShape = TensorShape::create(dims);
      if (!outShape.ok())
        return outShape.status();
      if (Status s =
              checkHostAllocation(outShape->numElements(), sizeof(int64_t));
          !s.ok())
        return s;
      std::vector<int64_t> source;
      source.reserve(outShape->numElements());
      std::vector<int64_t> lengths;
      for (int64_t e = 0; e < numExamples_; ++e) {
        if (!f.present[e] && !missingAssumedEmpty[t])
          return op_.errorf(
              "Name: %s, Feature list '%s' is required but could not be "
              "found.  Did you mean to include it in "
              "feature_list_dense_missing_assumed_empty or "
              "feature_list_dense_defaults?",
              name(e), f.key);
        const size_t firstRow = beginOf(f.exampleRowEnd, e);
        const size_t rows = f.exampleRowEnd[e] - firstRow;
        for (size_t r = 0; r < rows; ++r) {
          const size_t begin =
              firstRow + r == 0 ? 0 : f.rowEnd[firstRow + r - 1];
          const size_t count = f.rowEnd[firstRow + r] - begin;
          if (count != static_cast<size_t>(rowElements))
            return op_.errorf("Name: %s, Key: %s, Index: %d.  Number of "
                              "values != expected.  values size: %d but "
                              "output shape: %s",
                              name(e), f.key, r, count, row->toString());
        }
        const size_t begin = beginOf(f.exampleEnd, e);
        const size_t count = f.exampleEnd[e] - begin;
        for (size_t i = 0; i < count; ++i)
          source.push_back(static_cast<int64_t>(begin + i));
        for (size_t i = count; i < f.length; ++i)
          source.push_back(-1);
        lengths.push_back(static_cast<int64_t>(rows));
      }
      // Rows are padded with zeros (empty strings), not a default.
      StatusOr<Tensor> zero =
          kind == Kind::Bytes ? makeStringTensor(TensorShape{}, {""})
          : kind == Kind::Float
              ? Tensor::fromValues<float>(TensorShape{}, {0.0f})
              : Tensor::fromValues<int64_t>(TensorShape{}, {0});
      if (!zero.ok())
        return zero.status();
      if (Status s = writer.emit(layout.listDense + static_cast<int>(t), kind,
                                 *outShape, f.values, source.data(), &*zero);
          !s.ok())
        return s;
      if (layout.listLengths >= 0)
        if (Status s = writer.emitInts(
                layout.listLengths + static_cast<int>(t),
                batch_ ? TensorShape{numExamples_} : TensorShape{}, lengths);
            !s.ok())
          return s;
    }
    (void)ctx;
    return OkStatus();
  }

  const OpKernel &op_;
  bool batch_, singleOp_;
  absl::Span<const std::string_view> names_;
  int64_t numExamples_ = 0;
  std::vector<SeqFeature> features_[2];
  std::unordered_map<std::string_view, size_t> index_[2];
  /// Per configured key of each group, its feature.
  std::vector<size_t> dense_[2], sparse_[2], ragged_[2];
};

/// TF's ParseSequenceExampleAttrs::FinishInit checks common to both
/// versions.
Status checkSequenceSpec(const OpKernel &op, const GroupSpec (&spec)[2],
                         int64_t numContextSparse, int64_t numContextDense,
                         int64_t numListSparse, int64_t numListDense) {
  const GroupSpec &c = spec[0], &l = spec[1];
  if (numContextSparse != static_cast<int64_t>(c.sparse.size()))
    return op.errorf("num_context_sparse (%d) must match the size of "
                     "context_sparse_types (%d)",
                     numContextSparse, c.sparse.size());
  if (numContextDense != static_cast<int64_t>(c.dense.size()) ||
      numContextDense != static_cast<int64_t>(c.shapes.size()))
    return op.errorf("num_context_dense (%d) must match the size of "
                     "context_dense_types (%d) and context_dense_shapes (%d)",
                     numContextDense, c.dense.size(), c.shapes.size());
  if (c.ragged.size() != c.splits.size())
    return op.errorf("num_context_ragged (%d) must match the size of "
                     "context_ragged_value_types (%d) and "
                     "context_ragged_split_types (%d)",
                     c.ragged.size(), c.ragged.size(), c.splits.size());
  if (numListSparse != static_cast<int64_t>(l.sparse.size()))
    return op.errorf("num_feature_list_sparse (%d) must match the size of "
                     "feature_list_sparse_types (%d)",
                     numListSparse, l.sparse.size());
  if (numListDense != static_cast<int64_t>(l.dense.size()) ||
      numListDense != static_cast<int64_t>(l.shapes.size()))
    return op.errorf("num_feature_list_dense (%d) must match the size of "
                     "feature_list_dense_types (%d) and "
                     "feature_list_dense_shapes (%d)",
                     numListDense, l.dense.size(), l.shapes.size());
  if (l.ragged.size() != l.splits.size())
    return op.errorf("num_feature_list_ragged (%d) must match the size of "
                     "feature_list_ragged_value_types (%d) and "
                     "feature_list_ragged_split_types (%d)",
                     l.ragged.size(), l.ragged.size(), l.splits.size());
  for (const GroupSpec *g : {&c, &l})
    for (const std::vector<DType> *types : {&g->dense, &g->sparse, &g->ragged})
      for (DType t : *types)
        if (Status s = checkValidType(op, t); !s.ok())
          return s;
  for (DType t : c.splits)
    if (t != DType::I32 && t != DType::I64)
      return op.errorf("Invalid context_ragged_split_type: %s", dtypeName(t));
  for (DType t : l.splits)
    if (t != DType::I32 && t != DType::I64)
      return op.errorf("Invalid feature_list_ragged_split_type: %s",
                       dtypeName(t));
  return OkStatus();
}

/// TF's checks of context_dense_defaults: one per dense key; a non-empty
/// default has the dense shape and type. `suffix` is "_" for
/// ParseSingleSequenceExample's messages.
Status checkSequenceDefaults(const OpKernel &op, const GroupSpec &context,
                             absl::Span<const Tensor *const> defaults,
                             bool single) {
  if (defaults.size() != context.dense.size())
    return op.errorf("Expected len(context_dense_defaults) == "
                     "len(context_dense_keys) but got: %d vs. %d",
                     defaults.size(), context.dense.size());
  for (size_t d = 0; d < defaults.size(); ++d) {
    const Tensor &def = *defaults[d];
    if (def.numElements() == 0)
      continue;
    if (def.shape().toString() != context.shapes[d].toString())
      return op.errorf("%s[%d].shape() == %s != context_dense_shapes%s[%d] "
                       "== %s",
                       single ? "def_value" : "default_value", d,
                       def.shape().toString(), single ? "_" : "", d,
                       context.shapes[d].toString());
    if (def.dtype() != context.dense[d])
      return op.errorf("context_dense_defaults[%d].dtype() == %s != "
                       "context_dense_types%s[%d] == %s",
                       d, dtypeName(def.dtype()), single ? "_" : "", d,
                       dtypeName(context.dense[d]));
  }
  return OkStatus();
}

/// Parses `serialized` (a scalar or vector) and writes the outputs.
void runSequenceParse(OpKernelContextInterface *ctx, const OpKernel &op,
                      const GroupSpec (&spec)[2], const GroupKeys (&keys)[2],
                      const Tensor &serialized, const Tensor &names,
                      absl::Span<const Tensor *const> defaults,
                      const std::vector<bool> &missingAssumedEmpty,
                      const SequenceLayout &layout, bool singleOp) {
  auto examples = stringElements(serialized);
  std::vector<std::string_view> nameViews;
  if (names.dtype() == DType::String) {
    auto n = stringElements(names);
    nameViews.assign(n.begin(), n.end());
  }
  TFRT_FALLBACK_OP_REQUIRES(
      ctx, nameViews.empty() || nameViews.size() == examples.size(),
      op.errorf("example_names must be empty or have the correct number of "
                "elements"));
  SequenceParser parser(op, serialized.rank() == 1, singleOp, nameViews);
  TFRT_FALLBACK_OP_REQUIRES_OK(ctx, parser.setKeys(spec, keys, defaults));
  TFRT_FALLBACK_OP_REQUIRES_OK(ctx, parser.parse(examples));
  TFRT_FALLBACK_OP_REQUIRES_OK(
      ctx, parser.write(ctx, spec, layout, defaults, missingAssumedEmpty));
}

/// ParseSequenceExample (V1: keys and feature_list_dense_missing_assumed_
/// empty are attributes) and ParseSequenceExampleV2 (keys are string
/// tensors, missing_assumed_empty a bool per feature-list dense key, ragged
/// features). `serialized` is a vector or, as a single example, a scalar.
template <bool V2> class ParseSequenceExampleKernel final : public OpKernel {
public:
  explicit ParseSequenceExampleKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    GroupSpec &c = spec_[0], &l = spec_[1];
    int64_t numContextSparse = 0, numContextDense = 0, numListSparse = 0,
            numListDense = 0;
    auto opt = [&](const char *name, auto *value) {
      return getOptionalAttr(ctx, name, value);
    };
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("Ncontext_sparse", &numContextSparse));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("Nfeature_list_sparse", &numListSparse));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("Nfeature_list_dense", &numListDense));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("context_sparse_types", &c.sparse));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("Tcontext_dense", &c.dense));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("context_dense_shapes", &c.shapes));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("feature_list_sparse_types", &l.sparse));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("feature_list_dense_types", &l.dense));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("feature_list_dense_shapes", &l.shapes));
    if constexpr (V2) {
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, opt("context_ragged_value_types", &c.ragged));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, opt("context_ragged_split_types", &c.splits));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, opt("feature_list_ragged_value_types", &l.ragged));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, opt("feature_list_ragged_split_types", &l.splits));
      numContextDense = static_cast<int64_t>(c.dense.size());
    } else {
      TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                   opt("Ncontext_dense", &numContextDense));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx,
          ctx->getAttr("feature_list_dense_missing_assumed_empty", &missing_));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("context_sparse_keys", &keyAttrs_[0]));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("context_dense_keys", &keyAttrs_[1]));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("feature_list_sparse_keys", &keyAttrs_[2]));
      TFRT_FALLBACK_OP_REQUIRES_OK(
          ctx, ctx->getAttr("feature_list_dense_keys", &keyAttrs_[3]));
      const int64_t counts[] = {numContextSparse, numContextDense,
                                numListSparse, numListDense};
      const char *names[] = {"context_sparse", "context_dense",
                             "feature_list_sparse", "feature_list_dense"};
      for (int k = 0; k < 4; ++k)
        if (counts[k] != static_cast<int64_t>(keyAttrs_[k].size())) {
          ctx->ctxFailure(errorf("num_%s (%d) must match the size of %s_keys "
                                 "(%d)",
                                 names[k], counts[k], names[k],
                                 keyAttrs_[k].size()));
          return;
        }
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkSequenceSpec(*this, spec_, numContextSparse, numContextDense,
                               numListSparse, numListDense));
    layout_.contextSparse = 0;
    layout_.contextDense = 3 * static_cast<int>(c.sparse.size());
    layout_.contextRagged =
        layout_.contextDense + static_cast<int>(c.dense.size());
    layout_.listSparse =
        layout_.contextRagged + 2 * static_cast<int>(c.ragged.size());
    layout_.listDense =
        layout_.listSparse + 3 * static_cast<int>(l.sparse.size());
    layout_.listLengths = layout_.listDense + static_cast<int>(l.dense.size());
    layout_.listRagged = layout_.listLengths + static_cast<int>(l.dense.size());
  }

  void compute(OpKernelContextInterface *ctx) override {
    const GroupSpec &c = spec_[0], &l = spec_[1];
    const int first = V2 ? 9 : 2;
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, ctx->numInputs() == first + static_cast<int>(c.dense.size()),
        errorf("expected %d inputs, got %d", first + c.dense.size(),
               ctx->numInputs()));
    const Tensor &serialized = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, serialized.dtype() == DType::String && serialized.rank() <= 1,
        errorf("Expected serialized to be a scalar or vector, got shape: %s",
               serialized.shape().toString()));
    GroupKeys keys[2];
    std::vector<bool> missing;
    if constexpr (V2) {
      std::vector<std::string_view> *targets[] = {
          &keys[0].sparse, &keys[0].dense, &keys[0].ragged,
          &keys[1].sparse, &keys[1].dense, &keys[1].ragged};
      const char *names[] = {
          "context_sparse_keys",     "context_dense_keys",
          "context_ragged_keys",     "feature_list_sparse_keys",
          "feature_list_dense_keys", "feature_list_ragged_keys"};
      for (int k = 0; k < 6; ++k)
        TFRT_FALLBACK_OP_REQUIRES_OK(
            ctx, keysOf(*this, ctx->input(2 + k), names[k], targets[k]));
      const Tensor &assumed = ctx->input(8);
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, assumed.dtype() == DType::Bool,
          errorf("feature_list_dense_missing_assumed_empty must be bool"));
      const size_t expected[] = {c.sparse.size(), c.dense.size(),
                                 c.ragged.size(), l.sparse.size(),
                                 l.dense.size(),  l.ragged.size()};
      const char *messages[] = {
          "Expected len(context_sparse_keys) to match Ncontext_sparse",
          "Expected len(context_dense_keys) to match len(Tcontext_dense)",
          "Expected len(context_ragged_keys) to match "
          "len(context_ragged_value_types)",
          "Expected len(feature_list_sparse_keys) to match "
          "Nfeature_list_sparse",
          "Expected len(feature_list_dense_keys) to match "
          "Nfeature_list_dense",
          "Expected len(feature_list_ragged_keys) to match "
          "len(feature_list_ragged_value_types)"};
      // TF's order of checks: context dense, sparse, ragged, then the
      // feature lists' dense, missing_assumed_empty, sparse, ragged.
      for (int k : {1, 0, 2, 4})
        TFRT_FALLBACK_OP_REQUIRES(ctx, targets[k]->size() == expected[k],
                                  errorf("%s", messages[k]));
      TFRT_FALLBACK_OP_REQUIRES(
          ctx, assumed.numElements() == static_cast<int64_t>(l.dense.size()),
          errorf("Expected len(feature_list_dense_missing_assumed_empty to "
                 "match Nfeature_list_dense"));
      for (int k : {3, 5})
        TFRT_FALLBACK_OP_REQUIRES(ctx, targets[k]->size() == expected[k],
                                  errorf("%s", messages[k]));
      for (int64_t i = 0; i < assumed.numElements(); ++i)
        missing.push_back(assumed.data<bool>()[i]);
    } else {
      keys[0].sparse.assign(keyAttrs_[0].begin(), keyAttrs_[0].end());
      keys[0].dense.assign(keyAttrs_[1].begin(), keyAttrs_[1].end());
      keys[1].sparse.assign(keyAttrs_[2].begin(), keyAttrs_[2].end());
      keys[1].dense.assign(keyAttrs_[3].begin(), keyAttrs_[3].end());
      for (const std::string &key : keyAttrs_[3])
        missing.push_back(std::find(missing_.begin(), missing_.end(), key) !=
                          missing_.end());
    }
    std::vector<const Tensor *> defaults;
    for (int i = first; i < ctx->numInputs(); ++i)
      defaults.push_back(&ctx->input(i));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkSequenceDefaults(*this, c, defaults, /*single=*/false));
    runSequenceParse(ctx, *this, spec_, keys, serialized, ctx->input(1),
                     defaults, missing, layout_, /*singleOp=*/false);
  }

private:
  GroupSpec spec_[2];
  SequenceLayout layout_;
  /// V1: context sparse, dense, feature list sparse, dense keys.
  std::vector<std::string> keyAttrs_[4];
  std::vector<std::string> missing_;
};

/// ParseSingleSequenceExample(serialized scalar,
/// feature_list_dense_missing_assumed_empty, one scalar input per key,
/// context_dense_defaults, debug_name): one SequenceExample, keys as
/// inputs, no ragged features and no feature-list lengths.
class ParseSingleSequenceExampleKernel final : public OpKernel {
public:
  explicit ParseSingleSequenceExampleKernel(OpKernelConstructionInterface *ctx)
      : OpKernel(ctx) {
    GroupSpec &c = spec_[0], &l = spec_[1];
    auto opt = [&](const char *name, auto *value) {
      return getOptionalAttr(ctx, name, value);
    };
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("Ncontext_sparse", &counts_[0]));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("Ncontext_dense", &counts_[1]));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("Nfeature_list_sparse", &counts_[2]));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("Nfeature_list_dense", &counts_[3]));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("context_sparse_types", &c.sparse));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("Tcontext_dense", &c.dense));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx, opt("context_dense_shapes", &c.shapes));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("feature_list_sparse_types", &l.sparse));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("feature_list_dense_types", &l.dense));
    TFRT_FALLBACK_OP_REQUIRES_OK(ctx,
                                 opt("feature_list_dense_shapes", &l.shapes));
    // TF's ParseSingleSequenceExampleAttrs::FinishInit.
    const char *message =
        counts_[0] != static_cast<int64_t>(c.sparse.size())
            ? "len(context_sparse_keys) != len(context_sparse_types)"
        : counts_[1] != static_cast<int64_t>(c.dense.size())
            ? "len(context_dense_keys) != len(context_dense_types)"
        : counts_[1] != static_cast<int64_t>(c.shapes.size())
            ? "len(context_dense_keys) != len(context_dense_shapes)"
        : counts_[2] != static_cast<int64_t>(l.sparse.size())
            ? "len(feature_list_sparse_keys) != len(feature_list_sparse_types)"
        : counts_[3] != static_cast<int64_t>(l.dense.size())
            ? "len(feature_list_dense_keys) != len(feature_list_dense_types)"
        : counts_[3] != static_cast<int64_t>(l.shapes.size())
            ? "len(feature_list_dense_keys) != len(feature_list_dense_shapes)"
            : nullptr;
    if (message) {
      ctx->ctxFailure(errorf("%s", message));
      return;
    }
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkSequenceSpec(*this, spec_, counts_[0], counts_[1], counts_[2],
                               counts_[3]));
    layout_.contextSparse = 0;
    layout_.contextDense = 3 * static_cast<int>(c.sparse.size());
    layout_.contextRagged =
        layout_.contextDense + static_cast<int>(c.dense.size());
    layout_.listSparse = layout_.contextRagged;
    layout_.listDense =
        layout_.listSparse + 3 * static_cast<int>(l.sparse.size());
    layout_.listLengths = -1;
    layout_.listRagged = layout_.listDense + static_cast<int>(l.dense.size());
  }

  void compute(OpKernelContextInterface *ctx) override {
    const int64_t numKeys = counts_[0] + counts_[1] + counts_[2] + counts_[3];
    TFRT_FALLBACK_OP_REQUIRES(ctx, ctx->numInputs() == 3 + numKeys + counts_[1],
                              errorf("expected %d inputs, got %d",
                                     3 + numKeys + counts_[1],
                                     ctx->numInputs()));
    GroupKeys keys[2];
    std::vector<std::string_view> *targets[] = {
        &keys[0].sparse, &keys[0].dense, &keys[1].sparse, &keys[1].dense};
    const char *names[] = {"context_sparse_keys", "context_dense_keys",
                           "feature_list_sparse_keys",
                           "feature_list_dense_keys"};
    // TF checks the dense keys first.
    int next = 2;
    std::vector<const Tensor *> keyInputs[4];
    for (int k = 0; k < 4; ++k)
      for (int64_t i = 0; i < counts_[k]; ++i)
        keyInputs[k].push_back(&ctx->input(next++));
    for (int k : {1, 0, 3, 2})
      for (size_t i = 0; i < keyInputs[k].size(); ++i) {
        const Tensor &key = *keyInputs[k][i];
        TFRT_FALLBACK_OP_REQUIRES(
            ctx, key.rank() == 0 && key.dtype() == DType::String,
            errorf("Expected %s[%d] to be a scalar, got shape: %s", names[k], i,
                   key.shape().toString()));
        targets[k]->push_back(stringElements(key)[0]);
      }
    const Tensor &assumed = ctx->input(1);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, assumed.rank() == 1 && assumed.dtype() == DType::String,
        errorf("Expected feature_list_dense_missing_assumed_empty to be a "
               "vector, got shape: %s",
               assumed.shape().toString()));
    auto assumedKeys = stringElements(assumed);
    std::vector<bool> missing;
    for (std::string_view key : keys[1].dense)
      missing.push_back(std::find(assumedKeys.begin(), assumedKeys.end(),
                                  key) != assumedKeys.end());
    std::vector<const Tensor *> defaults;
    for (int64_t d = 0; d < counts_[1]; ++d)
      defaults.push_back(&ctx->input(next++));
    const Tensor &debugName = ctx->input(next);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx,
        debugName.numElements() == 0 ||
            (debugName.rank() == 0 && debugName.dtype() == DType::String),
        errorf("Expected debug_name to be a scalar, got shape: %s",
               debugName.shape().toString()));
    const Tensor &serialized = ctx->input(0);
    TFRT_FALLBACK_OP_REQUIRES(
        ctx, serialized.rank() == 0 && serialized.dtype() == DType::String,
        errorf("Expected serialized to be a scalar, got shape: %s",
               serialized.shape().toString()));
    TFRT_FALLBACK_OP_REQUIRES_OK(
        ctx, checkSequenceDefaults(*this, spec_[0], defaults, /*single=*/true));
    runSequenceParse(ctx, *this, spec_, keys, serialized, debugName, defaults,
                     missing, layout_, /*singleOp=*/true);
  }

private:
  GroupSpec spec_[2];
  SequenceLayout layout_;
  /// Ncontext_sparse, Ncontext_dense, Nfeature_list_sparse,
  /// Nfeature_list_dense.
  int64_t counts_[4] = {0, 0, 0, 0};
};

} // namespace

void registerExampleParsingKernels(KernelRegistry &registry) {
  registerKernel<OpId::kParseExample, ParseExampleKernel<false>>(registry);
  registerKernel<OpId::kParseExampleV2, ParseExampleKernel<true>>(registry);
  registerKernel<OpId::kParseSingleExample, ParseSingleExampleKernel>(registry);
  registerKernel<OpId::kParseSequenceExample,
                 ParseSequenceExampleKernel<false>>(registry);
  registerKernel<OpId::kParseSequenceExampleV2,
                 ParseSequenceExampleKernel<true>>(registry);
  registerKernel<OpId::kParseSingleSequenceExample,
                 ParseSingleSequenceExampleKernel>(registry);
}

} // namespace tfrt_fallback::rt

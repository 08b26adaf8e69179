//===- TFTypes.cpp - TensorFlow's tf_type types and attributes --*- C++ -*-===//
//
// Registers the `tf_type` dialect and parses and prints its types and
// attributes in TensorFlow's syntax; maps dtypes to MLIR element types by the
// spellings in DTypes.def; decodes `#tf_type<tensor_proto ...>` constants.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/TF/TFTypes.h"

#include "tfrt_fallback/Runtime/DType.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cstring>

using namespace mlir;
using namespace tfrt_fallback::tf;

#include "tfrt_fallback/Dialect/TF/TFTypeDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tfrt_fallback/Dialect/TF/TFTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tfrt_fallback/Dialect/TF/TFAttrs.cpp.inc"

void TFTypeDialect::initialize() {
  registerTypes();
  registerAttributes();
}

void TFTypeDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfrt_fallback/Dialect/TF/TFTypes.cpp.inc"
      >();
}

void TFTypeDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tfrt_fallback/Dialect/TF/TFAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

namespace {
struct QuantizedSpelling {
  llvm::StringLiteral name;
  int dataType;
  llvm::StringLiteral storage;
};
constexpr QuantizedSpelling kQuantizedTypes[] = {
#define TF_QUANTIZED_TYPE(Name, DataType, Storage) {Name, DataType, Storage},
#include "tfrt_fallback/Dialect/TF/TFTypes.def"
};

struct RefSpelling {
  llvm::StringLiteral name;
  llvm::StringLiteral referent;
};
constexpr RefSpelling kRefTypes[] = {
#define TF_REF_TYPE(Name, Referent) {Name, Referent},
#include "tfrt_fallback/Dialect/TF/TFTypes.def"
};

const QuantizedSpelling *findQuantized(StringRef name) {
  for (const QuantizedSpelling &entry : kQuantizedTypes)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

const RefSpelling *findRef(StringRef name) {
  for (const RefSpelling &entry : kRefTypes)
    if (entry.name == name)
      return &entry;
  return nullptr;
}
} // namespace

Type TFTypeDialect::parseType(DialectAsmParser &parser) const {
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Type type;
  OptionalParseResult parsed = generatedTypeParser(parser, &mnemonic, type);
  if (parsed.has_value())
    return succeeded(*parsed) ? type : Type();
  if (findQuantized(mnemonic))
    return QuantizedType::get(getContext(), mnemonic);
  if (findRef(mnemonic))
    return RefType::get(getContext(), mnemonic);
  parser.emitError(loc, "unknown tf_type type '") << mnemonic << "'";
  return {};
}

void TFTypeDialect::printType(Type type, DialectAsmPrinter &printer) const {
  if (succeeded(generatedTypePrinter(type, printer)))
    return;
  if (auto quantized = dyn_cast<QuantizedType>(type))
    printer << quantized.getName();
  else if (auto ref = dyn_cast<RefType>(type))
    printer << ref.getName();
}

LogicalResult
QuantizedType::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                      StringRef name) {
  if (!findQuantized(name))
    return emitError() << "'" << name << "' is not a TensorFlow quantized type";
  return success();
}

Type QuantizedType::getStorageType() const {
  return parseType(findQuantized(getName())->storage, getContext());
}

int QuantizedType::getDataType() const {
  return findQuantized(getName())->dataType;
}

LogicalResult
RefType::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                StringRef name) {
  if (!findRef(name))
    return emitError() << "'" << name << "' is not a TensorFlow reference type";
  return success();
}

Type RefType::getReferentType() const {
  return parseType(findRef(getName())->referent, getContext());
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

/// `#tf_type.func<@name, {attrs}>`, or `<"", {attrs}>` for no function.
Attribute FuncAttr::parse(AsmParser &parser, Type) {
  Attribute name;
  DictionaryAttr attrs;
  SMLoc loc;
  if (parser.parseLess())
    return {};
  loc = parser.getCurrentLocation();
  if (parser.parseAttribute(name))
    return {};
  if (auto string = dyn_cast<StringAttr>(name)) {
    if (!string.getValue().empty()) {
      parser.emitError(loc, "expects a symbol or \"\" as the function of "
                            "#tf_type.func");
      return {};
    }
    name = SymbolRefAttr::get(parser.getContext(), "");
  }
  if (!isa<SymbolRefAttr>(name)) {
    parser.emitError(loc, "expects a symbol or \"\" as the function of "
                          "#tf_type.func");
    return {};
  }
  if (parser.parseComma() || parser.parseAttribute(attrs) ||
      parser.parseGreater())
    return {};
  return FuncAttr::get(parser.getContext(), cast<SymbolRefAttr>(name), attrs);
}

void FuncAttr::print(AsmPrinter &printer) const {
  printer << '<';
  if (getName().getRootReference().getValue().empty())
    printer << "\"\"";
  else
    printer.printAttribute(getName());
  printer << ", ";
  printer.printAttribute(getAttrs());
  printer << '>';
}

/// `#tf_type<tensor_proto : "0x...">`, followed by its type.
Attribute TensorProtoAttr::parse(AsmParser &parser, Type type) {
  SMLoc loc = parser.getCurrentLocation();
  std::string hex;
  if (parser.parseColon() || parser.parseString(&hex))
    return {};
  StringRef digits(hex);
  std::string bytes;
  if (!digits.consume_front("0x") || digits.size() % 2 != 0 ||
      !llvm::tryGetFromHex(digits, bytes)) {
    parser.emitError(loc, "expects a TensorProto as a string of hexadecimal "
                          "digits starting with 0x");
    return {};
  }
  auto shaped = dyn_cast_or_null<ShapedType>(type);
  if (!shaped) {
    parser.emitError(loc, "expects a tensor type after "
                          "#tf_type<tensor_proto ...>, as in `: tensor<f32>`");
    return {};
  }
  return TensorProtoAttr::get(parser.getContext(), shaped, bytes);
}

void TensorProtoAttr::print(AsmPrinter &printer) const {
  printer << " : \"0x" << llvm::toHex(getValue()) << '"';
}

Attribute ShapeAttr::parse(AsmParser &parser, Type) {
  bool ranked;
  SmallVector<int64_t> dims;
  if (failed(tfrt_fallback::parseShapeBody(parser, ranked, dims)))
    return {};
  return ShapeAttr::get(parser.getContext(), ranked, dims);
}

void ShapeAttr::print(AsmPrinter &printer) const {
  tfrt_fallback::printShapeBody(printer, getRanked(), getDims());
}

//===----------------------------------------------------------------------===//
// TensorFlow dtypes as MLIR element types
//===----------------------------------------------------------------------===//

namespace {
/// A dtype's TensorFlow DataType number (its rt::DType value) and the
/// spelling of its MLIR element type.
struct DTypeSpelling {
  int dataType;
  llvm::StringLiteral spelling;
};
constexpr DTypeSpelling kDTypeSpellings[] = {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  {DataType, Name},
#define TFRT_FALLBACK_DTYPE_OPT_IN(Enum, DataType, TFName, PyName, Name,       \
                                   CppType, Npy, Mlir)                         \
  {DataType, Mlir},
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, PyName, Name,    \
                                      Mlir)                                    \
  {DataType, Mlir},
#include "tfrt_fallback/Runtime/DTypes.def"
};
} // namespace

Type tfrt_fallback::tf::getElementType(rt::DType dtype, MLIRContext *context) {
  for (const DTypeSpelling &entry : kDTypeSpellings) {
    if (entry.dataType != static_cast<int>(dtype))
      continue;
    // A dialect type (`!tf_type.string`) parses only with its dialect loaded.
    if (entry.spelling.starts_with("!"))
      context->getOrLoadDialect<TFTypeDialect>();
    return parseType(entry.spelling, context);
  }
  return {};
}

std::optional<tfrt_fallback::rt::DType> tfrt_fallback::tf::getDType(Type type) {
  if (!type)
    return std::nullopt;
  // A variant of any subtypes (`!tf_type.variant<tensor<*xf32>>`) is one.
  if (isa<VariantType>(type))
    return rt::DType::Variant;
  // Likewise a resource of any subtypes (`!tf_type.resource<tensor<f32>>`).
  if (isa<ResourceType>(type))
    return rt::DType::Resource;
  std::string spelling;
  llvm::raw_string_ostream(spelling) << type;
  for (const DTypeSpelling &entry : kDTypeSpellings)
    if (entry.spelling == spelling)
      return static_cast<rt::DType>(entry.dataType);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// TensorProto decoding
//===----------------------------------------------------------------------===//

namespace {
/// Reads protobuf's wire format (varints, fixed-size and length-delimited
/// fields); enough for TensorProto and TensorShapeProto.
class WireReader {
public:
  explicit WireReader(StringRef bytes) : rest(bytes) {}

  bool done() const { return rest.empty(); }

  /// Reads a field key; false at a malformed one.
  bool key(uint32_t &field, uint32_t &wireType) {
    uint64_t value;
    if (!varint(value) || (value >> 3) == 0 || (value >> 3) > UINT32_MAX)
      return false;
    field = static_cast<uint32_t>(value >> 3);
    wireType = value & 7;
    return true;
  }

  bool varint(uint64_t &value) {
    value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
      if (rest.empty())
        return false;
      uint8_t byte = rest.front();
      rest = rest.drop_front();
      value |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80))
        return true;
    }
    return false;
  }

  bool fixed(size_t size, uint64_t &value) {
    if (rest.size() < size)
      return false;
    value = 0;
    std::memcpy(&value, rest.data(), size);
    rest = rest.drop_front(size);
    return true;
  }

  bool bytes(StringRef &value) {
    uint64_t size;
    if (!varint(size) || size > rest.size())
      return false;
    value = rest.take_front(size);
    rest = rest.drop_front(size);
    return true;
  }

  /// Skips a field of `wireType`.
  bool skip(uint32_t wireType) {
    uint64_t ignored;
    StringRef ignoredBytes;
    switch (wireType) {
    case 0:
      return varint(ignored);
    case 1:
      return fixed(8, ignored);
    case 2:
      return bytes(ignoredBytes);
    case 5:
      return fixed(4, ignored);
    default:
      return false;
    }
  }

private:
  StringRef rest;
};

/// The parts of a TensorProto the decoder uses.
struct TensorProtoFields {
  int dtype = 0;
  bool unknownRank = false;
  SmallVector<int64_t> dims;
  std::optional<StringRef> content;
  /// The values of the one typed repeated field present (as raw 64-bit
  /// patterns), and its field number.
  uint32_t valueField = 0;
  SmallVector<uint64_t> values;
  SmallVector<StringRef> strings;
};

/// TensorProto's typed value fields: their number and wire encoding.
enum class ValueEncoding { Varint, Fixed32, Fixed64 };
std::optional<ValueEncoding> getValueEncoding(uint32_t field) {
  switch (field) {
  case 5: // float_val
    return ValueEncoding::Fixed32;
  case 6: // double_val
    return ValueEncoding::Fixed64;
  case 7:  // int_val
  case 10: // int64_val
  case 11: // bool_val
  case 13: // half_val (bits of f16 and bf16)
  case 16: // uint32_val
  case 17: // uint64_val
    return ValueEncoding::Varint;
  default:
    return std::nullopt;
  }
}

bool readValue(WireReader &reader, ValueEncoding encoding, uint64_t &value) {
  switch (encoding) {
  case ValueEncoding::Varint:
    return reader.varint(value);
  case ValueEncoding::Fixed32:
    return reader.fixed(4, value);
  case ValueEncoding::Fixed64:
    return reader.fixed(8, value);
  }
  return false;
}

std::string parseShape(StringRef bytes, TensorProtoFields &fields) {
  WireReader reader(bytes);
  while (!reader.done()) {
    uint32_t field, wireType;
    if (!reader.key(field, wireType))
      return "a malformed tensor_shape";
    if (field == 2 && wireType == 2) { // dim
      StringRef dim;
      if (!reader.bytes(dim))
        return "a malformed tensor_shape";
      WireReader dimReader(dim);
      int64_t size = 0;
      while (!dimReader.done()) {
        uint32_t dimField, dimWire;
        if (!dimReader.key(dimField, dimWire))
          return "a malformed tensor_shape";
        uint64_t value;
        if (dimField == 1 && dimWire == 0) {
          if (!dimReader.varint(value))
            return "a malformed tensor_shape";
          size = static_cast<int64_t>(value);
        } else if (!dimReader.skip(dimWire)) {
          return "a malformed tensor_shape";
        }
      }
      fields.dims.push_back(size);
    } else if (field == 3 && wireType == 0) { // unknown_rank
      uint64_t value;
      if (!reader.varint(value))
        return "a malformed tensor_shape";
      fields.unknownRank = value != 0;
    } else if (!reader.skip(wireType)) {
      return "a malformed tensor_shape";
    }
  }
  return "";
}

/// Parses `bytes` into `fields`; returns what is wrong, or "".
std::string parseTensorProto(StringRef bytes, TensorProtoFields &fields) {
  WireReader reader(bytes);
  while (!reader.done()) {
    uint32_t field, wireType;
    if (!reader.key(field, wireType))
      return "is not a valid TensorProto";
    if (field == 1 && wireType == 0) { // dtype
      uint64_t value;
      if (!reader.varint(value))
        return "is not a valid TensorProto";
      fields.dtype = static_cast<int>(value);
      continue;
    }
    if (field == 2 && wireType == 2) { // tensor_shape
      StringRef shape;
      if (!reader.bytes(shape))
        return "is not a valid TensorProto";
      std::string error = parseShape(shape, fields);
      if (!error.empty())
        return "has " + error;
      continue;
    }
    if (field == 4 && wireType == 2) { // tensor_content
      StringRef content;
      if (!reader.bytes(content))
        return "is not a valid TensorProto";
      fields.content = content;
      continue;
    }
    if (field == 8 && wireType == 2) { // string_val
      StringRef value;
      if (!reader.bytes(value))
        return "is not a valid TensorProto";
      fields.strings.push_back(value);
      continue;
    }
    if (std::optional<ValueEncoding> encoding = getValueEncoding(field)) {
      if (fields.valueField && fields.valueField != field)
        return "has values in two typed fields";
      fields.valueField = field;
      uint64_t value;
      if (wireType == 2) { // packed
        StringRef packed;
        if (!reader.bytes(packed))
          return "is not a valid TensorProto";
        WireReader packedReader(packed);
        while (!packedReader.done()) {
          if (!readValue(packedReader, *encoding, value))
            return "is not a valid TensorProto";
          fields.values.push_back(value);
        }
      } else {
        if (!readValue(reader, *encoding, value))
          return "is not a valid TensorProto";
        fields.values.push_back(value);
      }
      continue;
    }
    if (field == 9 || field == 12 || field == 14 || field == 15)
      return "holds complex, resource or variant values, which are not "
             "supported";
    if (!reader.skip(wireType))
      return "is not a valid TensorProto";
  }
  return "";
}

/// The typed field that holds values of element type `element`.
uint32_t getValueFieldOf(Type element) {
  if (element.isF32())
    return 5; // float_val
  if (element.isF64())
    return 6; // double_val
  if (element.isInteger(1))
    return 11; // bool_val
  if (element.isF16() || element.isBF16())
    return 13; // half_val
  if (element.isUnsignedInteger(32))
    return 16; // uint32_val
  if (element.isUnsignedInteger(64))
    return 17; // uint64_val
  if (element.isInteger(64))
    return 10; // int64_val
  return 7;    // int_val: int8, int16, int32, uint8, uint16
}
} // namespace

FailureOr<DenseElementsAttr> tfrt_fallback::tf::decodeTensorProto(
    TensorProtoAttr attr, llvm::function_ref<InFlightDiagnostic()> emitError) {
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape())
    return emitError() << "has a TensorProto constant of type "
                       << attr.getType() << ", which has no static shape";
  Type element = type.getElementType();
  std::optional<rt::DType> dtype = getDType(element);
  // Variant and resource constants hold serialized objects (a resource
  // handle is the device and container of a variable): not decoded.
  if (!dtype || *dtype == rt::DType::Variant || *dtype == rt::DType::Resource ||
      (!isa<StringType>(element) && !element.isIntOrFloat()))
    return emitError() << "has a TensorProto constant of element type "
                       << type.getElementType()
                       << ", which the decoder does not support";
  TensorProtoFields fields;
  std::string error = parseTensorProto(attr.getValue(), fields);
  if (!error.empty())
    return emitError() << "has a TensorProto constant that " << error;
  if (fields.dtype != static_cast<int>(*dtype))
    return emitError() << "has a TensorProto constant of DataType "
                       << fields.dtype << " but the type " << type;
  if (fields.unknownRank || !llvm::equal(fields.dims, type.getShape()))
    return emitError() << "has a TensorProto constant whose shape is not that "
                          "of its type "
                       << type;
  // TensorFlow repeats the last value to fill the shape, so a few bytes can
  // ask for any number of elements: refuse what is too large to hold.
  size_t elementSize =
      isa<StringType>(element)
          ? sizeof(StringRef)
          : (element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8);
  constexpr int64_t kMaxDecodedBytes = int64_t(1) << 31;
  int64_t numElements = 1;
  bool overflow = false;
  for (int64_t dim : type.getShape())
    overflow |= llvm::MulOverflow(numElements, dim, numElements);
  if (overflow ||
      numElements > kMaxDecodedBytes / static_cast<int64_t>(elementSize))
    return emitError() << "has a TensorProto constant of type " << type
                       << ", larger than the decoder holds ("
                       << kMaxDecodedBytes << " bytes)";

  if (isa<StringType>(element)) {
    if (fields.content)
      return emitError() << "has a string TensorProto constant with "
                            "tensor_content, which the decoder does not "
                            "support";
    if (fields.strings.empty() && numElements > 0)
      fields.strings.push_back("");
    if (static_cast<int64_t>(fields.strings.size()) > numElements)
      return emitError() << "has a TensorProto constant with "
                         << fields.strings.size() << " values for "
                         << numElements << " elements";
    SmallVector<StringRef> strings(fields.strings);
    strings.resize(numElements, fields.strings.empty() ? StringRef()
                                                       : fields.strings.back());
    return DenseElementsAttr::get(type, strings);
  }

  std::vector<char> data(numElements * elementSize);
  if (fields.content) {
    if (fields.content->size() != data.size())
      return emitError() << "has a TensorProto constant with "
                         << fields.content->size()
                         << " bytes of tensor_content for " << data.size();
    llvm::copy(*fields.content, data.begin());
  } else {
    if (fields.valueField && fields.valueField != getValueFieldOf(element))
      return emitError() << "has a TensorProto constant whose values are in "
                            "field "
                         << fields.valueField << ", not the one of its dtype";
    if (static_cast<int64_t>(fields.values.size()) > numElements)
      return emitError() << "has a TensorProto constant with "
                         << fields.values.size() << " values for "
                         << numElements << " elements";
    // TensorFlow repeats the last value to fill the shape; no value is 0.
    for (int64_t i = 0; i < numElements; ++i) {
      uint64_t value =
          fields.values.empty()
              ? 0
              : fields.values[std::min<size_t>(i, fields.values.size() - 1)];
      // Little-endian: the low bytes of the value are the element.
      std::memcpy(data.data() + i * elementSize, &value, elementSize);
    }
  }
  if (element.isInteger(1)) {
    SmallVector<bool> values;
    for (char byte : data)
      values.push_back(byte != 0);
    return DenseElementsAttr::get(type, values);
  }
  return DenseElementsAttr::getFromRawBuffer(type, data);
}

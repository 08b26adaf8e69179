//===- TFJSImport.cpp - import TF.js graph models ---------------*- C++ -*-===//
//
// A TF.js graph model is a GraphDef in protobuf's JSON mapping
// (`modelTopology`), a signature, and a `weightsManifest`: groups of shard
// files whose concatenated bytes hold the Const values in order, possibly
// quantized (uint8 / uint16 with scale and min, or float16). Parsed with
// llvm::json; weights become `dense_resource` blobs.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/TFJSImport.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Import/GraphImport.h"
#include "tfrt_fallback/Import/ImportModel.h"
#include "tfrt_fallback/Import/TensorValues.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Base64.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace tfrt_fallback;
namespace json = llvm::json;

namespace {

/// Accumulates the first error; every later step checks `failed()`.
class TFJSImporter {
public:
  TFJSImporter(StringRef name, TFJSShardReader readShard, MLIRContext *context)
      : name(name), readShard(readShard), context(context), builder(context) {}

  OwningOpRef<ModuleOp> import(StringRef jsonText);

private:
  LogicalResult error(const Twine &message) {
    if (errorMessage.empty())
      errorMessage = (name + ": " + message).str();
    return failure();
  }

  LogicalResult loadWeights(const json::Array &manifest);
  FailureOr<Attribute> convertAttr(const json::Object &value, StringRef node,
                                   StringRef attrName);
  FailureOr<Attribute> convertScalar(StringRef kind, const json::Value &value);
  FailureOr<ElementsAttr> convertTensorProto(const json::Object &tensor);
  std::optional<SmallVector<int64_t>> convertShape(const json::Object &shape,
                                                   bool &unknownRank);
  LogicalResult readSignature(const json::Object &signature, StringRef text,
                              size_t textStart, ImportedGraph &graph);

  std::string name;
  TFJSShardReader readShard;
  MLIRContext *context;
  Builder builder;
  std::string errorMessage;
  /// Const values by weight name.
  llvm::StringMap<ElementsAttr> weights;
  /// The dtype each Const node declares, by node name.
  llvm::StringMap<Type> constDTypes;
  unsigned blobCounter = 0;
};

/// Protobuf's JSON mapping writes int64 as strings and floats as numbers or
/// "NaN" / "Infinity" / "-Infinity".
std::optional<int64_t> getInt(const json::Value &value) {
  if (std::optional<int64_t> i = value.getAsInteger())
    return i;
  if (std::optional<StringRef> s = value.getAsString()) {
    int64_t result;
    if (!s->getAsInteger(10, result))
      return result;
  }
  return std::nullopt;
}

std::optional<double> getFloat(const json::Value &value) {
  if (std::optional<double> d = value.getAsNumber())
    return d;
  if (std::optional<StringRef> s = value.getAsString()) {
    if (*s == "NaN")
      return std::nan("");
    if (*s == "Infinity")
      return INFINITY;
    if (*s == "-Infinity")
      return -INFINITY;
    double result;
    if (!s->getAsDouble(result))
      return result;
  }
  return std::nullopt;
}

std::optional<std::string> decodeBase64(StringRef text) {
  std::vector<char> bytes;
  if (llvm::Error err = llvm::decodeBase64(text, bytes)) {
    llvm::consumeError(std::move(err));
    return std::nullopt;
  }
  return std::string(bytes.begin(), bytes.end());
}

} // namespace

std::optional<SmallVector<int64_t>>
TFJSImporter::convertShape(const json::Object &shape, bool &unknownRank) {
  unknownRank = false;
  if (std::optional<bool> unknown = shape.getBoolean("unknownRank");
      unknown && *unknown) {
    unknownRank = true;
    return SmallVector<int64_t>();
  }
  SmallVector<int64_t> dims;
  if (const json::Array *dimList = shape.getArray("dim")) {
    for (const json::Value &dim : *dimList) {
      const json::Object *object = dim.getAsObject();
      if (!object)
        return std::nullopt;
      int64_t size = 0;
      if (const json::Value *sizeValue = object->get("size")) {
        std::optional<int64_t> parsed = getInt(*sizeValue);
        if (!parsed || *parsed < -1)
          return std::nullopt;
        size = *parsed;
      }
      dims.push_back(size);
    }
  }
  return dims;
}

FailureOr<Attribute> TFJSImporter::convertScalar(StringRef kind,
                                                 const json::Value &value) {
  if (kind == "i") {
    if (std::optional<int64_t> i = getInt(value))
      return Attribute(builder.getI64IntegerAttr(*i));
  } else if (kind == "f") {
    if (std::optional<double> f = getFloat(value))
      return Attribute(builder.getF32FloatAttr(static_cast<float>(*f)));
  } else if (kind == "b") {
    if (std::optional<bool> b = value.getAsBoolean())
      return Attribute(builder.getBoolAttr(*b));
  } else if (kind == "s") {
    if (std::optional<StringRef> s = value.getAsString())
      if (std::optional<std::string> bytes = decodeBase64(*s))
        return Attribute(builder.getStringAttr(*bytes));
  } else if (kind == "type") {
    if (std::optional<StringRef> s = value.getAsString()) {
      if (Type type = getTFElementType(*s, context))
        return Attribute(TypeAttr::get(type));
      // Resource / variant dtypes belong to ops (TensorArray, TensorList,
      // hash tables) that the graph importer reports by name.
      return Attribute(builder.getStringAttr(*s));
    }
  } else if (kind == "shape") {
    if (const json::Object *object = value.getAsObject()) {
      bool unknownRank;
      std::optional<SmallVector<int64_t>> dims =
          convertShape(*object, unknownRank);
      if (dims) {
        if (unknownRank)
          return Attribute(tf::ShapeAttr::get(context, false, {}));
        for (int64_t &dim : *dims)
          if (dim < 0)
            dim = ShapedType::kDynamic;
        return Attribute(tf::ShapeAttr::get(context, true, *dims));
      }
    }
  } else if (kind == "func") {
    if (const json::Object *object = value.getAsObject())
      if (std::optional<StringRef> funcName = object->getString("name"))
        return Attribute(FlatSymbolRefAttr::get(context, *funcName));
  } else if (kind == "tensor") {
    if (const json::Object *object = value.getAsObject()) {
      FailureOr<ElementsAttr> tensor = convertTensorProto(*object);
      if (failed(tensor))
        return failure();
      return Attribute(*tensor);
    }
  }
  return error("cannot read an attribute value of kind '" + kind + "'");
}

FailureOr<Attribute> TFJSImporter::convertAttr(const json::Object &value,
                                               StringRef node,
                                               StringRef attrName) {
  if (const json::Object *list = value.getObject("list")) {
    // An empty list carries no element kind.
    SmallVector<Attribute> elements;
    for (StringRef kind :
         {"i", "f", "b", "s", "type", "shape", "func", "tensor"}) {
      const json::Array *array = list->getArray(kind);
      if (!array)
        continue;
      for (const json::Value &element : *array) {
        FailureOr<Attribute> converted = convertScalar(kind, element);
        if (failed(converted))
          return error("node '" + node + "', attribute '" + attrName +
                       "': bad list element");
        elements.push_back(*converted);
      }
    }
    return Attribute(builder.getArrayAttr(elements));
  }
  for (const auto &[kind, element] : value) {
    FailureOr<Attribute> converted = convertScalar(kind.str(), element);
    if (failed(converted))
      return error("node '" + node + "', attribute '" + attrName +
                   "': bad value");
    return converted;
  }
  return error("node '" + node + "', attribute '" + attrName +
               "' has no value");
}

/// A TensorProto in JSON form (for Const nodes that carry their value).
FailureOr<ElementsAttr>
TFJSImporter::convertTensorProto(const json::Object &tensor) {
  std::optional<StringRef> dtypeName = tensor.getString("dtype");
  Type element = dtypeName ? getTFElementType(*dtypeName, context) : Type();
  if (!element || !element.isIntOrFloat())
    return error("unsupported tensor dtype");
  SmallVector<int64_t> dims;
  if (const json::Object *shape = tensor.getObject("tensorShape")) {
    bool unknownRank;
    std::optional<SmallVector<int64_t>> parsed =
        convertShape(*shape, unknownRank);
    if (!parsed || unknownRank ||
        llvm::any_of(*parsed, [](int64_t d) { return d < 0; }))
      return error("a tensor value needs a static shape");
    dims = *parsed;
  }
  unsigned bytes =
      element.isInteger(1) ? 1 : element.getIntOrFloatBitWidth() / 8;
  // The values repeat the last one to fill the shape, so a few bytes of
  // JSON can ask for any number of elements: refuse what is too large to
  // hold (as the GraphDef importer and TensorProto constants do).
  constexpr int64_t kMaxTensorBytes = int64_t(1) << 31;
  int64_t numElements = 1;
  bool overflow = false;
  for (int64_t dim : dims)
    overflow |= llvm::MulOverflow(numElements, dim, numElements);
  if (overflow || numElements > kMaxTensorBytes / bytes)
    return error("a tensor value is larger than the importer holds (" +
                 Twine(kMaxTensorBytes) + " bytes)");
  auto type = RankedTensorType::get(dims, element);
  if (std::optional<StringRef> content = tensor.getString("tensorContent")) {
    std::optional<std::string> raw = decodeBase64(*content);
    if (!raw || raw->size() != static_cast<size_t>(numElements) * bytes)
      return error("a tensorContent has the wrong size");
    if (element.isInteger(1)) {
      SmallVector<bool> values;
      for (char c : *raw)
        values.push_back(c != 0);
      return ElementsAttr(DenseElementsAttr::get(type, values));
    }
    return ElementsAttr(DenseElementsAttr::getFromRawBuffer(
        type, ArrayRef<char>(raw->data(), raw->size())));
  }
  // Repeated value fields; fewer values than elements repeat the last one.
  for (StringRef field :
       {"floatVal", "doubleVal", "intVal", "int64Val", "boolVal", "halfVal"}) {
    const json::Array *values = tensor.getArray(field);
    if (!values)
      continue;
    if (values->empty() || static_cast<int64_t>(values->size()) > numElements)
      return error("a tensor has the wrong number of values");
    // One value fills the tensor: a splat, not one attribute per element.
    int64_t distinct = values->size() == 1 ? 1 : numElements;
    SmallVector<Attribute> elements;
    for (int64_t i = 0; i < distinct; ++i) {
      const json::Value &value =
          (*values)[std::min<size_t>(i, values->size() - 1)];
      if (isa<FloatType>(element)) {
        std::optional<double> f =
            field == "halfVal"
                ? std::optional<double>(halfToFloat(getInt(value).value_or(0)))
                : getFloat(value);
        if (!f)
          return error("a tensor has a bad float value");
        elements.push_back(builder.getFloatAttr(element, *f));
      } else if (element.isInteger(1)) {
        std::optional<bool> b = value.getAsBoolean();
        if (!b)
          return error("a tensor has a bad bool value");
        elements.push_back(builder.getBoolAttr(*b));
      } else {
        std::optional<int64_t> i = getInt(value);
        if (!i)
          return error("a tensor has a bad integer value");
        elements.push_back(builder.getIntegerAttr(element, *i));
      }
    }
    if (distinct == 1)
      return ElementsAttr(DenseElementsAttr::get(type, elements.front()));
    return ElementsAttr(DenseElementsAttr::get(type, elements));
  }
  // No values: zeros.
  return ElementsAttr(DenseElementsAttr::get(
      type, element.isInteger(1) ? Attribute(builder.getBoolAttr(false))
            : isa<FloatType>(element)
                ? Attribute(builder.getFloatAttr(element, 0))
                : Attribute(builder.getIntegerAttr(element, 0))));
}

LogicalResult TFJSImporter::loadWeights(const json::Array &manifest) {
  for (const json::Value &groupValue : manifest) {
    const json::Object *group = groupValue.getAsObject();
    const json::Array *paths = group ? group->getArray("paths") : nullptr;
    const json::Array *specs = group ? group->getArray("weights") : nullptr;
    if (!paths || !specs)
      return error("a weightsManifest group lacks 'paths' or 'weights'");
    // The group's shards form one byte stream.
    std::string data;
    for (const json::Value &path : *paths) {
      std::optional<StringRef> file = path.getAsString();
      if (!file)
        return error("a weight shard path is not a string");
      llvm::Expected<std::string> shard = readShard(*file);
      if (!shard)
        return error(llvm::toString(shard.takeError()));
      data.append(*shard);
    }
    size_t offset = 0;
    for (const json::Value &specValue : *specs) {
      const json::Object *spec = specValue.getAsObject();
      std::optional<StringRef> weightName =
          spec ? spec->getString("name") : std::nullopt;
      std::optional<StringRef> dtype =
          spec ? spec->getString("dtype") : std::nullopt;
      const json::Array *shapeArray = spec ? spec->getArray("shape") : nullptr;
      if (!weightName || !dtype || !shapeArray)
        return error("a weight lacks 'name', 'dtype' or 'shape'");
      SmallVector<int64_t> dims;
      int64_t numElements = 1;
      for (const json::Value &dim : *shapeArray) {
        std::optional<int64_t> size = getInt(dim);
        if (!size || *size < 0 ||
            (*size && numElements > (INT64_C(1) << 40) / *size))
          return error("weight '" + *weightName + "' has a bad shape");
        dims.push_back(*size);
        numElements *= *size;
      }

      Type element;
      if (*dtype == "float32")
        element = builder.getF32Type();
      else if (*dtype == "int32")
        element = builder.getI32Type();
      else if (*dtype == "bool")
        element = builder.getI1Type();
      else
        return error("weight '" + *weightName +
                     "' has the unsupported dtype '" + *dtype + "'");

      // Stored encoding.
      StringRef stored = *dtype;
      double scale = 1, min = 0;
      if (const json::Object *quantization = spec->getObject("quantization")) {
        std::optional<StringRef> qtype = quantization->getString("dtype");
        if (!qtype)
          return error("weight '" + *weightName + "' has a bad quantization");
        stored = *qtype;
        if (stored == "uint8" || stored == "uint16") {
          std::optional<double> s = quantization->getNumber("scale");
          std::optional<double> m = quantization->getNumber("min");
          if (!s || !m)
            return error("weight '" + *weightName +
                         "' is quantized without 'scale' and 'min'");
          scale = *s;
          min = *m;
        } else if (stored != "float16") {
          return error("weight '" + *weightName +
                       "' has the unsupported quantization '" + stored + "'");
        }
      }
      size_t storedBytes = stored == "uint8" || stored == "bool"       ? 1
                           : stored == "uint16" || stored == "float16" ? 2
                                                                       : 4;
      size_t size = static_cast<size_t>(numElements) * storedBytes;
      if (size > data.size() - offset)
        return error("weight '" + *weightName +
                     "' runs past the end of its "
                     "shards (" +
                     Twine(data.size()) + " bytes)");
      const unsigned char *raw =
          reinterpret_cast<const unsigned char *>(data.data() + offset);
      offset += size;

      // The Const node's declared dtype wins: TF.js stores int64 constants
      // as int32 weights, and the graph's ops expect int64.
      if (auto declared = constDTypes.find(*weightName);
          declared != constDTypes.end() && declared->second != element) {
        Type target = declared->second;
        bool convertible =
            target.isF32() || target.isF64() ||
            (isa<IntegerType>(target) &&
             (target.isInteger(1) || target.getIntOrFloatBitWidth() % 8 == 0));
        if (!convertible)
          return error("weight '" + *weightName + "' is " + *dtype +
                       " but its Const declares a dtype it cannot be "
                       "converted to");
        element = target;
      }
      auto type = RankedTensorType::get(dims, element);
      size_t elementBytes = getElementByteSize(element);
      AsmResourceBlob blob = HeapAsmResourceBlob::allocate(
          numElements * elementBytes, /*align=*/64, /*dataIsMutable=*/true);
      MutableArrayRef<char> out = blob.getMutableData();
      bool storedIsInt = stored == "int32" || stored == "bool";
      for (int64_t i = 0; i < numElements; ++i) {
        // Decode the stored element, exactly for integers.
        double value = 0;
        int64_t intValue = 0;
        if (stored == "uint8") {
          value = raw[i] * scale + min;
        } else if (stored == "uint16") {
          value = (raw[2 * i] | raw[2 * i + 1] << 8) * scale + min;
        } else if (stored == "float16") {
          value = halfToFloat(raw[2 * i] | raw[2 * i + 1] << 8);
        } else if (stored == "float32") {
          float f;
          std::memcpy(&f, raw + 4 * i, 4);
          value = f;
        } else if (stored == "int32") {
          int32_t v;
          std::memcpy(&v, raw + 4 * i, 4);
          intValue = v;
        } else { // bool
          intValue = raw[i] != 0;
        }
        if (!storedIsInt && isa<IntegerType>(element))
          intValue = static_cast<int64_t>(std::llround(value));
        if (storedIsInt && !isa<IntegerType>(element))
          value = static_cast<double>(intValue);
        // Encode it as the element type, little-endian.
        char *dst = out.data() + elementBytes * i;
        if (element.isF32()) {
          float f = static_cast<float>(value);
          std::memcpy(dst, &f, 4);
        } else if (element.isF64()) {
          std::memcpy(dst, &value, 8);
        } else if (element.isInteger(1)) {
          *dst = (storedIsInt ? intValue : value) != 0;
        } else {
          uint64_t bits = static_cast<uint64_t>(intValue);
          std::memcpy(dst, &bits, elementBytes);
        }
      }
      weights[*weightName] = createTensorAttr(type, std::move(blob), [&] {
        return ("weight_" + Twine(blobCounter++)).str();
      });
    }
  }
  return success();
}

LogicalResult TFJSImporter::readSignature(const json::Object &signature,
                                          StringRef text, size_t textStart,
                                          ImportedGraph &graph) {
  // TF.js keeps the signature's key order (JavaScript objects do);
  // llvm::json does not, so order the keys by where they appear in the text.
  size_t signatureStart = text.find("\"signature\"", textStart);
  auto ordered = [&](StringRef section) {
    std::vector<std::string> names;
    const json::Object *entries = signature.getObject(section);
    if (!entries)
      return names;
    size_t sectionStart =
        text.find("\"" + section.str() + "\"", signatureStart);
    // Each entry maps a key to {"name": "node:index", ...}; the tensor is
    // the name (TF.js's mapSignatureEntries), the order is the keys'.
    std::vector<std::pair<size_t, std::string>> positioned;
    for (const auto &[key, value] : *entries) {
      size_t pos = text.find("\"" + key.str() + "\"", sectionStart);
      std::string tensor = key.str();
      if (const json::Object *entry = value.getAsObject())
        if (std::optional<StringRef> tensorName = entry->getString("name"))
          tensor = tensorName->str();
      positioned.emplace_back(pos, tensor);
    }
    llvm::sort(positioned);
    for (auto &[pos, key] : positioned)
      names.push_back(key);
    return names;
  };
  graph.inputs = ordered("inputs");
  graph.outputs = ordered("outputs");
  return success();
}

OwningOpRef<ModuleOp> TFJSImporter::import(StringRef jsonText) {
  context->loadDialect<tf::TFTypeDialect, tf::TFDialect, func::FuncDialect,
                       TFRTFallbackDialect>();
  Location loc = FileLineColLoc::get(context, name, 0, 0);
  auto fail = [&]() -> OwningOpRef<ModuleOp> {
    emitError(loc) << errorMessage;
    return {};
  };
  llvm::Expected<json::Value> parsed = json::parse(jsonText);
  if (!parsed) {
    (void)error("invalid JSON: " + llvm::toString(parsed.takeError()));
    return fail();
  }
  const json::Object *root = parsed->getAsObject();
  if (!root) {
    (void)error("the model is not a JSON object");
    return fail();
  }
  std::optional<StringRef> format = root->getString("format");
  if (format && *format != "graph-model") {
    (void)error("the model has format '" + *format +
                "'; only TF.js graph models (\"graph-model\") are supported");
    return fail();
  }
  const json::Object *topology = root->getObject("modelTopology");
  const json::Array *nodes = topology ? topology->getArray("node") : nullptr;
  if (!nodes) {
    (void)error("the model has no 'modelTopology.node' list");
    return fail();
  }
  for (const json::Value &nodeValue : *nodes) {
    const json::Object *object = nodeValue.getAsObject();
    const json::Object *attrs = object ? object->getObject("attr") : nullptr;
    const json::Object *dtype = attrs ? attrs->getObject("dtype") : nullptr;
    std::optional<StringRef> nodeName =
        object ? object->getString("name") : std::nullopt;
    std::optional<StringRef> typeName =
        dtype ? dtype->getString("type") : std::nullopt;
    if (nodeName && typeName && object->getString("op") == StringRef("Const"))
      if (Type type = getTFElementType(*typeName, context))
        constDTypes[*nodeName] = type;
  }
  if (const json::Array *manifest = root->getArray("weightsManifest"))
    if (failed(loadWeights(*manifest)))
      return fail();

  ImportedGraph graph;
  // Like TF.js, a signature in userDefinedMetadata wins over the top-level
  // one.
  const json::Object *metadata = root->getObject("userDefinedMetadata");
  if (const json::Object *signature =
          metadata ? metadata->getObject("signature") : nullptr)
    (void)readSignature(*signature, jsonText,
                        jsonText.find("\"userDefinedMetadata\""), graph);
  else if (const json::Object *signature = root->getObject("signature"))
    (void)readSignature(*signature, jsonText, 0, graph);
  for (const json::Value &nodeValue : *nodes) {
    const json::Object *object = nodeValue.getAsObject();
    std::optional<StringRef> nodeName =
        object ? object->getString("name") : std::nullopt;
    std::optional<StringRef> op =
        object ? object->getString("op") : std::nullopt;
    if (!nodeName || !op) {
      (void)error("a node lacks 'name' or 'op'");
      return fail();
    }
    ImportedNode node;
    node.name = nodeName->str();
    node.op = op->str();
    if (std::optional<StringRef> device = object->getString("device"))
      node.device = device->str();
    if (const json::Array *inputs = object->getArray("input"))
      for (const json::Value &input : *inputs)
        if (std::optional<StringRef> s = input.getAsString())
          node.inputs.push_back(s->str());
    if (const json::Object *attrs = object->getObject("attr")) {
      // Sorted by name, so the output does not depend on hash order.
      SmallVector<StringRef> attrNames;
      for (const auto &[key, value] : *attrs)
        attrNames.push_back(key);
      llvm::sort(attrNames);
      for (StringRef attrName : attrNames) {
        const json::Object *value = attrs->getObject(attrName);
        if (!value) {
          (void)error("node '" + node.name + "': attribute '" + attrName +
                      "' is not an object");
          return fail();
        }
        if (node.op == "Const" && attrName == "value") {
          auto weight = weights.find(node.name);
          if (weight != weights.end()) {
            node.attrs.push_back(builder.getNamedAttr("value", weight->second));
            continue;
          }
        }
        FailureOr<Attribute> converted =
            convertAttr(*value, node.name, attrName);
        if (failed(converted))
          return fail();
        node.attrs.push_back(builder.getNamedAttr(attrName, *converted));
      }
    }
    graph.nodes.push_back(std::move(node));
  }
  OwningOpRef<ModuleOp> module = importGraph(graph, context);
  if (!module)
    return {};
  return module;
}

OwningOpRef<ModuleOp> tfrt_fallback::importTFJSModel(StringRef json,
                                                     StringRef name,
                                                     TFJSShardReader readShard,
                                                     MLIRContext *context) {
  TFJSImporter importer(name, readShard, context);
  return importer.import(json);
}

OwningOpRef<ModuleOp> tfrt_fallback::importTFJSModel(StringRef json,
                                                     StringRef directory,
                                                     StringRef name,
                                                     MLIRContext *context) {
  auto readFile = [&](StringRef path) -> llvm::Expected<std::string> {
    SmallString<256> fullPath(directory);
    llvm::sys::path::append(fullPath, path);
    auto buffer = llvm::MemoryBuffer::getFile(fullPath, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      return llvm::createStringError("cannot read the weight shard '" +
                                     fullPath +
                                     "': " + buffer.getError().message());
    return (*buffer)->getBuffer().str();
  };
  return importTFJSModel(json, name, readFile, context);
}

OwningOpRef<ModuleOp> tfrt_fallback::importTFJSModelFile(StringRef path,
                                                         MLIRContext *context) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    emitError(UnknownLoc::get(context))
        << "cannot read '" << path << "': " << buffer.getError().message();
    return {};
  }
  return importTFJSModel((*buffer)->getBuffer(),
                         llvm::sys::path::parent_path(path), path, context);
}

void tfrt_fallback::registerTFJSImportTranslation() {
  registerImportTranslation(
      "import-tfjs", "Import a TF.js graph model (model.json and its shards)",
      [](StringRef text, StringRef path, MLIRContext *context) {
        return importTFJSModel(text, llvm::sys::path::parent_path(path), path,
                               context);
      });
}

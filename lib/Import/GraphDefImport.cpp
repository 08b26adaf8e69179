//===- GraphDefImport.cpp - import TensorFlow GraphDefs ---------*- C++ -*-===//
//
// Parses a GraphDef with protobuf, from our own minimal schema (graph.proto,
// whose field numbers are TensorFlow's), converts its nodes' attributes to
// MLIR attributes and hands the graph to the format-independent importer
// (GraphImport). Tensor values come from `tensor_content` (raw
// little-endian bytes) or the repeated `*_val` fields, where fewer values
// than elements repeat the last one; large ones become dense_resource blobs.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/GraphDefImport.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Import/GraphImport.h"
#include "tfrt_fallback/Import/ImportModel.h"
#include "tfrt_fallback/Import/TensorValues.h"
#include "tfrt_fallback/Runtime/OpTable.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include "graph.pb.h"
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <cstring>

using namespace mlir;
using namespace tfrt_fallback;
namespace pb = tfrt_fallback::graphdef;

namespace {

/// The name of a DataType number, for messages ("DT_COMPLEX64").
std::string dtypeName(int dtype) {
  const std::string &name = pb::DataType_Name(static_cast<pb::DataType>(dtype));
  return name.empty() ? "DataType " + std::to_string(dtype) : name;
}

/// Remembers the first error of protobuf's text parser.
class TextErrorCollector : public google::protobuf::io::ErrorCollector {
public:
  void AddError(int line, google::protobuf::io::ColumnNumber column,
                const std::string &message) override {
    if (!hasError) {
      hasError = true;
      this->line = line;
      this->column = column;
      this->message = message;
    }
  }
  bool hasError = false;
  int line = 0, column = 0;
  std::string message;
};

/// Accumulates the first error; every later step checks `failed()`.
class GraphDefImporter {
public:
  GraphDefImporter(StringRef name, const GraphDefImportOptions &options,
                   MLIRContext *context)
      : name(name), options(options), context(context), builder(context) {}

  OwningOpRef<ModuleOp> import(StringRef bytes);

  /// A serialized NodeDef, converted as a graph's nodes are.
  FailureOr<ImportedNode> importNode(StringRef bytes);

  /// The nodes and library functions of `graph`, no inputs or outputs
  /// chosen.
  FailureOr<ImportedGraph> convertGraph(const pb::GraphDef &graph);
  FailureOr<ElementsAttr> convertTensor(const pb::TensorProto &tensor);

  const std::string &getError() const { return errorMessage; }

private:
  LogicalResult error(const Twine &message) {
    if (errorMessage.empty())
      errorMessage = message.str();
    return failure();
  }

  LogicalResult parse(StringRef bytes, pb::GraphDef &graph);
  /// A node with its attributes converted; a call of a library function
  /// (its op is the function's name) becomes a StatefulPartitionedCall.
  FailureOr<ImportedNode> convertNode(const pb::NodeDef &nodeDef);
  /// A FunctionDef of the library as a graph whose inputs are its
  /// arguments and whose outputs its results.
  FailureOr<ImportedFunction> convertFunction(const pb::FunctionDef &def);
  /// Inside a function body, the input `input` ("arg", "node:out_arg:k",
  /// "^node") in the graph importer's form ("node:index", "^node").
  FailureOr<std::string>
  convertFunctionInput(StringRef input,
                       const llvm::StringMap<const pb::NodeDef *> &nodes,
                       const llvm::StringSet<> &args);
  LogicalResult applyInputs(ImportedGraph &graph);
  FailureOr<Attribute> convertAttr(const pb::AttrValue &value);
  FailureOr<Attribute> convertType(int dtype);
  Attribute convertShape(const pb::TensorShapeProto &shape);
  FailureOr<Attribute> convertFunc(const pb::NameAttrList &func);

  std::string name;
  const GraphDefImportOptions &options;
  MLIRContext *context;
  Builder builder;
  std::string errorMessage;
  /// A location for the error, when it has one (text parse errors).
  std::optional<Location> errorLoc;
  /// The library's functions by name.
  llvm::StringMap<const pb::FunctionDef *> libraryFunctions;
  unsigned blobCounter = 0;
};

} // namespace

LogicalResult GraphDefImporter::parse(StringRef bytes, pb::GraphDef &graph) {
  auto parseText = [&](TextErrorCollector &collector) {
    google::protobuf::TextFormat::Parser parser;
    // GraphDefs carry fields our schema leaves out (function bodies, debug
    // info): skip them.
    parser.AllowUnknownField(true);
    parser.RecordErrorsTo(&collector);
    graph.Clear();
    return parser.ParseFromString(std::string(bytes), &graph);
  };
  if (bytes.size() > static_cast<size_t>(INT32_MAX))
    return error("larger than 2 GB, which protobuf cannot parse");
  if (!options.textFormat &&
      graph.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return success();
  TextErrorCollector collector;
  if (parseText(collector))
    return success();
  if (options.textFormat) {
    errorLoc = FileLineColLoc::get(context, name, collector.line + 1,
                                   collector.column + 1);
    return error("not a text-format GraphDef: " + collector.message);
  }
  return error("not a GraphDef: it parses neither as a binary nor as a "
               "text-format protobuf");
}

FailureOr<Attribute> GraphDefImporter::convertType(int dtype) {
  // Reference dtypes (DT_FLOAT_REF) of variables in unfrozen graphs.
  if (dtype > 100)
    dtype -= 100;
  if (Type type = getTFElementType(dtype, context))
    return Attribute(TypeAttr::get(type));
  // Resource / variant / complex dtypes belong to ops that the graph
  // importer reports by name when they are needed.
  return Attribute(builder.getStringAttr(dtypeName(dtype)));
}

Attribute GraphDefImporter::convertShape(const pb::TensorShapeProto &shape) {
  if (shape.unknown_rank())
    return tf::ShapeAttr::get(context, false, {});
  SmallVector<int64_t> dims;
  for (const pb::TensorShapeProto::Dim &dim : shape.dim())
    dims.push_back(dim.size() < 0 ? ShapedType::kDynamic : dim.size());
  return tf::ShapeAttr::get(context, true, dims);
}

FailureOr<Attribute> GraphDefImporter::convertFunc(const pb::NameAttrList &f) {
  // The library's functions are monomorphic (convertFunction checks): the
  // instantiation attributes of the reference add nothing.
  if (f.name().empty())
    return error("it names no function");
  return Attribute(FlatSymbolRefAttr::get(context, f.name()));
}

FailureOr<ImportedNode>
GraphDefImporter::convertNode(const pb::NodeDef &nodeDef) {
  ImportedNode node;
  node.name = nodeDef.name();
  node.op = nodeDef.op();
  node.device = nodeDef.device();
  if (node.name.empty() || node.op.empty())
    return error("a node lacks a name or an op");
  node.inputs.assign(nodeDef.input().begin(), nodeDef.input().end());
  if (libraryFunctions.count(node.op)) {
    // TF calls a function by using its name as the op; the attributes
    // instantiate it (ours are monomorphic).
    node.attrs.push_back(
        builder.getNamedAttr("f", FlatSymbolRefAttr::get(context, node.op)));
    node.op = "StatefulPartitionedCall";
    return node;
  }
  // Sorted by name: protobuf maps have no order.
  SmallVector<const std::string *> attrNames;
  for (const auto &entry : nodeDef.attr())
    attrNames.push_back(&entry.first);
  llvm::sort(attrNames, [](const std::string *a, const std::string *b) {
    return *a < *b;
  });
  for (const std::string *attrName : attrNames) {
    FailureOr<Attribute> converted = convertAttr(nodeDef.attr().at(*attrName));
    if (failed(converted)) {
      errorMessage = "node '" + node.name + "' (" + node.op + "), attribute '" +
                     *attrName + "': " + errorMessage;
      return failure();
    }
    node.attrs.push_back(builder.getNamedAttr(*attrName, *converted));
  }
  return node;
}

FailureOr<std::string> GraphDefImporter::convertFunctionInput(
    StringRef input, const llvm::StringMap<const pb::NodeDef *> &nodes,
    const llvm::StringSet<> &args) {
  if (input.starts_with("^"))
    return input.str();
  SmallVector<StringRef, 3> parts;
  input.split(parts, ':');
  if (parts.size() == 1 && (args.contains(input) || nodes.count(input)))
    return input.str();
  unsigned index = 0;
  if (parts.size() != 3 || parts[2].getAsInteger(10, index))
    return error("the input '" + input +
                 "' is neither an argument nor node:output:index");
  StringRef nodeName = parts[0], arg = parts[1];
  auto it = nodes.find(nodeName);
  if (it == nodes.end())
    return error("the input '" + input + "' names no node of the function");
  StringRef op = it->second->op();
  // The flat output index: output argument `arg`'s first tensor, plus
  // `index`. A function's outputs are single tensors; an op of the op table
  // with several output arguments names them; any other op has one output
  // argument (While's and a call's `output` list, Split's `output`, ...).
  int first = 0;
  if (auto function = libraryFunctions.find(op);
      function != libraryFunctions.end()) {
    const auto &outs = function->second->signature().output_arg();
    auto found = llvm::find_if(
        outs, [&](const pb::OpDef::ArgDef &out) { return out.name() == arg; });
    if (found == outs.end())
      return error("the input '" + input + "': function '" + op +
                   "' has no output '" + arg + "'");
    first = static_cast<int>(found - outs.begin());
  } else if (const rt::OpInfo *info =
                 rt::lookupOp(std::string_view(op.data(), op.size()));
             info && info->outputs.size() > 1) {
    // The arguments before `arg` count as the node's attributes say (N*T,
    // [T]).
    const pb::NodeDef &nodeDef = *it->second;
    first = -1;
    int flat = 0;
    for (const rt::OpArg &out : info->outputs) {
      if (out.name == std::string_view(arg.data(), arg.size())) {
        first = flat;
        break;
      }
      std::string attrName(
          out.kind == rt::OpArg::Kind::TypeListAttr ? out.type : out.count);
      if (attrName.empty()) {
        ++flat;
        continue;
      }
      auto attr = nodeDef.attr().find(attrName);
      if (attr == nodeDef.attr().end())
        break;
      flat += out.kind == rt::OpArg::Kind::TypeListAttr
                  ? attr->second.list().type_size()
                  : static_cast<int>(attr->second.i());
    }
    if (first < 0)
      return error("the input '" + input + "': " + op +
                   " has no output argument '" + arg +
                   "' (or the node lacks an attribute that counts the "
                   "outputs before it)");
  }
  unsigned flat = static_cast<unsigned>(first) + index;
  return flat == 0 ? nodeName.str() : (nodeName + ":" + Twine(flat)).str();
}

FailureOr<ImportedFunction>
GraphDefImporter::convertFunction(const pb::FunctionDef &def) {
  const pb::OpDef &signature = def.signature();
  ImportedFunction function;
  function.name = signature.name();
  auto fail = [&](const Twine &message) -> FailureOr<ImportedFunction> {
    // Replaces an error an inner step recorded: it is part of `message`.
    std::string text = ("function '" + function.name + "': " + message).str();
    errorMessage = std::move(text);
    return failure();
  };
  auto polymorphic = [](const pb::OpDef::ArgDef &arg) {
    return !arg.type_attr().empty() || !arg.number_attr().empty() ||
           !arg.type_list_attr().empty();
  };
  llvm::StringSet<> args;
  for (const pb::OpDef::ArgDef &arg : signature.input_arg()) {
    if (polymorphic(arg))
      return fail("argument '" + arg.name() +
                  "' is typed by an attribute; polymorphic functions are "
                  "not supported");
    FailureOr<Attribute> dtype = convertType(arg.type());
    if (failed(dtype) || !isa<TypeAttr>(*dtype))
      return fail("argument '" + arg.name() + "' has the unsupported dtype " +
                  dtypeName(arg.type()));
    if (!args.insert(arg.name()).second)
      return fail("two arguments are named '" + arg.name() + "'");
    ImportedNode placeholder;
    placeholder.name = arg.name();
    placeholder.op = "Placeholder";
    placeholder.attrs.push_back(builder.getNamedAttr("dtype", *dtype));
    function.body.inputs.push_back(arg.name());
    function.body.nodes.push_back(std::move(placeholder));
  }
  for (const pb::OpDef::ArgDef &arg : signature.output_arg())
    if (polymorphic(arg))
      return fail("result '" + arg.name() +
                  "' is typed by an attribute; polymorphic functions are "
                  "not supported");
  llvm::StringMap<const pb::NodeDef *> nodes;
  for (const pb::NodeDef &nodeDef : def.node_def())
    if (args.contains(nodeDef.name()) ||
        !nodes.try_emplace(nodeDef.name(), &nodeDef).second)
      return fail("the name '" + nodeDef.name() + "' is taken twice");
  for (const pb::NodeDef &nodeDef : def.node_def()) {
    FailureOr<ImportedNode> node = convertNode(nodeDef);
    if (failed(node))
      return fail(errorMessage);
    for (std::string &input : node->inputs) {
      FailureOr<std::string> converted =
          convertFunctionInput(input, nodes, args);
      if (failed(converted))
        return fail("node '" + node->name + "': " + errorMessage);
      input = *std::move(converted);
    }
    function.body.nodes.push_back(*std::move(node));
  }
  for (const pb::OpDef::ArgDef &arg : signature.output_arg()) {
    auto ret = def.ret().find(arg.name());
    if (ret == def.ret().end())
      return fail("result '" + arg.name() + "' is returned by nothing ('ret')");
    FailureOr<std::string> converted =
        convertFunctionInput(ret->second, nodes, args);
    if (failed(converted) || StringRef(*converted).starts_with("^"))
      return fail("result '" + arg.name() + "': " + errorMessage);
    function.body.outputs.push_back(*std::move(converted));
  }
  // Control outputs, sorted by name (protobuf maps have no order).
  std::vector<std::string> controls;
  for (const auto &[name, node] : def.control_ret()) {
    if (!nodes.count(node))
      return fail("control output '" + name + "' names no node ('" + node +
                  "')");
    controls.push_back(node);
  }
  llvm::sort(controls);
  function.body.controlOutputs = std::move(controls);
  return function;
}

FailureOr<ElementsAttr>
GraphDefImporter::convertTensor(const pb::TensorProto &tensor) {
  int dtype = tensor.dtype();
  Type element = getTFElementType(dtype, context);
  // Numbers, bools, complex numbers and strings; variant and resource
  // tensors hold serialized objects, and quantized values are not decoded.
  if (!element ||
      !(isa<tf::StringType, ComplexType>(element) || element.isIntOrFloat()))
    return error("the tensor has the unsupported dtype " + dtypeName(dtype));
  if (tensor.tensor_shape().unknown_rank())
    return error("the tensor has no shape");
  SmallVector<int64_t> dims;
  int64_t numElements = 1;
  for (const pb::TensorShapeProto::Dim &dim : tensor.tensor_shape().dim()) {
    if (dim.size() < 0 ||
        (dim.size() && numElements > (INT64_C(1) << 40) / dim.size()))
      return error("the tensor has the bad shape dimension " +
                   Twine(dim.size()));
    dims.push_back(dim.size());
    numElements *= dim.size();
  }
  auto type = RankedTensorType::get(dims, element);
  // The values repeat the last one to fill the shape, so a few bytes can
  // ask for any number of elements: refuse what is too large to hold.
  constexpr int64_t kMaxTensorBytes = int64_t(1) << 31;
  int64_t bytesPerElement = isa<tf::StringType>(element)
                                ? int64_t(sizeof(StringRef))
                                : int64_t(getElementByteSize(element));
  if (numElements > kMaxTensorBytes / bytesPerElement)
    return error("the tensor of " + Twine(numElements) +
                 " elements is larger than the importer holds (" +
                 Twine(kMaxTensorBytes) + " bytes)");

  if (isa<tf::StringType>(element)) {
    if (!tensor.tensor_content().empty())
      return error("string tensors in 'tensor_content' are not supported");
    if (tensor.string_val_size() > numElements)
      return error("the tensor has " + Twine(tensor.string_val_size()) +
                   " values for " + Twine(numElements) + " elements");
    SmallVector<StringRef> values;
    for (int64_t i = 0; i < numElements; ++i)
      values.push_back(tensor.string_val_size() == 0
                           ? StringRef()
                           : StringRef(tensor.string_val(std::min<int64_t>(
                                 i, tensor.string_val_size() - 1))));
    return ElementsAttr(DenseElementsAttr::get(type, values));
  }

  unsigned elementBytes = getElementByteSize(element);
  size_t size = static_cast<size_t>(numElements) * elementBytes;
  AsmResourceBlob blob =
      HeapAsmResourceBlob::allocate(size, /*align=*/64, /*dataIsMutable=*/true);
  MutableArrayRef<char> out = blob.getMutableData();
  auto makeAttr = [&]() -> ElementsAttr {
    return createTensorAttr(type, std::move(blob), [&] {
      return ("graphdef_" + Twine(blobCounter++)).str();
    });
  };

  if (!tensor.tensor_content().empty()) {
    const std::string &content = tensor.tensor_content();
    if (content.size() != size)
      return error("the tensor's 'tensor_content' has " +
                   Twine(content.size()) + " bytes; " + Twine(numElements) +
                   " elements of its dtype need " + Twine(size));
    std::memcpy(out.data(), content.data(), size);
    if (element.isInteger(1))
      for (char &c : out)
        c = c != 0;
    return makeAttr();
  }

  // The repeated field of the dtype; fewer values than elements repeat the
  // last one, none at all means zeros.
  auto fill = [&](const auto &values, auto encode) -> LogicalResult {
    int64_t count = values.size();
    if (count > numElements)
      return error("the tensor has " + Twine(count) + " values for " +
                   Twine(numElements) + " elements");
    if (count == 0) {
      std::memset(out.data(), 0, size);
      return success();
    }
    for (int64_t i = 0; i < numElements; ++i)
      encode(values[std::min(i, count - 1)], out.data() + i * elementBytes);
    return success();
  };
  auto store = [&](auto value, char *dst) {
    std::memcpy(dst, &value, sizeof(value));
  };
  // Complex values: (re, im) pairs in one repeated field.
  auto fillComplex = [&](const auto &parts) -> LogicalResult {
    if (parts.size() % 2)
      return error("the tensor's complex values have an odd number (" +
                   Twine(parts.size()) + ") of parts");
    using Part = std::decay_t<decltype(parts[0])>;
    int64_t count = parts.size() / 2;
    if (count > numElements)
      return error("the tensor has " + Twine(count) + " values for " +
                   Twine(numElements) + " elements");
    if (count == 0) {
      std::memset(out.data(), 0, size);
      return success();
    }
    for (int64_t i = 0; i < numElements; ++i) {
      int64_t from = std::min(i, count - 1);
      Part pair[2] = {parts[2 * from], parts[2 * from + 1]};
      std::memcpy(out.data() + i * elementBytes, pair, sizeof(pair));
    }
    return success();
  };
  LogicalResult filled = failure();
  switch (dtype) {
  case pb::DT_COMPLEX64:
    filled = fillComplex(tensor.scomplex_val());
    break;
  case pb::DT_COMPLEX128:
    filled = fillComplex(tensor.dcomplex_val());
    break;
  case pb::DT_FLOAT:
    filled = fill(tensor.float_val(), [&](float v, char *d) { store(v, d); });
    break;
  case pb::DT_DOUBLE:
    filled = fill(tensor.double_val(), [&](double v, char *d) { store(v, d); });
    break;
  case pb::DT_INT32:
    filled = fill(tensor.int_val(), [&](int32_t v, char *d) { store(v, d); });
    break;
  case pb::DT_INT16:
  case pb::DT_UINT16:
    filled = fill(tensor.int_val(), [&](int32_t v, char *d) {
      store(static_cast<int16_t>(v), d);
    });
    break;
  case pb::DT_INT8:
  case pb::DT_UINT8:
    filled = fill(tensor.int_val(), [&](int32_t v, char *d) {
      store(static_cast<int8_t>(v), d);
    });
    break;
  case pb::DT_HALF:
  case pb::DT_BFLOAT16:
    // Both keep their 16 bits in half_val.
    filled = fill(tensor.half_val(), [&](int32_t v, char *d) {
      store(static_cast<uint16_t>(v), d);
    });
    break;
  case pb::DT_INT64:
    filled = fill(tensor.int64_val(), [&](int64_t v, char *d) { store(v, d); });
    break;
  case pb::DT_BOOL:
    filled = fill(tensor.bool_val(),
                  [&](bool v, char *d) { *d = static_cast<char>(v); });
    break;
  case pb::DT_UINT32:
    filled =
        fill(tensor.uint32_val(), [&](uint32_t v, char *d) { store(v, d); });
    break;
  case pb::DT_UINT64:
    filled =
        fill(tensor.uint64_val(), [&](uint64_t v, char *d) { store(v, d); });
    break;
  default:
    return error("the tensor has the unsupported dtype " + dtypeName(dtype));
  }
  if (failed(filled))
    return failure();
  return makeAttr();
}

FailureOr<Attribute> GraphDefImporter::convertAttr(const pb::AttrValue &value) {
  switch (value.value_case()) {
  case pb::AttrValue::kS:
    return Attribute(builder.getStringAttr(value.s()));
  case pb::AttrValue::kI:
    return Attribute(builder.getI64IntegerAttr(value.i()));
  case pb::AttrValue::kF:
    return Attribute(builder.getF32FloatAttr(value.f()));
  case pb::AttrValue::kB:
    return Attribute(builder.getBoolAttr(value.b()));
  case pb::AttrValue::kType:
    return convertType(value.type());
  case pb::AttrValue::kShape:
    return convertShape(value.shape());
  case pb::AttrValue::kTensor: {
    FailureOr<ElementsAttr> tensor = convertTensor(value.tensor());
    if (failed(tensor))
      return failure();
    return Attribute(*tensor);
  }
  case pb::AttrValue::kFunc:
    return convertFunc(value.func());
  case pb::AttrValue::kPlaceholder:
    return error("it is a function attribute placeholder ('" +
                 value.placeholder() + "')");
  case pb::AttrValue::kList:
  case pb::AttrValue::VALUE_NOT_SET:
    break;
  }
  // A list holds one kind of element; an empty list none. An attribute
  // without any value reads as an empty list too.
  const pb::AttrValue::ListValue &list = value.list();
  SmallVector<Attribute> elements;
  for (const std::string &s : list.s())
    elements.push_back(builder.getStringAttr(s));
  for (int64_t i : list.i())
    elements.push_back(builder.getI64IntegerAttr(i));
  for (float f : list.f())
    elements.push_back(builder.getF32FloatAttr(f));
  for (bool b : list.b())
    elements.push_back(builder.getBoolAttr(b));
  for (int type : list.type()) {
    FailureOr<Attribute> converted = convertType(type);
    if (failed(converted))
      return failure();
    elements.push_back(*converted);
  }
  for (const pb::TensorShapeProto &shape : list.shape())
    elements.push_back(convertShape(shape));
  for (const pb::TensorProto &tensor : list.tensor()) {
    FailureOr<ElementsAttr> converted = convertTensor(tensor);
    if (failed(converted))
      return failure();
    elements.push_back(*converted);
  }
  for (const pb::NameAttrList &func : list.func()) {
    FailureOr<Attribute> converted = convertFunc(func);
    if (failed(converted))
      return failure();
    elements.push_back(*converted);
  }
  return Attribute(builder.getArrayAttr(elements));
}

LogicalResult GraphDefImporter::applyInputs(ImportedGraph &graph) {
  llvm::StringMap<size_t> byName;
  for (auto [index, node] : llvm::enumerate(graph.nodes))
    byName.try_emplace(node.name, index);
  llvm::StringSet<> seen;
  SmallVector<StringRef> entries;
  StringRef(options.inputs).split(entries, ',', -1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    entry = entry.trim();
    auto bad = [&](const Twine &why) {
      return error("bad --inputs entry '" + entry + "': " + why +
                   " (expected name[:dtype[:shape]], e.g. "
                   "input:f32:1x224x224x3)");
    };
    SmallVector<StringRef> parts;
    entry.split(parts, ':');
    if (parts.size() > 3 || parts[0].empty())
      return bad("it has " + Twine(parts.size()) + " ':'-separated parts");
    StringRef inputName = parts[0];
    if (!seen.insert(inputName).second)
      return bad("the input is named twice");
    graph.inputs.push_back(inputName.str());
    auto node = byName.find(inputName);
    if (node == byName.end())
      continue; // The graph importer reports it.
    auto setAttr = [&](StringRef attrName, Attribute value) {
      llvm::SmallVector<NamedAttribute> &attrs =
          graph.nodes[node->second].attrs;
      llvm::erase_if(attrs, [&](const NamedAttribute &a) {
        return a.getName() == attrName;
      });
      attrs.push_back(builder.getNamedAttr(attrName, value));
    };
    if (parts.size() >= 2) {
      Type type = getTFElementType(parts[1], context);
      if (!type)
        return bad("unknown dtype '" + parts[1] + "'");
      setAttr("dtype", TypeAttr::get(type));
    }
    if (parts.size() == 3) {
      StringRef shape = parts[2].trim();
      if (shape == "*") {
        setAttr("shape", tf::ShapeAttr::get(context, false, {}));
        continue;
      }
      SmallVector<int64_t> dims;
      SmallVector<StringRef> dimTexts;
      shape.split(dimTexts, 'x', -1, /*KeepEmpty=*/true);
      if (shape.empty())
        dimTexts.clear(); // a scalar
      for (StringRef dim : dimTexts) {
        int64_t size;
        if (dim == "?" || dim == "-1")
          dims.push_back(ShapedType::kDynamic);
        else if (!dim.getAsInteger(10, size) && size >= 0)
          dims.push_back(size);
        else
          return bad("bad dimension '" + dim + "' in the shape '" + shape +
                     "'");
      }
      setAttr("shape", tf::ShapeAttr::get(context, true, dims));
    }
  }
  return success();
}

FailureOr<ImportedGraph>
GraphDefImporter::convertGraph(const pb::GraphDef &graphDef) {
  for (const pb::FunctionDef &function : graphDef.library().function())
    if (!libraryFunctions.try_emplace(function.signature().name(), &function)
             .second) {
      (void)error("the library has two functions named '" +
                  function.signature().name() + "'");
      return failure();
    }

  ImportedGraph graph;
  graph.source = name;
  for (const pb::NodeDef &nodeDef : graphDef.node()) {
    FailureOr<ImportedNode> node = convertNode(nodeDef);
    if (failed(node))
      return failure();
    graph.nodes.push_back(*std::move(node));
  }
  // Library functions; one that cannot be imported (a polymorphic one) is
  // an error only when the graph calls it.
  llvm::StringMap<std::string> unusable;
  for (const pb::FunctionDef &def : graphDef.library().function()) {
    FailureOr<ImportedFunction> function = convertFunction(def);
    if (failed(function)) {
      unusable[def.signature().name()] = std::move(errorMessage);
      errorMessage.clear();
      continue;
    }
    graph.library.push_back(*std::move(function));
  }
  if (!unusable.empty()) {
    llvm::StringMap<size_t> index;
    for (auto [i, function] : llvm::enumerate(graph.library))
      index[function.name] = i;
    llvm::StringSet<> seen;
    std::vector<const ImportedGraph *> work{&graph};
    while (!work.empty()) {
      const ImportedGraph *body = work.back();
      work.pop_back();
      for (const ImportedNode &node : body->nodes)
        for (const NamedAttribute &attr : node.attrs) {
          SmallVector<Attribute> values{attr.getValue()};
          if (auto list = dyn_cast<ArrayAttr>(attr.getValue()))
            values.assign(list.begin(), list.end());
          for (Attribute value : values) {
            auto symbol = dyn_cast<FlatSymbolRefAttr>(value);
            if (!symbol || !seen.insert(symbol.getValue()).second)
              continue;
            if (auto bad = unusable.find(symbol.getValue());
                bad != unusable.end()) {
              (void)error(bad->second);
              return failure();
            }
            if (auto it = index.find(symbol.getValue()); it != index.end())
              work.push_back(&graph.library[it->second].body);
          }
        }
    }
  }

  return graph;
}

OwningOpRef<ModuleOp> GraphDefImporter::import(StringRef bytes) {
  context->loadDialect<tf::TFTypeDialect, tf::TFDialect, func::FuncDialect,
                       TFRTFallbackDialect>();
  auto fail = [&]() -> OwningOpRef<ModuleOp> {
    emitError(errorLoc.value_or(UnknownLoc::get(context)))
        << name << ": " << errorMessage;
    return {};
  };
  pb::GraphDef graphDef;
  if (failed(parse(bytes, graphDef)))
    return fail();
  if (graphDef.node_size() == 0) {
    (void)error("the GraphDef has no nodes");
    return fail();
  }
  FailureOr<ImportedGraph> converted = convertGraph(graphDef);
  if (failed(converted))
    return fail();
  ImportedGraph graph = *std::move(converted);
  if (failed(applyInputs(graph)))
    return fail();
  SmallVector<StringRef> outputs;
  StringRef(options.outputs).split(outputs, ',', -1, /*KeepEmpty=*/false);
  for (StringRef output : outputs)
    graph.outputs.push_back(output.trim().str());
  return importGraph(graph, context);
}

FailureOr<ImportedNode> GraphDefImporter::importNode(StringRef bytes) {
  pb::NodeDef nodeDef;
  if (bytes.size() > static_cast<size_t>(INT32_MAX) ||
      !nodeDef.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    (void)error("not a serialized NodeDef");
    return failure();
  }
  return convertNode(nodeDef);
}

namespace {
/// `convert(importer)` on an importer with default options; its error text
/// in `error` when it fails.
template <typename Convert>
auto convertWithImporter(StringRef name, MLIRContext *context,
                         std::string &error, Convert convert) {
  GraphDefImportOptions options;
  GraphDefImporter importer(name, options, context);
  auto converted = convert(importer);
  if (failed(converted))
    error = importer.getError();
  return converted;
}
} // namespace

FailureOr<ImportedNode> tfrt_fallback::importNodeDef(StringRef bytes,
                                                     MLIRContext *context,
                                                     std::string &error) {
  return convertWithImporter("", context, error, [&](GraphDefImporter &i) {
    return i.importNode(bytes);
  });
}

FailureOr<ImportedGraph>
tfrt_fallback::convertGraphDef(const pb::GraphDef &graph, StringRef name,
                               MLIRContext *context, std::string &error) {
  return convertWithImporter(name, context, error, [&](GraphDefImporter &i) {
    return i.convertGraph(graph);
  });
}

FailureOr<ElementsAttr>
tfrt_fallback::convertTensorProto(const pb::TensorProto &tensor,
                                  MLIRContext *context, std::string &error) {
  return convertWithImporter("", context, error, [&](GraphDefImporter &i) {
    return i.convertTensor(tensor);
  });
}

OwningOpRef<ModuleOp>
tfrt_fallback::importGraphDef(StringRef bytes, StringRef name,
                              const GraphDefImportOptions &options,
                              MLIRContext *context) {
  GraphDefImporter importer(name, options, context);
  return importer.import(bytes);
}

bool tfrt_fallback::isTextGraphDefPath(StringRef path) {
  StringRef extension = llvm::sys::path::extension(path);
  return extension == ".pbtxt" || extension == ".pbtext" || extension == ".txt";
}

bool tfrt_fallback::isGraphDefPath(StringRef path) {
  StringRef extension = llvm::sys::path::extension(path);
  return extension == ".pb" || extension == ".pbtxt" || extension == ".pbtext";
}

void tfrt_fallback::registerGraphDefImportTranslation() {
  // Function-local, so tools that link the importer without registering
  // the translation do not get the options.
  static llvm::cl::opt<std::string> inputs(
      "inputs",
      llvm::cl::desc("--import-graphdef: the graph's inputs, "
                     "name[:dtype[:shape]],... (e.g. input:f32:1x224x224x3, "
                     "'?' for an unknown dimension); default: the "
                     "Placeholders"),
      llvm::cl::init(""));
  static llvm::cl::opt<std::string> outputs(
      "outputs",
      llvm::cl::desc("--import-graphdef: the graph's outputs, node[:index],... "
                     "; default: the nodes nobody consumes"),
      llvm::cl::init(""));
  registerImportTranslation(
      "import-graphdef",
      "Import a frozen TensorFlow GraphDef (binary .pb or text .pbtxt)",
      [](StringRef text, StringRef path, MLIRContext *context) {
        GraphDefImportOptions options;
        options.inputs = inputs;
        options.outputs = outputs;
        options.textFormat = isTextGraphDefPath(path);
        return importGraphDef(text, path, options, context);
      });
}

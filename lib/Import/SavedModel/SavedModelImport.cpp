//===- SavedModelImport.cpp - TensorFlow SavedModel importer
//---------------===//
//
// TF's loader (cc/saved_model/loader.cc) restores the variables by running
// the saver's restore op and then runs the init op; TF Serving then runs a
// signature by feeding its input tensors and fetching its outputs. Here the
// same happens at import:
//
// 1. The MetaGraphDef whose tag set is the requested one; its GraphDef is
//    converted as --import-graphdef converts one (GraphDefImport.h).
// 2. Per signature, the fed tensors become arguments (a fed tensor need not
//    be a Placeholder: TF1's half_plus_two feeds `x:0`, an Identity of
//    ParseExample) and what only they needed is pruned.
// 3. Each variable the signatures reach gets its value from the tensor
//    bundle (TensorBundle.h). Its checkpoint key comes from the saver's
//    restore graph (Assign / AssignVariableOp of a RestoreV2 output), from
//    the object graph for TF2 (the signature's concrete function binds the
//    variable's SavedObject, whose checkpoint key the bundle's
//    _CHECKPOINTABLE_OBJECT_GRAPH names), or is the variable's name.
//    - A reference variable (VariableV2) that no signature writes becomes a
//      constant, so folding and fusion see it.
//    - One that a signature writes (TF Serving's counter: Assign,
//      AssignAdd, AssignSub) becomes a resource variable: the VariableV2 a
//      VarHandleOp, its reads ReadVariableOps, its writes the *VariableOp
//      forms followed by a read (a ref op's output is the new value).
//    - Resource variables (VarHandleOp, TF2) stay.
//    The resource variables are assigned their values by the function
//    __saved_model_init_op.
// 4. Asset tensors (AssetFileDef) hold DIR/assets/<file>.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/SavedModelImport.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Import/GraphDefImport.h"
#include "tfrt_fallback/Import/GraphImport.h"
#include "tfrt_fallback/Import/ImportModel.h"
#include "tfrt_fallback/Runtime/StringTensor.h"
#include "tfrt_fallback/Runtime/TensorBundle.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include "graph.pb.h"
#include "saved_model.pb.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace mlir;
using namespace tfrt_fallback;
namespace pb = tfrt_fallback::graphdef;

namespace {

bool isRefVariable(StringRef op) {
  return op == "VariableV2" || op == "Variable";
}

/// Ref ops that write input 0, by the resource op that replaces them.
std::optional<StringRef> resourceFormOf(StringRef op) {
  if (op == "Assign")
    return StringRef("AssignVariableOp");
  if (op == "AssignAdd")
    return StringRef("AssignAddVariableOp");
  if (op == "AssignSub")
    return StringRef("AssignSubVariableOp");
  return std::nullopt;
}

/// Ops that update a reference variable in place and have no resource form
/// here.
bool isOtherRefWriter(StringRef op) {
  return op.starts_with("Scatter") || op.starts_with("Apply") ||
         op.starts_with("SparseApply") || op == "CountUpTo";
}

class SavedModelImporter {
public:
  SavedModelImporter(StringRef dir, const SavedModelImportOptions &options,
                     MLIRContext *context)
      : dir(dir.str()), pbPath(savedModelFile(dir)), options(options),
        context(context), builder(context),
        loc(FileLineColLoc::get(context, pbPath, 0, 0)) {}

  OwningOpRef<ModuleOp> import(StringRef bytes);

private:
  LogicalResult fail(const Twine &message) {
    emitError(loc) << message;
    return failure();
  }

  LogicalResult chooseMetaGraph(const pb::SavedModel &model);
  LogicalResult openBundle();
  LogicalResult mapCheckpointKeys();
  void applyAssets();
  void applyLegacyShapes();
  FailureOr<ImportedGraph> signatureGraph(const std::string &key);
  std::vector<size_t> reachable(const ImportedGraph &graph) const;
  FailureOr<ImportedNode> bundleConstant(const std::string &variable,
                                         StringRef nodeName);
  LogicalResult convertVariables(ImportedGraph &graph);
  LogicalResult importInit(ModuleOp module);
  LogicalResult importSignature(const std::string &key, ModuleOp module);

  std::string dir, pbPath;
  const SavedModelImportOptions &options;
  MLIRContext *context;
  Builder builder;
  Location loc;

  const pb::MetaGraphDef *metaGraph = nullptr;
  ImportedGraph base;
  llvm::StringMap<size_t> byName;
  std::optional<rt::TensorBundleReader> bundle;
  /// Variable node -> checkpoint key.
  llvm::StringMap<std::string> checkpointKeys;
  /// Reference variables some signature writes.
  llvm::StringSet<> writtenRefVariables;
  /// Resource variables (VarHandleOps, and converted reference variables)
  /// the signatures reach, for the init function, in first-reached order.
  std::vector<std::string> resourceVariables;
  llvm::StringSet<> resourceVariableSet;
  /// The VarHandleOps that replace written reference variables.
  llvm::StringMap<ImportedNode> resourceVariableNodes;
};

} // namespace

LogicalResult SavedModelImporter::chooseMetaGraph(const pb::SavedModel &model) {
  SmallVector<StringRef> wanted;
  StringRef(options.tags).split(wanted, ',', -1, /*KeepEmpty=*/false);
  for (StringRef &tag : wanted)
    tag = tag.trim();
  llvm::sort(wanted);
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<std::string> available;
  for (const pb::MetaGraphDef &meta : model.meta_graphs()) {
    std::vector<std::string> tags(meta.meta_info_def().tags().begin(),
                                  meta.meta_info_def().tags().end());
    llvm::sort(tags);
    tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
    if (tags.size() == wanted.size() &&
        std::equal(tags.begin(), tags.end(), wanted.begin()))
      metaGraph = &meta;
    available.push_back("{" + llvm::join(tags, ",") + "}");
  }
  if (!metaGraph)
    return fail("the SavedModel has no MetaGraphDef tagged {" +
                llvm::join(wanted, ",") + "} (it has " +
                (available.empty() ? std::string("none")
                                   : llvm::join(available, ", ")) +
                "; choose with --tags)");
  return success();
}

LogicalResult SavedModelImporter::openBundle() {
  std::string prefix = (dir + "/variables/variables");
  if (!llvm::sys::fs::exists(prefix + ".index"))
    return success(); // a model without variables
  rt::StatusOr<rt::TensorBundleReader> reader =
      rt::TensorBundleReader::open(prefix);
  if (!reader.ok())
    return fail(std::string(reader.status().message()));
  bundle.emplace(*std::move(reader));
  return success();
}

LogicalResult SavedModelImporter::mapCheckpointKeys() {
  // The saver's restore graph: Assign(var, RestoreV2:k) or
  // AssignVariableOp(handle, Identity*(RestoreV2:k)), the RestoreV2's
  // tensor_names a constant.
  auto constStrings = [&](const std::string &input) -> std::vector<StringRef> {
    auto it = byName.find(splitTensorName(input).node);
    if (it == byName.end() || base.nodes[it->second].op != "Const")
      return {};
    for (const NamedAttribute &attr : base.nodes[it->second].attrs)
      if (attr.getName() == "value")
        if (auto strings = dyn_cast<DenseStringElementsAttr>(attr.getValue()))
          return std::vector<StringRef>(strings.getRawStringData().begin(),
                                        strings.getRawStringData().end());
    return {};
  };
  for (const ImportedNode &node : base.nodes) {
    if ((node.op != "Assign" && node.op != "AssignVariableOp") ||
        node.inputs.size() < 2)
      continue;
    TensorName value = splitTensorName(node.inputs[1]);
    for (int hops = 0; hops < 8; ++hops) {
      auto it = byName.find(value.node);
      if (it == byName.end() || base.nodes[it->second].op != "Identity" ||
          base.nodes[it->second].inputs.empty())
        break;
      value = splitTensorName(base.nodes[it->second].inputs[0]);
    }
    auto restore = byName.find(value.node);
    if (restore == byName.end() ||
        base.nodes[restore->second].op != "RestoreV2" ||
        base.nodes[restore->second].inputs.size() < 2)
      continue;
    std::vector<StringRef> names =
        constStrings(base.nodes[restore->second].inputs[1]);
    if (value.index < names.size())
      checkpointKeys[splitTensorName(node.inputs[0]).node] =
          names[value.index].str();
  }

  // TF2: the object graph. A signature's concrete function binds
  // SavedObjects (its captures, the call's last inputs); the checkpoint's
  // own object graph gives each object's key.
  const pb::SavedObjectGraph &objects = metaGraph->object_graph_def();
  if (!bundle || objects.nodes_size() == 0)
    return success();
  std::map<int, std::string> keyOfObject;
  if (const rt::BundleEntry *entry =
          bundle->find("_CHECKPOINTABLE_OBJECT_GRAPH")) {
    (void)entry;
    rt::StatusOr<rt::Tensor> graph =
        bundle->read("_CHECKPOINTABLE_OBJECT_GRAPH");
    if (!graph.ok())
      return fail(std::string(graph.status().message()));
    pb::TrackableObjectGraph trackable;
    std::string_view bytes = rt::stringElements(*graph).empty()
                                 ? std::string_view()
                                 : rt::stringElements(*graph)[0];
    if (bytes.size() > static_cast<size_t>(INT32_MAX) ||
        !trackable.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      return fail("the checkpoint's _CHECKPOINTABLE_OBJECT_GRAPH is not a "
                  "TrackableObjectGraph");
    for (int id = 0; id < trackable.nodes_size(); ++id)
      for (const auto &attribute : trackable.nodes(id).attributes())
        if (attribute.name() == "VARIABLE_VALUE")
          keyOfObject[id] = attribute.checkpoint_key();
  }
  for (const ImportedNode &node : base.nodes) {
    if (node.op != "StatefulPartitionedCall" && node.op != "PartitionedCall")
      continue;
    StringRef callee;
    for (const NamedAttribute &attr : node.attrs)
      if (attr.getName() == "f")
        if (auto symbol = dyn_cast<FlatSymbolRefAttr>(attr.getValue()))
          callee = symbol.getValue();
    auto function = objects.concrete_functions().find(callee.str());
    if (function == objects.concrete_functions().end())
      continue;
    std::vector<std::string> data;
    for (const std::string &input : node.inputs)
      if (!splitTensorName(input).control)
        data.push_back(splitTensorName(input).node);
    const auto &bound = function->second.bound_inputs();
    if (static_cast<size_t>(bound.size()) > data.size())
      continue;
    for (int i = 0; i < bound.size(); ++i) {
      const std::string &handle = data[data.size() - bound.size() + i];
      auto key = keyOfObject.find(bound[i]);
      auto it = byName.find(handle);
      if (key != keyOfObject.end() && it != byName.end() &&
          base.nodes[it->second].op == "VarHandleOp")
        checkpointKeys.try_emplace(handle, key->second);
    }
  }
  return success();
}

void SavedModelImporter::applyAssets() {
  std::vector<pb::AssetFileDef> assets(metaGraph->asset_file_def().begin(),
                                       metaGraph->asset_file_def().end());
  if (assets.empty()) {
    auto collection = metaGraph->collection_def().find("saved_model_assets");
    if (collection != metaGraph->collection_def().end())
      for (const pb::Any &any : collection->second.any_list().value()) {
        pb::AssetFileDef asset;
        if (asset.ParseFromString(any.value()))
          assets.push_back(asset);
      }
  }
  auto stringType = tf::StringType::get(context);
  for (const pb::AssetFileDef &asset : assets) {
    auto it = byName.find(splitTensorName(asset.tensor_info().name()).node);
    if (it == byName.end())
      continue;
    ImportedNode &node = base.nodes[it->second];
    std::string path = dir + "/assets/" + asset.filename();
    node.op = "Const";
    node.inputs.clear();
    node.attrs.clear();
    auto type = RankedTensorType::get({}, stringType);
    node.attrs.push_back(builder.getNamedAttr(
        "value", DenseStringElementsAttr::get(type, {StringRef(path)})));
    node.attrs.push_back(
        builder.getNamedAttr("dtype", TypeAttr::get(stringType)));
  }
}

void SavedModelImporter::applyLegacyShapes() {
  // Graphs written before GraphDef version 22 meant "unknown" by a
  // Placeholder's empty shape (TF's Placeholder shape function).
  if (metaGraph->graph_def().versions().producer() > 21)
    return;
  for (ImportedNode &node : base.nodes) {
    if (node.op != "Placeholder")
      continue;
    for (NamedAttribute &attr : node.attrs)
      if (attr.getName() == "shape")
        if (auto shape = dyn_cast<tf::ShapeAttr>(attr.getValue());
            shape && shape.getRanked() && shape.getDims().empty())
          attr.setValue(tf::ShapeAttr::get(context, false, {}));
  }
}

std::vector<size_t>
SavedModelImporter::reachable(const ImportedGraph &graph) const {
  llvm::StringMap<size_t> index;
  for (auto [i, node] : llvm::enumerate(graph.nodes))
    index.try_emplace(node.name, i);
  std::vector<uint8_t> seen(graph.nodes.size(), 0);
  std::vector<size_t> work, order;
  auto visit = [&](StringRef name) {
    auto it = index.find(splitTensorName(name).node);
    if (it != index.end() && !seen[it->second]) {
      seen[it->second] = 1;
      work.push_back(it->second);
    }
  };
  for (const std::string &output : graph.outputs)
    visit(output);
  for (const std::string &output : graph.controlOutputs)
    visit(output);
  while (!work.empty()) {
    size_t i = work.back();
    work.pop_back();
    order.push_back(i);
    for (const std::string &input : graph.nodes[i].inputs)
      visit(input);
  }
  return order;
}

FailureOr<ImportedGraph>
SavedModelImporter::signatureGraph(const std::string &key) {
  const pb::SignatureDef &signature = metaGraph->signature_def().at(key);
  ImportedGraph graph;
  graph.source = base.source;
  graph.nodes = base.nodes;
  // The library is shared: importSignature passes only what the module
  // lacks.
  llvm::StringMap<size_t> index;
  for (auto [i, node] : llvm::enumerate(graph.nodes))
    index.try_emplace(node.name, i);
  auto sortedKeys = [](const auto &map) {
    std::vector<std::string> keys;
    for (const auto &entry : map)
      keys.push_back(entry.first);
    llvm::sort(keys);
    return keys;
  };
  for (const std::string &inputKey : sortedKeys(signature.inputs())) {
    const pb::TensorInfo &info = signature.inputs().at(inputKey);
    if (info.name().empty())
      return fail("signature '" + key + "': the input '" + inputKey +
                  "' is not a dense tensor (sparse and composite inputs are "
                  "not supported)");
    TensorName ref = splitTensorName(info.name());
    auto it = index.find(ref.node);
    if (it == index.end())
      return fail("signature '" + key + "': the input '" + inputKey +
                  "' names the tensor '" + info.name() +
                  "', which the graph does not have");
    ImportedNode &node = graph.nodes[it->second];
    if (ref.index == 0 && node.op == "Placeholder") {
      graph.inputs.push_back(node.name);
      continue;
    }
    // A fed tensor: a Placeholder of its dtype takes its place. The node's
    // own dtype wins over the TensorInfo's (half_plus_three's regress
    // signature declares its string input as float).
    Type element;
    for (const NamedAttribute &attr : node.attrs)
      if (attr.getName() == "dtype" || attr.getName() == "T")
        if (auto type = dyn_cast<TypeAttr>(attr.getValue()))
          element = type.getValue();
    if (!element || ref.index != 0)
      element = getTFElementType(
          info.dtype() > 100 ? info.dtype() - 100 : info.dtype(), context);
    if (!element)
      return fail("signature '" + key + "': the input '" + inputKey +
                  "' has an unsupported dtype");
    Attribute shape = tf::ShapeAttr::get(context, false, {});
    if (info.has_tensor_shape() && !info.tensor_shape().unknown_rank()) {
      SmallVector<int64_t> dims;
      for (const auto &dim : info.tensor_shape().dim())
        dims.push_back(dim.size() < 0 ? ShapedType::kDynamic : dim.size());
      shape = tf::ShapeAttr::get(context, true, dims);
    }
    ImportedNode feed;
    feed.name = ref.index == 0
                    ? ref.node
                    : ref.node + "/__feed_" + std::to_string(ref.index);
    feed.op = "Placeholder";
    feed.attrs.push_back(builder.getNamedAttr("dtype", TypeAttr::get(element)));
    feed.attrs.push_back(builder.getNamedAttr("shape", shape));
    graph.inputs.push_back(feed.name);
    if (ref.index == 0) {
      node = std::move(feed);
    } else {
      std::string fed = ref.node + ":" + std::to_string(ref.index);
      for (ImportedNode &consumer : graph.nodes)
        for (std::string &input : consumer.inputs)
          if (input == fed)
            input = feed.name;
      graph.nodes.push_back(std::move(feed));
    }
  }
  for (const std::string &outputKey : sortedKeys(signature.outputs())) {
    const pb::TensorInfo &info = signature.outputs().at(outputKey);
    if (info.name().empty())
      return fail("signature '" + key + "': the output '" + outputKey +
                  "' is not a dense tensor (sparse and composite outputs "
                  "are not supported)");
    TensorName ref = splitTensorName(info.name());
    if (!index.count(ref.node))
      return fail("signature '" + key + "': the output '" + outputKey +
                  "' names the tensor '" + info.name() +
                  "', which the graph does not have");
    graph.outputs.push_back(ref.node + ":" + std::to_string(ref.index));
  }
  return graph;
}

FailureOr<ImportedNode>
SavedModelImporter::bundleConstant(const std::string &variable,
                                   StringRef nodeName) {
  auto key = checkpointKeys.find(variable);
  std::string name = key != checkpointKeys.end() ? key->second : variable;
  if (!bundle)
    return fail("the variable '" + variable +
                "' needs a value, and the SavedModel has no "
                "variables/variables.index");
  rt::StatusOr<rt::Tensor> value = bundle->read(name);
  if (!value.ok())
    return fail("the variable '" + variable +
                "': " + std::string(value.status().message()));
  pb::TensorProto proto;
  proto.set_dtype(static_cast<pb::DataType>(value->dtype()));
  for (int64_t dim : value->shape().dims())
    proto.mutable_tensor_shape()->add_dim()->set_size(dim);
  if (value->dtype() == rt::DType::String) {
    for (std::string_view s : rt::stringElements(*value))
      proto.add_string_val(std::string(s));
  } else {
    proto.set_tensor_content(static_cast<const char *>(value->rawData()),
                             value->totalBytes());
  }
  std::string error;
  FailureOr<ElementsAttr> attr = convertTensorProto(proto, context, error);
  if (failed(attr))
    return fail("the variable '" + variable + "': " + error);
  ImportedNode node;
  node.name = nodeName.str();
  node.op = "Const";
  node.attrs.push_back(builder.getNamedAttr("value", *attr));
  node.attrs.push_back(builder.getNamedAttr(
      "dtype", TypeAttr::get(getElementTypeOrSelf(attr->getType()))));
  return node;
}

LogicalResult SavedModelImporter::convertVariables(ImportedGraph &graph) {
  std::vector<size_t> order = reachable(graph);
  llvm::StringMap<size_t> index;
  for (auto [i, node] : llvm::enumerate(graph.nodes))
    index.try_emplace(node.name, i);
  // Reached resource variables, for the init function.
  for (size_t i : order)
    if (graph.nodes[i].op == "VarHandleOp" &&
        resourceVariableSet.insert(graph.nodes[i].name).second)
      resourceVariables.push_back(graph.nodes[i].name);

  std::vector<ImportedNode> added;
  for (size_t i : order) {
    if (!isRefVariable(graph.nodes[i].op))
      continue;
    ImportedNode &variable = graph.nodes[i];
    const std::string name = variable.name;
    if (!writtenRefVariables.contains(name)) {
      FailureOr<ImportedNode> constant = bundleConstant(name, name);
      if (failed(constant))
        return failure();
      variable = *std::move(constant);
      continue;
    }
    // A resource variable: the handle under a new name, the old name a
    // read of it, each write its resource form and then a read.
    Type element;
    Attribute shape;
    for (const NamedAttribute &attr : variable.attrs) {
      if (attr.getName() == "dtype")
        if (auto type = dyn_cast<TypeAttr>(attr.getValue()))
          element = type.getValue();
      if (attr.getName() == "shape")
        shape = attr.getValue();
    }
    if (!element)
      return fail("the variable '" + name + "' has no dtype");
    const std::string handleName = name + "/__handle";
    ImportedNode handle;
    handle.name = handleName;
    handle.op = "VarHandleOp";
    handle.device = variable.device;
    handle.attrs.push_back(
        builder.getNamedAttr("dtype", TypeAttr::get(element)));
    handle.attrs.push_back(builder.getNamedAttr(
        "shape", shape ? shape : tf::ShapeAttr::get(context, false, {})));
    handle.attrs.push_back(
        builder.getNamedAttr("shared_name", builder.getStringAttr(name)));
    handle.attrs.push_back(
        builder.getNamedAttr("container", builder.getStringAttr("")));
    if (resourceVariableSet.insert(handleName).second) {
      resourceVariables.push_back(handleName);
      checkpointKeys.try_emplace(
          handleName, checkpointKeys.count(name) ? checkpointKeys[name] : name);
      resourceVariableNodes[handleName] = handle;
    }
    auto dtypeAttr = builder.getNamedAttr("dtype", TypeAttr::get(element));
    ImportedNode read;
    read.name = name;
    read.op = "ReadVariableOp";
    read.inputs = {handleName};
    read.attrs.push_back(dtypeAttr);
    variable = read;
    added.push_back(handle);
    for (ImportedNode &consumer : graph.nodes) {
      std::optional<StringRef> form = resourceFormOf(consumer.op);
      if (!form || consumer.inputs.empty() ||
          splitTensorName(consumer.inputs[0]).node != name)
        continue;
      ImportedNode update;
      update.name = consumer.name + "/__update";
      update.op = form->str();
      update.device = consumer.device;
      update.inputs = consumer.inputs;
      update.inputs[0] = handleName;
      update.attrs.push_back(dtypeAttr);
      consumer.op = "ReadVariableOp";
      consumer.inputs = {handleName, "^" + update.name};
      consumer.attrs = {dtypeAttr};
      added.push_back(std::move(update));
    }
  }
  llvm::append_range(graph.nodes, added);
  return success();
}

LogicalResult SavedModelImporter::importInit(ModuleOp module) {
  if (resourceVariables.empty())
    return success();
  ImportedGraph init;
  init.source = base.source;
  for (const std::string &name : resourceVariables) {
    ImportedNode handle;
    if (auto it = resourceVariableNodes.find(name);
        it != resourceVariableNodes.end())
      handle = it->second;
    else
      handle = base.nodes[byName.lookup(name)];
    FailureOr<ImportedNode> value =
        bundleConstant(name, name + "/__init_value");
    if (failed(value))
      return failure();
    ImportedNode assign;
    assign.name = name + "/__init";
    assign.op = "AssignVariableOp";
    assign.inputs = {name, value->name};
    for (const NamedAttribute &attr : value->attrs)
      if (attr.getName() == "dtype")
        assign.attrs.push_back(attr);
    init.controlOutputs.push_back(assign.name);
    init.nodes.push_back(std::move(handle));
    init.nodes.push_back(*std::move(value));
    init.nodes.push_back(std::move(assign));
  }
  FailureOr<func::FuncOp> func = importGraphAsFunction(
      std::move(init), kSavedModelInitFunction, module, /*isMain=*/false, loc);
  if (failed(func))
    return failure();
  func->setPublic();
  return success();
}

LogicalResult SavedModelImporter::importSignature(const std::string &key,
                                                  ModuleOp module) {
  FailureOr<ImportedGraph> graph = signatureGraph(key);
  if (failed(graph) || failed(convertVariables(*graph)))
    return failure();
  // Only what the signature reaches: the saver's nodes call functions
  // (the traced save and restore) that the runtime need not have.
  {
    std::vector<size_t> keep = reachable(*graph);
    llvm::sort(keep);
    std::vector<ImportedNode> nodes;
    nodes.reserve(keep.size());
    for (size_t i : keep)
      nodes.push_back(std::move(graph->nodes[i]));
    graph->nodes = std::move(nodes);
  }
  // The library functions the module does not have yet (an earlier
  // signature may have brought them).
  for (const ImportedFunction &function : base.library)
    if (!module.lookupSymbol(function.name))
      graph->library.push_back(function);
  const size_t numArgs = graph->inputs.size();
  FailureOr<func::FuncOp> func = importGraphAsFunction(
      *std::move(graph), key, module, /*isMain=*/false, loc);
  if (failed(func))
    return failure();
  func->setPublic();
  const pb::SignatureDef &signature = metaGraph->signature_def().at(key);
  std::vector<std::string> inputKeys, outputKeys;
  for (const auto &entry : signature.inputs())
    inputKeys.push_back(entry.first);
  for (const auto &entry : signature.outputs())
    outputKeys.push_back(entry.first);
  llvm::sort(inputKeys);
  llvm::sort(outputKeys);
  if (inputKeys.size() != numArgs || outputKeys.size() != func->getNumResults())
    return fail("signature '" + key +
                "': the function's inputs and outputs "
                "do not match the signature's");
  auto indexPath = [&](StringRef name) {
    return builder.getArrayAttr({builder.getStringAttr(name)});
  };
  for (auto [i, name] : llvm::enumerate(inputKeys))
    func->setArgAttr(i, "tf_saved_model.index_path", indexPath(name));
  for (auto [i, name] : llvm::enumerate(outputKeys))
    func->setResultAttr(i, "tf_saved_model.index_path", indexPath(name));
  (*func)->setAttr("tf_saved_model.exported_names",
                   builder.getArrayAttr({builder.getStringAttr(key)}));
  return success();
}

OwningOpRef<ModuleOp> SavedModelImporter::import(StringRef bytes) {
  context->loadDialect<tf::TFTypeDialect, tf::TFDialect, func::FuncDialect,
                       TFRTFallbackDialect>();
  pb::SavedModel model;
  if (bytes.size() > static_cast<size_t>(INT32_MAX) ||
      !model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    (void)fail("'" + pbPath + "' is not a SavedModel (truncated or corrupt)");
    return {};
  }
  if (failed(chooseMetaGraph(model)))
    return {};
  // Attributes a writer with stripped_default_attrs left out get their
  // OpDef's default (TF's AddDefaultAttrsToGraphDef).
  pb::GraphDef graphDef = metaGraph->graph_def();
  {
    std::map<std::string, const pb::OpDef *> opDefs;
    for (const pb::OpDef &op :
         metaGraph->meta_info_def().stripped_op_list().op())
      opDefs[op.name()] = &op;
    auto addDefaults = [&](pb::NodeDef &node) {
      auto op = opDefs.find(node.op());
      if (op == opDefs.end())
        return;
      for (const pb::OpDef::AttrDef &attr : op->second->attr())
        if (attr.has_default_value() && !node.attr().count(attr.name()))
          (*node.mutable_attr())[attr.name()] = attr.default_value();
    };
    for (pb::NodeDef &node : *graphDef.mutable_node())
      addDefaults(node);
    for (pb::FunctionDef &function :
         *graphDef.mutable_library()->mutable_function())
      for (pb::NodeDef &node : *function.mutable_node_def())
        addDefaults(node);
  }
  std::string error;
  FailureOr<ImportedGraph> graph =
      convertGraphDef(graphDef, pbPath, context, error);
  if (failed(graph)) {
    (void)fail(error);
    return {};
  }
  base = *std::move(graph);
  for (auto [i, node] : llvm::enumerate(base.nodes))
    byName.try_emplace(node.name, i);
  if (failed(openBundle()) || failed(mapCheckpointKeys()))
    return {};
  applyAssets();
  applyLegacyShapes();

  std::vector<std::string> keys;
  for (const auto &entry : metaGraph->signature_def())
    if (entry.first != kSavedModelInitFunction)
      keys.push_back(entry.first);
  llvm::sort(keys);
  if (!options.signature.empty()) {
    if (!llvm::is_contained(keys, options.signature)) {
      (void)fail("the SavedModel has no signature '" + options.signature +
                 "' (it has " +
                 (keys.empty() ? std::string("none") : llvm::join(keys, ", ")) +
                 ")");
      return {};
    }
    keys = {options.signature};
  }
  if (keys.empty()) {
    (void)fail("the MetaGraphDef has no signatures");
    return {};
  }

  // Which reference variables the signatures write: those become resource
  // variables in every signature, so that their state is shared.
  for (const std::string &key : keys) {
    FailureOr<ImportedGraph> signature = signatureGraph(key);
    if (failed(signature))
      return {};
    for (size_t i : reachable(*signature)) {
      const ImportedNode &node = signature->nodes[i];
      if (node.inputs.empty())
        continue;
      std::string target = splitTensorName(node.inputs[0]).node;
      auto it = byName.find(target);
      if (it == byName.end() || !isRefVariable(base.nodes[it->second].op))
        continue;
      if (resourceFormOf(node.op))
        writtenRefVariables.insert(target);
      else if (isOtherRefWriter(node.op)) {
        (void)fail("signature '" + key + "': '" + node.name + "' (" + node.op +
                   ") updates the variable '" + target +
                   "' in place, which is not supported");
        return {};
      }
    }
  }

  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  for (const std::string &key : keys)
    if (failed(importSignature(key, *module)))
      return {};
  if (failed(importInit(*module)))
    return {};
  return module;
}

OwningOpRef<ModuleOp>
tfrt_fallback::importSavedModel(StringRef bytes, StringRef dir,
                                const SavedModelImportOptions &options,
                                MLIRContext *context) {
  SavedModelImporter importer(dir, options, context);
  return importer.import(bytes);
}

bool tfrt_fallback::isSavedModelPath(StringRef path) {
  if (llvm::sys::path::filename(path) == "saved_model.pb")
    return true;
  return llvm::sys::fs::is_directory(path) &&
         llvm::sys::fs::exists(path + "/saved_model.pb");
}

std::string tfrt_fallback::savedModelFile(StringRef path) {
  if (path.empty())
    return "saved_model.pb";
  if (llvm::sys::fs::is_directory(path))
    return (path + "/saved_model.pb").str();
  return path.str();
}

void tfrt_fallback::registerSavedModelImportTranslation() {
  static llvm::cl::opt<std::string> tags(
      "tags",
      llvm::cl::desc("--import-saved-model: the MetaGraphDef's tags, "
                     "comma-separated (default: serve)"),
      llvm::cl::init("serve"));
  static llvm::cl::opt<std::string> signature(
      "signature",
      llvm::cl::desc("--import-saved-model: import only this signature "
                     "(default: every signature)"),
      llvm::cl::init(""));
  registerImportTranslation(
      "import-saved-model",
      "Import a TensorFlow SavedModel (its directory or its saved_model.pb)",
      [](StringRef text, StringRef path, MLIRContext *context) {
        SavedModelImportOptions options;
        options.tags = tags;
        options.signature = signature;
        return importSavedModel(text, llvm::sys::path::parent_path(path),
                                options, context);
      });
}

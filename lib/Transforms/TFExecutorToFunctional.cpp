//===- TFExecutorToFunctional.cpp - inline tf_executor graphs ---*- C++ -*-===//
//
// The --tf-executor-to-functional pass. A tf_executor.graph of islands only:
// the ops of every island move in front of the graph, in order, and the
// graph's results are replaced with the fetched values; control tokens (and
// ControlTrigger) are dropped. A graph that holds TensorFlow v1 control flow
// (Switch, Merge, Enter, Exit, NextIteration, LoopCond) becomes an imported
// graph (lib/Import/Graph): each op a node, control tokens `^node` inputs,
// values from outside the graph Placeholders; functionalizeControlFlow turns
// its loops and conditionals into While and If nodes with new functions, and
// the graph, emitted as a function, is inlined in place of the
// tf_executor.graph.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorDialect.h"
#include "tfrt_fallback/Import/GraphImport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringSet.h"

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFEXECUTORTOFUNCTIONAL
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;
using namespace tfrt_fallback::tf_executor;

namespace {

/// Whether `graph` holds TensorFlow v1 control flow (anything but islands,
/// the fetch and ControlTriggers).
bool hasV1ControlFlow(GraphOp graph) {
  return llvm::any_of(graph.getBody().front(), [](Operation &op) {
    return !isa<IslandOp, FetchOp, ControlTriggerOp>(op);
  });
}

/// Inlines the islands of `graph` in front of it and erases it.
void inlineGraph(GraphOp graph) {
  Block &block = graph.getBody().front();
  for (auto island : block.getOps<IslandOp>()) {
    Block &body = island.getBody().front();
    YieldOp yield = island.getYield();
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
      op.moveBefore(graph);
    for (auto [result, value] :
         llvm::zip_equal(island.getOutputs(), yield.getOperands()))
      result.replaceAllUsesWith(value);
  }
  FetchOp fetch = graph.getFetch();
  for (auto [index, result] : llvm::enumerate(graph.getResults()))
    result.replaceAllUsesWith(fetch.getOperand(index));
  // What is left uses only control tokens: erase users before producers.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block)))
    op.erase();
  graph.erase();
}

/// Node names in the order first inserted, each once.
struct NameList {
  void insert(StringRef name) {
    if (seen.insert(name).second)
      names.push_back(name.str());
  }
  template <typename Range> void insertAll(const Range &range) {
    for (const auto &name : range)
      insert(StringRef(name));
  }
  llvm::StringSet<> seen;
  std::vector<std::string> names;
};

/// TF v1 control-flow node names the importer cannot emit.
bool isV1ControlFlowNode(StringRef op) {
  return llvm::is_contained(
      {"Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond"}, op);
}

/// A tf_executor.graph as an ImportedGraph: the graph's ops become nodes
/// (named by their locations), its control tokens `^node` inputs.
class GraphConverter {
public:
  explicit GraphConverter(GraphOp graph) : graph(graph) {}

  /// Fills `imported`; reports (emitOpError) ops that have no node form.
  LogicalResult convert();

  ImportedGraph imported;
  /// The op each node comes from (a NextIteration node: its Source).
  llvm::StringMap<Operation *> opOfNode;
  /// The values the graph reads from outside, in the order of
  /// `imported.inputs`.
  SmallVector<Value> externalValues;
  /// Nodes whose control tokens the fetch waits for.
  NameList fetchedControls;

private:
  /// A new node for `op`, named after its location.
  ImportedNode &addNode(Operation *op, StringRef opName);
  std::string uniqueName(StringRef base);
  /// The tensor name of a data value (a Placeholder for an outside value).
  std::string tensorOf(Value value);
  /// Appends `^node` inputs for the control tokens `controls`.
  void addControls(ImportedNode &node, ValueRange controls);
  /// The nodes a control token stands for.
  ArrayRef<std::string> nodesOf(Value control);
  /// Sets T (the dtype `type` carries) and copies the op's own attributes.
  void setAttrs(ImportedNode &node, Operation *op, Type type);

  GraphOp graph;
  llvm::StringSet<> names;
  DenseMap<Value, std::string> tensors;
  DenseMap<Value, SmallVector<std::string>> controlNodes;
  DenseMap<Value, size_t> nodeOfToken; // NextIteration token -> node
};

std::string GraphConverter::uniqueName(StringRef base) {
  // "node:1" and "^node" would read as an output or a control input.
  std::string clean;
  for (char c : base)
    clean.push_back(c == ':' || c == '^' ? '_' : c);
  if (clean.empty())
    clean = "node";
  std::string candidate = clean;
  for (int i = 1; !names.insert(candidate).second; ++i)
    candidate = clean + "_" + std::to_string(i);
  return candidate;
}

ImportedNode &GraphConverter::addNode(Operation *op, StringRef opName) {
  std::string base;
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    base = name.getName().str();
  else
    base = opName.str();
  ImportedNode &node = imported.nodes.emplace_back();
  node.name = uniqueName(base);
  node.op = opName.str();
  node.location = op->getLoc();
  opOfNode[node.name] = op;
  return node;
}

std::string GraphConverter::tensorOf(Value value) {
  auto it = tensors.find(value);
  if (it != tensors.end())
    return it->second;
  // Defined outside the graph: an input.
  ImportedNode &node = imported.nodes.emplace_back();
  node.name = uniqueName("input");
  node.op = "Placeholder";
  node.resultTypes = SmallVector<Type>{value.getType()};
  node.location = value.getLoc();
  imported.inputs.push_back(node.name);
  externalValues.push_back(value);
  std::string name = node.name;
  tensors[value] = name;
  return name;
}

ArrayRef<std::string> GraphConverter::nodesOf(Value control) {
  return controlNodes[control];
}

void GraphConverter::addControls(ImportedNode &node, ValueRange controls) {
  for (Value control : controls)
    for (const std::string &name : nodesOf(control)) {
      std::string input = "^" + name;
      if (!llvm::is_contained(node.inputs, input))
        node.inputs.push_back(input);
    }
}

void GraphConverter::setAttrs(ImportedNode &node, Operation *op, Type type) {
  MLIRContext *context = op->getContext();
  // T (TensorFlow's may be a "tfdtype$DT_INT32" string) and a Merge's N are
  // set from the types.
  for (NamedAttribute attr : op->getDiscardableAttrs())
    if (attr.getName() != "T" && attr.getName() != "N")
      node.attrs.push_back(attr);
  node.attrs.push_back(
      NamedAttribute(StringAttr::get(context, "T"),
                     TypeAttr::get(getElementTypeOrSelf(type))));
}

LogicalResult GraphConverter::convert() {
  MLIRContext *context = graph.getContext();
  Builder builder(context);
  bool ok = true;
  // Results of a node: data values get "node:k", the control token the node.
  auto bind = [&](ImportedNode &node, ValueRange data, Value control) {
    for (auto [k, value] : llvm::enumerate(data))
      tensors[value] = k == 0 ? node.name : node.name + ":" + std::to_string(k);
    if (control)
      controlNodes[control] = {node.name};
  };
  auto types = [](ValueRange values) {
    return SmallVector<Type>(values.getTypes());
  };
  for (Operation &op : graph.getBody().front()) {
    if (auto island = dyn_cast<IslandOp>(op)) {
      SmallVector<std::string> members;
      for (Operation &inner : island.getBody().front().without_terminator()) {
        StringRef name = inner.getName().getStringRef();
        if (!name.consume_front("tf.") || inner.getNumRegions() != 0) {
          inner.emitOpError("cannot be part of a tf_executor graph with "
                            "TensorFlow v1 control flow: only TF ops without "
                            "regions can be turned into graph nodes");
          ok = false;
          continue;
        }
        std::vector<std::string> inputs;
        for (Value operand : inner.getOperands())
          inputs.push_back(tensorOf(operand));
        ImportedNode &node = addNode(&inner, name);
        node.inputs = std::move(inputs);
        addControls(node, island.getControlInputs());
        node.attrs.assign(inner.getAttrs().begin(), inner.getAttrs().end());
        node.resultTypes = types(inner.getResults());
        bind(node, inner.getResults(), Value());
        members.push_back(node.name);
      }
      for (auto [result, value] : llvm::zip_equal(
               island.getOutputs(), island.getYield().getOperands())) {
        std::string tensor = tensorOf(value);
        tensors[result] = std::move(tensor);
      }
      // An island's token: all its ops have run (an empty island: its
      // control inputs have).
      if (members.empty()) {
        NameList inputs;
        for (Value control : island.getControlInputs())
          inputs.insertAll(nodesOf(control));
        members.assign(inputs.names.begin(), inputs.names.end());
      }
      controlNodes[island.getControl()] = std::move(members);
      continue;
    }
    if (auto trigger = dyn_cast<ControlTriggerOp>(op)) {
      NameList inputs;
      for (Value control : trigger.getControlInputs())
        inputs.insertAll(nodesOf(control));
      controlNodes[trigger.getControl()] = llvm::to_vector(inputs.names);
      continue;
    }
    if (auto fetch = dyn_cast<FetchOp>(op)) {
      for (Value value : fetch.getFetches()) {
        if (isa<ControlType>(value.getType())) {
          for (const std::string &name : nodesOf(value))
            fetchedControls.insert(name);
          continue;
        }
        imported.outputs.push_back(tensorOf(value));
      }
      continue;
    }
    if (auto sw = dyn_cast<SwitchOp>(op)) {
      std::vector<std::string> inputs{tensorOf(sw.getData()),
                                      tensorOf(sw.getPredicate())};
      ImportedNode &node = addNode(sw, "Switch");
      node.inputs = std::move(inputs);
      addControls(node, sw.getControlInputs());
      setAttrs(node, sw, sw.getData().getType());
      node.resultTypes = SmallVector<Type>{sw.getFalseOutput().getType(),
                                           sw.getTrueOutput().getType()};
      bind(node, {sw.getFalseOutput(), sw.getTrueOutput()}, sw.getControl());
      continue;
    }
    if (auto merge = dyn_cast<MergeOp>(op)) {
      std::vector<std::string> inputs;
      SmallVector<Value> controls;
      for (Value operand : merge.getInputsAndControl()) {
        if (isa<ControlType>(operand.getType()))
          controls.push_back(operand);
        else
          inputs.push_back(tensorOf(operand));
      }
      int64_t numData = inputs.size();
      ImportedNode &node = addNode(merge, "Merge");
      node.inputs = std::move(inputs);
      addControls(node, controls);
      setAttrs(node, merge, merge.getOutput().getType());
      node.attrs.push_back(NamedAttribute(builder.getStringAttr("N"),
                                          builder.getI64IntegerAttr(numData)));
      node.resultTypes = SmallVector<Type>{merge.getOutput().getType(),
                                           merge.getValueIndex().getType()};
      bind(node, {merge.getOutput(), merge.getValueIndex()},
           merge.getControl());
      continue;
    }
    if (auto enter = dyn_cast<EnterOp>(op)) {
      std::vector<std::string> inputs{tensorOf(enter.getData())};
      ImportedNode &node = addNode(enter, "Enter");
      node.inputs = std::move(inputs);
      addControls(node, enter.getControlInputs());
      setAttrs(node, enter, enter.getData().getType());
      node.attrs.push_back(NamedAttribute(builder.getStringAttr("frame_name"),
                                          enter.getFrameNameAttr()));
      node.attrs.push_back(
          NamedAttribute(builder.getStringAttr("is_constant"),
                         builder.getBoolAttr(enter.getIsConstant())));
      node.attrs.push_back(NamedAttribute(
          builder.getStringAttr("parallel_iterations"),
          builder.getI64IntegerAttr(enter.getParallelIterations())));
      node.resultTypes = SmallVector<Type>{enter.getOutput().getType()};
      bind(node, enter.getOutput(), enter.getControl());
      continue;
    }
    if (auto exit = dyn_cast<ExitOp>(op)) {
      std::vector<std::string> inputs{tensorOf(exit.getData())};
      ImportedNode &node = addNode(exit, "Exit");
      node.inputs = std::move(inputs);
      addControls(node, exit.getControlInputs());
      setAttrs(node, exit, exit.getData().getType());
      node.resultTypes = SmallVector<Type>{exit.getOutput().getType()};
      bind(node, exit.getOutput(), exit.getControl());
      continue;
    }
    if (auto loopCond = dyn_cast<LoopCondOp>(op)) {
      std::vector<std::string> inputs{tensorOf(loopCond.getInput())};
      ImportedNode &node = addNode(loopCond, "LoopCond");
      node.inputs = std::move(inputs);
      addControls(node, loopCond.getControlInputs());
      for (NamedAttribute attr : loopCond->getDiscardableAttrs())
        node.attrs.push_back(attr);
      node.resultTypes = SmallVector<Type>{loopCond.getOutput().getType()};
      bind(node, loopCond.getOutput(), loopCond.getControl());
      continue;
    }
    if (auto source = dyn_cast<NextIterationSourceOp>(op)) {
      // One NextIteration node; its Sink gives it its input.
      ImportedNode &node = addNode(source, "NextIteration");
      setAttrs(node, source, source.getOutput().getType());
      node.resultTypes = SmallVector<Type>{source.getOutput().getType()};
      nodeOfToken[source.getToken()] = imported.nodes.size() - 1;
      bind(node, source.getOutput(), source.getControl());
      continue;
    }
    if (auto sink = dyn_cast<NextIterationSinkOp>(op)) {
      // The verifier pairs every Sink with a Source that comes before it.
      auto it = nodeOfToken.find(sink.getToken());
      if (it == nodeOfToken.end()) {
        sink.emitOpError("takes a token no NextIteration.Source before it "
                         "produced");
        ok = false;
        continue;
      }
      std::string input = tensorOf(sink.getInput());
      ImportedNode &node = imported.nodes[it->second];
      node.inputs.insert(node.inputs.begin(), input);
      addControls(node, sink.getControlInputs());
      continue;
    }
    // _SwitchN (a lowered tf.Case): no functional form is made for it.
    op.emitOpError("is TensorFlow v1 control flow that "
                   "--tf-executor-to-functional cannot turn into functional "
                   "control flow: only loops (Enter, Merge, Switch, LoopCond, "
                   "NextIteration, Exit) and conditionals (Switch, Merge) "
                   "can");
    ok = false;
  }
  return success(ok);
}

/// Functionalizes the v1 control flow of `graph` and inlines the result in
/// its place.
LogicalResult functionalizeGraph(GraphOp graph, ModuleOp module) {
  GraphConverter converter(graph);
  if (failed(converter.convert()))
    return failure();
  ImportedGraph &imported = converter.imported;
  auto opOf = [&](StringRef node) -> Operation * {
    Operation *op = converter.opOfNode.lookup(node);
    return op ? op : graph.getOperation();
  };

  // Functions take names no symbol of the module has.
  llvm::StringSet<> taken;
  for (Operation &op : module.getBody()->getOperations())
    if (auto symbol =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      taken.insert(symbol.getValue());
  std::vector<ImportedFunction> functions;
  std::string error, errorNode;
  if (failed(functionalizeControlFlow(imported, functions, graph.getContext(),
                                      error, &taken, &errorNode)))
    return opOf(errorNode)->emitOpError(
               "cannot be turned into functional control flow: ")
           << error;
  // What functionalization left of v1 control flow belongs to no loop or
  // conditional.
  bool ok = true;
  auto checkLeft = [&](const ImportedGraph &body) {
    for (const ImportedNode &node : body.nodes)
      if (isV1ControlFlowNode(node.op)) {
        opOf(node.name)->emitOpError(
            "is TensorFlow v1 control flow outside any loop (a frame of a "
            "LoopCond) or conditional (Switches on one predicate joined by "
            "Merges), so it cannot be turned into functional control flow");
        ok = false;
      }
  };
  checkLeft(imported);
  for (const ImportedFunction &function : functions)
    checkLeft(function.body);
  if (!ok)
    return failure();

  // Every node runs, as every island of the graph would: those nothing
  // reads are control outputs, with the nodes whose tokens the fetch waits
  // for (those still in the graph: the others are inside functions now).
  // (Node names hold no ':', so "node:1" splits at the first.)
  llvm::StringSet<> present, consumed;
  for (const ImportedNode &node : imported.nodes) {
    present.insert(node.name);
    for (StringRef input : node.inputs) {
      input.consume_front("^");
      consumed.insert(input.split(':').first);
    }
  }
  for (const std::string &output : imported.outputs)
    consumed.insert(StringRef(output).split(':').first);
  NameList controlOutputs;
  for (const std::string &name : converter.fetchedControls.names)
    if (present.contains(name))
      controlOutputs.insert(name);
  for (const ImportedNode &node : imported.nodes)
    if (!consumed.contains(node.name) && node.op != "Placeholder")
      controlOutputs.insert(node.name);
  imported.controlOutputs = std::move(controlOutputs.names);

  // Emit the graph as a function (after the functions it calls), then
  // inline it here.
  std::string name = "__tf_executor_graph";
  for (int i = 1; taken.contains(name); ++i)
    name = "__tf_executor_graph_" + std::to_string(i);
  imported.library = std::move(functions);
  FailureOr<func::FuncOp> emitted = importGraphAsFunction(
      std::move(imported), name, module, /*isMain=*/false, graph.getLoc());
  if (failed(emitted))
    return failure();
  func::FuncOp func = *emitted;
  Block &body = func.getBody().front();
  for (auto [arg, value] :
       llvm::zip_equal(body.getArguments(), converter.externalValues))
    arg.replaceAllUsesWith(value);
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  for (Operation &op : llvm::make_early_inc_range(body.without_terminator()))
    op.moveBefore(graph);
  OpBuilder builder(graph);
  for (auto [result, value] :
       llvm::zip_equal(graph.getResults(), ret.getOperands())) {
    Value replacement = value;
    if (value.getType() != result.getType()) {
      // A type the functional form refined or widened: back to the graph's.
      replacement =
          tf::createIdentity(builder, graph.getLoc(), value, result.getType());
    }
    result.replaceAllUsesWith(replacement);
  }
  func.erase();
  graph.erase();
  return success();
}

struct TFExecutorToFunctionalPass
    : public tfrt_fallback::impl::TFExecutorToFunctionalBase<
          TFExecutorToFunctionalPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Executor ops outside a graph (a stray island, a generic Switch) have
    // no functional meaning.
    bool ok = true;
    module.walk([&](Operation *op) {
      if (isa<TFExecutorDialect>(op->getDialect()) &&
          !op->getParentOfType<GraphOp>() && !isa<GraphOp>(op)) {
        op->emitOpError("is not supported yet by --tf-executor-to-functional "
                        "outside a tf_executor.graph");
        ok = false;
      }
    });
    if (!ok)
      return signalPassFailure();
    SmallVector<GraphOp> graphs;
    module.walk([&](GraphOp graph) { graphs.push_back(graph); });
    for (GraphOp graph : graphs) {
      if (!hasV1ControlFlow(graph))
        inlineGraph(graph);
      else
        ok &= succeeded(functionalizeGraph(graph, module));
    }
    if (!ok)
      signalPassFailure();
  }
};

} // namespace

//===- GraphImport.cpp - TensorFlow graphs into TF-dialect MLIR -*- C++ -*-===//
//
// Orders the nodes the outputs need, infers each op's result dtypes (shapes
// stay unknown unless the graph states them), and emits generic `tf.*` ops.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/GraphImport.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Runtime/OpTable.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

using namespace mlir;
using namespace tfrt_fallback;

Type tfrt_fallback::getTFElementType(int dtype, MLIRContext *context) {
  rt::StatusOr<rt::DType> parsed = rt::dtypeFromDataType(dtype);
  return parsed.ok() ? tf::getElementType(*parsed, context) : Type();
}

Type tfrt_fallback::getTFElementType(StringRef dtype, MLIRContext *context) {
  rt::StatusOr<rt::DType> parsed =
      rt::parseDType(std::string_view(dtype.data(), dtype.size()));
  return parsed.ok() ? tf::getElementType(*parsed, context) : Type();
}

TensorName tfrt_fallback::splitTensorName(StringRef name) {
  TensorName ref;
  if (name.consume_front("^")) {
    ref.node = name.str();
    ref.control = true;
    return ref;
  }
  auto [node, index] = name.rsplit(':');
  unsigned value = 0;
  if (!index.empty() && node != name && !index.getAsInteger(10, value)) {
    ref.node = node.str();
    ref.index = value;
    return ref;
  }
  ref.node = name.str();
  return ref;
}

namespace {

/// "node:2" -> ("node", 2); "node" -> ("node", 0); "^node" -> control; an
/// index that is not a number is an error (splitTensorName keeps it).
struct TensorRef {
  StringRef node;
  unsigned index = 0;
  bool control = false;
};

std::optional<TensorRef> parseTensorRef(StringRef name) {
  TensorRef ref;
  if (name.consume_front("^")) {
    ref.node = name;
    ref.control = true;
    return ref;
  }
  auto [node, index] = name.rsplit(':');
  if (!index.empty() && node != name) {
    if (index.getAsInteger(10, ref.index))
      return std::nullopt;
    ref.node = node;
    return ref;
  }
  ref.node = name;
  return ref;
}

/// The nodes TensorFlow's runtime writes for a function's arguments and
/// results when it instantiates a function as a graph (and places it:
/// _DeviceArg, _DeviceRetval), numbered by their `index` attribute.
bool isArgOp(StringRef op) { return op == "_Arg" || op == "_DeviceArg"; }
bool isRetvalOp(StringRef op) {
  return op == "_Retval" || op == "_DeviceRetval";
}

/// The `index` attribute of an _Arg or _Retval node.
std::optional<int64_t> indexAttr(const ImportedNode &node) {
  for (const NamedAttribute &a : node.attrs)
    if (a.getName() == "index")
      if (auto value = dyn_cast<IntegerAttr>(a.getValue()))
        return value.getInt();
  return std::nullopt;
}

std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

StringRef toStringRef(std::string_view text) {
  return StringRef(text.data(), text.size());
}

/// The element type of a fixed dtype of an OpDef signature ("int32",
/// "resource").
Type getFixedType(StringRef name, MLIRContext *context) {
  if (name == "resource")
    return tf::ResourceType::get(context, {});
  if (name == "variant")
    return tf::VariantType::get(context, {});
  return getTFElementType(name, context);
}

/// Result element types of a node. An op of the op table (`op`, its row in
/// OpTable.def) gets what its OpDef's outputs say: a fixed dtype; a type
/// attribute's value, else TensorFlow's default, else the dtype of the first
/// operand the attribute types (TF.js leaves `T` out of its `Prelu`); one
/// result per type of a list attribute; and as many as a count attribute says.
/// Other ops produce T (or dtype / out_type, or their first operand's dtype)
/// once per output used: `numUsed` is one more than the highest output index
/// any consumer reads.
FailureOr<SmallVector<Type>>
inferResultTypes(const ImportedNode &node, const rt::OpInfo *op,
                 unsigned numUsed, TypeRange operandTypes, MLIRContext *context,
                 std::string &error) {
  auto attr = [&](StringRef name) -> Attribute {
    for (const NamedAttribute &a : node.attrs)
      if (a.getName() == name)
        return a.getValue();
    return {};
  };
  auto type = [&](StringRef name) -> Type {
    if (auto typeAttr = dyn_cast_or_null<TypeAttr>(attr(name)))
      return typeAttr.getValue();
    return {};
  };

  if (op) {
    // The dtype of the first operand `name` types, if no variadic operand
    // comes before it.
    auto operandType = [&](StringRef name) -> Type {
      size_t position = 0;
      for (const rt::OpArg &arg : op->inputs) {
        if (arg.kind == rt::OpArg::Kind::TypeAttr &&
            toStringRef(arg.type) == name)
          return position < operandTypes.size()
                     ? getElementTypeOrSelf(operandTypes[position])
                     : Type();
        if (arg.kind == rt::OpArg::Kind::TypeListAttr || !arg.count.empty())
          return {};
        ++position;
      }
      return {};
    };
    SmallVector<Type> types;
    for (const rt::OpArg &arg : op->outputs) {
      StringRef name = toStringRef(arg.type);
      if (arg.kind == rt::OpArg::Kind::TypeListAttr) {
        if (auto list = dyn_cast_or_null<ArrayAttr>(attr(name)))
          for (Attribute element : list)
            if (auto typeAttr = dyn_cast<TypeAttr>(element))
              types.push_back(typeAttr.getValue());
        continue;
      }
      Type result;
      if (arg.kind == rt::OpArg::Kind::Fixed) {
        result = getFixedType(name, context);
      } else {
        result = type(name);
        if (!result && !arg.defaultType.empty())
          result = getTFElementType(toStringRef(arg.defaultType), context);
        if (!result)
          result = operandType(name);
        if (!result) {
          error = ("op '" + node.op + "' has no '" + name + "' type attribute")
                      .str();
          return failure();
        }
      }
      int64_t count = 1;
      if (!arg.count.empty())
        if (auto n =
                dyn_cast_or_null<IntegerAttr>(attr(toStringRef(arg.count))))
          count = n.getInt();
      types.append(std::max<int64_t>(count, 0), result);
    }
    return types;
  }

  // Everything else produces T (or dtype / out_type), once per output used.
  Type result = type("T")       ? type("T")
                : type("dtype") ? type("dtype")
                                : type("out_type");
  if (!result && !operandTypes.empty())
    result = getElementTypeOrSelf(operandTypes.front());
  if (!result) {
    error = "cannot infer the result type of op '" + node.op +
            "': it has no 'T', 'dtype' or 'out_type' attribute";
    return failure();
  }
  return SmallVector<Type>(std::max(1u, numUsed), result);
}

/// TF v1 control-flow ops functionalizeControlFlow did not turn into
/// functions.
bool isControlFlowOp(StringRef op) {
  return llvm::is_contained(
      {"Switch", "Merge", "Enter", "Exit", "NextIteration", "LoopCond",
       "RefSwitch", "RefMerge", "RefEnter", "RefExit", "RefNextIteration"},
      op);
}

} // namespace

/// Emits `graph` as the function `name` of `module` (public for `@main`,
/// whose inputs and outputs may take TF.js's defaults).
static FailureOr<func::FuncOp> importFunction(const ImportedGraph &graph,
                                              StringRef name, ModuleOp module,
                                              bool isMain, Location errorLoc) {
  MLIRContext *context = module.getContext();
  Location unknown = UnknownLoc::get(context);
  auto fail = [&](const Twine &message) -> LogicalResult {
    std::string where = isMain ? "" : ("in function '" + name + "': ").str();
    emitError(errorLoc) << where << message;
    return failure();
  };

  // Index the nodes; record who consumes what.
  llvm::StringMap<size_t> byName;
  for (auto [index, node] : llvm::enumerate(graph.nodes))
    if (!byName.try_emplace(node.name, index).second)
      return fail("the graph has two nodes named '" + node.name + "'");
  std::vector<bool> hasConsumer(graph.nodes.size(), false);
  std::vector<unsigned> numUsed(graph.nodes.size(), 0);
  std::vector<SmallVector<size_t>> deps(graph.nodes.size());
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    for (const std::string &input : node.inputs) {
      std::optional<TensorRef> ref = parseTensorRef(input);
      auto it = ref ? byName.find(ref->node) : byName.end();
      if (it == byName.end())
        return fail("node '" + node.name + "' (" + node.op + ") reads '" +
                    input + "', which is not in the graph");
      hasConsumer[it->second] = true;
      deps[index].push_back(it->second);
      if (!ref->control)
        numUsed[it->second] = std::max(numUsed[it->second], ref->index + 1);
    }
  }

  // An instantiated function's _Arg and _Retval nodes, in index order:
  // they must number 0..n-1.
  auto byIndex = [&](bool (*isKind)(StringRef),
                     StringRef kind) -> FailureOr<SmallVector<size_t>> {
    SmallVector<std::pair<int64_t, size_t>> found;
    for (auto [index, node] : llvm::enumerate(graph.nodes)) {
      if (!isKind(node.op))
        continue;
      std::optional<int64_t> position = indexAttr(node);
      if (!position) {
        (void)fail("node '" + node.name + "' (" + node.op +
                   ") has no integer 'index' attribute");
        return failure();
      }
      found.push_back({*position, index});
    }
    llvm::sort(found);
    SmallVector<size_t> nodes;
    for (auto [i, entry] : llvm::enumerate(found)) {
      if (entry.first != static_cast<int64_t>(i)) {
        (void)fail("the " + kind + " nodes' indices are not 0.." +
                   Twine(found.size() - 1) + ": '" +
                   graph.nodes[entry.second].name + "' has index " +
                   Twine(entry.first));
        return failure();
      }
      nodes.push_back(entry.second);
    }
    return nodes;
  };

  // Inputs and outputs: the signature, or TF.js's defaults (every
  // Placeholder an input, every node without consumers an output), or an
  // instantiated function's _Arg and _Retval nodes.
  std::vector<std::string> inputNames = graph.inputs;
  if (inputNames.empty() && isMain) {
    for (const ImportedNode &node : graph.nodes)
      if (StringRef(node.op).starts_with("Placeholder"))
        inputNames.push_back(node.name);
    FailureOr<SmallVector<size_t>> args = byIndex(isArgOp, "_Arg");
    if (failed(args))
      return failure();
    for (size_t node : *args)
      inputNames.push_back(graph.nodes[node].name);
  }
  std::vector<std::string> outputNames = graph.outputs;
  if (outputNames.empty() && isMain) {
    FailureOr<SmallVector<size_t>> retvals = byIndex(isRetvalOp, "_Retval");
    if (failed(retvals))
      return failure();
    for (size_t index : *retvals) {
      const ImportedNode &node = graph.nodes[index];
      SmallVector<std::string> data;
      for (const std::string &input : node.inputs)
        if (!StringRef(input).starts_with("^"))
          data.push_back(input);
      if (data.size() != 1)
        return fail("node '" + node.name + "' (" + node.op + ") has " +
                    Twine(data.size()) + " data inputs, expected 1");
      outputNames.push_back(data.front());
    }
    if (retvals->empty())
      for (auto [index, node] : llvm::enumerate(graph.nodes))
        if (!hasConsumer[index] && node.op != "NoOp")
          outputNames.push_back(node.name);
  }
  if (outputNames.empty() && isMain)
    return fail("the graph has no outputs");

  llvm::DenseMap<size_t, size_t> argOfNode; // node -> argument number
  for (auto [argNo, name] : llvm::enumerate(inputNames)) {
    std::optional<TensorRef> ref = parseTensorRef(name);
    auto it = ref ? byName.find(ref->node) : byName.end();
    if (it == byName.end())
      return fail("the input '" + name + "' is not a node of the graph");
    argOfNode[it->second] = argNo;
  }
  for (const std::string &name : outputNames) {
    std::optional<TensorRef> ref = parseTensorRef(name);
    auto it = ref ? byName.find(ref->node) : byName.end();
    if (it == byName.end() || ref->control)
      return fail("the output '" + name + "' is not a node of the graph");
    numUsed[it->second] = std::max(numUsed[it->second], ref->index + 1);
  }

  // The nodes the outputs (and the control outputs) need, in topological
  // order (iterative DFS).
  for (const std::string &name : graph.controlOutputs)
    if (!byName.count(name))
      return fail("the control output '" + name +
                  "' is not a node of the "
                  "graph");
  std::vector<std::string> roots = outputNames;
  llvm::append_range(roots, graph.controlOutputs);
  enum : uint8_t { Unvisited, Active, Done };
  std::vector<uint8_t> state(graph.nodes.size(), Unvisited);
  std::vector<size_t> order;
  for (const std::string &name : roots) {
    size_t root = byName.lookup(parseTensorRef(name)->node);
    if (state[root] == Done)
      continue;
    std::vector<std::pair<size_t, size_t>> stack{{root, 0}};
    state[root] = Active;
    while (!stack.empty()) {
      auto &[current, next] = stack.back();
      // Arguments are leaves: what feeds a Placeholder is not evaluated.
      bool leaf = argOfNode.count(current);
      if (leaf || next == deps[current].size()) {
        state[current] = Done;
        order.push_back(current);
        stack.pop_back();
        continue;
      }
      size_t dep = deps[current][next++];
      if (state[dep] == Active) {
        llvm::StringSet<> controlFlow;
        for (auto &[node, unused] : stack)
          if (isControlFlowOp(graph.nodes[node].op))
            controlFlow.insert(graph.nodes[node].op);
        std::string ops;
        for (auto &entry : controlFlow)
          ops += (ops.empty() ? "" : ", ") + entry.getKey().str();
        return fail("the graph has a cycle through '" + graph.nodes[dep].name +
                    "'" +
                    (ops.empty() ? std::string()
                                 : " (TensorFlow v1 control flow: " + ops +
                                       "), which is not supported yet"));
      }
      if (state[dep] == Unvisited) {
        state[dep] = Active;
        stack.push_back({dep, 0});
      }
    }
  }

  // Ops the runtime cannot run yet, named once each.
  {
    llvm::StringSet<> unsupported;
    for (size_t index : order)
      if (isControlFlowOp(graph.nodes[index].op) && !argOfNode.count(index))
        unsupported.insert(graph.nodes[index].op);
    if (!unsupported.empty()) {
      SmallVector<StringRef> names;
      for (auto &entry : unsupported)
        names.push_back(entry.getKey());
      llvm::sort(names);
      return fail("the graph uses TensorFlow v1 control flow that could not "
                  "be turned into functions: " +
                  llvm::join(names, ", "));
    }
  }

  // Control edges become chain dependencies: both ends are ordered (their
  // order here is a topological one, control edges included). Constants
  // cannot fail and have no effects: an edge from or to one orders nothing.
  std::vector<bool> ordered(graph.nodes.size(), false);
  for (size_t index : order) {
    if (argOfNode.count(index))
      continue;
    for (const std::string &input : graph.nodes[index].inputs) {
      TensorRef ref = *parseTensorRef(input);
      if (!ref.control)
        continue;
      size_t source = byName.lookup(ref.node);
      if (argOfNode.count(source) || graph.nodes[source].op == "Const" ||
          graph.nodes[index].op == "Const")
        continue;
      ordered[index] = true;
      ordered[source] = true;
    }
  }

  // Argument types from the Placeholders.
  OpBuilder builder(context);
  SmallVector<Type> argTypes(inputNames.size());
  for (auto [node, argNo] : argOfNode) {
    const ImportedNode &placeholder = graph.nodes[node];
    // An argument that comes from MLIR keeps its type.
    if (placeholder.resultTypes && placeholder.resultTypes->size() == 1) {
      argTypes[argNo] = placeholder.resultTypes->front();
      continue;
    }
    // A Placeholder's dtype, an _Arg's T.
    Type element;
    StringRef dtypeName = isArgOp(placeholder.op) ? "T" : "dtype";
    for (const NamedAttribute &a : placeholder.attrs)
      if (a.getName() == dtypeName)
        if (auto typeAttr = dyn_cast<TypeAttr>(a.getValue()))
          element = typeAttr.getValue();
    if (!element || !isTFElementType(element))
      return fail("the input '" + placeholder.name + "' has no supported '" +
                  dtypeName + "'");
    // A Placeholder's shape, else the shape TF recorded for its output.
    std::optional<SmallVector<int64_t>> dims;
    for (const NamedAttribute &a : placeholder.attrs) {
      Attribute value = a.getValue();
      if (a.getName() == "_output_shapes")
        if (auto list = dyn_cast<ArrayAttr>(value); list && list.size() == 1)
          value = list[0];
      if (a.getName() == "shape" || (a.getName() == "_output_shapes" && !dims))
        if (auto shape = dyn_cast<tf::ShapeAttr>(value);
            shape && shape.getRanked())
          dims = llvm::to_vector(shape.getDims());
    }
    for (const auto &[name, shape] : graph.inputShapes)
      if (name == placeholder.name)
        dims = SmallVector<int64_t>(shape.begin(), shape.end());
    if (dims) {
      for (int64_t &dim : *dims)
        if (dim < 0)
          dim = ShapedType::kDynamic;
      argTypes[argNo] = RankedTensorType::get(*dims, element);
    } else {
      argTypes[argNo] = UnrankedTensorType::get(element);
    }
  }

  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, unknown, name,
                                   builder.getFunctionType(argTypes, {}));
  if (!isMain)
    func.setPrivate();
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToEnd(body);

  std::vector<SmallVector<Value>> results(graph.nodes.size());
  for (size_t index : order) {
    const ImportedNode &node = graph.nodes[index];
    // The node's location when it came with one (tf_executor), else its
    // name, in the model file when it is known (no line: a graph node has
    // no position a reader could use).
    Location loc =
        node.location ? *node.location
        : graph.source.empty()
            ? Location(NameLoc::get(builder.getStringAttr(node.name)))
            : Location(NameLoc::get(builder.getStringAttr(node.name),
                                    FileLineColLoc::get(builder.getContext(),
                                                        graph.source, 0, 0)));
    if (auto it = argOfNode.find(index); it != argOfNode.end()) {
      results[index].push_back(body->getArgument(it->second));
      continue;
    }

    SmallVector<Value> operands;
    for (const std::string &input : node.inputs) {
      TensorRef ref = *parseTensorRef(input);
      if (ref.control)
        continue;
      size_t producer = byName.lookup(ref.node);
      if (ref.index >= results[producer].size())
        return fail("node '" + node.name + "' reads output " +
                    Twine(ref.index) + " of '" + ref.node + "' (" +
                    graph.nodes[producer].op + "), which has " +
                    Twine(results[producer].size()) + " outputs");
      operands.push_back(results[producer][ref.index]);
    }

    const rt::OpInfo *info =
        rt::lookupOp(std::string_view(node.op.data(), node.op.size()));
    // The function attribute `name` names, emitted before this one.
    auto calleeOf = [&](StringRef name) -> func::FuncOp {
      for (const NamedAttribute &a : node.attrs) {
        if (a.getName() != name)
          continue;
        Attribute value = a.getValue();
        if (auto list = dyn_cast<ArrayAttr>(value))
          value = list.empty() ? Attribute() : list[0];
        if (auto symbol = dyn_cast_or_null<FlatSymbolRefAttr>(value))
          return module.lookupSymbol<func::FuncOp>(symbol);
      }
      return {};
    };
    SmallVector<Type> resultTypes;
    StringRef opName = node.op;
    bool resultsFromCallee = false;
    if (node.resultTypes) {
      // A node that comes from MLIR keeps its types.
      llvm::append_range(resultTypes, *node.resultTypes);
      resultsFromCallee = true;
    } else if (opName == "While" || opName == "StatelessWhile") {
      resultsFromCallee = true;
      // Functional control flow (a GraphDef's, or made by
      // functionalizeControlFlow): a loop carries its operands' dtypes
      // (their shapes may change), a branch returns what its first branch
      // returns, a call what its function returns.
      for (Value operand : operands)
        resultTypes.push_back(
            UnrankedTensorType::get(getElementTypeOrSelf(operand.getType())));
    } else if (opName == "If" || opName == "StatelessIf" || opName == "Case" ||
               opName == "StatelessCase" || opName == "PartitionedCall" ||
               opName == "StatefulPartitionedCall") {
      bool isIf = opName.ends_with("If"), isCase = opName.ends_with("Case");
      resultsFromCallee = true;
      func::FuncOp callee = calleeOf(isIf     ? "then_branch"
                                     : isCase ? "branches"
                                              : "f");
      if (!callee)
        return fail("node '" + node.name + "' calls no function");
      llvm::append_range(resultTypes, callee.getResultTypes());
      if (!isIf && !isCase) {
        // A call passes its operands as the function takes them: an operand
        // of a more precise type becomes one of the argument's.
        if (callee.getNumArguments() != operands.size())
          return fail("node '" + node.name + "' passes " +
                      Twine(operands.size()) + " operands to '" +
                      callee.getSymName() + "', which takes " +
                      Twine(callee.getNumArguments()));
        for (auto [operand, type] :
             llvm::zip(operands, callee.getArgumentTypes())) {
          if (operand.getType() == type)
            continue;
          if (getElementTypeOrSelf(operand.getType()) !=
              getElementTypeOrSelf(type))
            return fail("node '" + node.name + "' passes a " +
                        Twine(typeString(operand.getType())) + " to '" +
                        callee.getSymName() + "', which takes a " +
                        typeString(type));
          OperationState identity(loc, "tf.Identity");
          identity.addOperands(operand);
          identity.addTypes(type);
          identity.addAttribute("T", TypeAttr::get(getElementTypeOrSelf(type)));
          operand = builder.create(identity)->getResult(0);
        }
      }
    } else if (node.op == "Const") {
      ElementsAttr value;
      for (const NamedAttribute &a : node.attrs)
        if (a.getName() == "value")
          value = dyn_cast<ElementsAttr>(a.getValue());
      if (!value)
        return fail("the constant '" + node.name + "' has no value");
      resultTypes.push_back(value.getType());
    } else {
      std::string error;
      FailureOr<SmallVector<Type>> elements =
          inferResultTypes(node, info, numUsed[index],
                           ValueRange(operands).getTypes(), context, error);
      if (failed(elements))
        return fail("node '" + node.name + "': " + error);
      for (Type element : *elements) {
        if (!element || !isTFElementType(element))
          return fail("node '" + node.name + "' (" + node.op +
                      ") produces a dtype the compiler does not support");
        resultTypes.push_back(UnrankedTensorType::get(element));
      }
    }

    OperationState state(loc, "tf." + node.op);
    state.addOperands(operands);
    state.addTypes(resultTypes);
    state.addAttributes(node.attrs);
    // A T-polymorphic op TF.js wrote without T (its `Prelu`) gets it back,
    // so kernels can be looked up by dtype: an op of the op table whose
    // first operand is T, or an unknown op with no type attribute at all.
    auto hasAttr = [&](StringRef name) {
      return llvm::any_of(node.attrs, [&](const NamedAttribute &a) {
        return a.getName() == name;
      });
    };
    bool needsT;
    if (resultsFromCallee)
      needsT = false; // a call's types are its function's
    else if (info)
      needsT = !info->inputs.empty() &&
               info->inputs[0].kind == rt::OpArg::Kind::TypeAttr &&
               info->inputs[0].type == "T" && !hasAttr("T");
    else
      needsT = !hasAttr("T") && !hasAttr("dtype") && !hasAttr("out_type");
    if (needsT && !operands.empty())
      state.addAttribute(
          "T", TypeAttr::get(getElementTypeOrSelf(operands.front().getType())));
    if (!node.device.empty())
      state.addAttribute("device", builder.getStringAttr(node.device));
    if (ordered[index])
      state.addAttribute(tf::kOrderedAttrName, builder.getUnitAttr());
    Operation *op = builder.create(state);
    llvm::append_range(results[index], op->getResults());
  }

  SmallVector<Value> returned;
  for (const std::string &name : outputNames) {
    TensorRef ref = *parseTensorRef(name);
    size_t node = byName.lookup(ref.node);
    if (ref.index >= results[node].size())
      return fail("the output '" + name + "' does not exist: '" + ref.node +
                  "' has " + Twine(results[node].size()) + " outputs");
    returned.push_back(results[node][ref.index]);
  }
  func::ReturnOp::create(builder, unknown, returned);
  func.setType(
      builder.getFunctionType(argTypes, ValueRange(returned).getTypes()));
  // The model's input and output names, as TensorFlow's importer records
  // them: the binary program keeps them (fallback-run --signature).
  if (isMain &&
      !llvm::any_of(llvm::concat<const std::string>(inputNames, outputNames),
                    [](const std::string &name) {
                      return name.find(',') != std::string::npos;
                    }))
    func->setAttr(
        "tf.entry_function",
        builder.getDictionaryAttr(
            {builder.getNamedAttr(
                 "inputs", builder.getStringAttr(llvm::join(inputNames, ","))),
             builder.getNamedAttr("outputs", builder.getStringAttr(llvm::join(
                                                 outputNames, ",")))}));
  return func;
}

FailureOr<func::FuncOp>
tfrt_fallback::importGraphAsFunction(ImportedGraph graph, StringRef name,
                                     ModuleOp module, bool isMain,
                                     Location errorLoc) {
  MLIRContext *context = module.getContext();
  context->loadDialect<func::FuncDialect, tf::TFDialect, tf::TFTypeDialect,
                       TFRTFallbackDialect>();
  // The library's functions, then those functionalization makes, named
  // apart from the module's symbols.
  llvm::StringSet<> taken;
  taken.insert(name);
  for (Operation &op : module.getBody()->getOperations())
    if (auto symbol =
            op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      taken.insert(symbol.getValue());
  std::vector<ImportedFunction> functions = std::move(graph.library);
  graph.library.clear();
  const size_t numLibrary = functions.size();
  std::string error;
  if (failed(
          functionalizeControlFlow(graph, functions, context, error, &taken))) {
    emitError(errorLoc) << "cannot turn the graph's TensorFlow v1 control flow "
                           "into functions: "
                        << error;
    return failure();
  }
  for (size_t i = 0; i < numLibrary; ++i) {
    // Functionalization adds functions: the body is moved out meanwhile.
    ImportedGraph body = std::move(functions[i].body);
    LogicalResult result =
        functionalizeControlFlow(body, functions, context, error, &taken);
    functions[i].body = std::move(body);
    if (failed(result)) {
      emitError(errorLoc) << "cannot turn the TensorFlow v1 control flow of "
                             "function '"
                          << functions[i].name << "' into functions: " << error;
      return failure();
    }
  }
  // Functions name their nodes in the graph's model file too.
  for (ImportedFunction &function : functions)
    if (function.body.source.empty())
      function.body.source = graph.source;
  // A function is emitted after the functions it calls (an If's results are
  // its then function's): depth first over the calls, which never recur.
  llvm::StringMap<size_t> functionIndex;
  for (auto [index, function] : llvm::enumerate(functions))
    functionIndex[function.name] = index;
  std::vector<uint8_t> emitted(functions.size(), 0);
  std::function<LogicalResult(const ImportedGraph &)> emitCallees =
      [&](const ImportedGraph &body) -> LogicalResult {
    for (const ImportedNode &node : body.nodes)
      for (const NamedAttribute &attr : node.attrs) {
        SmallVector<Attribute> values{attr.getValue()};
        if (auto list = dyn_cast<ArrayAttr>(attr.getValue()))
          values.assign(list.begin(), list.end());
        for (Attribute value : values) {
          auto symbol = dyn_cast<FlatSymbolRefAttr>(value);
          auto it = symbol ? functionIndex.find(symbol.getValue())
                           : functionIndex.end();
          if (it == functionIndex.end() || emitted[it->second])
            continue;
          emitted[it->second] = 1;
          const ImportedFunction &callee = functions[it->second];
          if (failed(emitCallees(callee.body)) ||
              failed(importFunction(callee.body, callee.name, module,
                                    /*isMain=*/false, errorLoc)))
            return failure();
        }
      }
    return success();
  };
  if (failed(emitCallees(graph)))
    return failure();
  return importFunction(graph, name, module, isMain, errorLoc);
}

OwningOpRef<ModuleOp> tfrt_fallback::importGraph(const ImportedGraph &graph,
                                                 MLIRContext *context) {
  context->loadDialect<func::FuncDialect, tf::TFDialect, tf::TFTypeDialect,
                       TFRTFallbackDialect>();
  Location unknown = UnknownLoc::get(context);
  ImportedGraph main = graph;
  // TF.js's default outputs (every node nothing reads) are fixed before
  // functionalization replaces nodes; a graph with _Retval nodes has its
  // outputs (importFunction takes them).
  bool hasRetvals = llvm::any_of(
      main.nodes, [](const ImportedNode &node) { return isRetvalOp(node.op); });
  if (main.outputs.empty() && !hasRetvals) {
    llvm::StringSet<> consumed;
    for (const ImportedNode &node : main.nodes)
      for (const std::string &input : node.inputs)
        if (std::optional<TensorRef> ref = parseTensorRef(input))
          consumed.insert(ref->node);
    for (const ImportedNode &node : main.nodes)
      if (!consumed.contains(node.name) && node.op != "NoOp")
        main.outputs.push_back(node.name);
  }
  OwningOpRef<ModuleOp> module = ModuleOp::create(unknown);
  if (failed(importGraphAsFunction(std::move(main), "main", *module,
                                   /*isMain=*/true, unknown)))
    return {};
  return module;
}

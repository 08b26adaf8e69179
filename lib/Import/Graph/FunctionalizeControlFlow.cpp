//===- FunctionalizeControlFlow.cpp - v1 control flow as calls --*- C++ -*-===//
//
// Turns TensorFlow v1 control flow in an imported graph into functional
// control flow, as TensorFlow's functionalize_control_flow does:
//
// - a loop (the frame of a LoopCond: Enter -> Merge -> Switch -> Exit, with
//   NextIteration back to the Merge) becomes a `While` node whose `cond` and
//   `body` are new functions; innermost loops first;
// - a conditional (Switch nodes sharing a predicate, their two branches and
//   the Merge nodes that join them) becomes an `If` node with `then_branch`
//   and `else_branch` functions; innermost first, then inside every
//   function made.
//
// Control edges inside the functions are dropped (the importer drops them
// everywhere); a graph this does not recognise is an error naming the node.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/GraphImport.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <deque>

using namespace mlir;
using namespace tfrt_fallback;

namespace {

std::string tensorName(StringRef node, unsigned index) {
  return index == 0 ? node.str() : (node + ":" + Twine(index)).str();
}

/// Gives `node` the control inputs of `from` whose producers stay in the
/// graph (not in `dead`): what a loop's Enters or a conditional's Switches
/// waited for, the While or If waits for.
void inheritControls(ImportedNode &node, const ImportedNode &from,
                     const llvm::DenseSet<size_t> &dead,
                     const llvm::StringMap<size_t> &byName) {
  for (const std::string &input : from.inputs) {
    if (!StringRef(input).starts_with("^"))
      continue;
    auto it = byName.find(StringRef(input).drop_front());
    if (it == byName.end() || dead.contains(it->second) ||
        llvm::is_contained(node.inputs, input))
      continue;
    node.inputs.push_back(input);
  }
}

Attribute getAttr(const ImportedNode &node, StringRef name) {
  for (const NamedAttribute &attr : node.attrs)
    if (attr.getName() == name)
      return attr.getValue();
  return {};
}

void setAttr(ImportedNode &node, StringRef name, Attribute value) {
  for (NamedAttribute &attr : node.attrs)
    if (attr.getName() == name) {
      attr.setValue(value);
      return;
    }
  node.attrs.push_back(
      NamedAttribute(StringAttr::get(value.getContext(), name), value));
}

bool isOp(const ImportedNode &node, StringRef op) {
  return node.op == op || node.op == ("Ref" + op).str();
}

/// The data type a node of v1 control flow carries (its `T`).
Type getDType(const ImportedNode &node) {
  if (auto type = dyn_cast_or_null<TypeAttr>(getAttr(node, "T")))
    return type.getValue();
  return {};
}

/// Names and consumers of a graph's nodes.
struct GraphIndex {
  explicit GraphIndex(const ImportedGraph &graph) {
    consumers.resize(graph.nodes.size());
    for (auto [index, node] : llvm::enumerate(graph.nodes))
      byName[node.name] = index;
    for (auto [index, node] : llvm::enumerate(graph.nodes))
      for (const std::string &input : node.inputs) {
        TensorName ref = splitTensorName(input);
        auto it = byName.find(ref.node);
        if (it != byName.end())
          consumers[it->second].push_back(index);
      }
  }
  std::optional<size_t> lookup(StringRef name) const {
    auto it = byName.find(name);
    if (it == byName.end())
      return std::nullopt;
    return it->second;
  }
  llvm::StringMap<size_t> byName;
  std::vector<SmallVector<size_t>> consumers;
};

class Functionalizer {
public:
  Functionalizer(std::vector<ImportedFunction> &functions, MLIRContext *context,
                 const llvm::StringSet<> *takenNames)
      : functions(functions), context(context) {
    // New functions take names no function (or symbol) has.
    for (const ImportedFunction &function : functions)
      functionNames.insert(function.name);
    if (takenNames)
      for (const auto &entry : *takenNames)
        functionNames.insert(entry.getKey());
  }

  LogicalResult run(ImportedGraph &graph, std::string &error,
                    std::string *errorNode);

private:
  LogicalResult functionalizeLoops(ImportedGraph &graph);
  /// Tries the loop of `loopCond`: failure with `error` set is an error,
  /// failure without it means an inner loop must go first.
  LogicalResult functionalizeLoop(ImportedGraph &graph, size_t loopCond);
  LogicalResult functionalizeConds(ImportedGraph &graph);
  LogicalResult functionalizeCond(ImportedGraph &graph, StringRef pred,
                                  ArrayRef<size_t> switches);

  /// A unique function name from `base`.
  std::string newFunctionName(StringRef base);
  /// A unique node name in `graph` from `base`.
  std::string newNodeName(const ImportedGraph &graph, StringRef base);
  /// Removes the nodes of `graph` in `dead` and control inputs to them.
  void removeNodes(ImportedGraph &graph, const llvm::DenseSet<size_t> &dead);

  std::vector<ImportedFunction> &functions;
  MLIRContext *context;
  llvm::StringSet<> functionNames;
  std::string error;
  /// The node `error` is about.
  std::string errorNode;
};

std::string Functionalizer::newFunctionName(StringRef base) {
  std::string name;
  for (char c : base)
    name.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  std::string candidate = name;
  for (int i = 1; !functionNames.insert(candidate).second; ++i)
    candidate = name + "_" + std::to_string(i);
  return candidate;
}

std::string Functionalizer::newNodeName(const ImportedGraph &graph,
                                        StringRef base) {
  llvm::StringSet<> taken;
  for (const ImportedNode &node : graph.nodes)
    taken.insert(node.name);
  std::string candidate = base.str();
  for (int i = 1; taken.contains(candidate); ++i)
    candidate = (base + "_" + Twine(i)).str();
  return candidate;
}

void Functionalizer::removeNodes(ImportedGraph &graph,
                                 const llvm::DenseSet<size_t> &dead) {
  llvm::StringSet<> deadNames;
  for (size_t index : dead)
    deadNames.insert(graph.nodes[index].name);
  std::vector<ImportedNode> kept;
  for (auto [index, node] : llvm::enumerate(graph.nodes)) {
    if (dead.contains(index))
      continue;
    llvm::erase_if(node.inputs, [&](const std::string &input) {
      TensorName ref = splitTensorName(input);
      return ref.control && deadNames.contains(ref.node);
    });
    kept.push_back(std::move(node));
  }
  graph.nodes = std::move(kept);
}

/// Builds a function body from the nodes `members` of `graph`: `args` are
/// the tensors that become its arguments (in order, with their dtypes),
/// `outputs` the tensors it returns, `controlOutputs` members that must run
/// although no output needs them. Inputs of members that are neither
/// members nor arguments are an error, except nodes without data inputs
/// (constants), which are copied in. Control inputs between members are
/// kept (they order stateful ops); others are dropped. An error names in
/// `errorNode` the node it is about (when not the caller's).
static FailureOr<ImportedGraph>
buildBody(const ImportedGraph &graph, const GraphIndex &index,
          const llvm::SetVector<size_t> &members,
          ArrayRef<std::pair<std::string, Type>> args,
          ArrayRef<std::string> outputs, ArrayRef<size_t> controlOutputs,
          StringRef prefix, std::string &error, std::string &errorNode) {
  ImportedGraph body;
  llvm::StringMap<std::string> argOf; // tensor -> placeholder name
  MLIRContext *context = nullptr;
  for (auto [i, arg] : llvm::enumerate(args)) {
    ImportedNode placeholder;
    placeholder.name = (prefix + "/arg" + Twine(i)).str();
    placeholder.op = "Placeholder";
    if (!arg.second) {
      error = "cannot tell the dtype of '" + arg.first + "'";
      return failure();
    }
    context = arg.second.getContext();
    placeholder.attrs.push_back(NamedAttribute(
        StringAttr::get(context, "dtype"), TypeAttr::get(arg.second)));
    argOf[arg.first] = placeholder.name;
    body.inputs.push_back(placeholder.name);
    body.nodes.push_back(std::move(placeholder));
  }
  llvm::SetVector<size_t> all(members.begin(), members.end());
  // Constants read from outside are copied in.
  for (size_t i = 0; i < all.size(); ++i) {
    for (const std::string &input : graph.nodes[all[i]].inputs) {
      TensorName ref = splitTensorName(input);
      if (ref.control || argOf.count(input))
        continue;
      std::optional<size_t> producer = index.lookup(ref.node);
      if (!producer || all.contains(*producer))
        continue;
      const ImportedNode &node = graph.nodes[*producer];
      bool hasDataInputs = llvm::any_of(node.inputs, [](const std::string &in) {
        return !StringRef(in).starts_with("^");
      });
      if (hasDataInputs || node.op == "Placeholder") {
        errorNode = graph.nodes[all[i]].name;
        error = "node '" + graph.nodes[all[i]].name + "' (" +
                graph.nodes[all[i]].op + ") reads '" + input +
                "', which is outside its control-flow construct";
        return failure();
      }
      all.insert(*producer);
    }
  }
  for (size_t member : all) {
    ImportedNode node = graph.nodes[member];
    std::vector<std::string> inputs;
    for (const std::string &input : node.inputs) {
      TensorName ref = splitTensorName(input);
      if (ref.control) {
        std::optional<size_t> producer = index.lookup(ref.node);
        if (producer && all.contains(*producer))
          inputs.push_back(input);
        continue;
      }
      auto it = argOf.find(tensorName(ref.node, ref.index));
      inputs.push_back(it != argOf.end() ? it->second : input);
    }
    node.inputs = std::move(inputs);
    body.nodes.push_back(std::move(node));
  }
  for (const std::string &output : outputs) {
    TensorName ref = splitTensorName(output);
    auto it = argOf.find(tensorName(ref.node, ref.index));
    body.outputs.push_back(it != argOf.end() ? it->second
                                             : tensorName(ref.node, ref.index));
  }
  for (size_t node : controlOutputs)
    body.controlOutputs.push_back(graph.nodes[node].name);
  return body;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

LogicalResult Functionalizer::functionalizeLoop(ImportedGraph &graph,
                                                size_t loopCond) {
  GraphIndex index(graph);
  const ImportedNode &cond = graph.nodes[loopCond];
  // An error is about the LoopCond unless it names another node.
  auto fail = [&](const Twine &message,
                  std::optional<size_t> about = std::nullopt) {
    error = ("loop of '" + cond.name + "': " + message).str();
    errorNode = graph.nodes[about ? *about : loopCond].name;
    return failure();
  };
  if (cond.inputs.empty())
    return fail("LoopCond has no input");

  // The loop variables: Switch(Merge(Enter, NextIteration), LoopCond).
  struct Var {
    size_t switchNode, merge, enter, next;
    SmallVector<size_t> exits;
    Type dtype;
  };
  SmallVector<Var> vars;
  for (size_t user : index.consumers[loopCond]) {
    const ImportedNode &sw = graph.nodes[user];
    if (!isOp(sw, "Switch"))
      continue;
    if (sw.inputs.size() < 2 || splitTensorName(sw.inputs[1]).node != cond.name)
      continue;
    Var var{user, 0, 0, 0, {}, getDType(sw)};
    std::optional<size_t> merge =
        index.lookup(splitTensorName(sw.inputs[0]).node);
    if (!merge || !isOp(graph.nodes[*merge], "Merge"))
      return fail("Switch '" + sw.name + "' does not read a Merge", user);
    var.merge = *merge;
    bool haveEnter = false, haveNext = false;
    for (const std::string &input : graph.nodes[*merge].inputs) {
      TensorName ref = splitTensorName(input);
      if (ref.control)
        continue;
      std::optional<size_t> producer = index.lookup(ref.node);
      if (producer && isOp(graph.nodes[*producer], "Enter")) {
        var.enter = *producer;
        haveEnter = true;
      } else if (producer && isOp(graph.nodes[*producer], "NextIteration")) {
        var.next = *producer;
        haveNext = true;
      }
    }
    if (!haveEnter || !haveNext)
      return fail("Merge '" + graph.nodes[*merge].name +
                      "' does not join an Enter and a NextIteration",
                  *merge);
    if (graph.nodes[var.next].inputs.empty())
      return fail("NextIteration '" + graph.nodes[var.next].name +
                      "' has no input",
                  var.next);
    if (graph.nodes[var.enter].inputs.empty())
      return fail("Enter '" + graph.nodes[var.enter].name + "' has no input",
                  var.enter);
    for (size_t exitUser : index.consumers[user])
      if (isOp(graph.nodes[exitUser], "Exit"))
        var.exits.push_back(exitUser);
    if (!var.dtype)
      var.dtype = getDType(graph.nodes[var.enter]);
    vars.push_back(var);
  }
  if (vars.empty())
    return fail("no Switch reads the LoopCond");
  auto frameOf = [&](size_t enter) -> std::string {
    if (auto name = dyn_cast_or_null<StringAttr>(
            getAttr(graph.nodes[enter], "frame_name")))
      return name.str();
    return "";
  };
  std::string frame = frameOf(vars[0].enter);

  // Loop invariants: the frame's other Enters.
  llvm::DenseSet<size_t> structural{loopCond};
  for (const Var &var : vars)
    for (size_t node : {var.switchNode, var.merge, var.enter, var.next})
      structural.insert(node);
  SmallVector<size_t> invariants;
  for (auto [i, node] : llvm::enumerate(graph.nodes)) {
    if (!isOp(node, "Enter") || structural.contains(i) || frameOf(i) != frame)
      continue;
    if (node.inputs.empty())
      return fail("Enter '" + node.name + "' has no input", i);
    invariants.push_back(i);
  }

  // The nodes of cond and body: backward from the predicate and from what
  // the NextIterations read (data and control: a stateful op the body runs
  // before its next values), up to the Merges / Switches and Enters.
  llvm::DenseSet<size_t> invariantSet(invariants.begin(), invariants.end());
  // The frame: what the Merges, the Switches and the invariants reach, by
  // data or control edges, short of the Exits and NextIterations. A control
  // edge from outside it (a ControlTrigger's edge from an Exit or from a
  // node before the loop, TF1's gradient `b_sync`) orders nothing in the
  // loop's functions.
  llvm::DenseSet<size_t> frameNodes;
  {
    std::deque<size_t> work;
    auto add = [&](size_t node) {
      if (frameNodes.insert(node).second)
        work.push_back(node);
    };
    for (const Var &var : vars) {
      add(var.merge);
      add(var.switchNode);
    }
    for (size_t inv : invariants)
      add(inv);
    while (!work.empty()) {
      size_t current = work.front();
      work.pop_front();
      for (size_t user : index.consumers[current]) {
        const ImportedNode &node = graph.nodes[user];
        bool exitsThisLoop =
            isOp(node, "Exit") && llvm::any_of(vars, [&](const Var &var) {
              return llvm::is_contained(var.exits, user);
            });
        if (!exitsThisLoop && !isOp(node, "NextIteration"))
          add(user);
      }
    }
  }
  auto collect = [&](ArrayRef<std::string> roots, bool isBody,
                     llvm::SetVector<size_t> &members) -> LogicalResult {
    std::deque<size_t> work;
    auto visit = [&](StringRef tensor) -> LogicalResult {
      TensorName ref = splitTensorName(tensor);
      std::optional<size_t> producer = index.lookup(ref.node);
      if (!producer)
        return fail("'" + tensor + "' is not in the graph");
      if (invariantSet.contains(*producer))
        return success();
      // A control edge from the loop's own structure (a constant placed in
      // the frame by `^Merge`) or from outside the frame orders nothing
      // inside a function.
      if (ref.control &&
          (structural.contains(*producer) || !frameNodes.contains(*producer)))
        return success();
      for (const Var &var : vars) {
        if (*producer == (isBody ? var.switchNode : var.merge))
          return success();
        if (*producer == var.merge || *producer == var.switchNode)
          return fail("the " + Twine(isBody ? "body" : "condition") +
                          " reads '" + tensor + "'",
                      *producer);
      }
      const ImportedNode &node = graph.nodes[*producer];
      bool loopMerge =
          isOp(node, "Merge") && llvm::any_of(node.inputs, [&](auto &in) {
            std::optional<size_t> p = index.lookup(splitTensorName(in).node);
            return p && isOp(graph.nodes[*p], "NextIteration");
          });
      if (isOp(node, "Enter") || isOp(node, "Exit") ||
          isOp(node, "NextIteration") || node.op == "LoopCond" || loopMerge) {
        error.clear();
        return failure(); // an inner loop: functionalize it first
      }
      // Nodes without data inputs are copied by buildBody when needed.
      if (members.insert(*producer))
        work.push_back(*producer);
      return success();
    };
    for (const std::string &root : roots)
      if (failed(visit(root)))
        return failure();
    while (!work.empty()) {
      size_t current = work.front();
      work.pop_front();
      for (const std::string &input : graph.nodes[current].inputs)
        if (failed(visit(input)))
          return failure();
    }
    return success();
  };
  llvm::SetVector<size_t> condMembers, bodyMembers;
  if (failed(collect({cond.inputs[0]}, false, condMembers)))
    return failure();
  SmallVector<std::string> nextInputs, bodyRoots;
  SmallVector<size_t> bodyControlOutputs;
  for (const Var &var : vars) {
    nextInputs.push_back(graph.nodes[var.next].inputs[0]);
    for (const std::string &input : graph.nodes[var.next].inputs) {
      bodyRoots.push_back(input);
      // What a NextIteration waits for runs in the body.
      TensorName ref = splitTensorName(input);
      std::optional<size_t> producer = index.lookup(ref.node);
      if (ref.control && producer && frameNodes.contains(*producer) &&
          !structural.contains(*producer) && !invariantSet.contains(*producer))
        bodyControlOutputs.push_back(*producer);
    }
  }
  if (failed(collect(bodyRoots, true, bodyMembers)))
    return failure();
  // Nodes of the frame that nothing the loop returns needs (a stateful op
  // whose result is unused) still run every iteration: those that read
  // only the body's values (the Switches' true outputs, body nodes,
  // invariants, constants), at least one of them not an invariant, join
  // the body as control outputs.
  auto fromBody = [&](const TensorName &ref, bool allowInvariant) {
    std::optional<size_t> producer = index.lookup(ref.node);
    if (!producer)
      return false;
    if (bodyMembers.contains(*producer))
      return true;
    if (invariantSet.contains(*producer))
      return allowInvariant;
    for (const Var &var : vars)
      if (*producer == var.switchNode)
        return ref.control || ref.index == 1;
    return false;
  };
  auto isConstant = [&](const TensorName &ref) {
    std::optional<size_t> producer = index.lookup(ref.node);
    return producer && graph.nodes[*producer].op != "Placeholder" &&
           llvm::none_of(graph.nodes[*producer].inputs,
                         [](const std::string &in) {
                           return !StringRef(in).starts_with("^");
                         });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [i, node] : llvm::enumerate(graph.nodes)) {
      if (structural.contains(i) || invariantSet.contains(i) ||
          condMembers.contains(i) || bodyMembers.contains(i) ||
          isOp(node, "Enter") || isOp(node, "Exit") || isOp(node, "Merge") ||
          isOp(node, "Switch") || isOp(node, "NextIteration") ||
          node.op == "LoopCond")
        continue;
      bool allInBody = true, anyFromBody = false;
      for (const std::string &input : node.inputs) {
        TensorName ref = splitTensorName(input);
        if (!ref.control && !fromBody(ref, true) && !isConstant(ref))
          allInBody = false;
        anyFromBody |= fromBody(ref, false);
        // A constant the frame's pivot places in the body (`^Identity`).
        if (!ref.control && isConstant(ref))
          for (const std::string &in :
               graph.nodes[*index.lookup(ref.node)].inputs)
            anyFromBody |= fromBody(splitTensorName(in), false);
      }
      if (!allInBody || !anyFromBody)
        continue;
      bodyMembers.insert(i);
      bodyControlOutputs.push_back(i);
      changed = true;
    }
  }

  // Functions: cond(vars..., invariants...) -> pred;
  // body(vars..., invariants...) -> (next values..., invariants...).
  std::string base = frame.empty() ? cond.name : frame;
  std::string condName = newFunctionName(base + "_cond");
  std::string bodyName = newFunctionName(base + "_body");
  SmallVector<std::pair<std::string, Type>> condArgs, bodyArgs;
  SmallVector<Type> types;
  for (const Var &var : vars) {
    condArgs.push_back({graph.nodes[var.merge].name, var.dtype});
    bodyArgs.push_back(
        {tensorName(graph.nodes[var.switchNode].name, 1), var.dtype});
    types.push_back(var.dtype);
  }
  SmallVector<std::string> bodyOutputs(nextInputs.begin(), nextInputs.end());
  for (size_t inv : invariants) {
    Type dtype = getDType(graph.nodes[inv]);
    condArgs.push_back({graph.nodes[inv].name, dtype});
    bodyArgs.push_back({graph.nodes[inv].name, dtype});
    bodyOutputs.push_back(graph.nodes[inv].name);
    types.push_back(dtype);
  }
  errorNode = cond.name;
  FailureOr<ImportedGraph> condBody =
      buildBody(graph, index, condMembers, condArgs, {cond.inputs[0]}, {},
                condName, error, errorNode);
  if (failed(condBody))
    return failure();
  FailureOr<ImportedGraph> loopBody =
      buildBody(graph, index, bodyMembers, bodyArgs, bodyOutputs,
                bodyControlOutputs, bodyName, error, errorNode);
  if (failed(loopBody))
    return failure();

  // The While node, and the Exits as its results.
  Builder builder(context);
  ImportedNode loop;
  loop.name = newNodeName(graph, base + "/While");
  loop.op = "While";
  loop.device = graph.nodes[vars[0].enter].device;
  for (const Var &var : vars)
    loop.inputs.push_back(graph.nodes[var.enter].inputs.front());
  for (size_t inv : invariants)
    loop.inputs.push_back(graph.nodes[inv].inputs.front());
  SmallVector<Attribute> typeAttrs;
  for (Type type : types) {
    if (!type)
      return fail("a loop variable has no dtype");
    typeAttrs.push_back(TypeAttr::get(type));
  }
  setAttr(loop, "T", builder.getArrayAttr(typeAttrs));
  setAttr(loop, "cond", FlatSymbolRefAttr::get(context, condName));
  setAttr(loop, "body", FlatSymbolRefAttr::get(context, bodyName));
  int64_t parallel = 10;
  if (auto attr = dyn_cast_or_null<IntegerAttr>(
          getAttr(graph.nodes[vars[0].enter], "parallel_iterations")))
    parallel = attr.getInt();
  setAttr(loop, "parallel_iterations", builder.getI64IntegerAttr(parallel));
  for (auto [k, var] : llvm::enumerate(vars))
    for (size_t exit : var.exits) {
      ImportedNode &node = graph.nodes[exit];
      node.op = "Identity";
      node.inputs = {tensorName(loop.name, k)};
      if (node.resultTypes)
        node.resultTypes->resize(1);
    }

  // The loop's nodes leave the graph, unless something outside reads them.
  llvm::DenseSet<size_t> dead = structural;
  for (size_t inv : invariants)
    dead.insert(inv);
  for (size_t member : condMembers)
    dead.insert(member);
  for (size_t member : bodyMembers)
    dead.insert(member);
  // So do nodes that only read the loop's nodes and that neither function
  // needs (an Identity of a Switch that only orders the body by control
  // edges, TensorFlow's `loop_body_control`).
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto [i, node] : llvm::enumerate(graph.nodes)) {
      if (dead.contains(i))
        continue;
      bool hasData = false, allDead = true;
      for (const std::string &input : node.inputs) {
        TensorName ref = splitTensorName(input);
        if (ref.control)
          continue;
        hasData = true;
        std::optional<size_t> producer = index.lookup(ref.node);
        allDead &= producer && dead.contains(*producer);
      }
      if (hasData && allDead) {
        dead.insert(i);
        changed = true;
      }
    }
  }
  changed = true;
  while (changed) {
    changed = false;
    for (size_t node : llvm::to_vector(dead)) {
      bool readOutside =
          llvm::any_of(index.consumers[node],
                       [&](size_t user) {
                         return !dead.contains(user) &&
                                llvm::any_of(
                                    graph.nodes[user].inputs, [&](auto &in) {
                                      TensorName ref = splitTensorName(in);
                                      return !ref.control &&
                                             ref.node == graph.nodes[node].name;
                                    });
                       }) ||
          llvm::any_of(graph.outputs, [&](const std::string &out) {
            return splitTensorName(out).node == graph.nodes[node].name;
          });
      if (readOutside) {
        if (structural.contains(node))
          return fail("'" + graph.nodes[node].name +
                          "' is read outside the loop",
                      node);
        dead.erase(node);
        changed = true;
      }
    }
  }
  // A node kept outside (read there too) must not need the loop's values.
  for (auto [i, node] : llvm::enumerate(graph.nodes)) {
    if (dead.contains(i))
      continue;
    for (const std::string &input : node.inputs) {
      TensorName ref = splitTensorName(input);
      std::optional<size_t> producer = index.lookup(ref.node);
      if (!ref.control && producer && dead.contains(*producer))
        return fail("'" + node.name + "' reads '" + input +
                        "', which is inside the loop, from outside it (a "
                        "value leaves a loop through an Exit)",
                    i);
    }
  }
  for (const Var &var : vars)
    inheritControls(loop, graph.nodes[var.enter], dead, index.byName);
  for (size_t inv : invariants)
    inheritControls(loop, graph.nodes[inv], dead, index.byName);
  graph.nodes.push_back(std::move(loop));
  removeNodes(graph, dead);
  functions.push_back({condName, *std::move(condBody)});
  functions.push_back({bodyName, *std::move(loopBody)});
  return success();
}

LogicalResult Functionalizer::functionalizeLoops(ImportedGraph &graph) {
  while (true) {
    SmallVector<size_t> loopConds;
    for (auto [i, node] : llvm::enumerate(graph.nodes))
      if (node.op == "LoopCond")
        loopConds.push_back(i);
    if (loopConds.empty())
      return success();
    bool progress = false;
    for (size_t loopCond : loopConds) {
      error.clear();
      if (succeeded(functionalizeLoop(graph, loopCond))) {
        progress = true;
        break;
      }
      if (!error.empty())
        return failure();
    }
    if (!progress) {
      error = "the loops of the graph nest in a way that cannot be turned "
              "into functional control flow";
      errorNode = graph.nodes[loopConds.front()].name;
      return failure();
    }
  }
}

//===----------------------------------------------------------------------===//
// Conditionals
//===----------------------------------------------------------------------===//

LogicalResult Functionalizer::functionalizeCond(ImportedGraph &graph,
                                                StringRef pred,
                                                ArrayRef<size_t> switches) {
  GraphIndex index(graph);
  // An error is about the first Switch unless it names another node.
  auto fail = [&](const Twine &message,
                  std::optional<size_t> about = std::nullopt) {
    error = ("conditional on '" + pred + "': " + message).str();
    errorNode = graph.nodes[about ? *about : switches.front()].name;
    return failure();
  };
  llvm::DenseSet<size_t> switchSet(switches.begin(), switches.end());
  // Each branch: what the Switches' outputs reach, data or control, up to
  // Merges.
  llvm::SetVector<size_t> branch[2];
  llvm::SetVector<size_t> merges;
  for (int side = 0; side < 2; ++side) {
    std::deque<size_t> work;
    auto reach = [&](size_t producer, std::optional<unsigned> output) {
      for (size_t user : index.consumers[producer]) {
        // A Switch's side is one data output; a branch node's users read it
        // as data or wait on it (a constant placed in the branch).
        bool reads = llvm::any_of(graph.nodes[user].inputs, [&](auto &in) {
          TensorName ref = splitTensorName(in);
          if (ref.node != graph.nodes[producer].name)
            return false;
          return output ? !ref.control && ref.index == *output : true;
        });
        if (!reads)
          continue;
        if (isOp(graph.nodes[user], "Merge")) {
          merges.insert(user);
          continue;
        }
        if (switchSet.contains(user))
          continue;
        if (branch[side].insert(user))
          work.push_back(user);
      }
    };
    for (size_t sw : switches)
      reach(sw, static_cast<unsigned>(side));
    while (!work.empty()) {
      size_t current = work.front();
      work.pop_front();
      if (isOp(graph.nodes[current], "Switch")) {
        error.clear();
        return failure(); // an inner conditional: functionalize it first
      }
      reach(current, std::nullopt);
    }
  }
  for (size_t node : branch[0])
    if (branch[1].contains(node))
      return fail("'" + graph.nodes[node].name + "' is in both branches", node);

  // Which side a tensor comes from.
  auto sideOf = [&](StringRef tensor) -> std::optional<int> {
    TensorName ref = splitTensorName(tensor);
    std::optional<size_t> producer = index.lookup(ref.node);
    if (!producer)
      return std::nullopt;
    if (switchSet.contains(*producer))
      return ref.index == 1 ? 1 : 0;
    for (int side = 0; side < 2; ++side)
      if (branch[side].contains(*producer))
        return side;
    return std::nullopt;
  };
  // The Merges that give results: [else input, then input] each.
  SmallVector<size_t> outputs;
  SmallVector<std::array<std::string, 2>> mergeInputs;
  llvm::DenseSet<size_t> dead(switches.begin(), switches.end());
  for (size_t merge : merges) {
    std::array<std::string, 2> inputs;
    bool seen[2] = {false, false};
    for (const std::string &input : graph.nodes[merge].inputs) {
      if (StringRef(input).starts_with("^"))
        continue;
      std::optional<int> side = sideOf(input);
      if (!side || seen[*side])
        return fail("Merge '" + graph.nodes[merge].name +
                        "' does not join the two branches",
                    merge);
      seen[*side] = true;
      inputs[*side] = input;
    }
    if (!seen[0] || !seen[1])
      return fail("Merge '" + graph.nodes[merge].name +
                      "' does not join the two branches",
                  merge);
    dead.insert(merge);
    // A Merge nothing reads as data (TF's `branch_executed`) only orders.
    bool readAsData = llvm::any_of(graph.outputs, [&](const std::string &out) {
      return splitTensorName(out).node == graph.nodes[merge].name;
    });
    for (size_t user : index.consumers[merge])
      for (const std::string &in : graph.nodes[user].inputs) {
        TensorName ref = splitTensorName(in);
        if (ref.control || ref.node != graph.nodes[merge].name)
          continue;
        if (ref.index != 0)
          return fail("the value_index of Merge '" + graph.nodes[merge].name +
                          "' is read",
                      merge);
        readAsData = true;
      }
    if (readAsData) {
      outputs.push_back(merge);
      mergeInputs.push_back(inputs);
    }
  }
  // Branch nodes must not be read (or fetched) outside the conditional.
  auto isFetched = [&](size_t node) {
    return llvm::any_of(graph.outputs, [&](const std::string &out) {
      return splitTensorName(out).node == graph.nodes[node].name;
    });
  };
  for (size_t sw : switches)
    if (isFetched(sw))
      return fail("the output of Switch '" + graph.nodes[sw].name +
                      "' is fetched, but it is alive on one branch only (a "
                      "value leaves a conditional through a Merge)",
                  sw);
  for (int side = 0; side < 2; ++side)
    for (size_t node : branch[side]) {
      dead.insert(node);
      if (isFetched(node))
        return fail("'" + graph.nodes[node].name +
                        "' is fetched, but it is inside a branch (a value "
                        "leaves a conditional through a Merge)",
                    node);
      for (size_t user : index.consumers[node]) {
        if (branch[side].contains(user) || merges.contains(user))
          continue;
        bool asData = llvm::any_of(graph.nodes[user].inputs, [&](auto &in) {
          TensorName ref = splitTensorName(in);
          return !ref.control && ref.node == graph.nodes[node].name;
        });
        if (asData)
          return fail("'" + graph.nodes[node].name +
                          "' is read outside its branch, by '" +
                          graph.nodes[user].name + "'",
                      user);
      }
    }

  // Arguments: the Switches' data (both sides see every one).
  std::string base = pred.str();
  std::string names[2] = {newFunctionName(base + "_else"),
                          newFunctionName(base + "_then")};
  SmallVector<std::string> argInputs;
  ImportedGraph bodies[2];
  for (int side = 0; side < 2; ++side) {
    SmallVector<std::pair<std::string, Type>> args;
    for (size_t sw : switches) {
      Type dtype = getDType(graph.nodes[sw]);
      args.push_back({tensorName(graph.nodes[sw].name, side), dtype});
      if (side == 0)
        argInputs.push_back(graph.nodes[sw].inputs[0]);
    }
    SmallVector<std::string> results;
    for (auto &inputs : mergeInputs)
      results.push_back(inputs[side]);
    errorNode = graph.nodes[switches.front()].name;
    FailureOr<ImportedGraph> body =
        buildBody(graph, index, branch[side], args, results, {}, names[side],
                  error, errorNode);
    if (failed(body))
      return failure();
    bodies[side] = *std::move(body);
  }

  Builder builder(context);
  ImportedNode node;
  node.name = newNodeName(graph, base + "/If");
  node.op = "If";
  node.inputs.push_back(pred.str());
  llvm::append_range(node.inputs, argInputs);
  node.device = graph.nodes[switches.front()].device;
  setAttr(node, "then_branch", FlatSymbolRefAttr::get(context, names[1]));
  setAttr(node, "else_branch", FlatSymbolRefAttr::get(context, names[0]));
  for (auto [k, merge] : llvm::enumerate(outputs)) {
    ImportedNode &result = graph.nodes[merge];
    dead.erase(merge);
    result.op = "Identity";
    result.inputs = {tensorName(node.name, k)};
    // An Identity has no N.
    llvm::erase_if(result.attrs,
                   [](const NamedAttribute &a) { return a.getName() == "N"; });
    if (result.resultTypes) // a Merge's output, not its value_index
      result.resultTypes->resize(1);
  }
  for (size_t sw : switches)
    inheritControls(node, graph.nodes[sw], dead, index.byName);
  graph.nodes.push_back(std::move(node));
  removeNodes(graph, dead);
  functions.push_back({names[0], std::move(bodies[0])});
  functions.push_back({names[1], std::move(bodies[1])});
  return success();
}

LogicalResult Functionalizer::functionalizeConds(ImportedGraph &graph) {
  while (true) {
    // Switches grouped by their predicate, seen through Identities: TF1's
    // tf.cond switches its data on `pred_id` = Identity(pred) and pred
    // itself on pred (the pivot Switch, whose switch_t / switch_f
    // identities place the branches' constants).
    GraphIndex index(graph);
    auto throughIdentities = [&](TensorName ref) {
      for (size_t steps = 0; steps < graph.nodes.size(); ++steps) {
        std::optional<size_t> producer = index.lookup(ref.node);
        if (!producer || graph.nodes[*producer].op != "Identity")
          break;
        const std::vector<std::string> &inputs = graph.nodes[*producer].inputs;
        if (inputs.empty() || StringRef(inputs[0]).starts_with("^"))
          break;
        ref = splitTensorName(inputs[0]);
      }
      return tensorName(ref.node, ref.index);
    };
    std::vector<std::pair<std::string, SmallVector<size_t>>> groups;
    llvm::StringMap<size_t> groupOf;
    for (auto [i, node] : llvm::enumerate(graph.nodes))
      if (isOp(node, "Switch") && node.inputs.size() >= 2) {
        std::string pred = throughIdentities(splitTensorName(node.inputs[1]));
        auto [it, inserted] = groupOf.try_emplace(pred, groups.size());
        if (inserted)
          groups.push_back({pred, {}});
        groups[it->second].second.push_back(i);
      }
    if (groups.empty())
      return success();
    bool progress = false;
    for (auto &[pred, switches] : groups) {
      error.clear();
      if (succeeded(functionalizeCond(graph, pred, switches))) {
        progress = true;
        break;
      }
      if (!error.empty())
        return failure();
    }
    if (!progress) {
      error = "the conditionals of the graph nest in a way that cannot be "
              "turned into functional control flow";
      errorNode = graph.nodes[groups.front().second.front()].name;
      return failure();
    }
  }
}

LogicalResult Functionalizer::run(ImportedGraph &graph, std::string &message,
                                  std::string *nodeOfError) {
  auto report = [&] {
    message = error;
    if (nodeOfError)
      *nodeOfError = errorNode;
    return failure();
  };
  bool hasControlFlow = llvm::any_of(graph.nodes, [](const ImportedNode &n) {
    return isOp(n, "Switch") || isOp(n, "Merge") || n.op == "LoopCond";
  });
  if (!hasControlFlow)
    return success();
  if (failed(functionalizeLoops(graph)) || failed(functionalizeConds(graph)))
    return report();
  // Conditionals inside the functions just made (loop bodies, branches).
  for (size_t i = 0; i < functions.size(); ++i) {
    ImportedGraph body = std::move(functions[i].body);
    LogicalResult result = functionalizeConds(body);
    functions[i].body = std::move(body);
    if (failed(result))
      return report();
  }
  return success();
}

} // namespace

LogicalResult tfrt_fallback::functionalizeControlFlow(
    ImportedGraph &graph, std::vector<ImportedFunction> &functions,
    MLIRContext *context, std::string &error,
    const llvm::StringSet<> *takenNames, std::string *errorNode) {
  Functionalizer functionalizer(functions, context, takenNames);
  return functionalizer.run(graph, error, errorNode);
}

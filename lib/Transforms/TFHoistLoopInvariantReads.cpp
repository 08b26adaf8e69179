//===- TFHoistLoopInvariantReads.cpp - reads out of loops -------*- C++ -*-===//
//
// The --tf-hoist-loop-invariant-reads pass: a tf.ReadVariableOp in the
// condition or body of a tf.While whose variable nothing in the loop can
// write (no op of the loop's functions, or of what they call, may assign a
// variable) reads the same value in every iteration. It is read once before
// the loop instead, and the value rides along as one more loop-invariant
// value, so an iteration runs one chained kernel less (and a loop that only
// read variables needs no chain at all).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFHOISTLOOPINVARIANTREADS
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

namespace {

/// The function a function attribute names: a symbol or #tf_type.func.
FlatSymbolRefAttr calleeName(Attribute value) {
  if (auto func = dyn_cast_or_null<tf::FuncAttr>(value))
    return dyn_cast<FlatSymbolRefAttr>(func.getName());
  return dyn_cast_or_null<FlatSymbolRefAttr>(value);
}

Attribute getTFAttr(Operation *op, StringRef name) {
  if (Attribute value = op->getAttr(name))
    return value;
  if (auto properties =
          dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
    return properties.get(name);
  return {};
}

bool isWhile(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "tf.While" || name == "tf.StatelessWhile";
}

class TFHoistLoopInvariantReadsPass
    : public tfrt_fallback::impl::TFHoistLoopInvariantReadsBase<
          TFHoistLoopInvariantReadsPass> {
public:
  using Base::Base;
  void runOnOperation() override;

private:
  /// Whether running `func` may write a variable (through what it calls
  /// too). Unknown callees and recursion count as writes.
  bool mayWrite(func::FuncOp func);
  bool mayWrite(Operation *op);
  /// Hoists the invariant reads of `loop`; returns whether it changed it.
  bool hoist(Operation *loop);

  SymbolTable *symbols = nullptr;
  ModuleOp module;
  llvm::DenseMap<Operation *, bool> writes;
};

bool TFHoistLoopInvariantReadsPass::mayWrite(func::FuncOp func) {
  auto [it, inserted] = writes.try_emplace(func, true);
  if (!inserted)
    return it->second; // known, or being visited (recursion: a write)
  if (func.isExternal())
    return true;
  bool result = false;
  func.walk([&](Operation *op) {
    if (mayWrite(op)) {
      result = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  writes[func] = result;
  return result;
}

bool TFHoistLoopInvariantReadsPass::mayWrite(Operation *op) {
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = symbols->lookup<func::FuncOp>(call.getCallee());
    return !callee || mayWrite(callee);
  }
  if (op->getName().getDialectNamespace() != "tf")
    return false;
  StringRef name = op->getName().stripDialect();
  // Functional control flow and calls write what their functions write.
  static const StringRef kCalleeAttrs[] = {
      "then_branch", "else_branch", "branches", "cond", "body", "f"};
  bool calls = false;
  for (StringRef attr : kCalleeAttrs) {
    Attribute value = getTFAttr(op, attr);
    if (!value)
      continue;
    calls = true;
    SmallVector<Attribute> names;
    if (auto list = dyn_cast<ArrayAttr>(value))
      llvm::append_range(names, list.getValue());
    else
      names.push_back(value);
    for (Attribute element : names) {
      FlatSymbolRefAttr callee = calleeName(element);
      auto func =
          callee ? symbols->lookup<func::FuncOp>(callee.getValue()) : nullptr;
      if (!func || mayWrite(func))
        return true;
    }
  }
  if (calls)
    return false;
  // Reads, handles and ops on other kinds of state write no variable.
  if (llvm::is_contained({"ReadVariableOp", "VarHandleOp", "VarIsInitializedOp",
                          "ResourceGather", "VariableShape"},
                         name) ||
      name.starts_with("TensorArray"))
    return false;
  std::optional<tf::OpEffects> effects = tf::lookupOpEffects(name);
  return !effects || *effects != tf::OpEffects::Pure;
}

bool TFHoistLoopInvariantReadsPass::hoist(Operation *loop) {
  FlatSymbolRefAttr condName = calleeName(getTFAttr(loop, "cond"));
  FlatSymbolRefAttr bodyName = calleeName(getTFAttr(loop, "body"));
  if (!condName || !bodyName || condName == bodyName)
    return false;
  auto cond = symbols->lookup<func::FuncOp>(condName.getValue());
  auto body = symbols->lookup<func::FuncOp>(bodyName.getValue());
  if (!cond || !body || cond.isExternal() || body.isExternal() ||
      !cond.isPrivate() || !body.isPrivate() || !cond.getBody().hasOneBlock() ||
      !body.getBody().hasOneBlock())
    return false;
  // Their signatures change: this loop must be their only user.
  for (func::FuncOp func : {cond, body}) {
    std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
    if (!uses || llvm::any_of(*uses, [&](const SymbolTable::SymbolUse &use) {
          return use.getUser() != loop;
        }))
      return false;
  }
  const unsigned numCarried = loop->getNumOperands();
  if (cond.getNumArguments() != numCarried ||
      body.getNumArguments() != numCarried ||
      body.getNumResults() != numCarried || loop->getNumResults() != numCarried)
    return false;
  if (mayWrite(cond) || mayWrite(body))
    return false;

  // Loop-invariant values: body arguments the body returns in place.
  Operation *bodyReturn = body.getBody().front().getTerminator();
  auto invariant = [&](unsigned k) {
    return bodyReturn->getOperand(k) == body.getArgument(k);
  };

  // The reads to hoist, grouped by what they read: a loop-invariant value
  // (the same argument position in cond and body) or a handle the function
  // makes itself (a VarHandleOp without operands), and the read's type.
  struct Group {
    Value outsideHandle;           // null until made
    Operation *handleOp = nullptr; // a VarHandleOp to copy, else null
    unsigned argument = 0;
    Type type;
    SmallVector<Operation *> reads;
  };
  llvm::MapVector<std::tuple<unsigned, Operation *, Type>, Group> groups;
  for (func::FuncOp func : {cond, body}) {
    for (Operation &op : func.getBody().front()) {
      if (op.getName().getStringRef() != "tf.ReadVariableOp" ||
          op.getNumOperands() != 1 || op.getNumResults() != 1)
        continue;
      Value handle = op.getOperand(0);
      std::tuple<unsigned, Operation *, Type> key;
      if (auto arg = dyn_cast<BlockArgument>(handle)) {
        if (!invariant(arg.getArgNumber()))
          continue;
        key = {arg.getArgNumber(), nullptr, op.getResult(0).getType()};
      } else {
        Operation *maker = handle.getDefiningOp();
        if (maker->getName().getStringRef() != "tf.VarHandleOp" ||
            maker->getNumOperands() != 0)
          continue;
        key = {0, maker, op.getResult(0).getType()};
      }
      Group &group = groups[key];
      group.argument = std::get<0>(key);
      group.handleOp = std::get<1>(key);
      group.type = std::get<2>(key);
      group.reads.push_back(&op);
    }
  }
  if (groups.empty())
    return false;

  // One read before the loop per group; its value is a new loop value.
  OpBuilder builder(loop);
  SmallVector<Value> operands(loop->getOperands());
  SmallVector<Type> resultTypes(loop->getResultTypes());
  for (auto &[key, group] : groups) {
    Value outside;
    if (group.handleOp)
      outside = builder.clone(*group.handleOp)->getResult(0);
    else
      outside = loop->getOperand(group.argument);
    Operation *first = group.reads.front();
    OperationState state(first->getLoc(), "tf.ReadVariableOp");
    state.addOperands(outside);
    state.addTypes(group.type);
    state.addAttributes(first->getAttrs());
    operands.push_back(builder.create(state)->getResult(0));
    resultTypes.push_back(group.type);
    for (func::FuncOp func : {cond, body}) {
      BlockArgument value =
          func.getBody().front().addArgument(group.type, first->getLoc());
      for (Operation *read : group.reads)
        if (read->getParentOfType<func::FuncOp>() == func)
          read->getResult(0).replaceAllUsesWith(value);
      if (func == body)
        bodyReturn->insertOperands(bodyReturn->getNumOperands(), value);
    }
  }
  for (auto &[key, group] : groups) {
    for (Operation *read : group.reads)
      read->erase();
    // A handle made in the loop that nothing reads any more goes too: it is
    // stateful and would keep the loop on a chain.
    if (group.handleOp && group.handleOp->use_empty())
      group.handleOp->erase();
  }
  for (func::FuncOp func : {cond, body}) {
    SmallVector<Type> results(func.getResultTypes());
    if (func == body)
      results.assign(bodyReturn->getOperandTypes().begin(),
                     bodyReturn->getOperandTypes().end());
    func.setType(FunctionType::get(
        func.getContext(), func.getBody().front().getArgumentTypes(), results));
  }

  // The new loop: the same op with the new values after the old ones.
  OperationState state(loop->getLoc(), loop->getName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  for (NamedAttribute attr : loop->getAttrs()) {
    // TF's loops list their values' dtypes (T) and shapes (output_shapes).
    if (attr.getName() == "T")
      if (auto list = dyn_cast<ArrayAttr>(attr.getValue())) {
        SmallVector<Attribute> types(list.getValue());
        for (Type type : ArrayRef(resultTypes).drop_front(numCarried))
          types.push_back(TypeAttr::get(getElementTypeOrSelf(type)));
        attr.setValue(builder.getArrayAttr(types));
      }
    if (attr.getName() == "output_shapes")
      if (auto list = dyn_cast<ArrayAttr>(attr.getValue())) {
        SmallVector<Attribute> shapes(list.getValue());
        shapes.append(resultTypes.size() - numCarried,
                      tf::ShapeAttr::get(loop->getContext(), false, {}));
        attr.setValue(builder.getArrayAttr(shapes));
      }
    state.attributes.push_back(attr);
  }
  if (auto properties =
          dyn_cast_or_null<DictionaryAttr>(loop->getPropertiesAsAttribute()))
    state.addAttributes(properties.getValue());
  Operation *replacement = builder.create(state);
  loop->replaceAllUsesWith(replacement->getResults().take_front(numCarried));
  loop->erase();
  return true;
}

void TFHoistLoopInvariantReadsPass::runOnOperation() {
  module = getOperation();
  SymbolTable symbolTable(module);
  symbols = &symbolTable;
  writes.clear();
  // A read hoisted out of an inner loop may then leave the outer one:
  // repeat until nothing moves (each round removes reads from loops).
  bool changed = true;
  while (changed) {
    changed = false;
    SmallVector<Operation *> loops;
    module.walk([&](Operation *op) {
      if (isWhile(op))
        loops.push_back(op);
    });
    for (Operation *loop : loops)
      changed |= hoist(loop);
  }
  symbols = nullptr;
}

} // namespace

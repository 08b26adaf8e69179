//===- TFRegionControlFlowToFunctional.cpp - outline CF regions -*- C++ -*-===//
//
// The --tf-region-control-flow-to-functional pass: outlines the regions of
// tf.IfRegion, tf.CaseRegion and tf.WhileRegion into private functions and
// replaces each op with tf.If, tf.Case or tf.While, as TensorFlow's pass of
// the same name does. Values a region uses from above become arguments of
// its function (and, for a loop, extra loop-carried values).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFREGIONCONTROLFLOWTOFUNCTIONAL
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

namespace {

bool isRegionControlFlow(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "tf.IfRegion" || name == "tf.CaseRegion" ||
         name == "tf.WhileRegion";
}

class TFRegionControlFlowToFunctionalPass
    : public tfrt_fallback::impl::TFRegionControlFlowToFunctionalBase<
          TFRegionControlFlowToFunctionalPass> {
public:
  using Base::Base;

  void runOnOperation() override;

private:
  /// Moves `region` into a new private function named after `name` whose
  /// arguments are the region's block arguments followed by `captures`, and
  /// whose results are what its tf.Yield yields, followed by the captures'
  /// arguments when `passCapturesOn` (a loop body carries them).
  FailureOr<func::FuncOp> outline(Operation *op, Region &region, StringRef name,
                                  ArrayRef<Value> captures,
                                  bool passCapturesOn);
  LogicalResult convert(Operation *op);

  SymbolTable *symbols = nullptr;
};

FailureOr<func::FuncOp> TFRegionControlFlowToFunctionalPass::outline(
    Operation *op, Region &region, StringRef name, ArrayRef<Value> captures,
    bool passCapturesOn) {
  if (!region.hasOneBlock())
    return op->emitOpError("has a region of ")
           << region.getBlocks().size()
           << " blocks; only single-block regions can be outlined";
  Block &block = region.front();
  Operation *yield = block.getTerminator();
  if (!yield || yield->getName().getStringRef() != "tf.Yield")
    return op->emitOpError("has a region that does not end in tf.Yield");

  auto parent = op->getParentOfType<func::FuncOp>();
  MLIRContext *context = op->getContext();
  OpBuilder builder(context);
  builder.setInsertionPointAfter(parent);
  SmallVector<Type> argTypes(block.getArgumentTypes());
  for (Value capture : captures)
    argTypes.push_back(capture.getType());
  SmallVector<Type> resultTypes(yield->getOperandTypes());
  if (passCapturesOn)
    for (Value capture : captures)
      resultTypes.push_back(capture.getType());
  auto func = func::FuncOp::create(
      builder, op->getLoc(), (parent.getSymName() + "_" + name).str(),
      FunctionType::get(context, argTypes, resultTypes));
  func.setPrivate();
  symbols->insert(func);

  Region &body = func.getBody();
  body.takeBody(region);
  Block &entry = body.front();
  SmallVector<Value> captureArgs;
  for (Value capture : captures) {
    BlockArgument arg = entry.addArgument(capture.getType(), capture.getLoc());
    captureArgs.push_back(arg);
    capture.replaceUsesWithIf(arg, [&](OpOperand &use) {
      return body.isAncestor(use.getOwner()->getParentRegion());
    });
  }
  builder.setInsertionPoint(yield);
  SmallVector<Value> returned(yield->getOperands());
  if (passCapturesOn)
    llvm::append_range(returned, captureArgs);
  func::ReturnOp::create(builder, yield->getLoc(), returned);
  yield->erase();
  return func;
}

LogicalResult TFRegionControlFlowToFunctionalPass::convert(Operation *op) {
  StringRef kind = op->getName().getStringRef().drop_front(strlen("tf."));
  // Values the regions use from above, in a fixed order.
  llvm::SetVector<Value> captured;
  for (Region &region : op->getRegions())
    getUsedValuesDefinedAbove(region, captured);
  SmallVector<Value> captures(captured.begin(), captured.end());

  OpBuilder builder(op);
  SmallVector<NamedAttribute> attrs(op->getAttrs());
  SmallVector<Value> operands(op->getOperands());
  SmallVector<Type> resultTypes(op->getResultTypes());
  StringRef newName;

  if (kind == "WhileRegion") {
    if (op->getNumRegions() != 2)
      return op->emitOpError("must have a cond and a body region");
    FailureOr<func::FuncOp> cond =
        outline(op, op->getRegion(0), "while_cond", captures, false);
    if (failed(cond))
      return failure();
    FailureOr<func::FuncOp> body =
        outline(op, op->getRegion(1), "while_body", captures, true);
    if (failed(body))
      return failure();
    attrs.emplace_back(builder.getStringAttr("cond"),
                       FlatSymbolRefAttr::get(*cond));
    attrs.emplace_back(builder.getStringAttr("body"),
                       FlatSymbolRefAttr::get(*body));
    // What the regions capture rides along as extra loop-carried values.
    llvm::append_range(operands, captures);
    for (Value capture : captures)
      resultTypes.push_back(capture.getType());
    newName = "tf.While";
  } else if (kind == "IfRegion") {
    if (op->getNumRegions() != 2 || op->getNumOperands() != 1)
      return op->emitOpError("must have a predicate and two regions");
    FailureOr<func::FuncOp> thenFunc =
        outline(op, op->getRegion(0), "then", captures, false);
    if (failed(thenFunc))
      return failure();
    FailureOr<func::FuncOp> elseFunc =
        outline(op, op->getRegion(1), "else", captures, false);
    if (failed(elseFunc))
      return failure();
    attrs.emplace_back(builder.getStringAttr("then_branch"),
                       FlatSymbolRefAttr::get(*thenFunc));
    attrs.emplace_back(builder.getStringAttr("else_branch"),
                       FlatSymbolRefAttr::get(*elseFunc));
    llvm::append_range(operands, captures);
    newName = "tf.If";
  } else {
    if (op->getNumRegions() == 0 || op->getNumOperands() != 1)
      return op->emitOpError("must have a branch index and regions");
    SmallVector<Attribute> branches;
    for (auto [index, region] : llvm::enumerate(op->getRegions())) {
      FailureOr<func::FuncOp> branch =
          outline(op, region, ("branch" + Twine(index)).str(), captures, false);
      if (failed(branch))
        return failure();
      branches.push_back(FlatSymbolRefAttr::get(*branch));
    }
    attrs.emplace_back(builder.getStringAttr("branches"),
                       builder.getArrayAttr(branches));
    llvm::append_range(operands, captures);
    newName = "tf.Case";
  }

  OperationState state(op->getLoc(), newName);
  state.addOperands(operands);
  state.addTypes(resultTypes);
  state.addAttributes(attrs);
  // TensorFlow prints inherent attributes as properties: keep them.
  if (auto properties =
          dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
    state.addAttributes(properties.getValue());
  Operation *functional = builder.create(state);
  op->replaceAllUsesWith(
      functional->getResults().take_front(op->getNumResults()));
  op->erase();
  return success();
}

void TFRegionControlFlowToFunctionalPass::runOnOperation() {
  ModuleOp module = getOperation();
  llvm::StringSet<> native;
  for (const std::string &name : nativeOps)
    native.insert(StringRef(name).trim());
  SymbolTable symbolTable(module);
  symbols = &symbolTable;
  // Post-order: inner ops are outlined first, so each region holds no
  // region control flow by the time it is outlined.
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isRegionControlFlow(op) &&
        !native.contains(op->getName().getStringRef().drop_front(3)))
      ops.push_back(op);
  });
  bool failedAny = false;
  for (Operation *op : ops) {
    if (!op->getParentOfType<func::FuncOp>()) {
      op->emitOpError("is not inside a function");
      failedAny = true;
      continue;
    }
    if (failed(convert(op)))
      failedAny = true;
  }
  symbols = nullptr;
  if (failedAny)
    signalPassFailure();
}

} // namespace

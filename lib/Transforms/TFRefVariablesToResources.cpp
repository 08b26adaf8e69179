//===- TFRefVariablesToResources.cpp - refs to resources -------*- C++ -*-===//
//
// The --tf-ref-variables-to-resources pass: TF1's reference variables
// (tf.VariableV2 and the ops that take its ref output: tf.Assign,
// tf.AssignAdd, tf.AssignSub, tf.IsVariableInitialized) become resource
// variables of the runtime's ResourceManager: a tf.VarHandleOp per
// variable, a tf.ReadVariableOp where a ref is read as a value, and the
// resource forms of the updates.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFREFVARIABLESTORESOURCES
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

namespace {

bool isVariable(Operation *op) {
  StringRef name = op->getName().getStringRef();
  return name == "tf.VariableV2" || name == "tf.Variable";
}

/// The resource op an op taking a ref as operand 0 becomes, or "".
StringRef resourceForm(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == "tf.Assign")
    return "tf.AssignVariableOp";
  if (name == "tf.AssignAdd")
    return "tf.AssignAddVariableOp";
  if (name == "tf.AssignSub")
    return "tf.AssignSubVariableOp";
  if (name == "tf.IsVariableInitialized")
    return "tf.VarIsInitializedOp";
  return "";
}

class TFRefVariablesToResourcesPass
    : public tfrt_fallback::impl::TFRefVariablesToResourcesBase<
          TFRefVariablesToResourcesPass> {
public:
  using Base::Base;
  void runOnOperation() override;

private:
  LogicalResult convertFunction(func::FuncOp func);
};

LogicalResult
TFRefVariablesToResourcesPass::convertFunction(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  OpBuilder builder(context);
  // Every value that is a ref, and the handle of its variable; `refs` in
  // the order they were found, so the reads come out in a fixed order.
  llvm::DenseMap<Value, Value> handleOf;
  SmallVector<Value> refs;
  SmallVector<Operation *> variables, work;
  func.walk([&](Operation *op) {
    if (isVariable(op))
      variables.push_back(op);
    else if (!resourceForm(op).empty())
      work.push_back(op);
  });
  if (variables.empty() && work.empty())
    return success();

  Type resource = RankedTensorType::get({}, tf::ResourceType::get(context, {}));
  for (Operation *variable : variables) {
    if (variable->getNumResults() != 1 || variable->getNumOperands() != 0)
      return variable->emitOpError("must have no operands and one result");
    // TF's MLIR leaves `dtype` out (derived from the result): a ref
    // result's referent (`!tf_type.f32ref`: f32) or the result's dtype.
    auto dtype = variable->getAttrOfType<TypeAttr>("dtype");
    if (!dtype) {
      Type element = getElementTypeOrSelf(variable->getResult(0).getType());
      if (auto ref = dyn_cast<tf::RefType>(element))
        element = ref.getReferentType();
      if (!element || !isTFElementType(element) ||
          isa<tf::ResourceType, tf::VariantType>(element))
        return variable->emitOpError(
            "requires a 'dtype' type attribute or a result whose type gives "
            "it");
      dtype = TypeAttr::get(element);
    }
    builder.setInsertionPoint(variable);
    OperationState state(variable->getLoc(), "tf.VarHandleOp");
    state.addTypes(resource);
    state.addAttribute("dtype", dtype);
    for (StringRef name : {"shape", "container", "shared_name"})
      if (Attribute value = variable->getAttr(name))
        state.addAttribute(name, value);
    // TF names a variable without shared_name after its node; VarHandleOp
    // would take its own location's name, which is the same one.
    if (!variable->getAttr("container"))
      state.addAttribute("container", builder.getStringAttr(""));
    auto sharedName = variable->getAttrOfType<StringAttr>("shared_name");
    if (!sharedName || sharedName.getValue().empty()) {
      if (auto loc = dyn_cast<NameLoc>(variable->getLoc()))
        state.attributes.set("shared_name", loc.getName());
    }
    Operation *handle = builder.create(state);
    handleOf[variable->getResult(0)] = handle->getResult(0);
    refs.push_back(variable->getResult(0));
  }

  // Ops that take a ref, in program order: their ref results are refs too.
  for (Operation *op : work) {
    if (op->getNumOperands() == 0 || !handleOf.count(op->getOperand(0)))
      return op->emitOpError("updates or tests a ref that is no "
                             "tf.VariableV2 of its function; refs passed "
                             "between functions are not supported");
    Value handle = handleOf[op->getOperand(0)];
    StringRef form = resourceForm(op);
    builder.setInsertionPoint(op);
    OperationState state(op->getLoc(), form);
    state.addOperands(handle);
    if (form == "tf.VarIsInitializedOp") {
      state.addTypes(op->getResultTypes());
    } else {
      if (op->getNumOperands() != 2 || op->getNumResults() > 1)
        return op->emitOpError("must take a ref and a value and return at "
                               "most the ref");
      state.addOperands(op->getOperand(1));
      Type element = getElementTypeOrSelf(op->getOperand(1).getType());
      state.addAttribute("dtype", TypeAttr::get(element));
      // TF's Assign validates shapes by default; AssignVariableOp does not.
      if (form == "tf.AssignVariableOp") {
        auto validate = op->getAttrOfType<BoolAttr>("validate_shape");
        state.addAttribute("validate_shape",
                           validate ? validate : builder.getBoolAttr(true));
      }
    }
    Operation *replacement = builder.create(state);
    if (form == "tf.VarIsInitializedOp") {
      op->replaceAllUsesWith(replacement);
    } else if (op->getNumResults() == 1) {
      // The output ref is the variable again.
      handleOf[op->getResult(0)] = handle;
      refs.push_back(op->getResult(0));
    }
  }

  // Every other use of a ref reads the variable right before it, as a
  // TF1 ref is read when its user runs.
  for (Value ref : refs) {
    Value handle = handleOf[ref];
    for (OpOperand &use : llvm::make_early_inc_range(ref.getUses())) {
      Operation *user = use.getOwner();
      if (!resourceForm(user).empty() && use.getOperandNumber() == 0)
        continue;
      builder.setInsertionPoint(user);
      OperationState state(ref.getLoc(), "tf.ReadVariableOp");
      state.addOperands(handle);
      state.addTypes(ref.getType());
      state.addAttribute("dtype",
                         TypeAttr::get(getElementTypeOrSelf(ref.getType())));
      use.set(builder.create(state)->getResult(0));
    }
  }
  for (Operation *op : llvm::reverse(work))
    op->erase();
  for (Operation *variable : variables)
    variable->erase();
  return success();
}

void TFRefVariablesToResourcesPass::runOnOperation() {
  bool failedAny = false;
  for (auto func : getOperation().getOps<func::FuncOp>())
    if (!func.isExternal() && failed(convertFunction(func)))
      failedAny = true;
  if (failedAny)
    signalPassFailure();
}

} // namespace

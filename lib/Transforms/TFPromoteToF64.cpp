//===- TFPromoteToF64.cpp - compute a TF program in float64 -----*- C++ -*-===//
//
// The --tf-promote-to-f64 pass: every f32 tensor of a TF-dialect program
// becomes an f64 one (types, type attributes, constants); public functions
// keep their f32 arguments and cast them first. The float64 run of a graph
// is the accuracy oracle for models whose float32 results depend on the
// order of their sums (Passes.td).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Runtime/OpTable.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cstring>

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFPROMOTETOF64
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

namespace {

/// `type` with f32 elements made f64 (a tensor of f32, or f32 itself).
Type promote(Type type) {
  Builder builder(type.getContext());
  if (type.isF32())
    return builder.getF64Type();
  if (auto ranked = dyn_cast<RankedTensorType>(type))
    if (ranked.getElementType().isF32())
      return ranked.clone(builder.getF64Type());
  if (auto unranked = dyn_cast<UnrankedTensorType>(type))
    if (unranked.getElementType().isF32())
      return UnrankedTensorType::get(builder.getF64Type());
  return type;
}

/// The f32 values of `elements` as f64 constants of `type`; null for other
/// element types or a resource without data.
DenseElementsAttr promoteElements(ElementsAttr elements) {
  auto type = dyn_cast<RankedTensorType>(elements.getType());
  if (!type || !type.getElementType().isF32())
    return {};
  auto promoted = cast<RankedTensorType>(promote(type));
  if (auto dense = dyn_cast<DenseElementsAttr>(elements)) {
    if (dense.isSplat())
      return DenseElementsAttr::get(
          promoted,
          static_cast<double>(dense.getSplatValue<APFloat>().convertToFloat()));
    SmallVector<double> values;
    values.reserve(dense.getNumElements());
    for (float value : dense.getValues<float>())
      values.push_back(value);
    return DenseElementsAttr::get(promoted, ArrayRef<double>(values));
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(elements)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    int64_t count = type.getNumElements();
    if (!blob || blob->getData().size() != count * sizeof(float))
      return {};
    SmallVector<double> values(count);
    const char *data = blob->getData().data();
    for (int64_t i = 0; i < count; ++i) {
      float value;
      std::memcpy(&value, data + i * sizeof(float), sizeof(float));
      values[i] = value;
    }
    return DenseElementsAttr::get(promoted, ArrayRef<double>(values));
  }
  return {};
}

/// `attr` with f32 types and tensors made f64 (lists too); null if it has
/// nothing to promote, or if a constant cannot be read (`failed` is set).
Attribute promoteAttr(Attribute attr, bool &failed) {
  if (auto type = dyn_cast<TypeAttr>(attr)) {
    Type promoted = promote(type.getValue());
    return promoted == type.getValue() ? Attribute() : TypeAttr::get(promoted);
  }
  if (auto elements = dyn_cast<ElementsAttr>(attr)) {
    if (!isa<RankedTensorType>(elements.getType()) ||
        !cast<RankedTensorType>(elements.getType()).getElementType().isF32())
      return {};
    DenseElementsAttr promoted = promoteElements(elements);
    if (!promoted)
      failed = true;
    return promoted;
  }
  if (auto list = dyn_cast<ArrayAttr>(attr)) {
    SmallVector<Attribute> elements;
    bool changed = false;
    for (Attribute element : list) {
      Attribute promoted = promoteAttr(element, failed);
      changed |= static_cast<bool>(promoted);
      elements.push_back(promoted ? promoted : element);
    }
    return changed ? ArrayAttr::get(attr.getContext(), elements) : Attribute();
  }
  return {};
}

/// Whether result #i of TF op `op` is float32 whatever its inputs (the
/// OpDef fixes it: ResizeBilinear's resized_images), for the ops whose
/// outputs are one tensor per OpDef output.
bool hasFixedF32Result(Operation *op, unsigned i) {
  StringRef name = op->getName().stripDialect();
  const rt::OpInfo *info =
      rt::lookupOp(std::string_view(name.data(), name.size()));
  if (!info || info->outputs.size() != op->getNumResults())
    return false;
  const rt::OpArg &arg = info->outputs[i];
  return arg.kind == rt::OpArg::Kind::Fixed && arg.count.empty() &&
         arg.type == "float";
}

/// A tf.Cast of `value` (f32) to `type` (its f64 form) at `builder`.
Value castToF64(OpBuilder &builder, Location loc, Value value, Type type) {
  OperationState state(loc, "tf.Cast");
  state.addOperands(value);
  state.addTypes(type);
  state.addAttribute("SrcT", TypeAttr::get(builder.getF32Type()));
  state.addAttribute("DstT", TypeAttr::get(builder.getF64Type()));
  state.addAttribute("Truncate", builder.getBoolAttr(false));
  return builder.create(state)->getResult(0);
}

struct TFPromoteToF64Pass
    : public tfrt_fallback::impl::TFPromoteToF64Base<TFPromoteToF64Pass> {
  void runOnOperation() override;
};

void TFPromoteToF64Pass::runOnOperation() {
  ModuleOp module = getOperation();
  bool failedAny = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    Block &entry = func.getBody().front();
    // Results the OpDef fixes as float32 stay so, cast for their users.
    SmallVector<OpResult> fixedF32;
    // Every value of the body, nested regions included.
    func.walk([&](Operation *op) {
      if (op == func.getOperation())
        return;
      bool isTF = op->getName().getDialectNamespace() == "tf";
      for (OpResult result : op->getResults()) {
        if (isTF && hasFixedF32Result(op, result.getResultNumber()) &&
            promote(result.getType()) != result.getType()) {
          fixedF32.push_back(result);
          continue;
        }
        result.setType(promote(result.getType()));
      }
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(promote(arg.getType()));
      if (!isTF && !isa<arith::ConstantOp>(op))
        return;
      for (NamedAttribute attr : op->getAttrs()) {
        bool failed = false;
        Attribute promoted = promoteAttr(attr.getValue(), failed);
        if (failed) {
          op->emitOpError("has a float32 constant '")
              << attr.getName().getValue() << "' whose values cannot be read";
          failedAny = true;
        } else if (promoted) {
          op->setAttr(attr.getName(), promoted);
        }
      }
    });
    for (OpResult result : fixedF32) {
      OpBuilder builder(result.getOwner()->getContext());
      builder.setInsertionPointAfter(result.getOwner());
      Value cast = castToF64(builder, result.getLoc(), result,
                             promote(result.getType()));
      result.replaceAllUsesExcept(cast, cast.getDefiningOp());
    }
    // Arguments: a public function takes f32 still and casts it first.
    OpBuilder builder = OpBuilder::atBlockBegin(&entry);
    for (BlockArgument arg : entry.getArguments()) {
      Type promoted = promote(arg.getType());
      if (promoted == arg.getType())
        continue;
      if (func.isPrivate()) {
        arg.setType(promoted);
        continue;
      }
      Value cast = castToF64(builder, arg.getLoc(), arg, promoted);
      arg.replaceAllUsesExcept(cast, cast.getDefiningOp());
    }
    SmallVector<Type> results;
    for (Type type : func.getResultTypes())
      results.push_back(promote(type));
    func.setType(
        FunctionType::get(&getContext(), entry.getArgumentTypes(), results));
  }
  if (failedAny)
    signalPassFailure();
}

} // namespace

//===- TFDialect.cpp - the TensorFlow input dialect -------------*- C++ -*-===//
//
// A dialect for `tf.*` ops in generic form, with effect information for the
// ops listed in the op table (tfrt_fallback/Runtime/OpTable.def).
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/TF/TFDialect.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;

MLIR_DEFINE_EXPLICIT_TYPE_ID(tfrt_fallback::tf::TFDialect)

namespace tfrt_fallback::tf {

std::optional<OpEffects> lookupOpEffects(llvm::StringRef name) {
  static const llvm::StringMap<OpEffects> table = [] {
    llvm::StringMap<OpEffects> map;
#define TF_OP(Name, Effects, ...) map[#Name] = OpEffects::Effects;
#include "tfrt_fallback/Runtime/OpTable.def"
    return map;
  }();
  auto it = table.find(name);
  if (it == table.end())
    return std::nullopt;
  return it->second;
}

bool isOrdered(Operation *op) { return op->hasAttr(kOrderedAttrName); }

Value createIdentity(OpBuilder &builder, Location loc, Value value, Type type) {
  OperationState identity(loc, "tf.Identity");
  identity.addOperands(value);
  identity.addTypes(type);
  identity.addAttribute("T", TypeAttr::get(getElementTypeOrSelf(type)));
  return builder.create(identity)->getResult(0);
}

namespace {
/// MemoryEffectOpInterface for known, unregistered `tf.*` ops: none for pure
/// ops, a read and a write of the default resource for stateful ones.
struct TFOpEffectsModel
    : public MemoryEffectOpInterface::FallbackModel<TFOpEffectsModel> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    std::optional<OpEffects> kind =
        lookupOpEffects(op->getName().stripDialect());
    if (kind == OpEffects::Pure && !isOrdered(op))
      return;
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

/// Erases a `tf.*` op that the op table lists as pure when none of its results
/// is used.
struct EraseDeadPureTFOp : public RewritePattern {
  EraseDeadPureTFOp(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getName().getDialectNamespace() !=
            TFDialect::getDialectNamespace() ||
        !op->use_empty() || op->getNumRegions() != 0 ||
        op->getNumSuccessors() != 0 || isOrdered(op) ||
        lookupOpEffects(op->getName().stripDialect()) != OpEffects::Pure)
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

TFDialect::TFDialect(MLIRContext *context)
    : Dialect(getDialectNamespace(), context, TypeID::get<TFDialect>()) {
  allowUnknownOperations();
  allowUnknownTypes();
}

void *TFDialect::getRegisteredInterfaceForOp(TypeID interfaceID,
                                             OperationName opName) {
  if (interfaceID != MemoryEffectOpInterface::getInterfaceID())
    return nullptr;
  if (!lookupOpEffects(opName.stripDialect()))
    return nullptr;
  static TFOpEffectsModel model;
  return &model;
}

void TFDialect::getCanonicalizationPatterns(RewritePatternSet &results) const {
  results.add<EraseDeadPureTFOp>(getContext());
}

} // namespace tfrt_fallback::tf

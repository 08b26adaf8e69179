//===- TFToTFRTFallback.cpp - lower TF ops to kernel calls ------*- C++ -*-===//
//
// The --tf-to-tfrt-fallback pass: rewrites `tf.*` ops into
// tfrt_fallback.kernel_call / constant and threads ops with side effects on
// chains.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/Passes.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Runtime/DType.h"
#include "tfrt_fallback/Transforms/DerivedAttributes.h"
#include "tfrt_fallback/Transforms/KernelManifest.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVectorExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace tfrt_fallback {
#define GEN_PASS_DEF_TFTOTFRTFALLBACK
#include "tfrt_fallback/Transforms/Passes.h.inc"
} // namespace tfrt_fallback

using namespace mlir;
using namespace tfrt_fallback;

namespace {

bool isTFOp(Operation *op) {
  return op->getName().getDialectNamespace() ==
         tf::TFDialect::getDialectNamespace();
}

/// Whether the attribute `name` of a TF op is no TF op attribute, and is
/// dropped as TensorFlow's own TFRT lowering drops it
/// (IsUnusedTfrtAttribute): TF's bookkeeping (`_output_shapes`, `_class`,
/// ...), MLIR's operand and result segment sizes (the operand and result
/// counts say the same), and dialect attributes such as `f.Tin` or
/// `tf_saved_model.*`: an OpDef attribute name has no dot.
bool isDroppedTFAttr(StringRef name) {
  return name.starts_with("_") || name == "operandSegmentSizes" ||
         name == "resultSegmentSizes" || name == "operand_segment_sizes" ||
         name == "result_segment_sizes" || name.contains('.');
}

/// Rewrites TensorFlow's own attribute spellings into the tfrt_fallback
/// ones: `#tf_type.shape<...>` (also inside lists), and MLIR's dense arrays
/// (`array<i1: true, false>`, `array<i64: 1, 2>`), which TF's ODS uses for
/// list(bool), list(int) and list(float) attributes, into lists.
Attribute convertTFAttr(Attribute value) {
  MLIRContext *context = value.getContext();
  Builder builder(context);
  if (auto shape = dyn_cast<tf::ShapeAttr>(value))
    return ShapeAttr::get(context, shape.getRanked(), shape.getDims());
  // TensorFlow's older MLIR spells a dtype as a string, "tfdtype$DT_FLOAT".
  if (auto string = dyn_cast<StringAttr>(value);
      string && string.getValue().starts_with("tfdtype$")) {
    rt::StatusOr<rt::DType> dtype =
        rt::parseDType(string.getValue().drop_front(strlen("tfdtype$")).str());
    if (dtype.ok())
      if (Type element = tf::getElementType(*dtype, context))
        return TypeAttr::get(element);
    return value;
  }
  // An OpDef's type attribute holds no reference dtype (TensorFlow's
  // DropRefType): `T = !tf_type.f32ref` is f32.
  if (auto type = dyn_cast<TypeAttr>(value))
    if (auto ref = dyn_cast<tf::RefType>(type.getValue()))
      if (Type referent = ref.getReferentType())
        return TypeAttr::get(referent);
  // A function attribute is the symbol of its function (its instantiation
  // attributes are not needed for a function of the module, as for calls);
  // TensorFlow's "no function", `#tf_type.func<"", {}>`, an empty name.
  if (auto func = dyn_cast<tf::FuncAttr>(value)) {
    if (func.getName().getRootReference().getValue().empty())
      return builder.getStringAttr("");
    if (isa<FlatSymbolRefAttr>(func.getName()))
      return func.getName();
  }
  if (auto list = dyn_cast<ArrayAttr>(value)) {
    SmallVector<Attribute> elements;
    for (Attribute element : list)
      elements.push_back(convertTFAttr(element));
    return ArrayAttr::get(context, elements);
  }
  if (auto bools = dyn_cast<DenseBoolArrayAttr>(value))
    return builder.getBoolArrayAttr(bools.asArrayRef());
  auto ints = [&](auto array) {
    SmallVector<int64_t> values(array.asArrayRef().begin(),
                                array.asArrayRef().end());
    return builder.getI64ArrayAttr(values);
  };
  if (auto array = dyn_cast<DenseI8ArrayAttr>(value))
    return ints(array);
  if (auto array = dyn_cast<DenseI16ArrayAttr>(value))
    return ints(array);
  if (auto array = dyn_cast<DenseI32ArrayAttr>(value))
    return ints(array);
  if (auto array = dyn_cast<DenseI64ArrayAttr>(value))
    return ints(array);
  if (auto array = dyn_cast<DenseF32ArrayAttr>(value))
    return builder.getF32ArrayAttr(array.asArrayRef());
  if (auto array = dyn_cast<DenseF64ArrayAttr>(value))
    return builder.getF64ArrayAttr(array.asArrayRef());
  return value;
}

/// The attribute `name` of a TF op, among its attributes or its properties
/// (TensorFlow prints inherent attributes as properties).
Attribute getTFAttr(Operation *op, StringRef name) {
  if (Attribute value = op->getAttr(name))
    return value;
  if (auto properties =
          dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
    return properties.get(name);
  return {};
}

/// The function a function attribute names: a symbol, or TensorFlow's
/// `#tf_type.func<@f, {...}>` (its instantiation attributes are not needed
/// for a function of the module).
FlatSymbolRefAttr getFunctionName(Attribute value) {
  if (auto func = dyn_cast_or_null<tf::FuncAttr>(value))
    return dyn_cast<FlatSymbolRefAttr>(func.getName());
  return dyn_cast_or_null<FlatSymbolRefAttr>(value);
}

/// TensorFlow's functional control flow and calls, which become
/// tfrt_fallback.if / case / while and func.call: the names of the
/// attributes that name their functions.
ArrayRef<StringRef> getCalleeAttrNames(StringRef opName) {
  static const StringRef kIf[] = {"then_branch", "else_branch"};
  static const StringRef kCase[] = {"branches"};
  static const StringRef kWhile[] = {"cond", "body"};
  static const StringRef kCall[] = {"f"};
  if (opName == "If" || opName == "StatelessIf")
    return kIf;
  if (opName == "Case" || opName == "StatelessCase")
    return kCase;
  if (opName == "While" || opName == "StatelessWhile")
    return kWhile;
  if (opName == "PartitionedCall" || opName == "StatefulPartitionedCall")
    return kCall;
  return {};
}

/// The functions a functional control-flow op calls, in the order of its
/// callees (then, else; the branches; cond, body; f), or failure when one
/// is not a symbol.
FailureOr<SmallVector<FlatSymbolRefAttr>> getCallees(Operation *op) {
  SmallVector<FlatSymbolRefAttr> callees;
  for (StringRef name : getCalleeAttrNames(op->getName().stripDialect())) {
    Attribute value = getTFAttr(op, name);
    // Only tf.Case's `branches` is a list; each other attribute names one
    // function.
    auto list = dyn_cast_or_null<ArrayAttr>(value);
    if (list && name != "branches")
      return failure();
    if (list) {
      for (Attribute element : list) {
        FlatSymbolRefAttr callee = getFunctionName(element);
        if (!callee)
          return failure();
        callees.push_back(callee);
      }
      continue;
    }
    FlatSymbolRefAttr callee = getFunctionName(value);
    if (!callee)
      return failure();
    callees.push_back(callee);
  }
  return callees;
}

/// Whether a functional control-flow op or call must be ordered: when a
/// function it calls has side effects. A loop or branch of pure functions
/// keeps no chain.
bool callsEffectful(Operation *op,
                    const llvm::DenseSet<Operation *> &effectful) {
  FailureOr<SmallVector<FlatSymbolRefAttr>> callees = getCallees(op);
  if (failed(callees))
    return false;
  return llvm::any_of(*callees, [&](FlatSymbolRefAttr name) {
    Operation *callee = SymbolTable::lookupNearestSymbolFrom(op, name);
    return callee && effectful.contains(callee);
  });
}

/// `type` with a TF1 reference element type (`!tf_type.f32ref`) replaced
/// by its referent (f32), as TensorFlow's DropRefType; other types as they
/// are.
Type dropRefType(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  auto ref = tensor ? dyn_cast<tf::RefType>(tensor.getElementType()) : nullptr;
  Type referent = ref ? ref.getReferentType() : Type();
  return referent ? tensor.clone(referent) : type;
}

/// Gives every value of a reference dtype its referent dtype: the runtime
/// has no TF1 reference variables (no kernel writes through a reference),
/// so a reference is read as the tensor it refers to, which is what
/// TensorFlow's kernels do with a ref input they only read (Identity,
/// Switch, ...). Function signatures follow their arguments and results.
void dropReferenceTypes(ModuleOp module) {
  auto dropAll = [](auto values) {
    for (Value value : values)
      if (Type dropped = dropRefType(value.getType());
          dropped != value.getType())
        value.setType(dropped);
  };
  module.walk([&](Operation *op) {
    dropAll(op->getResults());
    for (Region &region : op->getRegions())
      for (Block &block : region)
        dropAll(block.getArguments());
  });
  for (auto func : module.getOps<func::FuncOp>()) {
    FunctionType type = func.getFunctionType();
    auto map = [](TypeRange types) {
      return llvm::map_to_vector(types, dropRefType);
    };
    FunctionType dropped = FunctionType::get(
        func.getContext(), map(type.getInputs()), map(type.getResults()));
    if (dropped != type)
      func.setType(dropped);
  }
}

/// Whether a value of type `actual` may be passed where `expected` is
/// declared: tensors of the same element type (resource and variant
/// subtypes aside) with compatible shapes (`tensor<2xf32>` for
/// `tensor<*xf32>` or the other way round).
bool isCompatibleTensorType(Type actual, Type expected) {
  auto a = dyn_cast<TensorType>(actual);
  auto e = dyn_cast<TensorType>(expected);
  if (!a || !e || failed(verifyCompatibleShape(a, e)))
    return false;
  auto dtype = [](Type element) -> Type {
    if (isa<tf::ResourceType>(element))
      return tf::ResourceType::get(element.getContext(), {});
    if (isa<tf::VariantType>(element))
      return tf::VariantType::get(element.getContext(), {});
    return element;
  };
  return dtype(a.getElementType()) == dtype(e.getElementType());
}

class TFToTFRTFallbackPass
    : public tfrt_fallback::impl::TFToTFRTFallbackBase<TFToTFRTFallbackPass> {
public:
  using Base::Base;

  void runOnOperation() override;

private:
  /// Whether `op` (a tf op) is left for a native kernel.
  bool isNative(Operation *op) const {
    return nativeSet.contains(op->getName().stripDialect());
  }
  /// Whether `op` (a tf op that will become a kernel call) must be ordered.
  bool isStateful(Operation *op) const {
    return tf::isOrdered(op) ||
           tf::lookupOpEffects(op->getName().stripDialect()) !=
               tf::OpEffects::Pure;
  }
  /// Whether `op` becomes an ordered kernel call or an ordered call.
  bool needsChain(Operation *op) const;

  /// Whether `op` is TensorFlow functional control flow or a call to lower.
  bool isFunctionalControlFlow(Operation *op) const {
    return isTFOp(op) && !isNative(op) &&
           !getCalleeAttrNames(op->getName().stripDialect()).empty();
  }
  /// Whether `value` names a function, and `user` may change its signature
  /// (a func.call or functional control flow this pass lowers).
  bool isRewritableUse(Operation *user, SymbolRefAttr name) const;
  bool onlyUsedByRewritableOps(func::FuncOp func, ModuleOp module) const;

  void computeEffectfulFunctions(ModuleOp module);
  void privatizeEffectfulCallees(ModuleOp module);
  LogicalResult lowerFunction(func::FuncOp func);
  LogicalResult lowerOp(Operation *op, OpBuilder &builder, Value &chain,
                        llvm::function_ref<Value()> getChain);
  LogicalResult lowerControlFlow(Operation *op, OpBuilder &builder,
                                 Value &chain,
                                 llvm::function_ref<Value()> getChain);

  llvm::StringSet<> nativeSet;
  std::optional<KernelManifest> manifest;
  /// Functions with side effects, directly or through what they call.
  llvm::DenseSet<Operation *> effectfulFunctions;
  /// Private effectful functions that take and return a chain.
  llvm::DenseSet<Operation *> chainedFunctions;
  /// Each function's TensorFlow signature, before chains were added.
  llvm::DenseMap<Operation *, FunctionType> tfSignatures;
};

bool TFToTFRTFallbackPass::needsChain(Operation *op) const {
  if (isFunctionalControlFlow(op))
    return callsEffectful(op, effectfulFunctions);
  if (isTFOp(op)) {
    StringRef name = op->getName().stripDialect();
    if (isNative(op) || name == "NoOp" || name == "Const")
      return false;
    return isStateful(op);
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    Operation *callee =
        SymbolTable::lookupNearestSymbolFrom(call, call.getCalleeAttr());
    return callee && chainedFunctions.contains(callee);
  }
  return false;
}

bool TFToTFRTFallbackPass::isRewritableUse(Operation *user,
                                           SymbolRefAttr name) const {
  if (auto call = dyn_cast<func::CallOp>(user))
    return call.getCalleeAttr() == name;
  if (!isFunctionalControlFlow(user))
    return false;
  FailureOr<SmallVector<FlatSymbolRefAttr>> callees = getCallees(user);
  return succeeded(callees) && llvm::is_contained(*callees, name);
}

/// Whether every use of `func` is by an op whose operands and results this
/// pass rewrites: a func.call, or functional control flow. A function named
/// elsewhere (e.g. by an op left for a native kernel) keeps its TensorFlow
/// signature.
bool TFToTFRTFallbackPass::onlyUsedByRewritableOps(func::FuncOp func,
                                                   ModuleOp module) const {
  std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
  if (!uses)
    return false;
  return llvm::all_of(*uses, [&](const SymbolTable::SymbolUse &use) {
    return isRewritableUse(use.getUser(), use.getSymbolRef());
  });
}

/// Finds the functions with side effects, directly, through calls or
/// through functional control flow, and among them the private ones whose
/// every use this pass rewrites: they will take and return a chain.
void TFToTFRTFallbackPass::computeEffectfulFunctions(ModuleOp module) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || effectfulFunctions.contains(func))
        continue;
      bool effectful = llvm::any_of(func.getBody().front(), [&](Operation &op) {
        if (isFunctionalControlFlow(&op))
          return callsEffectful(&op, effectfulFunctions);
        return needsChain(&op);
      });
      if (!effectful)
        continue;
      effectfulFunctions.insert(func);
      if (func.isPrivate() && onlyUsedByRewritableOps(func, module))
        chainedFunctions.insert(func);
      changed = true;
    }
  }
  privatizeEffectfulCallees(module);
}

/// An effectful function that cannot take a chain (a public one, an entry
/// of the program, or one also named by an op this pass does not rewrite)
/// but is called by a func.call or a tf.(Stateful)PartitionedCall would run
/// unordered with the caller's other effects (a public function reading a
/// variable its caller assigned first): a call has no chain of its own.
/// Such calls get a private copy of the function, which takes and returns a
/// chain; the function itself keeps its signature for its other users.
/// (Control flow needs no copy: tfrt_fallback.if/case/while take the
/// caller's chain themselves.)
void TFToTFRTFallbackPass::privatizeEffectfulCallees(ModuleOp module) {
  SymbolTable symbols(module);
  SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
  for (func::FuncOp func : functions) {
    if (!effectfulFunctions.contains(func) || chainedFunctions.contains(func))
      continue;
    std::optional<SymbolTable::UseRange> uses = func.getSymbolUses(module);
    if (!uses)
      continue;
    llvm::SetVector<Operation *> users;
    for (const SymbolTable::SymbolUse &use : *uses) {
      Operation *user = use.getUser();
      StringRef name = user->getName().stripDialect();
      bool isCall =
          isa<func::CallOp>(user) ||
          (isFunctionalControlFlow(user) &&
           (name == "PartitionedCall" || name == "StatefulPartitionedCall"));
      if (isCall && isRewritableUse(user, use.getSymbolRef()))
        users.insert(user);
    }
    if (users.empty())
      continue;
    func::FuncOp copy = func.clone();
    copy.setName((func.getName() + "_ordered").str());
    copy.setPrivate();
    symbols.insert(copy, std::next(Block::iterator(func)));
    // The users' own attributes name the function (a call's callee, `f`,
    // `then_branch`, a `#tf_type.func`, a list of `branches`).
    AttrTypeReplacer replacer;
    FlatSymbolRefAttr from = SymbolRefAttr::get(func.getNameAttr());
    FlatSymbolRefAttr to = SymbolRefAttr::get(copy.getNameAttr());
    replacer.addReplacement(
        [&](FlatSymbolRefAttr name) -> std::optional<Attribute> {
          if (name == from)
            return to;
          return std::nullopt;
        });
    for (Operation *user : users) {
      replacer.replaceElementsIn(user, /*replaceAttrs=*/true,
                                 /*replaceLocs=*/false,
                                 /*replaceTypes=*/false);
      // TensorFlow prints inherent attributes as properties.
      if (Attribute properties = user->getPropertiesAsAttribute())
        if (Attribute replaced = replacer.replace(properties);
            replaced != properties)
          (void)user->setPropertiesFromAttribute(replaced, nullptr);
    }
    tfSignatures[copy] = tfSignatures.lookup(func);
    effectfulFunctions.insert(copy);
    chainedFunctions.insert(copy);
  }
}

LogicalResult TFToTFRTFallbackPass::lowerFunction(func::FuncOp func) {
  if (func.isExternal())
    return success();
  // runOnOperation rejected bodies of more than one block before lowering.
  Block &body = func.getBody().front();
  MLIRContext *context = &getContext();
  OpBuilder builder(context);

  // The chain that orders this function's side effects: an argument of a
  // chained private function, or a new_chain made on first use.
  Value chain;
  if (chainedFunctions.contains(func)) {
    Type chainType = ChainType::get(context);
    if (failed(
            func.insertArgument(0, chainType, DictionaryAttr(), func.getLoc())))
      return failure();
    SmallVector<Type> results(func.getResultTypes());
    results.push_back(chainType);
    func.setType(FunctionType::get(context, func.getArgumentTypes(), results));
    chain = body.getArgument(0);
  }
  auto getChain = [&]() -> Value {
    if (!chain) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&body);
      chain = NewChainOp::create(builder, func.getLoc());
    }
    return chain;
  };

  bool failedAny = false;
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      if (chainedFunctions.contains(func)) {
        SmallVector<Value> operands(ret.getOperands());
        operands.push_back(chain);
        ret->setOperands(operands);
      }
      continue;
    }
    builder.setInsertionPoint(&op);
    if (failed(lowerOp(&op, builder, chain, getChain)))
      failedAny = true;
  }

  // Ops nested in regions (e.g. region-based control flow kept for a native
  // kernel) are lowered without chains; an ordered op there (a stateful TF op
  // or a call of a chained function) cannot be ordered yet. The regions of a
  // TF op that failed to lower (it has regions) are not visited again.
  for (Operation &top : body) {
    if (top.getNumRegions() == 0 || (isTFOp(&top) && !isNative(&top)))
      continue;
    top.walk([&](Operation *op) {
      if (op == &top)
        return;
      if (needsChain(op)) {
        op->emitOpError("has side effects inside a nested region, which "
                        "tf-to-tfrt-fallback cannot order yet");
        failedAny = true;
        return;
      }
      Value noChain;
      builder.setInsertionPoint(op);
      if (failed(lowerOp(op, builder, noChain, [] { return Value(); })))
        failedAny = true;
    });
  }
  return failure(failedAny);
}

LogicalResult
TFToTFRTFallbackPass::lowerOp(Operation *op, OpBuilder &builder, Value &chain,
                              llvm::function_ref<Value()> getChain) {
  MLIRContext *context = op->getContext();
  Location loc = op->getLoc();

  if (auto call = dyn_cast<func::CallOp>(op)) {
    if (!needsChain(op))
      return success();
    SmallVector<Value> operands{getChain()};
    llvm::append_range(operands, call.getOperands());
    SmallVector<Type> resultTypes(call.getResultTypes());
    resultTypes.push_back(ChainType::get(context));
    auto newCall = func::CallOp::create(builder, loc, call.getCalleeAttr(),
                                        resultTypes, operands);
    newCall->setDiscardableAttrs(call->getDiscardableAttrDictionary());
    call.replaceAllUsesWith(newCall.getResults().drop_back());
    chain = newCall.getResults().back();
    call.erase();
    return success();
  }
  // TF programs hold tensor constants of the arith dialect too.
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    auto value = dyn_cast<ElementsAttr>(constant.getValue());
    // Other constants (scalars, index tensors) are no TF values: left for
    // whatever uses them.
    if (!value || !isa<TensorType>(constant.getType()) ||
        !isTFElementType(value.getElementType()))
      return success();
    auto lowered = ConstantOp::create(builder, loc, value.getType(), value);
    constant.replaceAllUsesWith(lowered.getResult());
    constant.erase();
    return success();
  }
  if (!isTFOp(op) || isNative(op))
    return success();
  if (isFunctionalControlFlow(op))
    return lowerControlFlow(op, builder, chain, getChain);

  StringRef name = op->getName().stripDialect();
  if (name == "NoOp") {
    if (op->getNumResults() != 0)
      return op->emitOpError("has results; tf.NoOp produces none");
    op->erase();
    return success();
  }
  if (name == "Const") {
    auto value = op->getAttrOfType<ElementsAttr>("value");
    if (auto proto = op->getAttrOfType<tf::TensorProtoAttr>("value")) {
      FailureOr<DenseElementsAttr> decoded =
          tf::decodeTensorProto(proto, [&] { return op->emitOpError(); });
      if (failed(decoded))
        return failure();
      value = *decoded;
    }
    if (!value)
      return op->emitOpError("requires a tensor 'value' attribute");
    if (op->getNumOperands() != 0 || op->getNumResults() != 1 ||
        op->getResult(0).getType() != value.getType())
      return op->emitOpError("must have no operands and one result of the "
                             "type of its value, ")
             << value.getType();
    if (!isTFElementType(value.getElementType()))
      return op->emitOpError("has a value of element type ")
             << value.getElementType() << ", which is not a TensorFlow dtype";
    // TF's MLIR derives `dtype` from the value; one written must agree.
    if (auto dtype = op->getAttrOfType<TypeAttr>("dtype");
        dtype && dtype.getValue() != value.getElementType())
      return op->emitOpError("attribute 'dtype' is ")
             << dtype << ", but its value makes it "
             << TypeAttr::get(value.getElementType());
    auto constant = ConstantOp::create(builder, loc, value.getType(), value);
    op->replaceAllUsesWith(constant);
    op->erase();
    return success();
  }
  // An ordered Identity waits on its control inputs: it stays a call.
  if ((name == "Identity" || name == "IdentityN") && !tf::isOrdered(op) &&
      op->getOperandTypes() == op->getResultTypes()) {
    op->replaceAllUsesWith(op->getOperands());
    op->erase();
    return success();
  }

  // A kernel call has no regions: region-based control flow needs a native
  // kernel.
  if (op->getNumRegions() != 0)
    return op->emitOpError("has regions, which a fallback kernel call cannot "
                           "hold (pass native-ops=")
           << name << " if the runtime has a native kernel)";

  // Operands and results must be tensors of TensorFlow dtypes.
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes())) {
    auto tensor = dyn_cast<TensorType>(type);
    if (!tensor || !isTFElementType(tensor.getElementType()))
      return op->emitOpError("operand #")
             << index << " has type " << type
             << ", which is not a tensor of a TensorFlow dtype";
  }
  for (auto [index, type] : llvm::enumerate(op->getResultTypes())) {
    auto tensor = dyn_cast<TensorType>(type);
    if (!tensor || !isTFElementType(tensor.getElementType()))
      return op->emitOpError("result #")
             << index << " has type " << type
             << ", which is not a tensor of a TensorFlow dtype";
  }

  // Split the attributes: device, attributes no kernel reads, TF attributes.
  StringAttr device;
  SmallVector<NamedAttribute> tfAttrs;
  // TensorFlow prints an op's inherent attributes as properties (`<{...}>`),
  // which an unregistered op keeps as a dictionary beside its other
  // attributes.
  SmallVector<NamedAttribute> attrs;
  if (auto properties =
          dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
    llvm::append_range(attrs, properties.getValue());
  llvm::append_range(attrs, op->getAttrs());
  for (NamedAttribute attr : attrs) {
    StringRef attrName = attr.getName().getValue();
    if (isDroppedTFAttr(attrName))
      continue;
    // A unit attribute is TF's MLIR for an attribute without a value (its
    // GraphDef export writes an AttrValue with none set): nothing a kernel
    // can read.
    if (isa<UnitAttr>(attr.getValue()))
      continue;
    if (attrName == "device") {
      auto deviceAttr = dyn_cast<StringAttr>(attr.getValue());
      if (!deviceAttr)
        return op->emitOpError("has a 'device' that is not a string");
      if (!deviceAttr.getValue().empty())
        device = deviceAttr;
      continue;
    }
    Attribute value = convertTFAttr(attr.getValue());
    if (auto proto = dyn_cast<tf::TensorProtoAttr>(value)) {
      FailureOr<DenseElementsAttr> decoded = tf::decodeTensorProto(proto, [&] {
        return op->emitOpError("attribute '") << attrName << "' ";
      });
      if (failed(decoded))
        return failure();
      value = *decoded;
    }
    std::string reason = checkTFAttrValue(value);
    if (!reason.empty())
      return op->emitOpError("attribute '") << attrName << "' " << reason;
    tfAttrs.emplace_back(attr.getName(), value);
  }
  // The type and number attributes TF's MLIR leaves implicit, so that the
  // kernel manifest and the kernels see them.
  if (failed(deriveTFAttributes(op, name, tfAttrs)))
    return failure();
  auto opAttrs = DictionaryAttr::get(context, tfAttrs);

  const KernelManifest &kernels =
      manifest ? *manifest : getDefaultKernelManifest();
  if (!allowUnsupported && !kernels.supports(name, opAttrs)) {
    std::string target = kernelManifest.empty()
                             ? std::string("this build's runtime")
                             : "the kernel manifest '" + kernelManifest + "'";
    if (!kernels.hasOp(name))
      return op->emitOpError("has no fallback kernel: ")
             << target << " has no kernel for op '" << name
             << "' (pass native-ops=" << name
             << " if the runtime has a native kernel, kernel-manifest=FILE "
                "to target another runtime, or allow-unsupported)";
    std::string dtypes = describeTypeAttrs(opAttrs);
    return op->emitOpError("has no fallback kernel for ")
           << (dtypes.empty() ? std::string("its dtypes") : dtypes) << ": "
           << target << " has '" << name << "' for " << kernels.describe(name);
  }

  Value inChain = isStateful(op) ? getChain() : Value();
  auto call = KernelCallOp::create(builder, loc, name, op->getResultTypes(),
                                   op->getOperands(), opAttrs, device, inChain);
  op->replaceAllUsesWith(call.getResults());
  if (inChain)
    chain = call.getOutChain();
  op->erase();
  return success();
}

LogicalResult
TFToTFRTFallbackPass::lowerControlFlow(Operation *op, OpBuilder &builder,
                                       Value &chain,
                                       llvm::function_ref<Value()> getChain) {
  MLIRContext *context = op->getContext();
  Location loc = op->getLoc();
  StringRef name = op->getName().stripDialect();
  FailureOr<SmallVector<FlatSymbolRefAttr>> names = getCallees(op);
  if (failed(names) || names->empty())
    return op->emitOpError("requires its function attributes (")
           << llvm::join(getCalleeAttrNames(name), ", ")
           << ") to name functions of the module";
  SmallVector<func::FuncOp> callees;
  for (FlatSymbolRefAttr callee : *names) {
    // A declaration is fine here (TensorFlow's tests declare branches);
    // the binary writer needs every body.
    auto func = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(op, callee);
    if (!func)
      return op->emitOpError("calls ")
             << callee << ", which is not a function of the module";
    callees.push_back(func);
  }
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes())) {
    auto tensor = dyn_cast<TensorType>(type);
    if (!tensor || !isTFElementType(tensor.getElementType()))
      return op->emitOpError("operand #")
             << index << " has type " << type
             << ", which is not a tensor of a TensorFlow dtype";
  }

  // The chain: passed to the callees that take one, returned by the op.
  Value inChain = needsChain(op) ? getChain() : Value();
  auto chained = [&](func::FuncOp func) {
    return chainedFunctions.contains(func);
  };
  Operation *lowered = nullptr;
  Value outChain;
  if (name == "PartitionedCall" || name == "StatefulPartitionedCall") {
    func::FuncOp callee = callees.front();
    FunctionType signature = tfSignatures.lookup(callee);
    // TensorFlow lets a call's types be more or less refined than its
    // callee's (`tensor<2xf32>` for `tensor<*xf32>`); func.call needs them
    // equal, so a value whose type differs passes through an Identity
    // kernel call of the callee's type (the call's, for a result), which
    // shares its buffer and which the executor checks like any result.
    auto compatible = [](TypeRange actual, TypeRange expected) {
      return actual.size() == expected.size() &&
             llvm::all_of(llvm::zip(actual, expected), [](auto pair) {
               return isCompatibleTensorType(std::get<0>(pair),
                                             std::get<1>(pair));
             });
    };
    if (!compatible(op->getOperandTypes(), signature.getInputs()) ||
        !compatible(signature.getResults(), op->getResultTypes()))
      return op->emitOpError("has operand or result types that are not "
                             "compatible with the signature of ")
             << names->front() << ", " << signature;
    const KernelManifest &kernels =
        manifest ? *manifest : getDefaultKernelManifest();
    bool needsCasts =
        TypeRange(op->getOperandTypes()) != signature.getInputs() ||
        TypeRange(op->getResultTypes()) != signature.getResults();
    if (needsCasts && !allowUnsupported && !kernels.hasOp("Identity"))
      return op->emitOpError("has types more or less refined than ")
             << names->front()
             << "'s, which need an Identity kernel the target runtime lacks";
    auto cast = [&](Value value, Type type) -> Value {
      if (value.getType() == type)
        return value;
      Type dtype = getElementTypeOrSelf(type);
      if (isa<tf::ResourceType>(dtype))
        dtype = tf::ResourceType::get(context, {});
      else if (isa<tf::VariantType>(dtype))
        dtype = tf::VariantType::get(context, {});
      auto identity = KernelCallOp::create(
          builder, loc, "Identity", ArrayRef<Type>(type), value,
          builder.getDictionaryAttr(
              builder.getNamedAttr("T", TypeAttr::get(dtype))),
          StringAttr(), Value());
      return identity.getResults().front();
    };
    SmallVector<Value> operands;
    SmallVector<Type> resultTypes(signature.getResults());
    if (chained(callee)) {
      operands.push_back(inChain);
      resultTypes.push_back(ChainType::get(context));
    }
    for (auto [operand, type] :
         llvm::zip(op->getOperands(), signature.getInputs()))
      operands.push_back(cast(operand, type));
    auto call = func::CallOp::create(builder, loc, names->front(), resultTypes,
                                     operands);
    SmallVector<Value> results;
    for (auto [result, type] :
         llvm::zip(call.getResults().take_front(op->getNumResults()),
                   op->getResultTypes()))
      results.push_back(cast(result, type));
    if (chained(callee))
      outChain = call.getResults().back();
    op->replaceAllUsesWith(results);
    if (outChain)
      chain = outChain;
    op->erase();
    return success();
  } else if (name == "While" || name == "StatelessWhile") {
    if (op->getNumOperands() != op->getNumResults())
      return op->emitOpError("has ")
             << op->getNumOperands() << " operands but " << op->getNumResults()
             << " results; a loop's results are its carried values";
    auto loop = WhileOp::create(builder, loc, op->getResultTypes(), (*names)[0],
                                (*names)[1], op->getOperands(), inChain);
    lowered = loop;
    outChain = loop.getOutChain();
  } else {
    if (op->getNumOperands() == 0)
      return op->emitOpError("requires a predicate or branch index operand");
    Value selector = op->getOperand(0);
    if (name == "If" || name == "StatelessIf") {
      if (names->size() != 2)
        return op->emitOpError("requires a then_branch and an else_branch");
      auto branch = IfOp::create(builder, loc, op->getResultTypes(), selector,
                                 (*names)[0], (*names)[1],
                                 op->getOperands().drop_front(), inChain);
      lowered = branch;
      outChain = branch.getOutChain();
    } else {
      auto index = dyn_cast<TensorType>(selector.getType());
      if (!index || !index.getElementType().isInteger(32))
        return op->emitOpError("requires an i32 branch index, got ")
               << selector.getType();
      SmallVector<Attribute> branches(names->begin(), names->end());
      auto branch = CaseOp::create(builder, loc, op->getResultTypes(), selector,
                                   builder.getArrayAttr(branches),
                                   op->getOperands().drop_front(), inChain);
      lowered = branch;
      outChain = branch.getOutChain();
    }
  }
  op->replaceAllUsesWith(lowered->getResults().take_front(op->getNumResults()));
  if (outChain)
    chain = outChain;
  op->erase();
  return success();
}

void TFToTFRTFallbackPass::runOnOperation() {
  ModuleOp module = getOperation();
  nativeSet.clear();
  for (const std::string &name : nativeOps)
    nativeSet.insert(StringRef(name).trim());
  manifest.reset();
  effectfulFunctions.clear();
  chainedFunctions.clear();
  tfSignatures.clear();
  if (!kernelManifest.empty()) {
    auto parsed = KernelManifest::readFile(kernelManifest);
    if (!parsed) {
      module.emitError(llvm::toString(parsed.takeError()));
      return signalPassFailure();
    }
    manifest = std::move(*parsed);
  }

  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func.isExternal() && !func.getBody().hasOneBlock()) {
      func.emitOpError(
          "has more than one block; tf-to-tfrt-fallback lowers functions "
          "whose body is a single block");
      return signalPassFailure();
    }
  }
  dropReferenceTypes(module);
  for (auto func : module.getOps<func::FuncOp>())
    tfSignatures[func] = func.getFunctionType();
  computeEffectfulFunctions(module);

  bool failedAny = false;
  for (auto func : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
    if (failed(lowerFunction(func)))
      failedAny = true;
  // What the program needs of the runtime besides kernels: control flow and
  // string tensors, which a selective runtime build may leave out.
  if (!failedAny && !allowUnsupported) {
    std::string target = kernelManifest.empty()
                             ? std::string("this build's runtime")
                             : "the kernel manifest '" + kernelManifest + "'";
    if (failed(checkFeatures(
            module, manifest ? *manifest : getDefaultKernelManifest(), target)))
      failedAny = true;
  }
  if (failedAny)
    signalPassFailure();
}

} // namespace

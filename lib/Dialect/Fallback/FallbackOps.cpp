//===- FallbackOps.cpp - tfrt_fallback operations ---------------*- C++ -*-===//
//
// Builders, custom assembly, verifiers and folders of the tfrt_fallback ops.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace tfrt_fallback;

#define GET_OP_CLASSES
#include "tfrt_fallback/Dialect/Fallback/FallbackOps.cpp.inc"

//===----------------------------------------------------------------------===//
// KernelCallOp
//===----------------------------------------------------------------------===//

void KernelCallOp::build(OpBuilder &builder, OperationState &state,
                         StringRef opName, TypeRange resultTypes,
                         ValueRange args, DictionaryAttr opAttrs,
                         StringAttr device, Value inChain) {
  Type chainType = ChainType::get(builder.getContext());
  build(builder, state, resultTypes, inChain ? chainType : Type(),
        builder.getStringAttr(opName),
        opAttrs ? opAttrs : builder.getDictionaryAttr({}), device, args,
        inChain);
}

ParseResult KernelCallOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *context = parser.getContext();
  StringAttr opName;
  SmallVector<OpAsmParser::UnresolvedOperand> args;
  OpAsmParser::UnresolvedOperand inChain;
  bool hasChain = false;
  if (parser.parseAttribute(opName, "op_name", result.attributes) ||
      parser.parseOperandList(args, OpAsmParser::Delimiter::Paren))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("chain"))) {
    hasChain = true;
    if (parser.parseLParen() || parser.parseOperand(inChain) ||
        parser.parseRParen())
      return failure();
  }
  if (succeeded(parser.parseOptionalKeyword("device"))) {
    StringAttr device;
    if (parser.parseLParen() ||
        parser.parseAttribute(device, "device", result.attributes) ||
        parser.parseRParen())
      return failure();
  }
  NamedAttrList opAttrs;
  if (parser.parseOptionalAttrDict(opAttrs))
    return failure();
  result.addAttribute("op_attrs", opAttrs.getDictionary(context));
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  FunctionType type;
  llvm::SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseColonType(type) ||
      parser.resolveOperands(args, type.getInputs(), typeLoc, result.operands))
    return failure();
  Type chainType = ChainType::get(context);
  if (hasChain && parser.resolveOperand(inChain, chainType, result.operands))
    return failure();
  result.addTypes(type.getResults());
  if (hasChain)
    result.addTypes(chainType);

  int32_t chains = hasChain ? 1 : 0;
  result.addAttribute("operandSegmentSizes",
                      parser.getBuilder().getDenseI32ArrayAttr(
                          {static_cast<int32_t>(args.size()), chains}));
  result.addAttribute(
      "resultSegmentSizes",
      parser.getBuilder().getDenseI32ArrayAttr(
          {static_cast<int32_t>(type.getNumResults()), chains}));
  return success();
}

void KernelCallOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printAttributeWithoutType(getOpNameAttr());
  p << '(' << getArgs() << ')';
  if (Value chain = getInChain())
    p << " chain(" << chain << ')';
  if (StringAttr device = getDeviceAttr()) {
    p << " device(";
    p.printAttributeWithoutType(device);
    p << ')';
  }
  if (!getOpAttrs().empty()) {
    p << ' ';
    p.printAttributeWithoutType(getOpAttrs());
  }
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getOpNameAttrName(), getOpAttrsAttrName(), getDeviceAttrName(),
       getOperandSegmentSizeAttr(), getResultSegmentSizeAttr()});
  p << " : ";
  p.printFunctionalType(getArgs().getTypes(), getResults().getTypes());
}

/// Whether `name` reads as a TensorFlow op name: a letter or underscore, then
/// letters, digits, underscores and '>' (TF's op-name grammar).
static bool isValidTFOpName(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name[0]) || name[0] == '_'))
    return false;
  return llvm::all_of(
      name, [](char c) { return llvm::isAlnum(c) || c == '_' || c == '>'; });
}

LogicalResult KernelCallOp::verify() {
  StringRef name = getOpName();
  if (name.empty())
    return emitOpError("requires a non-empty TensorFlow op name");
  if (name.starts_with("tf."))
    return emitOpError("op name '")
           << name << "' must not carry the 'tf.' dialect prefix; write '"
           << name.drop_front(3) << "'";
  if (!isValidTFOpName(name))
    return emitOpError("op name '")
           << name << "' is not a valid TensorFlow op name";

  if (static_cast<bool>(getInChain()) != static_cast<bool>(getOutChain()))
    return emitOpError(getInChain()
                           ? "takes an input chain but produces no output "
                             "chain; an ordered op must produce the next chain"
                           : "produces an output chain but takes no input "
                             "chain; pass the chain it is ordered after");

  if (StringAttr device = getDeviceAttr(); device && device.getValue().empty())
    return emitOpError("has an empty device; omit 'device' instead");

  for (NamedAttribute attr : getOpAttrs()) {
    std::string reason = checkTFAttrValue(attr.getValue());
    if (!reason.empty())
      return emitOpError("attribute '")
             << attr.getName().getValue() << "' " << reason;
  }

  for (auto [index, value] : llvm::enumerate(getArgs())) {
    Type elementType = cast<TensorType>(value.getType()).getElementType();
    if (!isTFElementType(elementType))
      return emitOpError("operand #")
             << index << " has element type " << elementType
             << ", which is not a TensorFlow dtype";
  }
  for (auto [index, value] : llvm::enumerate(getResults())) {
    Type elementType = cast<TensorType>(value.getType()).getElementType();
    if (!isTFElementType(elementType))
      return emitOpError("result #")
             << index << " has element type " << elementType
             << ", which is not a TensorFlow dtype";
  }
  return success();
}

void KernelCallOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // A call without a chain is pure: the runtime may run it as soon as its
  // operands are ready, and a dead one may be removed.
  if (!hasChain())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

void KernelCallOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  // Tensor results keep plain numbers; the output chain reads as a chain.
  if (Value chain = getOutChain())
    setNameFn(chain, "chain");
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  Type elementType = getType().getElementType();
  if (!isTFElementType(elementType))
    return emitOpError("has element type ")
           << elementType << ", which is not a TensorFlow dtype";
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

void ConstantOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "cst");
}

//===----------------------------------------------------------------------===//
// Chains
//===----------------------------------------------------------------------===//

void NewChainOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "chain");
}

void MergeChainsOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), "chain");
}

LogicalResult MergeChainsOp::verify() {
  if (getChains().empty())
    return emitOpError("requires at least one chain to merge");
  return success();
}

OpFoldResult MergeChainsOp::fold(FoldAdaptor) {
  if (getChains().size() == 1)
    return getChains().front();
  return {};
}

//===----------------------------------------------------------------------===//
// Control flow: if, case, while
//===----------------------------------------------------------------------===//

/// Parses what follows a control-flow op's callees:
///   `(` args `)` (`chain` `(` chain `)`)? attr-dict `:` functional-type
/// where the functional type's inputs are the types of `leading` (the
/// predicate or branch index) and then of the args.
static ParseResult
parseControlFlowTail(OpAsmParser &parser, OperationState &result,
                     ArrayRef<OpAsmParser::UnresolvedOperand> leading) {
  SmallVector<OpAsmParser::UnresolvedOperand> args;
  OpAsmParser::UnresolvedOperand inChain;
  bool hasChain = false;
  if (parser.parseOperandList(args, OpAsmParser::Delimiter::Paren))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("chain"))) {
    hasChain = true;
    if (parser.parseLParen() || parser.parseOperand(inChain) ||
        parser.parseRParen())
      return failure();
  }
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  FunctionType type;
  llvm::SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseColonType(type))
    return failure();
  if (type.getNumInputs() != leading.size() + args.size())
    return parser.emitError(typeLoc, "expected ")
           << leading.size() + args.size() << " operand types, got "
           << type.getNumInputs();
  SmallVector<OpAsmParser::UnresolvedOperand> operands(leading);
  llvm::append_range(operands, args);
  if (parser.resolveOperands(operands, type.getInputs(), typeLoc,
                             result.operands))
    return failure();
  Type chainType = ChainType::get(parser.getContext());
  if (hasChain && parser.resolveOperand(inChain, chainType, result.operands))
    return failure();
  result.addTypes(type.getResults());
  if (hasChain)
    result.addTypes(chainType);

  int32_t chains = hasChain ? 1 : 0;
  SmallVector<int32_t> segments(leading.size(), 1);
  segments.push_back(static_cast<int32_t>(args.size()));
  segments.push_back(chains);
  Builder &builder = parser.getBuilder();
  result.addAttribute("operandSegmentSizes",
                      builder.getDenseI32ArrayAttr(segments));
  result.addAttribute(
      "resultSegmentSizes",
      builder.getDenseI32ArrayAttr(
          {static_cast<int32_t>(type.getNumResults()), chains}));
  return success();
}

static void printControlFlowTail(OpAsmPrinter &p, Operation *op,
                                 ValueRange leading, ValueRange args,
                                 Value inChain, TypeRange resultTypes,
                                 ArrayRef<StringRef> elided) {
  p << " (" << args << ')';
  if (inChain)
    p << " chain(" << inChain << ')';
  SmallVector<StringRef> hidden(elided);
  hidden.push_back("operandSegmentSizes");
  hidden.push_back("resultSegmentSizes");
  p.printOptionalAttrDict(op->getAttrs(), hidden);
  p << " : ";
  SmallVector<Type> inputs(leading.getTypes());
  llvm::append_range(inputs, args.getTypes());
  p.printFunctionalType(inputs, resultTypes);
}

/// Whether a value of type `a` may be passed where `b` is declared: the
/// same element type (a resource or variant with or without subtypes) and
/// shapes some tensor fits both.
static bool areCompatible(Type a, Type b) {
  if (a == b)
    return true;
  auto tensorA = dyn_cast<TensorType>(a);
  auto tensorB = dyn_cast<TensorType>(b);
  if (!tensorA || !tensorB || failed(verifyCompatibleShape(tensorA, tensorB)))
    return false;
  Type elementA = tensorA.getElementType(), elementB = tensorB.getElementType();
  return elementA == elementB ||
         (elementA.getDialect().getNamespace() == "tf_type" &&
          elementA.getTypeID() == elementB.getTypeID());
}

/// Checks the callee `name` (its `role`: "then branch", "cond", ...) of a
/// control-flow op that passes values of types `args` and defines values of
/// types `results` (for a loop's cond, nullopt: it returns one predicate).
static LogicalResult verifyCallee(Operation *op, SymbolTableCollection &symbols,
                                  FlatSymbolRefAttr name, StringRef role,
                                  TypeRange args,
                                  std::optional<TypeRange> results,
                                  bool opHasChain) {
  auto callee = symbols.lookupNearestSymbolFrom<FunctionOpInterface>(op, name);
  if (!callee)
    return op->emitOpError("has the ")
           << role << " " << name << ", which is not a function";
  auto type = dyn_cast<FunctionType>(callee.getFunctionType());
  if (!type)
    return op->emitOpError("has the ")
           << role << " " << name << ", whose type is not a function type";
  ArrayRef<Type> inputs = type.getInputs();
  ArrayRef<Type> outputs = type.getResults();
  if (!inputs.empty() && isa<ChainType>(inputs.front())) {
    if (!opHasChain)
      return op->emitOpError("has the ")
             << role << " " << name
             << ", which takes a chain, but the op has no chain";
    if (outputs.empty() || !isa<ChainType>(outputs.back()))
      return op->emitOpError("has the ")
             << role << " " << name
             << ", which takes a chain but does not return one as its last "
                "result";
    inputs = inputs.drop_front();
    outputs = outputs.drop_back();
  }
  if (inputs.size() != args.size())
    return op->emitOpError("passes ")
           << args.size() << " values to the " << role << " " << name
           << ", which takes " << inputs.size();
  for (auto [index, pair] : llvm::enumerate(llvm::zip(args, inputs)))
    if (!areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError("passes ")
             << std::get<0>(pair) << " as argument #" << index << " of the "
             << role << " " << name << ", which takes " << std::get<1>(pair);
  if (!results) {
    if (outputs.size() != 1 || !isa<TensorType>(outputs.front()))
      return op->emitOpError("has the ")
             << role << " " << name
             << ", which must return one predicate tensor";
    return success();
  }
  if (outputs.size() != results->size())
    return op->emitOpError("expects ")
           << results->size() << " values from the " << role << " " << name
           << ", which returns " << outputs.size();
  for (auto [index, pair] : llvm::enumerate(llvm::zip(outputs, *results)))
    if (!areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError("has the ")
             << role << " " << name << ", whose result #" << index
             << " has type " << std::get<0>(pair)
             << ", which differs from the op's " << std::get<1>(pair);
  return success();
}

static void getControlFlowEffects(
    bool hasChain,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Without a chain the callees are free of side effects (or order their
  // own): the op is pure.
  if (!hasChain)
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

//===- IfOp ---------------------------------------------------------------===//

void IfOp::build(OpBuilder &builder, OperationState &state,
                 TypeRange resultTypes, Value cond,
                 FlatSymbolRefAttr thenBranch, FlatSymbolRefAttr elseBranch,
                 ValueRange args, Value inChain) {
  Type chainType = ChainType::get(builder.getContext());
  build(builder, state, resultTypes, inChain ? chainType : Type(), cond,
        thenBranch, elseBranch, args, inChain);
}

ParseResult IfOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand cond;
  FlatSymbolRefAttr thenBranch, elseBranch;
  if (parser.parseOperand(cond) || parser.parseKeyword("then") ||
      parser.parseAttribute(thenBranch, "then_branch", result.attributes) ||
      parser.parseKeyword("else") ||
      parser.parseAttribute(elseBranch, "else_branch", result.attributes))
    return failure();
  return parseControlFlowTail(parser, result, {cond});
}

void IfOp::print(OpAsmPrinter &p) {
  p << ' ' << getCond() << " then " << getThenBranchAttr() << " else "
    << getElseBranchAttr();
  printControlFlowTail(p, *this, getCond(), getArgs(), getInChain(),
                       getResults().getTypes(),
                       {getThenBranchAttrName(), getElseBranchAttrName()});
}

LogicalResult IfOp::verifySymbolUses(SymbolTableCollection &symbols) {
  TypeRange args = getArgs().getTypes();
  TypeRange results = getResults().getTypes();
  if (failed(verifyCallee(*this, symbols, getThenBranchAttr(), "then branch",
                          args, results, hasChain())))
    return failure();
  return verifyCallee(*this, symbols, getElseBranchAttr(), "else branch", args,
                      results, hasChain());
}

void IfOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (Value chain = getOutChain())
    setNameFn(chain, "chain");
}

void IfOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getControlFlowEffects(hasChain(), effects);
}

//===- CaseOp -------------------------------------------------------------===//

void CaseOp::build(OpBuilder &builder, OperationState &state,
                   TypeRange resultTypes, Value index, ArrayAttr branches,
                   ValueRange args, Value inChain) {
  Type chainType = ChainType::get(builder.getContext());
  build(builder, state, resultTypes, inChain ? chainType : Type(), index,
        branches, args, inChain);
}

ParseResult CaseOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand index;
  ArrayAttr branches;
  if (parser.parseOperand(index) ||
      parser.parseAttribute(branches, "branches", result.attributes))
    return failure();
  return parseControlFlowTail(parser, result, {index});
}

void CaseOp::print(OpAsmPrinter &p) {
  p << ' ' << getIndex() << ' ' << getBranchesAttr();
  printControlFlowTail(p, *this, getIndex(), getArgs(), getInChain(),
                       getResults().getTypes(), {getBranchesAttrName()});
}

LogicalResult CaseOp::verifySymbolUses(SymbolTableCollection &symbols) {
  if (getBranches().empty())
    return emitOpError("requires at least one branch");
  TypeRange args = getArgs().getTypes();
  TypeRange results = getResults().getTypes();
  for (auto [index, branch] : llvm::enumerate(getBranches()))
    if (failed(verifyCallee(*this, symbols, cast<FlatSymbolRefAttr>(branch),
                            ("branch #" + Twine(index)).str(), args, results,
                            hasChain())))
      return failure();
  return success();
}

void CaseOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (Value chain = getOutChain())
    setNameFn(chain, "chain");
}

void CaseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getControlFlowEffects(hasChain(), effects);
}

//===- WhileOp ------------------------------------------------------------===//

void WhileOp::build(OpBuilder &builder, OperationState &state,
                    TypeRange resultTypes, FlatSymbolRefAttr cond,
                    FlatSymbolRefAttr body, ValueRange args, Value inChain) {
  Type chainType = ChainType::get(builder.getContext());
  build(builder, state, resultTypes, inChain ? chainType : Type(), cond, body,
        args, inChain);
}

ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  FlatSymbolRefAttr cond, body;
  if (parser.parseAttribute(cond, "cond", result.attributes) ||
      parser.parseAttribute(body, "body", result.attributes))
    return failure();
  return parseControlFlowTail(parser, result, {});
}

void WhileOp::print(OpAsmPrinter &p) {
  p << ' ' << getCondAttr() << ' ' << getBodyAttr();
  printControlFlowTail(p, *this, {}, getArgs(), getInChain(),
                       getResults().getTypes(),
                       {getCondAttrName(), getBodyAttrName()});
}

LogicalResult WhileOp::verifySymbolUses(SymbolTableCollection &symbols) {
  // The results are the carried values: the args start them.
  TypeRange carried = getResults().getTypes();
  if (getArgs().size() != carried.size())
    return emitOpError("has ")
           << getArgs().size() << " operands but " << carried.size()
           << " results; a loop's results are its carried values";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getArgs().getTypes(), carried)))
    if (!areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return emitOpError("operand #")
             << index << " has type " << std::get<0>(pair)
             << ", which does not fit result #" << index << " of type "
             << std::get<1>(pair);
  if (failed(verifyCallee(*this, symbols, getCondAttr(), "cond", carried,
                          std::nullopt, hasChain())))
    return failure();
  return verifyCallee(*this, symbols, getBodyAttr(), "body", carried, carried,
                      hasChain());
}

void WhileOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  if (Value chain = getOutChain())
    setNameFn(chain, "chain");
}

void WhileOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getControlFlowEffects(hasChain(), effects);
}

//===- FallbackOps.cpp - tfrt_fallback operations ---------------*- C++ -*-===//
//
// Builders, custom assembly, verifiers and folders of the tfrt_fallback ops.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
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

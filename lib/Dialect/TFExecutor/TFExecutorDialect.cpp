//===- TFExecutorDialect.cpp - TensorFlow's tf_executor dialect -*- C++ -*-===//
//
// The ops' assembly follows TensorFlow's (tf_executor.cc): a graph's result
// types come from its fetch, an island's from its yield plus the control
// token, and an island of a single op prints as `wraps <generic op>`.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tfrt_fallback::tf_executor;

#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorTypes.cpp.inc"

#define GET_OP_CLASSES
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorOps.cpp.inc"

void TFExecutorDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorOps.cpp.inc"
      >();
}

LogicalResult
tfrt_fallback::tf_executor::verifyControlOperandsLast(Operation *op) {
  std::optional<unsigned> firstControl;
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes())) {
    if (isa<ControlType>(type)) {
      if (!firstControl)
        firstControl = index;
      continue;
    }
    if (firstControl)
      return op->emitOpError("has data operand #")
             << index << " after control operand #" << *firstControl
             << "; control operands come last";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// GraphOp
//===----------------------------------------------------------------------===//

ParseResult GraphOp::parse(OpAsmParser &parser, OperationState &result) {
  Region *body = result.addRegion();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseRegion(*body, /*arguments=*/{}))
    return failure();
  GraphOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  auto fetch = dyn_cast<FetchOp>(body->front().getTerminator());
  if (!fetch)
    return parser.emitError(loc, "expects a tf_executor.fetch terminator");
  for (Type type : fetch.getOperandTypes())
    if (!isa<ControlType>(type))
      result.addTypes(type);
  return parser.parseOptionalAttrDict(result.attributes);
}

void GraphOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrs());
}

FetchOp GraphOp::getFetch() {
  return cast<FetchOp>(getBody().front().getTerminator());
}

LogicalResult GraphOp::verify() {
  Block &block = getBody().front();
  for (Operation &op : block.without_terminator()) {
    if (!isa<TFExecutorDialect>(op.getDialect()))
      return op.emitOpError("is in a tf_executor.graph, which holds only "
                            "tf_executor ops (wrap it in a "
                            "tf_executor.island)");
    if (isa<GraphOp>(op))
      return op.emitOpError("is directly inside another tf_executor.graph "
                            "(wrap it in a tf_executor.island)");
  }
  FetchOp fetch = getFetch();
  unsigned numData = 0;
  for (auto [index, type] : llvm::enumerate(fetch.getOperandTypes())) {
    if (isa<ControlType>(type))
      continue;
    if (numData != index)
      return fetch.emitOpError("fetches data value #")
             << index << " after a control token; data values come first";
    ++numData;
  }
  if (numData != getNumResults())
    return emitOpError("has ") << getNumResults() << " results but fetches "
                               << numData << " data values";
  for (auto [index, type] : llvm::enumerate(getResultTypes()))
    if (fetch.getOperand(index).getType() != type)
      return emitOpError("result #")
             << index << " has type " << type << " but the fetched value has "
             << fetch.getOperand(index).getType();
  return success();
}

//===----------------------------------------------------------------------===//
// IslandOp
//===----------------------------------------------------------------------===//

YieldOp IslandOp::getYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

Operation *IslandOp::getWrappedOp() {
  Block &block = getBody().front();
  if (block.getOperations().size() != 2)
    return nullptr;
  Operation &wrapped = block.front();
  YieldOp yield = getYield();
  if (wrapped.getNumResults() != yield.getNumOperands() ||
      !llvm::equal(wrapped.getResults(), yield.getOperands()) ||
      !yield->getAttrs().empty())
    return nullptr;
  return &wrapped;
}

/// True when `island` prints in the `wraps` form without losing anything:
/// the form has no place for the island's own attributes or for locations
/// of the island and its yield apart from the wrapped op's.
static bool printsAsWraps(IslandOp island) {
  Operation *wrapped = island.getWrappedOp();
  return wrapped && island->getAttrs().empty() &&
         wrapped->getLoc() == island.getLoc() &&
         island.getYield().getLoc() == island.getLoc();
}

ParseResult IslandOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *context = parser.getContext();
  SmallVector<OpAsmParser::UnresolvedOperand> controls;
  if (succeeded(parser.parseOptionalLParen()) &&
      (parser.parseOperandList(controls) || parser.parseRParen()))
    return failure();
  if (parser.resolveOperands(controls, ControlType::get(context),
                             result.operands))
    return failure();

  Region *body = result.addRegion();
  if (succeeded(parser.parseOptionalKeyword("wraps"))) {
    auto *block = new Block();
    body->push_back(block);
    Operation *wrapped = parser.parseGenericOperation(block, block->end());
    if (!wrapped)
      return failure();
    OpBuilder builder(context);
    builder.setInsertionPointToEnd(block);
    YieldOp::create(builder, wrapped->getLoc(), wrapped->getResults());
    // The form has one location, the wrapped op's: the island and its yield
    // share it, as they did when printed.
    result.location = wrapped->getLoc();
  } else {
    if (parser.parseRegion(*body, /*arguments=*/{}))
      return failure();
    IslandOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  }
  auto yield = dyn_cast<YieldOp>(body->front().getTerminator());
  if (!yield)
    return parser.emitError(parser.getNameLoc(),
                            "expects a tf_executor.yield terminator");
  result.addTypes(yield.getOperandTypes());
  result.addTypes(ControlType::get(context));
  return parser.parseOptionalAttrDict(result.attributes);
}

void IslandOp::print(OpAsmPrinter &p) {
  if (!getControlInputs().empty())
    p << '(' << getControlInputs() << ')';
  if (printsAsWraps(*this)) {
    p << " wraps ";
    p.printGenericOp(getWrappedOp(), /*printOpName=*/true);
    return;
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true,
                /*printBlockTerminators=*/true);
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult IslandOp::verify() {
  if (getBody().front().getNumArguments() != 0)
    return emitOpError("has a body with ")
           << getBody().front().getNumArguments()
           << " block arguments; an island's body takes none";
  YieldOp yield = getYield();
  for (auto [index, type] : llvm::enumerate(yield.getOperandTypes()))
    if (isa<ControlType>(type))
      return yield.emitOpError("yields a control token as operand #")
             << index << "; an island's control token is its own last result";
  if (yield.getNumOperands() != getOutputs().size())
    return emitOpError("has ")
           << getOutputs().size() << " data results but yields "
           << yield.getNumOperands() << " values";
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(getOutputs().getTypes(), yield.getOperandTypes())))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError("result #")
             << index << " has type " << std::get<0>(pair)
             << " but the yielded value has " << std::get<1>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// V1 control flow: shared assembly helpers
//===----------------------------------------------------------------------===//

/// Parses `: type`. A function type gives every operand and result type;
/// a single type is the data type of the short form, for which `shortForm`
/// fills in the operand types (after `numData` data operands, control
/// tokens) and the result types.
static ParseResult
parseExecutorTypes(OpAsmParser &parser, OperationState &result,
                   ArrayRef<OpAsmParser::UnresolvedOperand> operands,
                   unsigned numData,
                   llvm::function_ref<void(Type, SmallVectorImpl<Type> &,
                                           SmallVectorImpl<Type> &)>
                       shortForm) {
  SMLoc loc = parser.getCurrentLocation();
  Type type;
  if (parser.parseColonType(type))
    return failure();
  SmallVector<Type> operandTypes;
  if (auto function = dyn_cast<FunctionType>(type)) {
    llvm::append_range(operandTypes, function.getInputs());
    result.addTypes(function.getResults());
  } else {
    if (operands.size() < numData)
      return parser.emitError(loc, "expects ")
             << numData << " data operands before the control operands";
    SmallVector<Type> resultTypes;
    shortForm(type, operandTypes, resultTypes);
    operandTypes.append(operands.size() - numData,
                        ControlType::get(parser.getContext()));
    result.addTypes(resultTypes);
  }
  return parser.resolveOperands(operands, operandTypes, loc, result.operands);
}

/// Prints `: type` in the short form when `isShort`, else the function type.
static void printExecutorTypes(OpAsmPrinter &p, Operation *op, bool isShort,
                               Type shortType) {
  p << " : ";
  if (isShort)
    p << shortType;
  else
    p.printFunctionalType(op);
}

/// The number of data operands the short form of `op` has: its operands up
/// to the first control token.
static unsigned countDataOperands(Operation *op) {
  return llvm::count_if(op->getOperandTypes(),
                        [](Type type) { return !isa<ControlType>(type); });
}

static Type getScalarTensorType(Type element) {
  return RankedTensorType::get({}, element);
}

//===----------------------------------------------------------------------===//
// SwitchOp
//===----------------------------------------------------------------------===//

ParseResult SwitchOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseOperandList(operands) ||
      parseExecutorTypes(
          parser, result, operands, /*numData=*/2,
          [&](Type data, SmallVectorImpl<Type> &inputs,
              SmallVectorImpl<Type> &outputs) {
            inputs.push_back(data);
            inputs.push_back(
                getScalarTensorType(parser.getBuilder().getI1Type()));
            outputs.append({data, data, ControlType::get(parser.getContext())});
          }))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

void SwitchOp::print(OpAsmPrinter &p) {
  p << ' ' << getOperands();
  Type data = getData().getType();
  printExecutorTypes(
      p, *this,
      getTrueOutput().getType() == data && getFalseOutput().getType() == data &&
          getPredicate().getType() ==
              getScalarTensorType(IntegerType::get(getContext(), 1)),
      data);
  p.printOptionalAttrDict((*this)->getAttrs());
}

//===----------------------------------------------------------------------===//
// SwitchNOp
//===----------------------------------------------------------------------===//

ParseResult SwitchNOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  IntegerAttr numOuts;
  SMLoc loc = parser.getCurrentLocation();
  Type i64 = parser.getBuilder().getI64Type();
  if (parser.parseOperandList(operands, 2) || parser.parseKeyword("of") ||
      parser.parseAttribute(numOuts, i64, "num_outs", result.attributes) ||
      parser.parseOperandList(operands, OpAsmParser::Delimiter::OptionalParen))
    return failure();
  if (numOuts.getInt() < 1)
    return parser.emitError(loc, "expects at least one output, not ")
           << numOuts.getInt();
  Type data;
  if (parser.parseColonType(data))
    return failure();
  SmallVector<Type> operandTypes = {
      data, getScalarTensorType(parser.getBuilder().getI32Type())};
  Type control = ControlType::get(parser.getContext());
  operandTypes.append(operands.size() - 2, control);
  if (parser.resolveOperands(operands, operandTypes, loc, result.operands))
    return failure();
  result.types.append(numOuts.getInt(), data);
  result.types.push_back(control);
  return parser.parseOptionalAttrDict(result.attributes);
}

void SwitchNOp::print(OpAsmPrinter &p) {
  p << ' ' << getData() << ", " << getIndex() << " of "
    << getNumOutsAttr().getInt();
  if (!getControlInputs().empty())
    p << " (" << getControlInputs() << ')';
  p << " : " << getData().getType();
  p.printOptionalAttrDict((*this)->getAttrs(), {"num_outs"});
}

LogicalResult SwitchNOp::verify() {
  int64_t numOuts = getNumOutsAttr().getInt();
  if (numOuts < 1)
    return emitOpError("expects at least one output, not ") << numOuts;
  if (static_cast<int64_t>(getOutputs().size()) != numOuts)
    return emitOpError("has ")
           << getOutputs().size() << " outputs but num_outs is " << numOuts;
  // The custom form gives every output the data type; the generic form must
  // keep it so to print back.
  for (auto [index, type] : llvm::enumerate(getOutputs().getTypes()))
    if (type != getData().getType())
      return emitOpError("output #")
             << index << " has type " << type << ", not the data type "
             << getData().getType();
  if (getIndex().getType() !=
      getScalarTensorType(IntegerType::get(getContext(), 32)))
    return emitOpError("expects the index to be a tensor<i32>, not ")
           << getIndex().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// MergeOp
//===----------------------------------------------------------------------===//

ParseResult MergeOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseOperandList(operands) ||
      parseExecutorTypes(
          parser, result, operands, /*numData=*/2,
          [&](Type data, SmallVectorImpl<Type> &inputs,
              SmallVectorImpl<Type> &outputs) {
            inputs.append({data, data});
            outputs.append(
                {data, getScalarTensorType(parser.getBuilder().getI32Type()),
                 ControlType::get(parser.getContext())});
          }))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

void MergeOp::print(OpAsmPrinter &p) {
  p << ' ' << getOperands();
  Type output = getOutput().getType();
  unsigned numData = countDataOperands(*this);
  bool isShort = numData == 2 && getOperand(0).getType() == output &&
                 getOperand(1).getType() == output &&
                 getValueIndex().getType() ==
                     getScalarTensorType(IntegerType::get(getContext(), 32));
  printExecutorTypes(p, *this, isShort, output);
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult MergeOp::verify() {
  if (getNumOperands() == 0 || isa<ControlType>(getOperand(0).getType()))
    return emitOpError("expects at least one data operand");
  for (auto [index, type] : llvm::enumerate(getOperandTypes())) {
    if (isa<ControlType>(type))
      break;
    if (!isa<TensorType>(type))
      return emitOpError("expects tensor data operands, but operand #")
             << index << " has type " << type;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// EnterOp
//===----------------------------------------------------------------------===//

/// TensorFlow's default of `Enter`'s `parallel_iterations`.
static constexpr int64_t kDefaultParallelIterations = 10;

ParseResult EnterOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *context = parser.getContext();
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  std::string frame;
  if (parser.parseOperandList(operands) || parser.parseKeyword("frame") ||
      parser.parseString(&frame))
    return failure();
  result.addAttribute("frame_name", StringAttr::get(context, frame));
  Type i64 = parser.getBuilder().getI64Type();
  if (succeeded(parser.parseOptionalKeyword("parallel_iterations"))) {
    IntegerAttr iterations;
    if (parser.parseAttribute(iterations, i64, "parallel_iterations",
                              result.attributes))
      return failure();
  } else {
    result.addAttribute("parallel_iterations",
                        IntegerAttr::get(i64, kDefaultParallelIterations));
  }
  result.addAttribute(
      "is_constant",
      BoolAttr::get(context,
                    succeeded(parser.parseOptionalKeyword("constant"))));
  if (parseExecutorTypes(parser, result, operands, /*numData=*/1,
                         [&](Type data, SmallVectorImpl<Type> &inputs,
                             SmallVectorImpl<Type> &outputs) {
                           inputs.push_back(data);
                           outputs.append({data, ControlType::get(context)});
                         }))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

void EnterOp::print(OpAsmPrinter &p) {
  p << ' ' << getOperands() << " frame ";
  p.printAttributeWithoutType(getFrameNameAttr());
  if (getParallelIterations() != kDefaultParallelIterations)
    p << " parallel_iterations " << getParallelIterations();
  if (getIsConstant())
    p << " constant";
  printExecutorTypes(p, *this, getData().getType() == getOutput().getType(),
                     getData().getType());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"frame_name", "parallel_iterations", "is_constant"});
}

/// The operands and types of an op with one data operand whose results are
/// that value and a control token (Exit, LoopCond), then its attributes.
static ParseResult parseOneDataAndControl(OpAsmParser &parser,
                                          OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  if (parser.parseOperandList(operands) ||
      parseExecutorTypes(parser, result, operands, /*numData=*/1,
                         [&](Type data, SmallVectorImpl<Type> &inputs,
                             SmallVectorImpl<Type> &outputs) {
                           inputs.push_back(data);
                           outputs.append(
                               {data, ControlType::get(parser.getContext())});
                         }))
    return failure();
  return parser.parseOptionalAttrDict(result.attributes);
}

//===----------------------------------------------------------------------===//
// ExitOp
//===----------------------------------------------------------------------===//

ParseResult ExitOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseOneDataAndControl(parser, result);
}

void ExitOp::print(OpAsmPrinter &p) {
  p << ' ' << getOperands();
  printExecutorTypes(p, *this, getData().getType() == getOutput().getType(),
                     getData().getType());
  p.printOptionalAttrDict((*this)->getAttrs());
}

//===----------------------------------------------------------------------===//
// LoopCondOp
//===----------------------------------------------------------------------===//

ParseResult LoopCondOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseOneDataAndControl(parser, result);
}

void LoopCondOp::print(OpAsmPrinter &p) {
  p << ' ' << getOperands();
  printExecutorTypes(p, *this, getInput().getType() == getOutput().getType(),
                     getInput().getType());
  p.printOptionalAttrDict((*this)->getAttrs());
}

//===----------------------------------------------------------------------===//
// NextIterationSourceOp / NextIterationSinkOp
//===----------------------------------------------------------------------===//

LogicalResult NextIterationSourceOp::verify() {
  Value token = getToken();
  if (!token.hasOneUse() || !isa<NextIterationSinkOp>(*token.user_begin()))
    return emitOpError("expects its token to be used by exactly one "
                       "tf_executor.NextIteration.Sink");
  return success();
}

LogicalResult NextIterationSinkOp::verify() {
  auto source = getToken().getDefiningOp<NextIterationSourceOp>();
  if (!source)
    return emitOpError("expects a token produced by a "
                       "tf_executor.NextIteration.Source");
  if (source.getOutput().getType() != getInput().getType())
    return emitOpError("has input type ")
           << getInput().getType()
           << " but its tf_executor.NextIteration.Source produces "
           << source.getOutput().getType();
  return success();
}

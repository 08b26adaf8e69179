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
  // TensorFlow's other executor ops in generic form (`"tf_executor.Switch"`)
  // parse, so that --tf-executor-to-functional can name them.
  allowUnknownOperations();
}

static ParseResult parseUnsupportedExecutorOp(OpAsmParser &parser,
                                              OperationState &state) {
  return parser.emitError(parser.getNameLoc())
         << "'" << state.name.getStringRef()
         << "' is not supported yet: of tf_executor, only graph, island, "
            "yield and fetch are (TensorFlow v1 control flow such as "
            "Switch, Merge and NextIteration is not)";
}

std::optional<Dialect::ParseOpHook>
TFExecutorDialect::getParseOperationHook(StringRef opName) const {
  if (RegisteredOperationName::lookup(opName, getContext()))
    return Dialect::getParseOperationHook(opName);
  return ParseOpHook(parseUnsupportedExecutorOp);
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
  for (Operation &op : block.without_terminator())
    if (!isa<TFExecutorDialect>(op.getDialect()))
      return op.emitOpError("is in a tf_executor.graph, which holds only "
                            "tf_executor ops (wrap it in a "
                            "tf_executor.island)");
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
  if (Operation *wrapped = getWrappedOp()) {
    p << " wraps ";
    p.printGenericOp(wrapped, /*printOpName=*/true);
  } else {
    p << ' ';
    p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/true);
  }
  p.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult IslandOp::verify() {
  YieldOp yield = getYield();
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

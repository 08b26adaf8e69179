//===- TFDeviceDialect.cpp - TensorFlow's tf_device dialect -----*- C++ -*-===//
//
// Registers tf_device.launch, tf_device.cluster and tf_device.return, and
// checks that a region returns what its op produces.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/TFDevice/TFDeviceDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace tfrt_fallback::tf_device;

#include "tfrt_fallback/Dialect/TFDevice/TFDeviceDialect.cpp.inc"

#define GET_OP_CLASSES
#include "tfrt_fallback/Dialect/TFDevice/TFDeviceOps.cpp.inc"

void TFDeviceDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfrt_fallback/Dialect/TFDevice/TFDeviceOps.cpp.inc"
      >();
  // TensorFlow's other device ops in generic form (`"tf_device.replicate"`)
  // parse, so that --tf-device-inline can name them.
  allowUnknownOperations();
}

static ParseResult parseUnsupportedDeviceOp(OpAsmParser &parser,
                                            OperationState &state) {
  return parser.emitError(parser.getNameLoc())
         << "'" << state.name.getStringRef()
         << "' is not supported yet: of tf_device, only launch, cluster and "
            "return are";
}

std::optional<Dialect::ParseOpHook>
TFDeviceDialect::getParseOperationHook(StringRef opName) const {
  if (RegisteredOperationName::lookup(opName, getContext()))
    return Dialect::getParseOperationHook(opName);
  return ParseOpHook(parseUnsupportedDeviceOp);
}

/// Checks the values the `tf_device.return` of `op`'s region returns
/// against the op's results. TensorFlow's own verifier checks nothing here,
/// and its passes write launches whose return is more refined or less
/// refined than the results (`tensor<*xi32>` for `tensor<?xi32>`) or gives
/// a cluster results it never returns; those are accepted (the results
/// without a value must be unused, which --tf-device-inline checks). A value
/// of another element type or an incompatible shape is an error.
static LogicalResult verifyReturn(Operation *op) {
  auto ret = dyn_cast<ReturnOp>(op->getRegion(0).front().getTerminator());
  if (!ret)
    return op->emitOpError("expects a tf_device.return terminator");
  for (auto [index, pair] : llvm::enumerate(
           llvm::zip(ret.getValues().getTypes(), op->getResultTypes()))) {
    auto [returned, result] = pair;
    if (returned == result)
      continue;
    auto returnedTensor = dyn_cast<TensorType>(returned);
    auto resultTensor = dyn_cast<TensorType>(result);
    if (returnedTensor && resultTensor &&
        returnedTensor.getElementType() == resultTensor.getElementType() &&
        succeeded(verifyCompatibleShape(returnedTensor, resultTensor)))
      continue;
    return op->emitOpError("returns ")
           << returned << " as its result #" << index << " of type " << result;
  }
  return success();
}

LogicalResult LaunchOp::verify() { return verifyReturn(*this); }

LogicalResult ClusterOp::verify() { return verifyReturn(*this); }

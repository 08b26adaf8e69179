//===- TFDeviceDialect.cpp - TensorFlow's tf_device dialect -----*- C++ -*-===//
//
// Registers tf_device.launch, tf_device.cluster and tf_device.return, and
// checks that a region returns what its op produces.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/TFDevice/TFDeviceDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

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

/// Checks that the `tf_device.return` of `op`'s region returns values of
/// the op's result types.
static LogicalResult verifyReturn(Operation *op) {
  auto ret = dyn_cast<ReturnOp>(op->getRegion(0).front().getTerminator());
  if (!ret)
    return op->emitOpError("expects a tf_device.return terminator");
  if (ret.getValues().getTypes() == op->getResultTypes())
    return success();
  InFlightDiagnostic diag = op->emitOpError("returns ");
  auto describe = [&](TypeRange types) {
    if (types.empty())
      diag << "nothing";
    else
      diag << types;
  };
  describe(ret.getValues().getTypes());
  diag << " but produces ";
  describe(op->getResultTypes());
  return diag;
}

LogicalResult LaunchOp::verify() { return verifyReturn(*this); }

LogicalResult ClusterOp::verify() { return verifyReturn(*this); }

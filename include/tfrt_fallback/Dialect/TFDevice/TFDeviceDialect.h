//===- TFDeviceDialect.h - TensorFlow's tf_device dialect -------*- C++ -*-===//
//
// The `tf_device` ops that place TF ops on a device: launch, cluster and
// return.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TFDEVICE_TFDEVICEDIALECT_H
#define TFRT_FALLBACK_DIALECT_TFDEVICE_TFDEVICEDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tfrt_fallback/Dialect/TFDevice/TFDeviceDialect.h.inc"

namespace tfrt_fallback::tf_device {
class ReturnOp;
} // namespace tfrt_fallback::tf_device

#define GET_OP_CLASSES
#include "tfrt_fallback/Dialect/TFDevice/TFDeviceOps.h.inc"

#endif // TFRT_FALLBACK_DIALECT_TFDEVICE_TFDEVICEDIALECT_H

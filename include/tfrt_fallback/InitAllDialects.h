//===- InitAllDialects.h - every dialect tfrt-fallback uses -----*- C++ -*-===//
//
// The entry point for compilers that embed tfrt-fallback, as MLIR's and
// CIRCT's InitAllDialects.h: registers our dialects (tf, tf_type,
// tf_executor, tf_device, tfrt_fallback) and the upstream ones TensorFlow
// programs use (func, arith). fallback-opt, fallback-translate and fallback-run
// register exactly these.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_INITALLDIALECTS_H
#define TFRT_FALLBACK_INITALLDIALECTS_H

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Dialect/TFDevice/TFDeviceDialect.h"
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"

namespace tfrt_fallback {

/// Adds every dialect a tfrt-fallback program may contain to `registry`.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<TFRTFallbackDialect, tf::TFDialect, tf::TFTypeDialect,
                  tf_executor::TFExecutorDialect, tf_device::TFDeviceDialect,
                  mlir::func::FuncDialect, mlir::arith::ArithDialect>();
}

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_INITALLDIALECTS_H

//===- BinaryProgram.h - write lowered modules as binary programs -*- C++
//-*-===//
//
// Serializes a module in the tfrt_fallback dialect into the compact binary
// program the MLIR-free runtime loads (docs/BinaryFormat.md), and turns a
// binary program back into MLIR (the disassembler).
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_TARGET_BINARYPROGRAM_H
#define TFRT_FALLBACK_TARGET_BINARYPROGRAM_H

#include "tfrt_fallback/Transforms/Passes.h"

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/LLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace tfrt_fallback {
namespace rt {
class Tensor;
} // namespace rt

/// Serializes `module` (func.func bodies of tfrt_fallback ops, func.call and
/// func.return) into `output`. Emits an error at the offending op and fails
/// on anything the format cannot hold, e.g. TF ops that were not lowered.
mlir::LogicalResult writeBinaryProgram(mlir::ModuleOp module,
                                       std::vector<uint8_t> &output);

/// Rebuilds a module in the tfrt_fallback dialect from a binary program.
/// Errors from the program's validation are reported as diagnostics.
mlir::OwningOpRef<mlir::ModuleOp>
readBinaryProgram(llvm::ArrayRef<uint8_t> bytes, mlir::MLIRContext *context);

/// The value of a runtime tensor as a constant attribute of `type` (its
/// shape, and the MLIR element type of its dtype): how the reader turns the
/// program's constants back into MLIR, and tfrt-fallback-fold-constants the
/// tensors its kernels compute.
mlir::ElementsAttr getElementsAttr(const rt::Tensor &tensor,
                                   mlir::RankedTensorType type);

/// Runs the tfrt-fallback pipeline on `module` when it still holds TF ops
/// (of tf, tf_executor or tf_device, or an arith.constant); a module already
/// in the tfrt_fallback dialect is left as it is.
mlir::LogicalResult lowerToFallback(mlir::ModuleOp module,
                                    const TFRTFallbackPipelineOptions &options);

/// Registers the `--mlir-to-bef` and `--bef-to-mlir` translations.
void registerBinaryProgramTranslations();

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_TARGET_BINARYPROGRAM_H

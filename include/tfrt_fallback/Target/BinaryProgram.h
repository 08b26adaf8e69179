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
#include <optional>
#include <string>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

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

/// The names of a function's arguments and results (a model's input and
/// output names), as the binary program's signatures section keeps them.
struct FunctionSignatureNames {
  std::vector<std::string> args, results;
};

/// TensorFlow's names of a function's arguments and results, in order of
/// preference: `tf_saved_model.index_path` on an argument or result (its
/// first element, a string: SavedModel's convention), then the function's
/// `tf.entry_function = {inputs = "a,b", outputs = "c"}` (the GraphDef
/// importer's), when it names as many as the function has. What names
/// nothing gets input_<i> or output_<i>; nullopt when nothing is named.
std::optional<FunctionSignatureNames>
getSignatureNames(mlir::func::FuncOp func);

/// Sets `names` on `func` as `tf_saved_model.index_path` argument and result
/// attributes (which hold any string; getSignatureNames reads them back).
void setSignatureNames(mlir::func::FuncOp func,
                       const FunctionSignatureNames &names);

/// Registers the `--mlir-to-bef` and `--bef-to-mlir` translations.
void registerBinaryProgramTranslations();

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_TARGET_BINARYPROGRAM_H

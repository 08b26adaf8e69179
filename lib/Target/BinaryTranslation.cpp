//===- BinaryTranslation.cpp - --mlir-to-bef and --bef-to-mlir --*- C++ -*-===//
//
// Registers the binary program translations of fallback-translate, and the
// in-process compilation that fallback-run shares.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Target/BinaryProgram.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Dialect/TFExecutor/TFExecutorDialect.h"
#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"

using namespace mlir;
using namespace tfrt_fallback;

LogicalResult
tfrt_fallback::lowerToFallback(ModuleOp module,
                               const TFRTFallbackPipelineOptions &options) {
  bool hasTFOps = false;
  module.walk([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == tf::TFDialect::getDialectNamespace() ||
        dialect == tf_executor::TFExecutorDialect::getDialectNamespace()) {
      hasTFOps = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!hasTFOps)
    return success();
  PassManager pm(module.getContext());
  buildTFRTFallbackPipeline(pm, options);
  return pm.run(module);
}

void tfrt_fallback::registerBinaryProgramTranslations() {
  TranslateFromMLIRRegistration toBinary(
      "mlir-to-bef",
      "Write a binary program (runs the tfrt-fallback pipeline first when "
      "the module holds TF ops)",
      [](ModuleOp module, llvm::raw_ostream &os) -> LogicalResult {
        if (failed(lowerToFallback(module, TFRTFallbackPipelineOptions())))
          return failure();
        std::vector<uint8_t> bytes;
        if (failed(writeBinaryProgram(module, bytes)))
          return failure();
        os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
        return success();
      },
      registerAllDialects);

  TranslateToMLIRRegistration fromBinary(
      "bef-to-mlir",
      "Disassemble a binary program into the tfrt_fallback "
      "dialect",
      [](llvm::StringRef input,
         MLIRContext *context) -> OwningOpRef<Operation *> {
        ArrayRef<uint8_t> bytes(reinterpret_cast<const uint8_t *>(input.data()),
                                input.size());
        OwningOpRef<ModuleOp> module = readBinaryProgram(bytes, context);
        if (!module)
          return {};
        return OwningOpRef<Operation *>(module.release().getOperation());
      },
      registerAllDialects);
}

//===- BinaryTranslation.cpp - --mlir-to-bef and --bef-to-mlir --*- C++ -*-===//
//
// Registers the binary program translations of fallback-translate, and the
// in-process compilation that fallback-run shares.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Target/BinaryProgram.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"
#include "tfrt_fallback/Import/ImportModel.h"
#include "tfrt_fallback/InitAllDialects.h"
#include "tfrt_fallback/Runtime/BinaryFormat.h"
#include "tfrt_fallback/Transforms/KernelManifest.h"
#include "tfrt_fallback/Transforms/ParseSource.h"
#include "tfrt_fallback/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>
#include <set>

using namespace mlir;
using namespace tfrt_fallback;

LogicalResult
tfrt_fallback::lowerToFallback(ModuleOp module,
                               const TFRTFallbackPipelineOptions &options) {
  bool hasTFOps = false;
  module.walk([&](Operation *op) {
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == tf::TFDialect::getDialectNamespace() ||
        dialect == tf_executor::TFExecutorDialect::getDialectNamespace() ||
        dialect == tf_device::TFDeviceDialect::getDialectNamespace() ||
        isa<arith::ConstantOp>(op)) {
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

/// The kernels `module` (in the tfrt_fallback dialect) calls, as a kernel
/// manifest (docs/KernelManifest.md): one line per op and combination of
/// type attributes, the dtypes of a list-of-types attribute joined by '|',
/// then a `feature` line for each optional part of the runtime it needs.
static void writeNeededKernels(ModuleOp module, llvm::raw_ostream &os) {
  std::set<std::string> lines;
  module.walk([&](KernelCallOp call) {
    std::string line = ("kernel " + call.getOpName()).str();
    for (NamedAttribute attr : call.getOpAttrs()) {
      std::set<std::string> dtypes;
      if (auto type = dyn_cast<TypeAttr>(attr.getValue()))
        dtypes.insert(manifestDTypeName(type.getValue()));
      else if (auto list = dyn_cast<ArrayAttr>(attr.getValue()))
        for (Attribute element : list)
          if (auto type = dyn_cast<TypeAttr>(element))
            dtypes.insert(manifestDTypeName(type.getValue()));
      if (dtypes.empty())
        continue;
      line += " " + attr.getName().str() + "=" + llvm::join(dtypes, "|");
    }
    lines.insert(std::move(line));
  });
  bool memmapped = false;
  module.walk([&](KernelCallOp call) {
    memmapped |= call.getOpName() == "ImmutableConst";
  });
  std::set<StringRef> features;
  module.walk([&](Operation *op) {
    for (StringRef feature : neededFeatures(op))
      features.insert(feature);
    // Optional: a runtime without it runs the program, allocating every
    // result.
    if (op->hasAttr(kMemoryPlanAttrName))
      features.insert("memory-plan");
    // Optional too: a runtime without it names the inputs and outputs
    // input_<i> and output_<i>.
    if (auto func = dyn_cast<func::FuncOp>(op); func && getSignatureNames(func))
      features.insert("signatures");
  });
  // The runner's --memmapped-package, for ImmutableConst's regions.
  if (memmapped)
    features.insert("memmapped-package");
  os << "# tfrt-fallback kernel manifest v1\n";
  for (const std::string &line : lines)
    os << line << "\n";
  for (StringRef feature : features)
    os << "feature " << feature << "\n";
}

void tfrt_fallback::registerBinaryProgramTranslations() {
  TranslateRegistration neededKernels(
      "emit-kernel-manifest",
      "List the kernels a program needs (a .mlir file, lowered first when it "
      "holds TF ops, or a .bef), as a kernel manifest",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         llvm::raw_ostream &os, MLIRContext *context) -> LogicalResult {
        DialectRegistry registry;
        registerAllDialects(registry);
        context->appendDialectRegistry(registry);
        StringRef input =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID())->getBuffer();
        OwningOpRef<ModuleOp> module;
        uint32_t magic = 0;
        if (input.size() >= sizeof(magic))
          std::memcpy(&magic, input.data(), sizeof(magic));
        if (magic == bef::kMagic) {
          module = readBinaryProgram(
              ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(input.data()),
                                input.size()),
              context);
        } else {
          module =
              tfrt_fallback::parseSourceFile(*sourceMgr, ParserConfig(context));
          if (module &&
              failed(lowerToFallback(*module, TFRTFallbackPipelineOptions())))
            return failure();
        }
        if (!module)
          return failure();
        writeNeededKernels(*module, os);
        return success();
      });

  TranslateRegistration toBinary(
      "mlir-to-bef",
      "Write a binary program (runs the tfrt-fallback pipeline first when "
      "the module holds TF ops)",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr,
         llvm::raw_ostream &os, MLIRContext *context) -> LogicalResult {
        DialectRegistry registry;
        registerAllDialects(registry);
        context->appendDialectRegistry(registry);
        // Parsed here, not by MLIR's translate driver, to refuse first what
        // MLIR's parser would abort on (ParseSource.h); a model file
        // (model.json, .pb, .tflite) is imported by its name.
        StringRef path = sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID())
                             ->getBufferIdentifier();
        OwningOpRef<ModuleOp> module =
            tfrt_fallback::importModel(*sourceMgr, path, context);
        if (!module ||
            failed(lowerToFallback(*module, TFRTFallbackPipelineOptions())))
          return failure();
        std::vector<uint8_t> bytes;
        if (failed(writeBinaryProgram(*module, bytes)))
          return failure();
        os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
        return success();
      });

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

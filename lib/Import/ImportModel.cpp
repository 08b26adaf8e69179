//===- ImportModel.cpp - import a TF program of any supported format ------===//
//
// Dispatches on the file's name: TF.js, TFLite, SavedModel
// (DIR/saved_model.pb), GraphDef, or MLIR text.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/ImportModel.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"
#include "tfrt_fallback/Dialect/TF/TFDialect.h"
#include "tfrt_fallback/Dialect/TF/TFTypes.h"
#include "tfrt_fallback/Import/GraphDefImport.h"
#include "tfrt_fallback/Import/SavedModelImport.h"
#include "tfrt_fallback/Import/TFJSImport.h"
#include "tfrt_fallback/Import/TFLiteImport.h"
#include "tfrt_fallback/Transforms/ParseSource.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/Path.h"

using namespace mlir;

OwningOpRef<ModuleOp> tfrt_fallback::importModel(llvm::SourceMgr &sourceMgr,
                                                 llvm::StringRef path,
                                                 MLIRContext *context) {
  llvm::StringRef text =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID())->getBuffer();
  if (path.ends_with(".json"))
    return importTFJSModel(text, llvm::sys::path::parent_path(path), path,
                           context);
  if (isTFLitePath(path))
    return importTFLiteModel(text, path, context);
  if (llvm::sys::path::filename(path) == "saved_model.pb")
    return importSavedModel(text, llvm::sys::path::parent_path(path),
                            SavedModelImportOptions(), context);
  if (isGraphDefPath(path)) {
    GraphDefImportOptions options;
    options.textFormat = isTextGraphDefPath(path);
    return importGraphDef(text, path, options, context);
  }
  return parseSourceFile(sourceMgr, ParserConfig(context));
}

void tfrt_fallback::registerImportTranslation(llvm::StringRef name,
                                              llvm::StringRef description,
                                              ModelImportFn importFn) {
  TranslateToMLIRRegistration registration(
      name, description,
      [importFn](llvm::SourceMgr &sourceMgr,
                 MLIRContext *context) -> OwningOpRef<Operation *> {
        const llvm::MemoryBuffer *buffer =
            sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
        OwningOpRef<ModuleOp> module = importFn(
            buffer->getBuffer(), buffer->getBufferIdentifier(), context);
        if (!module)
          return {};
        return OwningOpRef<Operation *>(module.release().getOperation());
      },
      [](DialectRegistry &registry) {
        registry.insert<tf::TFTypeDialect, tf::TFDialect, func::FuncDialect,
                        TFRTFallbackDialect>();
      });
}

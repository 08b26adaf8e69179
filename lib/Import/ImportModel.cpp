//===- ImportModel.cpp - import a TF program of any supported format ------===//
//
// Dispatches on the file's name: TF.js, TFLite, SavedModel
// (DIR/saved_model.pb), GraphDef, or MLIR text.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Import/ImportModel.h"

#include "tfrt_fallback/Import/GraphDefImport.h"
#include "tfrt_fallback/Import/SavedModelImport.h"
#include "tfrt_fallback/Import/TFJSImport.h"
#include "tfrt_fallback/Import/TFLiteImport.h"
#include "tfrt_fallback/Transforms/ParseSource.h"

#include "mlir/Parser/Parser.h"
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

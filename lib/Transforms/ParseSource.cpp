//===- ParseSource.cpp - parse MLIR text that users give us ----*- C++ -*-===//
//
// The guard of ParseSource.h. MLIR reads a resource blob as a hex string
// whose first four bytes (little endian) are the blob's alignment; it
// rejects an alignment that is not a power of two unless it is 0, and then
// allocates with alignment 0. The guard looks at the file metadata
// dictionary ({-# ... #-}, which MLIR only accepts at the top level, after
// the operations) for string values that are hex blobs.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Transforms/ParseSource.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

llvm::SMLoc tfrt_fallback::findUnparsableResource(llvm::StringRef source,
                                                  std::string *message) {
  // MLIR's lexer stops at a NUL byte.
  source = source.substr(0, source.find('\0'));
  size_t metadata = source.find("{-#");
  while (metadata != llvm::StringRef::npos) {
    size_t quote = source.find("\"0x", metadata);
    if (quote == llvm::StringRef::npos)
      break;
    llvm::StringRef hex = source.substr(quote + 3);
    hex = hex.take_while(llvm::isHexDigit);
    metadata = quote + 3 + hex.size();
    // A blob string holds hex digits up to its closing quote; MLIR 22's
    // lexer runs past the buffer on one cut short (found by the MLIR
    // pipeline fuzzer: `"0x0400000000803F00tfrt...` at the end of a file).
    if (metadata >= source.size() || source[metadata] != '"') {
      if (message)
        *message = "resource blob is not a string of hex digits closed by "
                   "'\"'";
      return llvm::SMLoc::getFromPointer(source.data() + quote);
    }
    if (hex.size() < 8)
      continue;
    uint32_t alignment = 0;
    for (int byte = 3; byte >= 0; --byte)
      alignment = (alignment << 8) | (llvm::hexDigitValue(hex[2 * byte]) << 4 |
                                      llvm::hexDigitValue(hex[2 * byte + 1]));
    if (alignment != 0)
      continue;
    if (message)
      *message = "resource blob with alignment 0: its first four bytes must "
                 "be a power of two (the alignment of the data that follows)";
    return llvm::SMLoc::getFromPointer(source.data() + quote);
  }
  return llvm::SMLoc();
}

llvm::LogicalResult
tfrt_fallback::checkSourceForParser(llvm::SourceMgr &sourceMgr) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::string message;
  llvm::SMLoc loc = findUnparsableResource(buffer->getBuffer(), &message);
  if (!loc.isValid())
    return llvm::success();
  sourceMgr.PrintMessage(loc, llvm::SourceMgr::DK_Error, message);
  return llvm::failure();
}

OwningOpRef<ModuleOp>
tfrt_fallback::parseSourceFile(llvm::SourceMgr &sourceMgr,
                               const ParserConfig &config) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  std::string message;
  llvm::SMLoc loc = findUnparsableResource(buffer->getBuffer(), &message);
  if (loc.isValid()) {
    auto [line, column] = sourceMgr.getLineAndColumn(loc);
    emitError(FileLineColLoc::get(config.getContext(),
                                  buffer->getBufferIdentifier(), line, column),
              message);
    return nullptr;
  }
  return mlir::parseSourceFile<ModuleOp>(sourceMgr, config);
}

OwningOpRef<ModuleOp> tfrt_fallback::parseSourceString(
    llvm::StringRef source, const ParserConfig &config, llvm::StringRef name) {
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(source, name,
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  return parseSourceFile(sourceMgr, config);
}

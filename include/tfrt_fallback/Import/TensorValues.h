//===- TensorValues.h - constant tensors of graph importers -----*- C++ -*-===//
//
// Helpers the TF.js and GraphDef importers share to turn decoded tensor
// bytes into MLIR constants.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_IMPORT_TENSORVALUES_H
#define TFRT_FALLBACK_IMPORT_TENSORVALUES_H

#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace tfrt_fallback {

/// IEEE half -> float, exactly.
float halfToFloat(uint16_t h);

/// Bytes per element of `element` (an integer or float type) in the
/// little-endian dense layout of tensor constants; i1 takes one byte.
unsigned getElementByteSize(mlir::Type element);

/// The constant of `type` whose elements are in `blob` (little-endian,
/// getElementByteSize bytes each, bools 0 or 1). Small constants stay
/// readable dense attributes; larger ones become `dense_resource` blobs named
/// by `blobName()`, called only then.
mlir::ElementsAttr createTensorAttr(mlir::RankedTensorType type,
                                    mlir::AsmResourceBlob blob,
                                    llvm::function_ref<std::string()> blobName);

} // namespace tfrt_fallback

#endif // TFRT_FALLBACK_IMPORT_TENSORVALUES_H

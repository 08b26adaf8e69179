//===- TFTypes.cpp - TensorFlow's tf_type types and attributes --*- C++ -*-===//
//
// Registers the `tf_type` dialect.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/TF/TFTypes.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tfrt_fallback::tf;

#include "tfrt_fallback/Dialect/TF/TFTypeDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tfrt_fallback/Dialect/TF/TFTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tfrt_fallback/Dialect/TF/TFAttrs.cpp.inc"

void TFTypeDialect::initialize() {
  registerTypes();
  registerAttributes();
}

void TFTypeDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfrt_fallback/Dialect/TF/TFTypes.cpp.inc"
      >();
}

void TFTypeDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tfrt_fallback/Dialect/TF/TFAttrs.cpp.inc"
      >();
}

Attribute ShapeAttr::parse(AsmParser &parser, Type) {
  bool ranked;
  SmallVector<int64_t> dims;
  if (failed(tfrt_fallback::parseShapeBody(parser, ranked, dims)))
    return {};
  return ShapeAttr::get(parser.getContext(), ranked, dims);
}

void ShapeAttr::print(AsmPrinter &printer) const {
  tfrt_fallback::printShapeBody(printer, getRanked(), getDims());
}

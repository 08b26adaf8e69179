//===- TFTypes.cpp - TensorFlow's tf_type types and attributes --*- C++ -*-===//
//
// Registers the `tf_type` dialect; maps dtypes to MLIR element types by the
// spellings in DTypes.def.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/TF/TFTypes.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"

#include "mlir/AsmParser/AsmParser.h"
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

//===----------------------------------------------------------------------===//
// TensorFlow dtypes as MLIR element types
//===----------------------------------------------------------------------===//

namespace {
/// A dtype's TensorFlow DataType number (its rt::DType value) and the
/// spelling of its MLIR element type.
struct DTypeSpelling {
  int dataType;
  llvm::StringLiteral spelling;
};
constexpr DTypeSpelling kDTypeSpellings[] = {
#define TFRT_FALLBACK_DTYPE(Enum, DataType, TFName, PyName, Name, CppType,     \
                            Npy)                                               \
  {DataType, Name},
#define TFRT_FALLBACK_DTYPE_NO_BUFFER(Enum, DataType, TFName, PyName, Name,    \
                                      Mlir)                                    \
  {DataType, Mlir},
#include "tfrt_fallback/Runtime/DTypes.def"
};
} // namespace

Type tfrt_fallback::tf::getElementType(rt::DType dtype, MLIRContext *context) {
  for (const DTypeSpelling &entry : kDTypeSpellings) {
    if (entry.dataType != static_cast<int>(dtype))
      continue;
    // A dialect type (`!tf_type.string`) parses only with its dialect loaded.
    if (entry.spelling.starts_with("!"))
      context->getOrLoadDialect<TFTypeDialect>();
    return parseType(entry.spelling, context);
  }
  return {};
}

std::optional<tfrt_fallback::rt::DType> tfrt_fallback::tf::getDType(Type type) {
  if (!type)
    return std::nullopt;
  std::string spelling;
  llvm::raw_string_ostream(spelling) << type;
  for (const DTypeSpelling &entry : kDTypeSpellings)
    if (entry.spelling == spelling)
      return static_cast<rt::DType>(entry.dataType);
  return std::nullopt;
}

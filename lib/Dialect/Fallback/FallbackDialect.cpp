//===- FallbackDialect.cpp - tfrt_fallback dialect --------------*- C++ -*-===//
//
// Registers the dialect, its types and attributes, and says which MLIR types
// and attributes TensorFlow can express.
//
//===----------------------------------------------------------------------===//

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.h"

#include "tfrt_fallback/Dialect/Fallback/FallbackOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tfrt_fallback;

#include "tfrt_fallback/Dialect/Fallback/FallbackDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tfrt_fallback/Dialect/Fallback/FallbackTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tfrt_fallback/Dialect/Fallback/FallbackAttrs.cpp.inc"

void TFRTFallbackDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tfrt_fallback/Dialect/Fallback/FallbackOps.cpp.inc"
      >();
  registerTypes();
  registerAttributes();
}

void TFRTFallbackDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tfrt_fallback/Dialect/Fallback/FallbackTypes.cpp.inc"
      >();
}

void TFRTFallbackDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tfrt_fallback/Dialect/Fallback/FallbackAttrs.cpp.inc"
      >();
}

Operation *TFRTFallbackDialect::materializeConstant(OpBuilder &builder,
                                                    Attribute value, Type type,
                                                    Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}

//===----------------------------------------------------------------------===//
// ShapeAttr
//===----------------------------------------------------------------------===//

ParseResult tfrt_fallback::parseShapeBody(AsmParser &parser, bool &ranked,
                                          SmallVectorImpl<int64_t> &dims) {
  ranked = true;
  if (parser.parseLess())
    return failure();
  if (succeeded(parser.parseOptionalStar())) {
    ranked = false;
    return parser.parseGreater();
  }
  if (succeeded(parser.parseOptionalGreater()))
    return success();
  // TensorFlow's shape protos write an unknown dimension as -1.
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalMinus()))
    return parser.emitError(loc, "shape dimensions cannot be negative; write "
                                 "'?' for an unknown dimension");
  return failure(parser.parseDimensionList(dims, /*allowDynamic=*/true,
                                           /*withTrailingX=*/false) ||
                 parser.parseGreater());
}

void tfrt_fallback::printShapeBody(AsmPrinter &printer, bool ranked,
                                   ArrayRef<int64_t> dims) {
  printer << '<';
  if (!ranked) {
    printer << "*>";
    return;
  }
  llvm::interleave(
      dims, printer,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          printer << '?';
        else
          printer << dim;
      },
      "x");
  printer << '>';
}

Attribute ShapeAttr::parse(AsmParser &parser, Type) {
  bool ranked;
  SmallVector<int64_t> dims;
  if (failed(parseShapeBody(parser, ranked, dims)))
    return {};
  return ShapeAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), ranked, dims);
}

void ShapeAttr::print(AsmPrinter &printer) const {
  printShapeBody(printer, getRanked(), getDims());
}

LogicalResult
ShapeAttr::verify(llvm::function_ref<InFlightDiagnostic()> emitError,
                  bool ranked, ArrayRef<int64_t> dims) {
  if (!ranked && !dims.empty())
    return emitError() << "an unranked shape has no dimensions";
  for (int64_t dim : dims)
    if (dim < 0 && !ShapedType::isDynamic(dim))
      return emitError() << "shape dimension " << dim << " is negative";
  return success();
}

//===----------------------------------------------------------------------===//
// What TensorFlow can express
//===----------------------------------------------------------------------===//

bool tfrt_fallback::isTFElementType(Type type) {
  if (type.isF16() || type.isBF16() || type.isF32() || type.isF64())
    return true;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    unsigned width = intType.getWidth();
    if (intType.isSignless())
      return width == 1 || width == 8 || width == 16 || width == 32 ||
             width == 64;
    if (intType.isUnsigned())
      return width == 8 || width == 16 || width == 32 || width == 64;
    return false;
  }
  if (auto complexType = dyn_cast<ComplexType>(type))
    return complexType.getElementType().isF32() ||
           complexType.getElementType().isF64();
  return type.getDialect().getNamespace() == "tf_type";
}

/// The kind of a single (non-list) TF attribute value, or nullptr when the
/// value is not one TF can express.
static const char *tfAttrKind(Attribute value) {
  if (isa<BoolAttr>(value))
    return "bool";
  if (isa<IntegerAttr>(value))
    return "int";
  if (isa<FloatAttr>(value))
    return "float";
  if (isa<StringAttr>(value))
    return "string";
  if (isa<TypeAttr>(value))
    return "type";
  if (isa<ShapeAttr>(value))
    return "shape";
  if (isa<ElementsAttr>(value))
    return "tensor";
  if (isa<FlatSymbolRefAttr>(value))
    return "func";
  return nullptr;
}

static std::string checkTFScalarAttrValue(Attribute value) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  if (!tfAttrKind(value)) {
    os << "is " << value << ", which TensorFlow cannot express";
    return reason;
  }
  if (auto typeAttr = dyn_cast<TypeAttr>(value)) {
    if (!isTFElementType(typeAttr.getValue()))
      os << "is the type " << typeAttr.getValue()
         << ", which is not a TensorFlow dtype";
    return reason;
  }
  if (auto elements = dyn_cast<ElementsAttr>(value)) {
    if (!isTFElementType(elements.getElementType()))
      os << "is a tensor of " << elements.getElementType()
         << ", which is not a TensorFlow dtype";
    return reason;
  }
  return reason;
}

std::string tfrt_fallback::checkTFAttrValue(Attribute value) {
  auto list = dyn_cast<ArrayAttr>(value);
  if (!list)
    return checkTFScalarAttrValue(value);
  const char *kind = nullptr;
  for (auto [index, element] : llvm::enumerate(list)) {
    if (isa<ArrayAttr>(element))
      return "is a list of lists, which TensorFlow cannot express";
    std::string reason = checkTFScalarAttrValue(element);
    if (!reason.empty())
      return "has an element that " + reason;
    const char *elementKind = tfAttrKind(element);
    if (kind && llvm::StringRef(kind) != elementKind)
      return std::string("is a list that mixes ") + kind + " and " +
             elementKind + " elements";
    kind = elementKind;
  }
  return "";
}

//===- TFTypes.td - TensorFlow's tf_type types and attributes -*- tablegen -*-===//
//
// The `tf_type` types and attributes that TensorFlow's MLIR exporter prints:
// `!tf_type.string`, `!tf_type.resource<...>`, `!tf_type.variant<...>`,
// `!tf_type.control` and `#tf_type.shape<...>`.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TF_TFTYPES_TD
#define TFRT_FALLBACK_DIALECT_TF_TFTYPES_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TFType_Dialect : Dialect {
  let name = "tf_type";
  let cppNamespace = "::tfrt_fallback::tf";
  let summary = "TensorFlow's types and attributes as its MLIR tools print them";
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

def TFType_StringType : TypeDef<TFType_Dialect, "String"> {
  let mnemonic = "string";
  let summary = "TensorFlow's string dtype";
}

def TFType_ControlType : TypeDef<TFType_Dialect, "Control"> {
  let mnemonic = "control";
  let summary = "a control dependency of tf_executor";
}

class TFType_SubtypedType<string name, string mnemonicName>
    : TypeDef<TFType_Dialect, name> {
  let mnemonic = mnemonicName;
  let parameters = (ins OptionalArrayRefParameter<"::mlir::TensorType">:$subtypes);
  let assemblyFormat = "(`<` $subtypes^ `>`)?";
}

def TFType_ResourceType : TFType_SubtypedType<"Resource", "resource"> {
  let summary = "a TensorFlow resource handle, optionally with its tensor types";
}

def TFType_VariantType : TFType_SubtypedType<"Variant", "variant"> {
  let summary = "a TensorFlow variant, optionally with its tensor types";
}

def TFType_ShapeAttr : AttrDef<TFType_Dialect, "Shape"> {
  let mnemonic = "shape";
  let summary = "TensorFlow's shape attribute: `#tf_type.shape<2x?>`, `<*>`";
  let parameters = (ins
    "bool":$ranked,
    ArrayRefParameter<"int64_t", "dimensions, ShapedType::kDynamic for ?">:$dims);
  let hasCustomAssemblyFormat = 1;
}

#endif // TFRT_FALLBACK_DIALECT_TF_TFTYPES_TD

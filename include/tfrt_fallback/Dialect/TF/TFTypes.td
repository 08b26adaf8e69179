//===- TFTypes.td - TensorFlow's tf_type types and attributes -*- tablegen -*-===//
//
// The `tf_type` types and attributes that TensorFlow's MLIR exporter prints:
// `!tf_type.string`, `!tf_type.resource<...>`, `!tf_type.variant<...>`,
// `!tf_type.control`, the quantized (`!tf_type.qint8`) and reference
// (`!tf_type.f32ref`) dtypes, `#tf_type.shape<...>`, `#tf_type.func<...>` and
// `#tf_type<tensor_proto : "0x...">`. The syntax is TensorFlow's
// (tensorflow/core/ir/types); the definitions are our own.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TF_TFTYPES_TD
#define TFRT_FALLBACK_DIALECT_TF_TFTYPES_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def TFType_Dialect : Dialect {
  let name = "tf_type";
  let cppNamespace = "::tfrt_fallback::tf";
  let summary = "TensorFlow's types and attributes as its MLIR tools print them";
  let useDefaultTypePrinterParser = 0;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
    /// The ODS types by mnemonic, then the names of TFTypes.def.
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;
  }];
}

def TFType_StringType : TypeDef<TFType_Dialect, "String"> {
  let mnemonic = "string";
  let summary = "TensorFlow's string dtype";
  let description = [{
    Byte strings of any length, one per element.

    ```mlir
    %0 = "tf.Const"() {value = dense<["a", "bc"]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
    ```
  }];
}

def TFType_ControlType : TypeDef<TFType_Dialect, "Control"> {
  let mnemonic = "control";
  let summary = "a control dependency of tf_executor";
  let description = [{
    TensorFlow's graph form names control edges with it; `tf_executor` uses
    its own `!tf_executor.control`.

    ```mlir
    func.func @f(%ctl: !tf_type.control)
    ```
  }];
}

def TFType_QuantizedType : TypeDef<TFType_Dialect, "Quantized"> {
  // No mnemonic: TFTypeDialect::parseType reads the names of TFTypes.def.
  let typeName = "tf_type.quantized";
  let summary = "TensorFlow's quantized dtypes: `qint8`, `quint8`, `qint16`, "
                "`quint16`, `qint32`";
  let description = [{
    An integer whose scale and zero point live elsewhere (in the ops'
    `min`/`max` operands), spelled by its name alone. The names and
    storage types are listed in `TFTypes.def`.

    ```mlir
    func.func @f(%x: tensor<4x!tf_type.qint8>, %y: tensor<!tf_type.quint16>)
    ```
  }];
  let parameters = (ins StringRefParameter<"the name, as `qint8`">:$name);
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The integer type each element is stored as (i8 for qint8).
    ::mlir::Type getStorageType() const;
    /// TensorFlow's DataType number (DT_QINT8 = 11).
    int getDataType() const;
  }];
}

def TFType_RefType : TypeDef<TFType_Dialect, "Ref"> {
  // No mnemonic: TFTypeDialect::parseType reads the names of TFTypes.def.
  let typeName = "tf_type.ref";
  let summary = "TensorFlow's reference dtypes (TF1 variables): `f32ref`, "
                "`int32ref`, `stringref`, ...";
  let description = [{
    The element type of a TF1 reference variable's value (`VariableV2`,
    `Assign`): a mutable reference to an element of the referent type.
    Spelled by name (`f32ref`, `int32ref`, `boolref`, `stringref`,
    `resourceref`, `qint8ref`, `complex64ref`, `float8e4m3fnref`, ...); the
    names and referents are listed in `TFTypes.def`.

    ```mlir
    %v = "tf.VariableV2"() {container = "", shape = #tf_type.shape<96>, shared_name = ""} : () -> tensor<96x!tf_type.f32ref>
    ```
  }];
  let parameters = (ins StringRefParameter<"the name, as `f32ref`">:$name);
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The element type the reference refers to (f32 for f32ref).
    ::mlir::Type getReferentType() const;
  }];
}

class TFType_SubtypedType<string name, string mnemonicName>
    : TypeDef<TFType_Dialect, name> {
  let mnemonic = mnemonicName;
  let parameters = (ins OptionalArrayRefParameter<"::mlir::TensorType">:$subtypes);
  let assemblyFormat = "(`<` $subtypes^ `>`)?";
}

def TFType_ResourceType : TFType_SubtypedType<"Resource", "resource"> {
  let summary = "a TensorFlow resource handle, optionally with its tensor types";
  let description = [{
    A handle to a resource (a variable, a table, an iterator). The optional
    subtypes give the types of the tensors it holds.

    ```mlir
    func.func @f(%v: tensor<!tf_type.resource<tensor<2xf32>>>,
                 %h: tensor<!tf_type.resource>,
                 %t: tensor<!tf_type.resource<tensor<i32>, tensor<*xf32>>>)
    ```
  }];
}

def TFType_VariantType : TFType_SubtypedType<"Variant", "variant"> {
  let summary = "a TensorFlow variant, optionally with its tensor types";
  let description = [{
    An opaque value (a tensor list, a dataset). The optional subtypes give
    the types of the tensors it holds.

    ```mlir
    func.func @f(%l: tensor<!tf_type.variant<tensor<*xf32>>>)
    ```
  }];
}

def TFType_ShapeAttr : AttrDef<TFType_Dialect, "Shape"> {
  let mnemonic = "shape";
  let summary = "TensorFlow's shape attribute: `#tf_type.shape<2x?>`, `<*>`";
  let description = [{
    A ranked shape with `?` for unknown dimensions, or `*` for an unknown
    rank.

    ```mlir
    %0 = "tf.Placeholder"() {shape = #tf_type.shape<2x?>} : () -> tensor<2x?xf32>
    ```
  }];
  let parameters = (ins
    "bool":$ranked,
    ArrayRefParameter<"int64_t", "dimensions, ShapedType::kDynamic for ?">:$dims);
  let hasCustomAssemblyFormat = 1;
}

def TFType_FuncAttr : AttrDef<TFType_Dialect, "Func"> {
  let mnemonic = "func";
  let summary = "TensorFlow's function attribute: a function and its attributes";
  let description = [{
    TensorFlow's `NameAttrList`: the function a functional op calls
    (`tf.PartitionedCall`, `tf.If`, `tf.While` bodies written as
    attributes) and the attributes it is instantiated with. An empty
    string instead of the symbol names no function.

    ```mlir
    %0 = "tf.PartitionedCall"(%x) {f = #tf_type.func<@body, {T = f32}>, config = "", config_proto = "", executor_type = ""} : (tensor<f32>) -> tensor<f32>
    ```
  }];
  let parameters = (ins "::mlir::SymbolRefAttr":$name,
                        "::mlir::DictionaryAttr":$attrs);
  let hasCustomAssemblyFormat = 1;
}

def TFType_TensorProtoAttr : AttrDef<TFType_Dialect, "TensorProto",
    [TypedAttrInterface]> {
  let mnemonic = "tensor_proto";
  let summary = "a constant as TensorFlow's serialized TensorProto";
  let description = [{
    How TensorFlow's MLIR tools print a constant they have no dense form
    for: the bytes of its `TensorProto`, in hexadecimal, and its tensor
    type. The lowering decodes it (`decodeTensorProto` in TFTypes.h) for
    the numeric dtypes and strings.

    ```mlir
    %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080112041202080122040000803F"> : tensor<1xf32>} : () -> tensor<1xf32>
    ```
  }];
  let parameters = (ins AttributeSelfTypeParameter<"", "::mlir::ShapedType">:$type,
                        StringRefParameter<"the serialized TensorProto">:$value);
  let hasCustomAssemblyFormat = 1;
}

#endif // TFRT_FALLBACK_DIALECT_TF_TFTYPES_TD

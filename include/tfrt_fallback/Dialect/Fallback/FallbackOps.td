//===- FallbackOps.td - tfrt_fallback operations ------------*- tablegen -*-===//
//
// Operations of the tfrt_fallback dialect.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKOPS_TD
#define TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKOPS_TD

include "tfrt_fallback/Dialect/Fallback/FallbackBase.td"
include "tfrt_fallback/Dialect/Fallback/FallbackTypes.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// kernel_call
//===----------------------------------------------------------------------===//

def TFRTFallback_KernelCallOp : TFRTFallback_Op<"kernel_call", [
    AttrSizedOperandSegments, AttrSizedResultSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "invokes the fallback kernel of one TensorFlow op";
  let description = [{
    Runs the runtime's fallback kernel for the TensorFlow op `op_name` on the
    tensor operands and produces its results. `op_attrs` holds the op's
    TensorFlow attributes, typed, in a dictionary (so their order is
    canonical):

    | TensorFlow attr kind | MLIR attribute |
    |---|---|
    | `int` | `IntegerAttr` (`3 : i64`) |
    | `float` | `FloatAttr` (`1.0 : f32`) |
    | `bool` | `BoolAttr` (`true`) |
    | `string` | `StringAttr` (`"SAME"`) |
    | `type` | `TypeAttr` (`f32`) |
    | `shape` | `#tfrt_fallback.shape<2x?>` |
    | `tensor` | `DenseElementsAttr` (`dense<1.0> : tensor<f32>`) |
    | `func` | `FlatSymbolRefAttr` (`@body`) |
    | `list(...)` | `ArrayAttr` of one of the above kinds |

    `device` is the TensorFlow device the op was placed on, if any. An op
    with side effects takes an input chain (`chain(%c)`) and produces an
    output chain as its last result; the runtime orders it after the op that
    produced `%c`. An op without a chain is pure and may run as soon as its
    operands are ready.

    ```mlir
    %r = tfrt_fallback.kernel_call "AddV2"(%a, %b) {T = f32}
        : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>

    %p:2 = tfrt_fallback.kernel_call "Unpack"(%x) device("/device:CPU:0")
        {T = f32, axis = 0 : i64, num = 2 : i64}
        : (tensor<2x3xf32>) -> (tensor<3xf32>, tensor<3xf32>)

    %s, %c1 = tfrt_fallback.kernel_call "RandomUniform"(%shape) chain(%c0)
        {T = i32, dtype = f32, seed = 1 : i64, seed2 = 2 : i64}
        : (tensor<2xi32>) -> tensor<2x3xf32>
    ```
  }];

  let arguments = (ins
    StrAttr:$op_name,
    DictionaryAttr:$op_attrs,
    OptionalAttr<StrAttr>:$device,
    Variadic<AnyTensor>:$args,
    Optional<TFRTFallback_ChainType>:$in_chain);
  let results = (outs
    Variadic<AnyTensor>:$results,
    Optional<TFRTFallback_ChainType>:$out_chain);

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;

  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$opName,
                   "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$args,
                   "::mlir::DictionaryAttr":$opAttrs,
                   CArg<"::mlir::StringAttr", "{}">:$device,
                   CArg<"::mlir::Value", "{}">:$inChain)>
  ];

  let extraClassDeclaration = [{
    /// Whether this call is ordered by a chain (has side effects).
    bool hasChain() { return static_cast<bool>(getInChain()); }
  }];
}

//===----------------------------------------------------------------------===//
// constant
//===----------------------------------------------------------------------===//

def TFRTFallback_ConstantOp : TFRTFallback_Op<"constant", [
    ConstantLike, Pure, AllTypesMatch<["value", "result"]>,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "a dense tensor constant";
  let description = [{
    Produces a tensor constant with a static shape. Any TensorFlow dtype the
    runtime supports may be used. Large constants are best written as
    `dense_resource` blobs, which MLIR keeps out of line and the binary
    program writer copies without re-encoding.

    ```mlir
    %w = tfrt_fallback.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %b = tfrt_fallback.constant dense_resource<weights> : tensor<1024xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyStaticShapeTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Chains
//===----------------------------------------------------------------------===//

def TFRTFallback_NewChainOp : TFRTFallback_Op<"new_chain", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "creates a ready chain";
  let description = [{
    Produces a chain that is ready at once: the start of a sequence of ops
    with side effects in a function that receives no chain.

    ```mlir
    %c0 = tfrt_fallback.new_chain
    ```
  }];
  let results = (outs TFRTFallback_ChainType:$chain);
  let assemblyFormat = "attr-dict";
}

def TFRTFallback_MergeChainsOp : TFRTFallback_Op<"merge_chains", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "joins chains";
  let description = [{
    Produces a chain that is ready when all of its input chains are: what
    comes after it is ordered after every one of them.

    ```mlir
    %c = tfrt_fallback.merge_chains %c1, %c2
    ```
  }];
  let arguments = (ins Variadic<TFRTFallback_ChainType>:$chains);
  let results = (outs TFRTFallback_ChainType:$chain);
  let assemblyFormat = "$chains attr-dict";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKOPS_TD

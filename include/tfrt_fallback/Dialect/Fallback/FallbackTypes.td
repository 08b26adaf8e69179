//===- FallbackTypes.td - tfrt_fallback types and attributes -*- tablegen -*-===//
//
// The chain type that orders side effects, and the TF shape attribute.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKTYPES_TD
#define TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKTYPES_TD

include "tfrt_fallback/Dialect/Fallback/FallbackBase.td"

def TFRTFallback_ChainType : TypeDef<TFRTFallback_Dialect, "Chain"> {
  let mnemonic = "chain";
  let summary = "a chain that orders ops with side effects";
  let description = [{
    A chain carries no data. An op with side effects (random numbers,
    printing, assertions, variables) consumes a chain and produces a new one;
    the runtime starts an op only when its input chain is ready, so side
    effects happen in program order while pure ops stay free to run in
    parallel.

    ```mlir
    %c0 = tfrt_fallback.new_chain
    %r, %c1 = tfrt_fallback.kernel_call "RandomUniform"(%shape) chain(%c0)
        {dtype = f32, seed = 0 : i64, seed2 = 0 : i64, T = i32}
        : (tensor<2xi32>) -> tensor<2x3xf32>
    ```
  }];
}

def TFRTFallback_ShapeAttr : AttrDef<TFRTFallback_Dialect, "Shape"> {
  let mnemonic = "shape";
  let summary = "a TensorFlow shape attribute value";
  let description = [{
    The value of a TensorFlow attribute of kind `shape`: a list of dimensions
    where `?` is an unknown dimension, or `*` for an unknown rank.

    ```mlir
    %r = tfrt_fallback.kernel_call "PlaceholderWithDefault"(%x)
        {dtype = f32, shape = #tfrt_fallback.shape<?x3>}
        : (tensor<2x3xf32>) -> tensor<?x3xf32>
    // Unknown rank:
    //   #tfrt_fallback.shape<*>
    // A scalar:
    //   #tfrt_fallback.shape<>
    ```
  }];
  let parameters = (ins
    "bool":$ranked,
    ArrayRefParameter<"int64_t", "dimensions, ShapedType::kDynamic for ?">:$dims);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$dims), [{
      return $_get($_ctxt, true, dims);
    }]>
  ];
  let extraClassDeclaration = [{
    static ShapeAttr getUnranked(::mlir::MLIRContext *context) {
      return get(context, false, {});
    }
  }];
}

#endif // TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKTYPES_TD

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
include "mlir/IR/SymbolInterfaces.td"

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

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

class TFRTFallback_ControlFlowOp<string mnemonic, list<Trait> traits = []>
    : TFRTFallback_Op<mnemonic, !listconcat(traits, [
        AttrSizedOperandSegments, AttrSizedResultSegments,
        DeclareOpInterfaceMethods<SymbolUserOpInterface>,
        DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
        DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>])> {
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Whether this op is ordered by a chain (its callees have effects).
    bool hasChain() { return static_cast<bool>(getInChain()); }
  }];
}

def TFRTFallback_IfOp : TFRTFallback_ControlFlowOp<"if"> {
  let summary = "calls one of two functions, as a predicate says";
  let description = [{
    Calls `then_branch` on `args` when `cond` is true and `else_branch`
    otherwise, and produces what the called function returns: TensorFlow's
    `tf.If` / `tf.StatelessIf`. `cond` is true as TensorFlow takes it: a
    scalar when it is not zero, any other tensor when it has elements.

    Both functions take the types of `args` and return the types of the
    results; a function's argument or result may have a less refined shape
    than the op's (the runtime checks the actual shapes then). An op with
    side effects in a branch is ordered by a chain (`chain(%c)`, and an
    output chain as its last result). A branch that takes the chain gets it
    as its first argument and returns the next one as its last result; a
    branch without side effects takes none and the chain passes through.

    ```mlir
    %r = tfrt_fallback.if %p then @double else @negate (%x)
        : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>

    // The then branch prints: (!tfrt_fallback.chain, tensor<2xf32>) ->
    // (tensor<2xf32>, !tfrt_fallback.chain).
    %s, %c1 = tfrt_fallback.if %p then @print_it else @negate (%x) chain(%c0)
        : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins
    AnyTensor:$cond,
    FlatSymbolRefAttr:$then_branch,
    FlatSymbolRefAttr:$else_branch,
    Variadic<AnyTensor>:$args,
    Optional<TFRTFallback_ChainType>:$in_chain);
  let results = (outs
    Variadic<AnyTensor>:$results,
    Optional<TFRTFallback_ChainType>:$out_chain);
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$cond,
                   "::mlir::FlatSymbolRefAttr":$thenBranch,
                   "::mlir::FlatSymbolRefAttr":$elseBranch,
                   "::mlir::ValueRange":$args,
                   CArg<"::mlir::Value", "{}">:$inChain)>
  ];
}

def TFRTFallback_CaseOp : TFRTFallback_ControlFlowOp<"case"> {
  let summary = "calls one of several functions, as a branch index says";
  let description = [{
    Calls `branches[index]` on `args` and produces what it returns:
    TensorFlow's `tf.Case` / `tf.StatelessCase`. `index` is an `i32`
    scalar; when it is out of range the last branch runs, as in TensorFlow.
    Branches take and return the types of `args` and the results, and
    chains work as for `tfrt_fallback.if`.

    ```mlir
    %r = tfrt_fallback.case %i [@add_one, @double, @negate] (%x)
        : (tensor<i32>, tensor<f32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins
    TensorOf<[I32]>:$index,
    FlatSymbolRefArrayAttr:$branches,
    Variadic<AnyTensor>:$args,
    Optional<TFRTFallback_ChainType>:$in_chain);
  let results = (outs
    Variadic<AnyTensor>:$results,
    Optional<TFRTFallback_ChainType>:$out_chain);
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::mlir::Value":$index,
                   "::mlir::ArrayAttr":$branches, "::mlir::ValueRange":$args,
                   CArg<"::mlir::Value", "{}">:$inChain)>
  ];
}

def TFRTFallback_WhileOp : TFRTFallback_ControlFlowOp<"while"> {
  let summary = "calls a body function while a condition function says so";
  let description = [{
    TensorFlow's `tf.While` / `tf.StatelessWhile`: the loop-carried values
    start as `args`; while `cond` returns true for them (a predicate tensor,
    true as for `tfrt_fallback.if`), `body` replaces them with what it
    returns. The results are the values for which `cond` returned false.

    The results have the types of the carried values; `args` may be more
    refined (a loop whose shapes change from one iteration to the next, as
    `tf.While`'s `shape_invariant` allows, carries `tensor<?xf32>`). `cond`
    takes the carried values and returns one tensor; `body` takes and
    returns the carried values. A loop whose functions have side effects is
    ordered by a chain: a function that takes it gets it first and returns
    the next one last (`cond` then returns the predicate and the chain). An
    error in either function ends the loop and becomes every result; so does
    a cancelled run or a passed deadline, checked before each iteration.

    ```mlir
    // Counts %i up to 10, doubling %x each time.
    %r:2 = tfrt_fallback.while @less_than_10 @double_step (%i, %x)
        : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
    ```
  }];
  let arguments = (ins
    FlatSymbolRefAttr:$cond,
    FlatSymbolRefAttr:$body,
    Variadic<AnyTensor>:$args,
    Optional<TFRTFallback_ChainType>:$in_chain);
  let results = (outs
    Variadic<AnyTensor>:$results,
    Optional<TFRTFallback_ChainType>:$out_chain);
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::FlatSymbolRefAttr":$cond,
                   "::mlir::FlatSymbolRefAttr":$body,
                   "::mlir::ValueRange":$args,
                   CArg<"::mlir::Value", "{}">:$inChain)>
  ];
}

#endif // TFRT_FALLBACK_DIALECT_FALLBACK_FALLBACKOPS_TD

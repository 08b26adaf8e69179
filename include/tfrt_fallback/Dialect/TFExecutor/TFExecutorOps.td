//===- TFExecutorOps.td - TensorFlow's tf_executor dialect -*- tablegen -*-===//
//
// The subset of TensorFlow's `tf_executor` dialect that graphs of pure ops
// use, as `tf-mlir-translate -graphdef-to-mlir` prints them: a
// `tf_executor.graph` of `tf_executor.island`s, each wrapping TF ops, and a
// `tf_executor.fetch` of the graph's results. The v1 control-flow ops
// (Switch, Merge, Enter, Exit, NextIteration, LoopCond, ControlTrigger) are
// not defined; the dialect reports them as not supported.
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_DIALECT_TFEXECUTOR_TFEXECUTOROPS_TD
#define TFRT_FALLBACK_DIALECT_TFEXECUTOR_TFEXECUTOROPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TFExecutor_Dialect : Dialect {
  let name = "tf_executor";
  let cppNamespace = "::tfrt_fallback::tf_executor";
  let summary = "TensorFlow's executor dialect: graphs of islands";
  let description = [{
    A `tf_executor.graph` holds `tf_executor.island` ops in topological
    order and ends with a `tf_executor.fetch` of the graph's results. An
    island runs the ops of its region and yields values; it also produces a
    `!tf_executor.control` token that other islands may wait on.

    ```mlir
    %0 = tf_executor.graph {
      %c, %ctl = tf_executor.island wraps "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
      %s:2 = tf_executor.island(%ctl) {
        %a = "tf.AddV2"(%c, %c) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
        tf_executor.yield %a : tensor<f32>
      }
      tf_executor.fetch %s#0 : tensor<f32>
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Reports TensorFlow's other executor ops (v1 control flow) in custom
    /// form as not supported, rather than as unknown.
    std::optional<ParseOpHook>
    getParseOperationHook(::llvm::StringRef opName) const override;
  }];
}

def TFExecutor_ControlType : TypeDef<TFExecutor_Dialect, "Control"> {
  let mnemonic = "control";
  let summary = "a control token: the island that produced it has run";
}

class TFExecutor_Op<string mnemonic, list<Trait> traits = []>
    : Op<TFExecutor_Dialect, mnemonic, traits>;

def TFExecutor_GraphOp : TFExecutor_Op<"graph",
    [SingleBlockImplicitTerminator<"FetchOp">]> {
  let summary = "a TensorFlow graph: islands and the values it fetches";
  let description = [{
    The region holds `tf_executor.island` ops in topological order and ends
    with a `tf_executor.fetch`. The graph's results are the fetched values
    that are not control tokens; their types are those of the fetch.
  }];
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    FetchOp getFetch();
  }];
}

def TFExecutor_FetchOp : TFExecutor_Op<"fetch",
    [Pure, Terminator, HasParent<"GraphOp">]> {
  let summary = "the values a tf_executor.graph returns";
  let description = [{
    Data values first, then any control tokens the graph waits for.
  }];
  let arguments = (ins Variadic<AnyType>:$fetches);
  let assemblyFormat = "($fetches^ `:` type($fetches))? attr-dict";
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, ::mlir::ValueRange());
  }]>];
}

def TFExecutor_IslandOp : TFExecutor_Op<"island",
    [HasParent<"GraphOp">, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "ops that run together once their control inputs have run";
  let description = [{
    Runs the ops of its region once every control input has run; produces
    the values its `tf_executor.yield` yields and a control token. An island
    of one op that yields exactly that op's results prints in the short form

    ```mlir
    %out, %ctl = tf_executor.island(%c0) wraps "tf.Neg"(%x) {T = f32} : (tensor<f32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<TFExecutor_ControlType>:$controlInputs);
  let results = (outs Variadic<AnyType>:$outputs,
                      TFExecutor_ControlType:$control);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    YieldOp getYield();
    /// The op of a `wraps` island: the only op, yielding its results.
    ::mlir::Operation *getWrappedOp();
  }];
}

def TFExecutor_YieldOp : TFExecutor_Op<"yield",
    [Pure, ReturnLike, Terminator, HasParent<"IslandOp">]> {
  let summary = "the values a tf_executor.island produces";
  let arguments = (ins Variadic<AnyType>:$fetches);
  let assemblyFormat = "($fetches^ `:` type($fetches))? attr-dict";
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, ::mlir::ValueRange());
  }]>];
}

#endif // TFRT_FALLBACK_DIALECT_TFEXECUTOR_TFEXECUTOROPS_TD

//===- TFExecutorOps.td - TensorFlow's tf_executor dialect -*- tablegen -*-===//
//
// TensorFlow's `tf_executor` dialect as `tf-mlir-translate -graphdef-to-mlir`
// prints it: a `tf_executor.graph` of `tf_executor.island`s, each wrapping TF
// ops, and a `tf_executor.fetch` of the graph's results; and TensorFlow's v1
// control-flow ops (Switch, _SwitchN, Merge, Enter, Exit,
// NextIteration.Source/Sink, LoopCond, ControlTrigger) with their custom
// syntax. The syntax follows TensorFlow's (tf_executor_ops.td); the
// definitions are our own.
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
}

def TFExecutor_ControlType : TypeDef<TFExecutor_Dialect, "Control"> {
  let mnemonic = "control";
  let summary = "a control token: the island that produced it has run";
  let description = [{
    The last result of every executor op. An op that takes control tokens
    runs only after the ops that produced them.

    ```mlir
    %ctl = tf_executor.island(%a_ctl, %b_ctl) wraps "tf.NoOp"() : () -> ()
    ```
  }];
}

def TFExecutor_TokenType : TypeDef<TFExecutor_Dialect, "Token"> {
  let mnemonic = "token";
  let summary = "a token that pairs a NextIteration.Source with its Sink";
  let description = [{
    A `NextIteration.Source` produces it and exactly one
    `NextIteration.Sink` consumes it: the two halves of TensorFlow's
    `NextIteration`, the back edge of a v1 while loop.

    ```mlir
    %value, %token, %ctl = tf_executor.NextIteration.Source : tensor<i32>
    tf_executor.NextIteration.Sink [%token] %next : tensor<i32>
    ```
  }];
}

/// Control operands come after every data operand.
def TFExecutor_ControlOperandsLast
    : NativeOpTrait<"ControlOperandsLast"> {
  let cppNamespace = "::tfrt_fallback::tf_executor";
}

class TFExecutor_Op<string mnemonic, list<Trait> traits = []>
    : Op<TFExecutor_Dialect, mnemonic, traits>;

def TFExecutor_GraphOp : TFExecutor_Op<"graph",
    [SingleBlockImplicitTerminator<"FetchOp">]> {
  let summary = "a TensorFlow graph: islands and the values it fetches";
  let description = [{
    The region holds executor ops (islands and v1 control flow, but no
    other graph) in topological order and ends with a `tf_executor.fetch`.
    The graph's results are the fetched values that are not control
    tokens; their types are those of the fetch.

    ```mlir
    %0 = tf_executor.graph {
      %c, %ctl = tf_executor.island wraps "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
      tf_executor.fetch %c, %ctl : tensor<f32>, !tf_executor.control
    }
    ```
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

    ```mlir
    tf_executor.fetch %value, %ctl : tensor<f32>, !tf_executor.control
    ```
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
    the values its `tf_executor.yield` yields and a control token. Its body
    has no block arguments and yields no control token. An island of one op
    that yields exactly that op's results, has no attributes of its own and
    shares its location with the op and the yield prints in the short form

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
  let description = [{
    Data values only: an island's control token is its own last result.

    ```mlir
    tf_executor.yield %a, %b : tensor<f32>, tensor<i32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$fetches);
  let assemblyFormat = "($fetches^ `:` type($fetches))? attr-dict";
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, ::mlir::ValueRange());
  }]>];
}

//===----------------------------------------------------------------------===//
// TensorFlow v1 control flow
//===----------------------------------------------------------------------===//

def TFExecutor_SwitchOp : TFExecutor_Op<"Switch",
    [HasParent<"GraphOp">, TFExecutor_ControlOperandsLast]> {
  let summary = "forwards its data to one of two outputs by a predicate";
  let description = [{
    TensorFlow's `Switch`: `data` goes to `trueOutput` when `predicate` is
    true and to `falseOutput` otherwise; the other output is dead. The short
    form gives the data type once (outputs alike, predicate `tensor<i1>`);
    the functional form spells every type.

    ```mlir
    %false, %true, %ctl = tf_executor.Switch %x, %p : tensor<f32>
    %f2, %t2, %ctl2 = tf_executor.Switch %x, %p, %ctl : (tensor<f32>, tensor<i1>, !tf_executor.control) -> (tensor<*xf32>, tensor<*xf32>, !tf_executor.control)
    ```
  }];
  let arguments = (ins AnyType:$data, TensorOf<[I1]>:$predicate,
                       Variadic<TFExecutor_ControlType>:$controlInputs);
  let results = (outs AnyType:$falseOutput, AnyType:$trueOutput,
                      TFExecutor_ControlType:$control);
  let hasCustomAssemblyFormat = 1;
}

def TFExecutor_SwitchNOp : TFExecutor_Op<"_SwitchN",
    [HasParent<"GraphOp">, TFExecutor_ControlOperandsLast]> {
  let summary = "forwards its data to the output an index selects";
  let description = [{
    TensorFlow's `_SwitchN`: `data` goes to output number `index`; the other
    outputs are dead. `num_outs` outputs, all of the data's type.

    ```mlir
    %out:3, %ctl = tf_executor._SwitchN %x, %index of 3 : tensor<f32>
    %o:2, %c = tf_executor._SwitchN %x, %index of 2 (%ctl) : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$data, TensorOf<[I32]>:$index,
                       Variadic<TFExecutor_ControlType>:$controlInputs,
                       I64Attr:$num_outs);
  let results = (outs Variadic<AnyType>:$outputs,
                      TFExecutor_ControlType:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TFExecutor_MergeOp : TFExecutor_Op<"Merge",
    [HasParent<"GraphOp">, TFExecutor_ControlOperandsLast]> {
  let summary = "forwards the first of its inputs that is alive";
  let description = [{
    TensorFlow's `Merge`: `output` is the first input that is not dead and
    `value_index` its position. The short form, for two inputs of the
    output's type, gives that type once.

    ```mlir
    %m, %index, %ctl = tf_executor.Merge %a, %b : tensor<f32>
    %n, %i, %c = tf_executor.Merge %a, %b, %x : (tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$inputsAndControl);
  let results = (outs AnyTensor:$output, TensorOf<[I32]>:$value_index,
                      TFExecutor_ControlType:$control);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TFExecutor_EnterOp : TFExecutor_Op<"Enter",
    [HasParent<"GraphOp">, TFExecutor_ControlOperandsLast]> {
  let summary = "makes a value available inside a while loop's frame";
  let description = [{
    TensorFlow's `Enter`: forwards `data` into the frame `frame_name`.
    `parallel_iterations` (default 10) and `constant` (`is_constant`) are
    printed only when they differ from the default.

    ```mlir
    %e, %ctl = tf_executor.Enter %x frame "while/while_context" parallel_iterations 32 constant : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$data, StrAttr:$frame_name,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_constant,
                       DefaultValuedOptionalAttr<I64Attr, "10">:$parallel_iterations,
                       Variadic<TFExecutor_ControlType>:$controlInputs);
  let results = (outs AnyType:$output, TFExecutor_ControlType:$control);
  let hasCustomAssemblyFormat = 1;
}

def TFExecutor_ExitOp : TFExecutor_Op<"Exit",
    [HasParent<"GraphOp">, TFExecutor_ControlOperandsLast]> {
  let summary = "forwards a value out of a while loop's frame";
  let description = [{
    TensorFlow's `Exit`, the counterpart of `Enter`.

    ```mlir
    %out, %ctl = tf_executor.Exit %v : tensor<f32>
    ```
  }];
  let arguments = (ins AnyType:$data,
                       Variadic<TFExecutor_ControlType>:$controlInputs);
  let results = (outs AnyType:$output, TFExecutor_ControlType:$control);
  let hasCustomAssemblyFormat = 1;
}

def TFExecutor_NextIterationSourceOp
    : TFExecutor_Op<"NextIteration.Source", [HasParent<"GraphOp">]> {
  let summary = "the value a while loop's next iteration starts with";
  let description = [{
    The first half of TensorFlow's `NextIteration` (the back edge of a v1
    while loop, which would be a cycle in a block): it produces the value
    its `NextIteration.Sink` receives, and the token that pairs the two.

    ```mlir
    %value, %token, %ctl = tf_executor.NextIteration.Source : tensor<i32>
    tf_executor.NextIteration.Sink [%token] %next : tensor<i32>
    ```
  }];
  let results = (outs AnyType:$output, TFExecutor_TokenType:$token,
                      TFExecutor_ControlType:$control);
  let assemblyFormat = "`:` type($output) attr-dict";
  let hasVerifier = 1;
}

def TFExecutor_NextIterationSinkOp
    : TFExecutor_Op<"NextIteration.Sink", [HasParent<"GraphOp">]> {
  let summary = "passes a value to the next iteration of a while loop";
  let description = [{
    The second half of TensorFlow's `NextIteration`: `input` becomes the
    value of the `NextIteration.Source` that produced `token`, of the same
    type.

    ```mlir
    tf_executor.NextIteration.Sink [%token] %next, %ctl : tensor<i32>
    ```
  }];
  let arguments = (ins TFExecutor_TokenType:$token, AnyType:$input,
                       Variadic<TFExecutor_ControlType>:$controlInputs);
  let assemblyFormat = [{
    `[` $token `]` $input (`,` $controlInputs^)? `:` type($input) attr-dict
  }];
  let hasVerifier = 1;
}

def TFExecutor_LoopCondOp : TFExecutor_Op<"LoopCond",
    [HasParent<"GraphOp">, TFExecutor_ControlOperandsLast]> {
  let summary = "the condition of a v1 while loop";
  let description = [{
    TensorFlow's `LoopCond`: forwards the boolean that decides whether the
    loop runs another iteration.

    ```mlir
    %c, %ctl = tf_executor.LoopCond %p : tensor<i1>
    ```
  }];
  let arguments = (ins TensorOf<[I1]>:$input,
                       Variadic<TFExecutor_ControlType>:$controlInputs);
  let results = (outs TensorOf<[I1]>:$output, TFExecutor_ControlType:$control);
  let hasCustomAssemblyFormat = 1;
}

def TFExecutor_ControlTriggerOp : TFExecutor_Op<"ControlTrigger",
    [HasParent<"GraphOp">]> {
  let summary = "a control token that is produced even when inputs are dead";
  let description = [{
    TensorFlow's `ControlTrigger`: a no-op on control tokens that runs even
    when its inputs are dead.

    ```mlir
    %ctl = tf_executor.ControlTrigger %a, %b
    ```
  }];
  let arguments = (ins Variadic<TFExecutor_ControlType>:$controlInputs);
  let results = (outs TFExecutor_ControlType:$control);
  let assemblyFormat = "$controlInputs attr-dict";
}

#endif // TFRT_FALLBACK_DIALECT_TFEXECUTOR_TFEXECUTOROPS_TD

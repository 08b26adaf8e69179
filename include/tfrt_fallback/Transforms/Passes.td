//===- Passes.td - tfrt-fallback compiler passes ------------*- tablegen -*-===//
//
// The passes of the tfrt-fallback compiler. A TensorFlow program travels:
//
//   TF dialect (generic `tf.*` ops in func.func)
//     --tf-to-tfrt-fallback-->  tfrt_fallback.kernel_call / constant, chains
//     --fallback-translate-->   binary program for the MLIR-free runtime
//
//===----------------------------------------------------------------------===//

#ifndef TFRT_FALLBACK_TRANSFORMS_PASSES_TD
#define TFRT_FALLBACK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TFToTFRTFallback : Pass<"tf-to-tfrt-fallback", "mlir::ModuleOp"> {
  let summary = "Rewrite TensorFlow ops into tfrt_fallback kernel calls";
  let description = [{
    Rewrites every `tf.*` op that has no native kernel into a
    `tfrt_fallback.kernel_call` of the same TensorFlow op:

    * the op's TensorFlow attributes become the call's typed `op_attrs`;
      `device` becomes the call's own `device` (dropped when empty).
      Attributes no TF op attribute can hold are dropped, as TensorFlow's
      own TFRT lowering drops them: TF's bookkeeping (every name starting
      with `_`, such as `_output_shapes` and `_class`), MLIR's
      `operandSegmentSizes` / `resultSegmentSizes`, dialect attributes
      (dotted names: `f.Tin`, `tf_saved_model.*`) and unit attributes (TF's
      attribute without a value). MLIR dense arrays (`array<i1: ...>`,
      `array<i64: ...>`) become lists;
    * values of TF1 reference dtypes (`!tf_type.f32ref`) get their
      referent dtype (f32): the runtime has no reference variables, and a
      reference is read as the tensor it refers to;
    * the type and number attributes TensorFlow's MLIR leaves implicit
      (`T`, `N`, `Tidx`, `SrcT`/`DstT`, `out_type`, `[T]` lists, ...) are
      derived from the operand and result types and the op's signature in
      the op table (`OpTable.def`), so the kernel manifest and the kernels
      see them. An explicit attribute the types contradict is an error
      naming both;
    * `tf.Const` and `arith.constant` tensors become
      `tfrt_fallback.constant`, `tf.Identity` and `tf.IdentityN` are
      forwarded to their operands (when the types agree), and `tf.NoOp` is
      removed;
    * ops with side effects (random numbers, printing, assertions, variables,
      and any op the `tf` dialect does not know) are threaded on a chain in
      program order. A public function starts its chain with
      `tfrt_fallback.new_chain`; a private function that has side effects,
      directly or through calls, takes a chain as its first argument and
      returns the last one as its last result, and its call sites pass and
      receive it. Pure ops get no chain;
    * functional control flow becomes `tfrt_fallback.if` (`tf.If`,
      `tf.StatelessIf`), `tfrt_fallback.case` (`tf.Case`,
      `tf.StatelessCase`) and `tfrt_fallback.while` (`tf.While`,
      `tf.StatelessWhile`; `shape_invariant` is accepted), and
      `tf.PartitionedCall` / `tf.StatefulPartitionedCall` a `func.call` of
      their `f`; where a call's operand or result type is more or less
      refined than the callee's (`tensor<2xf32>` for `tensor<*xf32>`), the
      value passes through an `Identity` kernel call of the type expected.
      Their functions are named by symbols or `#tf_type.func`.
      Such an op is ordered by a chain when a function it calls has side
      effects (directly or through what it calls); a private callee whose
      every use is such an op or a call takes the chain first and returns
      it last, like any chained private function. The region forms are
      outlined first by `tf-region-control-flow-to-functional`.

    Before:

    ```mlir
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %c = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
      %0 = "tf.AddV2"(%x, %c) {device = "/device:CPU:0", _class = ["loc:@x"]}
          : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      %1 = "tf.Identity"(%0) : (tensor<2xf32>) -> tensor<2xf32>
      return %1 : tensor<2xf32>
    }
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %cst = tfrt_fallback.constant dense<[1.0, 2.0]> : tensor<2xf32>
      %0 = tfrt_fallback.kernel_call "AddV2"(%x, %cst) device("/device:CPU:0") {T = f32}
          : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32>
    }
    ```

    With `native-ops`, the listed ops stay as they are for a native
    lowering. Every other op must have a fallback kernel for its dtypes in
    the runtime it targets: by default the runtime of this build (its kernel
    registry is compiled into the compiler), or the one `kernel-manifest`
    names (see docs/KernelManifest.md). An op with neither is an error at its
    location, naming the op and its dtypes, unless `allow-unsupported` is
    set.
  }];
  let dependentDialects = ["::tfrt_fallback::TFRTFallbackDialect"];
  let options = [
    ListOption<"nativeOps", "native-ops", "std::string",
               "TensorFlow ops (without 'tf.') that have native kernels and "
               "are left untouched">,
    Option<"kernelManifest", "kernel-manifest", "std::string", "",
           "Kernel manifest of the target runtime (written by "
           "`fallback-run --list-kernels --manifest=FILE`); default: the "
           "kernels of this build's runtime">,
    Option<"allowUnsupported", "allow-unsupported", "bool", "false",
           "Lower ops that have no kernel in the manifest instead of "
           "failing">
  ];
}

def TFExecutorToFunctional
    : Pass<"tf-executor-to-functional", "mlir::ModuleOp"> {
  let summary = "Inline tf_executor graphs and islands into their "
                "functions, turning TensorFlow v1 control flow into functions";
  let description = [{
    Turns TensorFlow's MLIR export form, where a function's body is a
    `tf_executor.graph` of `tf_executor.island`s, into plain TF-dialect ops:
    the ops of each island move in front of the graph, in the islands'
    order (a topological order, as the graph region requires), island
    results are replaced by the values they yield, and the graph's results
    by the data values its `tf_executor.fetch` fetches.

    Control tokens (`!tf_executor.control`: island control inputs and
    fetched tokens) are dropped, and `tf_executor.ControlTrigger`, which
    only orders them, with them. That keeps the meaning of graphs of pure
    ops; the order of stateful ops then follows the islands' order, and the
    `tf-to-tfrt-fallback` pass threads them on a chain in that order.

    A graph that holds TensorFlow v1 control flow (`tf_executor.Switch`,
    `Merge`, `Enter`, `Exit`, `NextIteration.Source` / `Sink`, `LoopCond`)
    is functionalized as the graph importers functionalize GraphDefs
    (lib/Import/Graph): each op becomes a graph node named after its
    location, control tokens become `^node` edges (which order stateful
    ops, as in a GraphDef), values from outside the graph become inputs.
    Each loop becomes a `tf.While` and each conditional a `tf.If` with new
    private functions (named after the frame or the predicate); the rest of
    the graph is emitted in a topological order in place of the
    `tf_executor.graph`. An op that belongs to no loop or conditional it
    recognises (`_SwitchN`, a Merge of a branch and an outside value, a
    Merge without NextIteration in a loop) is an error at that op.

    Before (v1, a loop `while acc < 10: acc = acc * 2`):

    ```mlir
    %0 = tf_executor.graph {
      %e, %e_c = tf_executor.Enter %x frame "while" : tensor<f32>
      %n, %token, %n_c = tf_executor.NextIteration.Source : tensor<f32>
      %m, %i, %m_c = tf_executor.Merge %e, %n : tensor<f32>
      %ten, %ten_c = tf_executor.island(%m_c) wraps "tf.Const"() {value = dense<10.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
      %lt, %lt_c = tf_executor.island wraps "tf.Less"(%m, %ten) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c, %c_c = tf_executor.LoopCond %lt : tensor<i1>
      %f, %t, %s_c = tf_executor.Switch %m, %c : tensor<f32>
      %d, %d_c = tf_executor.island wraps "tf.AddV2"(%t, %t) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
      tf_executor.NextIteration.Sink [%token] %d : tensor<f32>
      %out, %out_c = tf_executor.Exit %f : tensor<f32>
      tf_executor.fetch %out : tensor<f32>
    }
    ```

    After:

    ```mlir
    %1 = "tf.While"(%x) {T = [f32], cond = @while_cond, body = @while_body, parallel_iterations = 10 : i64} : (tensor<f32>) -> tensor<*xf32>
    %0 = "tf.Identity"(%1) {T = f32} : (tensor<*xf32>) -> tensor<f32>
    func.func private @while_cond(%acc: tensor<*xf32>) -> tensor<i1> {
      %ten = "tf.Const"() {value = dense<10.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
      %lt = "tf.Less"(%acc, %ten) {T = f32} : (tensor<*xf32>, tensor<f32>) -> tensor<i1>
      return %lt : tensor<i1>
    }
    func.func private @while_body(%acc: tensor<*xf32>) -> tensor<f32> {
      %d = "tf.AddV2"(%acc, %acc) {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<f32>
      return %d : tensor<f32>
    }
    ```

    Islands only, before:

    ```mlir
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %0 = tf_executor.graph {
        %c, %c_ctl = tf_executor.island wraps "tf.Const"() {value = dense<2.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
        %m:2 = tf_executor.island(%c_ctl) {
          %1 = "tf.Mul"(%x, %c) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
          tf_executor.yield %1 : tensor<f32>
        }
        tf_executor.fetch %m#0 : tensor<f32>
      }
      return %0 : tensor<f32>
    }
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %c = "tf.Const"() {value = dense<2.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
      %1 = "tf.Mul"(%x, %c) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
      return %1 : tensor<f32>
    }
    ```
  }];
  let dependentDialects = ["::tfrt_fallback::tf_executor::TFExecutorDialect",
                           "::mlir::func::FuncDialect",
                           "::tfrt_fallback::tf::TFDialect",
                           "::tfrt_fallback::tf::TFTypeDialect",
                           "::tfrt_fallback::TFRTFallbackDialect"];
}

def TFRegionControlFlowToFunctional
    : Pass<"tf-region-control-flow-to-functional", "mlir::ModuleOp"> {
  let summary = "Outline tf.IfRegion, tf.CaseRegion and tf.WhileRegion into "
                "functions called by tf.If, tf.Case and tf.While";
  let description = [{
    TensorFlow's MLIR writes control flow in two forms: functional ops that
    name functions (`tf.If`, `tf.Case`, `tf.While`) and region ops that hold
    their branches, condition and body inline (`tf.IfRegion`,
    `tf.CaseRegion`, `tf.WhileRegion`). `tf-to-tfrt-fallback` lowers the
    functional form; this pass turns the region form into it, as
    TensorFlow's pass of the same name does.

    Each region becomes a private function named after the enclosing
    function and its role (`@main_then`, `@main_while_body`, renamed when
    the name is taken), its `tf.Yield` a `func.return`. Values a region uses
    from above become arguments after the region's own: the branches of an
    `IfRegion` or `CaseRegion` all take every value any of them uses, and a
    `WhileRegion` carries them as extra loop values that its body returns
    unchanged (the `tf.While` has more results than the region op had; the
    extra ones are unused). Attributes (`is_stateless`,
    `parallel_iterations`, `shape_invariant`, ...) are kept. Nested region
    ops are outlined innermost first. Ops named in `native-ops` are left
    as they are.

    Before:

    ```mlir
    func.func @main(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
      %0 = "tf.IfRegion"(%p) ({
        %1 = "tf.AddV2"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
        "tf.Yield"(%1) : (tensor<f32>) -> ()
      }, {
        "tf.Yield"(%y) : (tensor<f32>) -> ()
      }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
      return %0 : tensor<f32>
    }
    ```

    After:

    ```mlir
    func.func @main(%p: tensor<i1>, %x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
      %0 = "tf.If"(%p, %x, %y) {else_branch = @main_else, is_stateless = true,
                                 then_branch = @main_then}
          : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      return %0 : tensor<f32>
    }
    func.func private @main_then(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
      %1 = "tf.AddV2"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      return %1 : tensor<f32>
    }
    func.func private @main_else(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
      return %y : tensor<f32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let options = [
    ListOption<"nativeOps", "native-ops", "std::string",
               "Region ops (without 'tf.') left for a native lowering">
  ];
}

def TFRefVariablesToResources
    : Pass<"tf-ref-variables-to-resources", "mlir::ModuleOp"> {
  let summary = "Turn TF1 reference variables into resource variables";
  let description = [{
    TF1 graphs keep their variables in `tf.VariableV2` (or `tf.Variable`)
    ops, whose output is a reference: ops that take it as their `ref`
    operand update the variable (`tf.Assign`, `tf.AssignAdd`,
    `tf.AssignSub`) or test it (`tf.IsVariableInitialized`), every other
    use reads its current value. This pass rewrites them into the resource
    variables of the runtime's `ResourceManager`, as TensorFlow's own MLIR
    turns reference variables into resources:

    * each variable op becomes a `tf.VarHandleOp` with its `dtype`,
      `shape`, `container` and `shared_name` (an empty `shared_name` takes
      the op's name location, the node name TF names the variable after);
    * `tf.Assign` becomes `tf.AssignVariableOp` (`validate_shape` kept, true
      by default as in TF), `tf.AssignAdd` / `tf.AssignSub` become
      `tf.AssignAddVariableOp` / `tf.AssignSubVariableOp`, and
      `tf.IsVariableInitialized` becomes `tf.VarIsInitializedOp`. Their
      output ref is the variable again;
    * every other use of a ref reads it with a `tf.ReadVariableOp` right
      before the user, since a TF1 ref is read when its user runs. The ops
      are stateful, so `tf-to-tfrt-fallback` orders reads and writes on the
      function's chain in program order.

    A `ref` operand that no variable of the same function made (a ref
    passed into a loop body or a called function) is an error at the
    updating op: refs do not cross functions.

    Before:

    ```mlir
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %v = "tf.VariableV2"() {dtype = f32, shape = #tf_type.shape<2>, container = "", shared_name = "v"} : () -> tensor<*xf32>
      %a = "tf.Assign"(%v, %x) {T = f32} : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
      %r = "tf.Identity"(%a) {T = f32} : (tensor<*xf32>) -> tensor<2xf32>
      return %r : tensor<2xf32>
    }
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %h = "tf.VarHandleOp"() {container = "", dtype = f32, shape = #tf_type.shape<2>, shared_name = "v"} : () -> tensor<!tf_type.resource>
      "tf.AssignVariableOp"(%h, %x) {dtype = f32, validate_shape = true} : (tensor<!tf_type.resource>, tensor<2xf32>) -> ()
      %0 = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource>) -> tensor<*xf32>
      %r = "tf.Identity"(%0) {T = f32} : (tensor<*xf32>) -> tensor<2xf32>
      return %r : tensor<2xf32>
    }
    ```
  }];
  let dependentDialects = ["::tfrt_fallback::tf::TFTypeDialect"];
}

def TFHoistLoopInvariantReads
    : Pass<"tf-hoist-loop-invariant-reads", "mlir::ModuleOp"> {
  let summary = "Read variables that a loop cannot change once, before it";
  let description = [{
    A `tf.ReadVariableOp` in the `cond` or `body` of a `tf.While` (or
    `tf.StatelessWhile`) reads the same value in every iteration when
    nothing in the loop may write a variable. Such a read is done once,
    right before the loop, and its value becomes one more loop-invariant
    value (a new last operand and result of the loop, argument of `cond`
    and `body`, returned unchanged by `body`), so each iteration runs one
    chained kernel less, and a loop whose body only read variables runs
    without a chain.

    A read is hoisted when its handle is a loop-invariant value (an
    argument the body returns in place) or a `tf.VarHandleOp` of the same
    function (copied before the loop; removed from the loop when no read is
    left), and when no op of `cond`, `body` or anything they call may write
    a variable: every stateful op counts as a possible write except variable
    reads (`tf.ReadVariableOp`, `tf.VarIsInitializedOp`,
    `tf.ResourceGather`, `tf.VariableShape`), `tf.VarHandleOp` and the
    TensorArray ops; unknown ops, external functions and recursion count
    as writes. Reads of one handle with one type share one value. `cond`
    and `body` must be private functions that only this loop uses (their
    signatures change). A `T` or `output_shapes` list on the loop grows
    with its values. Reads in inner loops that end up in an outer loop's
    body are hoisted again.

    The read is speculative: it happens even when the loop runs no
    iteration (a loop that never runs reading a variable never assigned now
    fails), as TensorFlow's own loop-invariant hoisting does.

    Before:

    ```mlir
    func.func private @cond(%i: tensor<i32>, %h: tensor<!tf_type.resource>) -> tensor<i1> { ... }
    func.func private @body(%i: tensor<i32>, %h: tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>) {
      %w = "tf.ReadVariableOp"(%h) {dtype = i32} : (tensor<!tf_type.resource>) -> tensor<i32>
      %j = "tf.AddV2"(%i, %w) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      return %j, %h : tensor<i32>, tensor<!tf_type.resource>
    }
    %r:2 = "tf.While"(%i0, %h) {cond = @cond, body = @body, is_stateless = false} : ...
    ```

    After:

    ```mlir
    func.func private @cond(%i: tensor<i32>, %h: tensor<!tf_type.resource>, %w: tensor<i32>) -> tensor<i1> { ... }
    func.func private @body(%i: tensor<i32>, %h: tensor<!tf_type.resource>, %w: tensor<i32>) -> (tensor<i32>, tensor<!tf_type.resource>, tensor<i32>) {
      %j = "tf.AddV2"(%i, %w) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      return %j, %h, %w : tensor<i32>, tensor<!tf_type.resource>, tensor<i32>
    }
    %w = "tf.ReadVariableOp"(%h) {dtype = i32} : (tensor<!tf_type.resource>) -> tensor<i32>
    %r:3 = "tf.While"(%i0, %h, %w) {cond = @cond, body = @body, is_stateless = false} : ...
    ```
  }];
  let dependentDialects = ["::tfrt_fallback::tf::TFTypeDialect"];
}

def TFPromoteToF64 : Pass<"tf-promote-to-f64", "mlir::ModuleOp"> {
  let summary = "Compute a TF program's float32 values in float64";
  let description = [{
    Rewrites a TF-dialect program so that every `f32` tensor is an `f64`
    one: the types of values, block arguments and function signatures,
    type attributes (`T`, `dtype`, `DstT`, lists of types) and `f32` tensor
    constants (dense, splat or `dense_resource`; each value converted
    exactly). The kernels then run their `f64` instances. A public
    function keeps its `f32` arguments, which it casts to `f64` first
    (`tf.Cast`), so the program takes the same inputs; its results are
    `f64`.

    This is the accuracy oracle for numerically sensitive models
    (`fallback-run --reference-f64`, `scripts/run-models.py`): the float32
    runs of TF.js and of this runtime sum in different orders, and the
    float64 run of the same graph tells which of them is closer to the
    exact result. Float attributes that are not tensors (`epsilon`,
    `leakyrelu_alpha`) keep their values.

    Before:

    ```mlir
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %c = "tf.Const"() {value = dense<0.1> : tensor<2xf32>} : () -> tensor<2xf32>
      %0 = "tf.AddV2"(%x, %c) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      return %0 : tensor<2xf32>
    }
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf64> {
      %0 = "tf.Cast"(%x) {DstT = f64, SrcT = f32, Truncate = false} : (tensor<2xf32>) -> tensor<2xf64>
      %c = "tf.Const"() {value = dense<0.10000000149011612> : tensor<2xf64>} : () -> tensor<2xf64>
      %1 = "tf.AddV2"(%0, %c) {T = f64} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
      return %1 : tensor<2xf64>
    }
    ```
  }];
}

def TFDeviceInline : Pass<"tf-device-inline", "mlir::ModuleOp"> {
  let summary = "Inline tf_device.launch and tf_device.cluster regions, "
                "carrying their device onto the ops";
  let description = [{
    Moves the ops of every `tf_device.launch` and `tf_device.cluster` in
    front of it and replaces its results with the values its
    `tf_device.return` returns. A launch's `device` (and a cluster's
    `device` attribute, when it has one) becomes the `device` of each `tf.*`
    op inside that has none or an empty one, so tf-to-tfrt-fallback carries
    it onto the kernel calls; an op placed on another device is an error.
    The device of an inner launch wins over an outer one's. TensorFlow's
    other tf_device ops (`replicate`, `parallel_execute`, `cluster_func`,
    `launch_func`, ...) are an error: not supported.

    Before:

    ```mlir
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %0 = "tf_device.launch"() ({
        %1 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
        tf_device.return %1 : tensor<f32>
      }) {device = "/device:CPU:0"} : () -> tensor<f32>
      return %0 : tensor<f32>
    }
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %1 = "tf.Neg"(%x) {device = "/device:CPU:0"} : (tensor<f32>) -> tensor<f32>
      return %1 : tensor<f32>
    }
    ```
  }];
  let dependentDialects = ["::tfrt_fallback::tf_device::TFDeviceDialect"];
}

def TFRTFallbackInferShapes
    : Pass<"tfrt-fallback-infer-shapes", "mlir::ModuleOp"> {
  let summary = "Refine the result types of TF ops to ranked and static "
                "shapes";
  let description = [{
    Imported graphs carry few shapes: a TF.js model's every intermediate is
    `tensor<*xf32>`. This pass refines the result types of TF ops, function
    by function in program order, with per-op shape functions that follow
    TensorFlow's own (`tensorflow/core/ops/*.cc`,
    `framework/common_shape_fns.cc`), so the lowering, the executor and the
    memory planning see static shapes:

    * element-wise ops, by the Shape column of their op table row
      (`OpTable.def`, so a new row needs no code here): `SameAsInput`
      (`Relu`, `Cast`, `Identity`, `Softmax`, `BiasAdd`, ...) keeps input
      0's shape; `Broadcast` (`AddV2`, `Mul`, `Less`, ...) and `SelectV2`
      broadcast as numpy does; `AddN` and `Select` merge theirs;
    * `Conv2D`, `DepthwiseConv2dNative` and their fused forms (`SAME`,
      `VALID`, `EXPLICIT` padding, strides, dilations, NHWC or NCHW),
      `MaxPool`, `AvgPool`, `MatMul`, `_FusedMatMul`, `BatchMatMul(V2)`,
      `Conv2DBackpropInput` (constant `input_sizes`);
    * shape ops with constant operands: `Reshape` (a `-1` from the element
      count), `Transpose`, `ConcatV2`, `Pad` / `PadV2` / `MirrorPad`, the
      reductions (`Reduction` rows: `Mean`, `Sum`, `Max`, ... with
      `keep_dims`), `ArgMax`,
      `Squeeze`, `ExpandDims`, `StridedSlice` (TensorFlow's
      ValidateStridedSliceOp, all five masks), `Slice`, `Pack`, `Unpack`,
      `Split`, `SplitV`, `Tile`, `Fill`, `Range`, `BroadcastTo`,
      `GatherV2`, `Resize*`, `SpaceToBatchND`, `BatchToSpaceND`, `TopKV2`;
      `Shape`, `Size`, `Rank`, `Where` and the `NonMaxSuppression`s have
      results of known rank.
    * A shape operand is evaluated as far as it is known, as TensorFlow's
      shape refiner does: constants, `Shape` of a value of known rank, and
      `Pack`, `ConcatV2`, `StridedSlice`, `GatherV2`, `Cast` of those
      (`Reshape(x, Pack(StridedSlice(Shape(y)), 3))`).
    * `tf.Shape`, `tf.Size` and `tf.Rank` of a value whose shape (or rank)
      is known become a `tf.Const`, for the constant folder.
    * Calls (`tf.PartitionedCall`, `tf.StatefulPartitionedCall`,
      `func.call`) take their callee's result types, `tf.If` / `tf.Case`
      what all branches agree on, `tf.While` what its operands and its
      body's results agree on. A function whose returned values were
      refined gets the refined result types, and its `func.call`s with it;
      function arguments keep their types (a value refined for a
      `func.call` operand passes through a `tf.Identity` of the declared
      type). This repeats until nothing changes.

    A rule only states what is certain: where an operand it needs is
    unknown, the result gets what is known (`tensor<?x7xf32>`) or keeps its
    type; an op without a rule keeps its type, and so does one whose shapes
    are invalid (a `Reshape` to a size that cannot match, shapes that do
    not broadcast): its kernel reports the error at run time. A declared
    static dim is never changed. Ops nested in other ops' regions are left
    alone (the pipeline outlines region control flow first).

    Before:

    ```mlir
    func.func @main(%x: tensor<1x256x256x3xf32>, %w: tensor<5x5x3x24xf32>)
        -> (tensor<*xf32>, tensor<*xi32>) {
      %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 2, 2, 1]}
          : (tensor<1x256x256x3xf32>, tensor<5x5x3x24xf32>) -> tensor<*xf32>
      %1 = "tf.Relu"(%0) : (tensor<*xf32>) -> tensor<*xf32>
      %2 = "tf.Shape"(%1) : (tensor<*xf32>) -> tensor<*xi32>
      return %1, %2 : tensor<*xf32>, tensor<*xi32>
    }
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<1x256x256x3xf32>, %w: tensor<5x5x3x24xf32>)
        -> (tensor<1x128x128x24xf32>, tensor<4xi32>) {
      %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 2, 2, 1]}
          : (tensor<1x256x256x3xf32>, tensor<5x5x3x24xf32>) -> tensor<1x128x128x24xf32>
      %1 = "tf.Relu"(%0) : (tensor<1x128x128x24xf32>) -> tensor<1x128x128x24xf32>
      %2 = "tf.Const"() {dtype = i32, value = dense<[1, 128, 128, 24]> : tensor<4xi32>}
          : () -> tensor<4xi32>
      return %1, %2 : tensor<1x128x128x24xf32>, tensor<4xi32>
    }
    ```
  }];
}

def TFRTFallbackFuse : Pass<"tfrt-fallback-fuse", "mlir::ModuleOp"> {
  let summary = "Fuse convolutions and matrix products with their bias and "
                "activation";
  let description = [{
    Rewrites a contraction followed by a bias and an activation into one
    fused kernel, as TensorFlow's grappler remapper and its MLIR
    `tf-fused-kernel-matcher` do, so the bias and the activation are applied
    while the output is still in registers instead of in two more passes
    over memory. First it folds what comes before and after a convolution
    into it:

    - a `tf.Pad` (or `tf.PadV2` of zero) of the rows and columns only, whose
      only user is a convolution with `VALID` or `EXPLICIT` padding, becomes
      that convolution's `EXPLICIT` padding (as Keras's `ZeroPadding2D`
      before a strided convolution is written);
    - an inference-mode `tf.FusedBatchNorm`, `V2` or `V3` (only `y` used)
      after a `tf.Conv2D` or `tf.DepthwiseConv2dNative` with a constant f32
      filter (and optionally a constant `tf.BiasAdd` between them) and
      constant scale, offset, mean and variance folds into the weights, as
      TensorFlow's `fold_batch_norms` graph transform does: the filter times
      `scale / sqrt(variance + epsilon)` per output channel, and a bias
      `(bias - mean) * factor + offset` (computed in double, rounded once);
    - a `tf.Mul` of such a convolution (its only user) by a constant of one
      or C elements (a batch norm's scale that a converter left as `Mul`
      and `Add`) folds into the filter;
    - a clip to [0, 6] spelled `Maximum(Minimum(x, 6), 0)` or
      `Minimum(Maximum(x, 0), 6)` becomes `tf.Relu6(x)`, and a fused op
      ending in `Relu` whose only user is a `Relu6` ends in `Relu6`.

    Then:

    - `tf.Conv2D`, `tf.DepthwiseConv2dNative` and `tf.MatMul` (NHWC, `f32`
      or `f64`) whose only user is `tf.BiasAdd`, `tf.Add` or `tf.AddV2` with
      a 1-D operand of as many elements as the output has channels become
      `tf._FusedConv2D`, `tf._FusedDepthwiseConv2dNative` or
      `tf._FusedMatMul` with `fused_ops = ["BiasAdd"]`;
    - a convolution whose only user adds a feature map to it (`tf.Add`,
      `tf.AddV2`, or `tf.AddN` of two: a residual connection) whose only
      user adds the bias (grappler's AddOpsRewrite order) becomes a fused
      convolution with `fused_ops = ["BiasAdd", "Add"]` (the bias is then
      added before the residual: another rounding, within float32's);
    - a following activation that is the bias's only user is appended to
      `fused_ops` (also onto fused ops that have only a bias already, as
      TF.js's converter writes them): an op whose op table row has the
      Fusion column `Activation`, `tf.Relu`, `tf.Relu6`, `tf.Elu`,
      `tf.LeakyRelu`, `tf.Sigmoid` or `tf.Tanh`, the ones the fused kernels
      apply;
    - the PReLU that Keras's converters spell out after a fused
      convolution's bias, `Relu(x) + c * (x - Abs(x))` with `c` a constant
      of one or C elements, becomes `fused_ops = ["BiasAdd", "Prelu"]` with
      alpha `2c` (exact: it is `x > 0 ? x : 2c x`);
    - the same pattern after a Relu or Relu6 (a fused one too: TF.js's
      converter folds the PReLU's Relu into the convolution) is `x`, since
      `x - Abs(x)` is 0 there, and is removed (for `x = +inf` the spelled-out
      form gives NaN, the rewrite `+inf`);
    - TF.js's `tf.Prelu(x, alpha)` (alpha a constant of one or C elements)
      after a fused convolution whose bias (and residual add) it is the
      only user of becomes its fused `"Prelu"`;
    - the hard swish that TF.js's converter spells out after a fused
      convolution's bias (and residual add), `(c * x) * Relu6(x + 3)` with
      a scalar constant `c` (1/6, often rounded to f16), becomes
      `fused_ops = [..., "HardSwish"]` with `hard_swish_scale = c`, a fused
      activation of this runtime (not a TensorFlow one) that computes the
      same operations in the same order, so the result is bit for bit the
      spelled-out one.

    A contraction is left alone when an intermediate value has other users,
    when the bias is not 1-D with a static size equal to the channel count,
    when the layout is NCHW, or when the target runtime (the default kernel
    manifest, or `kernel-manifest`) has no fused kernel for the element
    type.

    Before:

    ```mlir
    %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]}
        : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x8x8x16xf32>
    %1 = "tf.Add"(%0, %b) : (tensor<1x8x8x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
    %2 = "tf.Relu"(%1) : (tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
    ```

    After:

    ```mlir
    %2 = "tf._FusedConv2D"(%x, %w, %b) {T = f32, epsilon = 0.000000e+00 : f32,
        fused_ops = ["BiasAdd", "Relu"], num_args = 1 : i64,
        padding = "SAME", strides = [1, 1, 1, 1]}
        : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>, tensor<16xf32>) -> tensor<1x8x8x16xf32>
    ```
  }];
  let options = [
    Option<"kernelManifest", "kernel-manifest", "std::string", /*default=*/"",
           "Kernel manifest of the target runtime (default: this build's)">
  ];
}

def TFRTFallbackFoldConstants
    : Pass<"tfrt-fallback-fold-constants", "mlir::ModuleOp"> {
  let summary = "Evaluate TF ops whose operands are all constant with the "
                "runtime's own kernels";
  let description = [{
    Computes at compile time what a program would compute anew in every run:
    shape arithmetic (`tf.Shape`, `tf.StridedSlice`, `tf.Pack`,
    `tf.ConcatV2` of constants) and weight transforms (`tf.Transpose`,
    `tf.Cast`, `tf.Mul` of a weight by a constant, ...), as TensorFlow's
    grappler constant folding does. Each result becomes a `tf.Const` at the
    op's location, and constants nothing uses any more are erased.

    A `tf.*` op is folded when every operand is a `tf.Const` (not ordered by
    a control edge) or an `arith.constant` tensor, the op is free of side
    effects for the `tf` dialect (the op table: no random, variable,
    resource, printing or assertion ops, no unknown ops), holds no region and
    names no function (no control flow or calls), is no `tf.Identity` that
    the lowering forwards (types unchanged), at least one of its results
    is used, it has an operand (as in grappler: no `tf.Placeholder`), and every result is a tensor of a dtype a dense constant holds
    (numbers, bool, complex, string; not resource, variant or quantized).

    There is one implementation of each op's semantics: the runtime's. The
    op and its constants are written as a one-function program exactly as
    `tf-to-tfrt-fallback` and the binary writer write any program (derived
    attributes, kernel manifest check), loaded by the runtime's loader and
    run on its executor with every kernel of this build (`registerAllKernels`).
    An op that this lowering refuses, that has no kernel, or whose kernel
    fails (a `tf.Reshape` to a size that does not fit) is left in place
    without a diagnostic: the run reports the error, as it did before.

    Like grappler, the pass does not turn small constants into big ones: a
    result larger than all the op's operands together and larger than
    `max-size-bytes` (default 100 KiB, grappler's `kMaxConstantSize`) is not
    folded (`tf.Fill`, `tf.Tile` or `tf.BroadcastTo` of a scalar into a big
    tensor). Results of a static type are checked before the kernel runs;
    the kernel may allocate no tensor larger than the limit (or than the
    operands), so a result of unknown shape is checked as it is made.

    A result whose type is less refined than the folded constant's
    (`tensor<?xi32>` for `tensor<2xi32>`) is replaced by the constant in the
    `tf.*` ops that use it; other users (`func.return`, calls) get it
    through a `tf.Identity` of the type they had.

    Before:

    ```mlir
    func.func @main(%x: tensor<6xf32>) -> tensor<2x3xf32> {
      %w = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
      %p = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
      %t = "tf.Transpose"(%w, %p) : (tensor<3x2xf32>, tensor<2xi32>) -> tensor<2x3xf32>
      %s = "tf.Shape"(%t) : (tensor<2x3xf32>) -> tensor<2xi32>
      %r = "tf.Reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi32>) -> tensor<2x3xf32>
      %y = "tf.Mul"(%r, %t) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    }
    ```

    After:

    ```mlir
    func.func @main(%x: tensor<6xf32>) -> tensor<2x3xf32> {
      %t = "tf.Const"() {dtype = f32, value = dense<[[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
      %s = "tf.Const"() {dtype = i32, value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
      %r = "tf.Reshape"(%x, %s) : (tensor<6xf32>, tensor<2xi32>) -> tensor<2x3xf32>
      %y = "tf.Mul"(%r, %t) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    }
    ```
  }];
  // The dialects of the programs it writes (tf-to-tfrt-fallback's), loaded
  // before the pass runs rather than while it does.
  let dependentDialects = ["::tfrt_fallback::tf::TFDialect",
                           "::tfrt_fallback::TFRTFallbackDialect",
                           "::mlir::func::FuncDialect"];
  let options = [
    Option<"maxSizeBytes", "max-size-bytes", "int64_t",
           /*default=*/"100 * 1024",
           "Largest result, in bytes, that may be larger than the op's "
           "operands together (grappler's kMaxConstantSize)">
  ];
}

def TFRTFallbackPlanMemory
    : Pass<"tfrt-fallback-plan-memory", "mlir::ModuleOp"> {
  let summary = "Assign kernel results of static shape byte offsets in one "
                "arena per function";
  let description = [{
    The static memory plan (docs/MemoryPlan.md). For each function, every
    `tfrt_fallback.kernel_call` tensor result of static shape and fixed-size
    element type that the function does not return gets a buffer: a byte
    offset and size in the function's arena. Two buffers share bytes only
    when their lifetimes (from the instruction that defines a value to the
    last one that reads it, in program order) are disjoint. Results the
    runtime would put in one buffer anyway share a buffer:

    - an element-wise op (`Relu`, `AddV2`, `BiasAdd`, ...) whose result has
      the type of an operand it is the only reader of, among the operands
      the Buffer column of its op table row (`OpTable.def`) names: the
      kernel writes over that operand (TensorFlow's `forward_input`; the
      runtime forwards only a value with one reader, the last use that
      holds in every order the executor may run the function);
    - a view (Buffer `"view"`: `Identity`, `Reshape`, `Squeeze`,
      `ExpandDims`, ...) and its operand.

    A set with a value that the function returns or passes to a call or to
    control flow is not planned: the value may outlive the run.

    Offsets are assigned greedily by size, as TFLite's arena planner does:
    the largest buffer first, each at the lowest 64-byte aligned offset
    where it overlaps no buffer alive at the same time. The buffers alive
    together are found by a sweep over the lifetimes, so the pass takes
    O(n log n + p log p) for n buffers and p pairs of buffers alive at once;
    when p passes `max-overlap-pairs` (a program that keeps many values
    alive, such as an unrolled loop whose steps are concatenated at the
    end), offsets are assigned by a linear scan in program order instead,
    each buffer taking the best-fitting free range (O(n log n)). The function gets
    `tfrt_fallback.memory_plan = {arena_bytes, offsets, sizes}` and each
    planned kernel call `tfrt_fallback.buffers` (one entry per tensor
    result; -1: allocated at run time). `--mlir-to-bef` writes them into the
    program's memory-plan section; the runtime keeps one arena per frame
    and takes a planned buffer only when nothing that overlaps it is in
    use, so a wrong plan can cost allocations, never data. Running the pass
    again plans afresh.

    Before:

    ```mlir
    func.func @main(%x: tensor<256xf32>, %shape: tensor<2xi32>,
                    %axes: tensor<2xi32>) -> tensor<f32> {
      %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
          : (tensor<256xf32>) -> tensor<256xf32>
      %b = tfrt_fallback.kernel_call "Relu"(%a) {T = f32}
          : (tensor<256xf32>) -> tensor<256xf32>
      %c = tfrt_fallback.kernel_call "Reshape"(%b, %shape) {T = f32, Tshape = i32}
          : (tensor<256xf32>, tensor<2xi32>) -> tensor<16x16xf32>
      %d = tfrt_fallback.kernel_call "Sum"(%c, %axes)
          {T = f32, Tidx = i32, keep_dims = false}
          : (tensor<16x16xf32>, tensor<2xi32>) -> tensor<f32>
      return %d : tensor<f32>
    }
    ```

    After (`Relu` writes over `Exp`'s result and `Reshape` views it: one
    buffer; the returned `Sum` is not planned):

    ```mlir
    func.func @main(...) -> tensor<f32> attributes {tfrt_fallback.memory_plan =
        {arena_bytes = 1024 : i64, offsets = array<i64: 0>,
         sizes = array<i64: 1024>}} {
      %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
          {tfrt_fallback.buffers = array<i32: 0>} : ...
      %b = tfrt_fallback.kernel_call "Relu"(%a) {T = f32}
          {tfrt_fallback.buffers = array<i32: 0>} : ...
      %c = tfrt_fallback.kernel_call "Reshape"(%b, %shape) {...}
          {tfrt_fallback.buffers = array<i32: 0>} : ...
      %d = tfrt_fallback.kernel_call "Sum"(%c, %axes) {...} : ...
    ```
  }];
  let options = [
    Option<"maxOverlapPairs", "max-overlap-pairs", "int64_t",
           /*default=*/"int64_t(1) << 22",
           "Most pairs of buffers alive at once for the greedy-by-size "
           "assignment; past it, a best-fit linear scan">,
  ];
}

#endif // TFRT_FALLBACK_TRANSFORMS_PASSES_TD

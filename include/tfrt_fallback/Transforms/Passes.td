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
      `device` becomes the call's own `device` (dropped when empty) and TF's
      bookkeeping attributes (every name starting with `_`, such as
      `_output_shapes` and `_class`) are dropped;
    * `tf.Const` becomes `tfrt_fallback.constant`, `tf.Identity` and
      `tf.IdentityN` are forwarded to their operands (when the types agree),
      and `tf.NoOp` is removed;
    * ops with side effects (random numbers, printing, assertions, variables,
      and any op the `tf` dialect does not know) are threaded on a chain in
      program order. A public function starts its chain with
      `tfrt_fallback.new_chain`; a private function that has side effects,
      directly or through calls, takes a chain as its first argument and
      returns the last one as its last result, and its call sites pass and
      receive it. Pure ops get no chain.

    Before:

    ```mlir
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %c = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
      %0 = "tf.AddV2"(%x, %c) {T = f32, device = "/device:CPU:0", _class = ["loc:@x"]}
          : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      %1 = "tf.Identity"(%0) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
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
    lowering. With `kernel-manifest`, every op must have a fallback kernel in
    the manifest for its dtypes (see docs/KernelManifest.md); an op with
    neither is an error at its location, naming the op and its dtypes, unless
    `allow-unsupported` is set.
  }];
  let dependentDialects = ["::tfrt_fallback::TFRTFallbackDialect"];
  let options = [
    ListOption<"nativeOps", "native-ops", "std::string",
               "TensorFlow ops (without 'tf.') that have native kernels and "
               "are left untouched">,
    Option<"kernelManifest", "kernel-manifest", "std::string", "",
           "Kernel manifest of the target runtime (written by "
           "`fallback-run --list-kernels --manifest=FILE`)">,
    Option<"allowUnsupported", "allow-unsupported", "bool", "false",
           "Lower ops that have no kernel in the manifest instead of "
           "failing">
  ];
}

#endif // TFRT_FALLBACK_TRANSFORMS_PASSES_TD

// A program's manifest names the optional parts of the runtime it needs
// after its kernels (docs/KernelManifest.md), from TF MLIR and from a binary
// program alike, and the program's own manifest admits it.
// RUN: fallback-translate --emit-kernel-manifest %s | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-translate --emit-kernel-manifest %t.bef -o %t.manifest
// RUN: FileCheck %s < %t.manifest
// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%t.manifest" | FileCheck %s --check-prefix=ADMITS

// CHECK: # tfrt-fallback kernel manifest v1
// CHECK-NEXT: kernel AddV2 T=i32
// CHECK-NEXT: kernel Less T=i32
// CHECK-NEXT: feature control-flow
// CHECK-NEXT: feature strings
// CHECK-EMPTY:
// ADMITS: tfrt_fallback.while

func.func private @cond(%i: tensor<i32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Less"(%i, %c) {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func private @body(%i: tensor<i32>) -> tensor<i32> {
  %c = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.AddV2"(%i, %c) {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}
func.func @main(%i: tensor<i32>) -> (tensor<i32>, tensor<!tf_type.string>) {
  %0 = "tf.While"(%i) {cond = @cond, body = @body, is_stateless = true} : (tensor<i32>) -> tensor<i32>
  %s = "tf.Const"() {value = dense<"done"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  return %0, %s : tensor<i32>, tensor<!tf_type.string>
}

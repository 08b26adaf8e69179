// fallback-translate --emit-kernel-manifest lists the kernels a program
// needs, from TF MLIR (lowered first) or from a binary program, in the
// kernel manifest format; a program's own manifest admits it.
// RUN: fallback-translate --emit-kernel-manifest %s | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-translate --emit-kernel-manifest %t.bef -o %t.manifest
// RUN: FileCheck %s < %t.manifest
// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%t.manifest" | FileCheck %s --check-prefix=ADMITS
// RUN: not fallback-translate --emit-kernel-manifest %S/Inputs/not-a-program.txt 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: # tfrt-fallback kernel manifest v1
// CHECK-NEXT: kernel AddV2 T=f32
// CHECK-NEXT: kernel ArgMax T=f32 Tidx=i32 output_type=i64
// CHECK-NEXT: kernel Cast DstT=f32 SrcT=i32
// CHECK-NEXT: kernel Relu T=f32
// The pipeline planned its memory: a runtime may use the plan.
// CHECK-NEXT: feature memory-plan
// CHECK-EMPTY:
// ADMITS: tfrt_fallback.kernel_call "ArgMax"
// BAD: error

func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2xi64>) {
  %f = "tf.Cast"(%i) {SrcT = i32, DstT = f32, Truncate = false} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %s = "tf.AddV2"(%x, %f) {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = "tf.Relu"(%s) {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %axis = "tf.Const"() {value = dense<1> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %m = "tf.ArgMax"(%r, %axis) {T = f32, Tidx = i32, output_type = i64} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xi64>
  %t = "tf.Relu"(%x) {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %t, %m : tensor<2x3xf32>, tensor<2xi64>
}

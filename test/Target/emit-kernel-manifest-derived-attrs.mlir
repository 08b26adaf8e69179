// The kernels a TF-style program needs, which leaves its type attributes
// implicit, are listed with the derived attributes: the same manifest as
// emit-kernel-manifest.mlir's program, which writes them.
// RUN: fallback-translate --emit-kernel-manifest %s | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-translate --emit-kernel-manifest %t.bef | FileCheck %s

// CHECK: # tfrt-fallback kernel manifest v1
// CHECK-NEXT: kernel AddV2 T=f32
// CHECK-NEXT: kernel ArgMax T=f32 Tidx=i32 output_type=i64
// CHECK-NEXT: kernel Cast DstT=f32 SrcT=i32
// CHECK-NEXT: kernel Relu T=f32
// The pipeline planned its memory: a runtime may use the plan.
// CHECK-NEXT: feature memory-plan
// CHECK-EMPTY:

func.func @main(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2xi64>) {
  %f = "tf.Cast"(%i) {Truncate = false} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %s = "tf.AddV2"(%x, %f) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = "tf.Relu"(%s) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %axis = arith.constant dense<1> : tensor<i32>
  %m = "tf.ArgMax"(%r, %axis) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xi64>
  %t = "tf.Relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %t, %m : tensor<2x3xf32>, tensor<2xi64>
}

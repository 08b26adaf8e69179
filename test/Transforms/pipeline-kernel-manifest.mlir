// RUN: fallback-opt %s --tfrt-fallback-pipeline="kernel-manifest=%S/../Inputs/kernels.manifest" | FileCheck %s

// The pipeline checks ops against the manifest after its first
// canonicalization: a dead pure op that the runtime lacks is removed before
// it could fail the check.

// CHECK-LABEL: func @dead_unsupported_removed
// CHECK-NOT: Sigmoid
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"
// CHECK-NOT: Sigmoid
// CHECK: return %[[R]]
func.func @dead_unsupported_removed(%x: tensor<2xf32>) -> tensor<2xf32> {
  %dead = "tf.Sigmoid"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %dead2 = "tf.Exp"(%dead) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

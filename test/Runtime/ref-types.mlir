// A TF1 program that reads reference-typed values, as TensorFlow prints it
// (no derived attributes): the references are read as their values.
// RUN: fallback-run %s --input=%S/Inputs/f32_3.npy --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_3.npy --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s

// f32_3.npy is [10, 20, 30].
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: [20., 40., 60.]
// CHECK: result #1: tensor<3xf32>
// CHECK-NEXT: [10., 20., 30.]
func.func @main(%arg0: tensor<3x!tf_type.f32ref>, %arg1: tensor<3xf32>) -> (tensor<3xf32>, tensor<*xf32>) {
  %0:2 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.AddV2"(%arg0, %arg1) {device = ""} : (tensor<3x!tf_type.f32ref>, tensor<3xf32>) -> tensor<3xf32>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Identity"(%arg0) {device = ""} : (tensor<3x!tf_type.f32ref>) -> tensor<*xf32>
    tf_executor.fetch %outputs, %outputs_0 : tensor<3xf32>, tensor<*xf32>
  }
  func.return %0#0, %0#1 : tensor<3xf32>, tensor<*xf32>
}

// Calls whose types are more or less refined than their callees', as
// TensorFlow writes them (no derived attributes, arith.constant).
// RUN: fallback-run %s --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_3.npy --threads=2 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s
// A callee result whose shape is not the one the call declares is an error
// at the Identity that checks it.
// RUN: not fallback-run %s --entry=wrong_shape --input=%S/Inputs/f32_3.npy --threads=1 2>&1 | FileCheck %s --check-prefix=WRONG

// f32_3.npy is [10, 20, 30]: doubled, minus 1.
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: [19., 39., 59.]
func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.StatefulPartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @__inference_double_10} : (tensor<3xf32>) -> tensor<3xf32>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.PartitionedCall"(%outputs) {config = "", config_proto = "", executor_type = "", f = @__inference_minus_one_20} : (tensor<3xf32>) -> tensor<*xf32>
    %outputs_2, %control_3 = tf_executor.island wraps "tf.Identity"(%outputs_0) {device = ""} : (tensor<*xf32>) -> tensor<3xf32>
    tf_executor.fetch %outputs_2 : tensor<3xf32>
  }
  func.return %0 : tensor<3xf32>
}
func.func private @__inference_double_10(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.AddV2"(%arg0, %arg0) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    tf_executor.fetch %outputs : tensor<*xf32>
  }
  func.return %0 : tensor<*xf32>
}
func.func private @__inference_minus_one_20(%arg0: tensor<?xf32>) -> tensor<3xf32> {
  %cst = arith.constant dense<1.0> : tensor<f32>
  %0 = "tf.Sub"(%arg0, %cst) : (tensor<?xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// WRONG: error: result #0: Identity '{{.*}}call-types.mlir:{{[0-9:]+}}': output #0 is tensor<3xf32> but the program declares tensor<2xf32>
func.func @wrong_shape(%arg0: tensor<3xf32>) -> tensor<2xf32> {
  %0 = "tf.PartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @__inference_double_10} : (tensor<3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

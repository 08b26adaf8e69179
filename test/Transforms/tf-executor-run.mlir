// TensorFlow's export form runs directly: the pipeline starts with
// --tf-executor-to-functional.
// RUN: fallback-run %s --input=%src_root/test/Runtime/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%src_root/test/Runtime/Inputs/f32_2x3.npy --threads=1 | FileCheck %s

// Hand-derived: x = [[1, 2, 3], [4, 5, 6]]; x * [1, -2, 0.5] =
// [[1, -4, 1.5], [4, -10, 3]]; relu = [[1, 0, 1.5], [4, 0, 3]]; the sum over
// axis 0 = [5, 0, 4.5].
// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1., 0., 1.5],
// CHECK-NEXT: [4., 0., 3.]]
// CHECK: result #1: tensor<3xf32>
// CHECK-NEXT: [5., 0., 4.5]

func.func @main(%arg0: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3xf32>) attributes {tf.entry_function = {control_outputs = "", inputs = "x", outputs = "y,s"}} {
  %0:2 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Const"() {device = "", dtype = f32, value = dense<[1.0, -2.0, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() {device = "", dtype = i32, value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
    %outputs_2, %control_3 = tf_executor.island(%control) wraps "tf.Mul"(%arg0, %outputs) {T = f32, device = ""} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %4:3 = tf_executor.island(%control_3, %control_1) {
      %r = "tf.Relu"(%outputs_2) {T = f32, device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
      %s = "tf.Sum"(%r, %outputs_0) {T = f32, Tidx = i32, device = "", keep_dims = false} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<3xf32>
      tf_executor.yield %r, %s : tensor<2x3xf32>, tensor<3xf32>
    }
    tf_executor.fetch %4#0, %4#1, %4#2 : tensor<2x3xf32>, tensor<3xf32>, !tf_executor.control
  }
  return %0#0, %0#1 : tensor<2x3xf32>, tensor<3xf32>
}

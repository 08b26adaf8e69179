// RUN: fallback-opt %s | FileCheck %s
// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic --mlir-print-debuginfo | fallback-opt | FileCheck %s

// The tf_executor subset in the form `tf-mlir-translate -graphdef-to-mlir`
// prints: islands in the `wraps` short form and the region form, control
// operands, fetch of several values and of control tokens.

// CHECK-LABEL: func @graph
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
func.func @graph(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<f32>) attributes {tf.entry_function = {inputs = "x", outputs = "y,c"}} {
  // CHECK: %[[G:.*]]:2 = tf_executor.graph {
  %0:2 = tf_executor.graph {
    // CHECK-NEXT: %[[C:.*]], %[[CC:.*]] = tf_executor.island wraps "tf.Const"() {dtype = f32, value = dense<2.000000e+00> : tensor<f32>} : () -> tensor<f32>
    %outputs, %control = tf_executor.island wraps "tf.Const"() {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
    // CHECK-NEXT: %[[I:.*]], %[[IC:.*]] = tf_executor.island(%[[CC]]) {
    // CHECK-NEXT: %[[M:.*]] = "tf.Mul"(%[[X]], %[[C]])
    // CHECK-NEXT: %[[N:.*]] = "tf.Neg"(%[[M]])
    // CHECK-NEXT: tf_executor.yield %[[N]] : tensor<2xf32>
    // CHECK-NEXT: }
    %1:2 = tf_executor.island(%control) {
      %2 = "tf.Mul"(%x, %outputs) {T = f32} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
      %3 = "tf.Neg"(%2) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
      tf_executor.yield %3 : tensor<2xf32>
    }
    // CHECK-NEXT: %[[E:.*]] = tf_executor.island(%[[CC]], %[[IC]]) {
    // CHECK-NEXT: tf_executor.yield
    // CHECK-NEXT: } {_note = "no values"}
    %ctl = tf_executor.island(%control, %1#1) {
      tf_executor.yield
    } {_note = "no values"}
    // CHECK-NEXT: %{{.*}}, %{{.*}} = tf_executor.island wraps "tf.Identity"(%[[I]]) {T = f32, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %id, %id_ctl = tf_executor.island wraps "tf.Identity"(%1#0) {T = f32, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    // CHECK-NEXT: tf_executor.fetch %[[I]], %[[C]], %[[E]] : tensor<2xf32>, tensor<f32>, !tf_executor.control
    tf_executor.fetch %1#0, %outputs, %ctl : tensor<2xf32>, tensor<f32>, !tf_executor.control
  }
  // CHECK: return %[[G]]#0, %[[G]]#1
  return %0#0, %0#1 : tensor<2xf32>, tensor<f32>
}

// CHECK-LABEL: func @empty
// CHECK: tf_executor.graph {
// CHECK-NEXT: tf_executor.fetch
// CHECK-NEXT: }
func.func @empty() {
  tf_executor.graph {
    tf_executor.fetch
  }
  return
}

// An island whose region yields an operand from outside it keeps the region
// form.
// CHECK-LABEL: func @passthrough
// CHECK: tf_executor.island {
// CHECK-NEXT: tf_executor.yield %arg0 : tensor<i32>
// CHECK-NEXT: }
func.func @passthrough(%arg0: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    %1:2 = tf_executor.island {
      tf_executor.yield %arg0 : tensor<i32>
    }
    tf_executor.fetch %1#0 : tensor<i32>
  }
  return %0 : tensor<i32>
}

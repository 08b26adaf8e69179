// RUN: fallback-opt %s --tf-executor-to-functional -split-input-file | FileCheck %s

// A single island in region form.
// CHECK-LABEL: func @single_island
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[N:.*]] = "tf.Neg"(%[[X]])
// CHECK-NEXT: %[[A:.*]] = "tf.Abs"(%[[N]])
// CHECK-NEXT: return %[[A]] : tensor<2xf32>
func.func @single_island(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tf_executor.graph {
    %1:2 = tf_executor.island {
      %2 = "tf.Neg"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
      %3 = "tf.Abs"(%2) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
      tf_executor.yield %3 : tensor<2xf32>
    }
    tf_executor.fetch %1#0 : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// Several islands, the `wraps` form and control operands: ops keep the
// islands' order, control edges are dropped.
// CHECK-LABEL: func @islands
// CHECK-SAME: (%[[X:.*]]: tensor<f32>)
// CHECK-NEXT: %[[C:.*]] = "tf.Const"() {dtype = f32, value = dense<2.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[M:.*]] = "tf.Mul"(%[[X]], %[[C]])
// CHECK-NEXT: %[[P:.*]] = "tf.Print"(%[[M]])
// CHECK-NEXT: %[[S:.*]] = "tf.Sub"(%[[M]], %[[C]])
// CHECK-NEXT: return %[[S]] : tensor<f32>
// CHECK-NOT: tf_executor
func.func @islands(%x: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %c, %c_ctl = tf_executor.island wraps "tf.Const"() {dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
    %m, %m_ctl = tf_executor.island(%c_ctl) wraps "tf.Mul"(%x, %c) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %p, %p_ctl = tf_executor.island(%m_ctl) wraps "tf.Print"(%m) {T = f32} : (tensor<f32>) -> tensor<f32>
    %s:2 = tf_executor.island(%p_ctl, %c_ctl) {
      %1 = "tf.Sub"(%m, %c) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
      tf_executor.yield %1 : tensor<f32>
    }
    tf_executor.fetch %s#0, %p_ctl : tensor<f32>, !tf_executor.control
  }
  return %0 : tensor<f32>
}

// -----

// Fetching several values, one of them twice, one a function argument.
// CHECK-LABEL: func @multiple_fetches
// CHECK-SAME: (%[[X:.*]]: tensor<f32>, %[[Y:.*]]: tensor<i32>)
// CHECK-NEXT: %[[A:.*]]:2 = "tf.Unpack"
// CHECK-NEXT: %[[B:.*]] = "tf.Neg"(%[[A]]#1)
// CHECK-NEXT: return %[[B]], %[[A]]#0, %[[B]], %[[Y]]
func.func @multiple_fetches(%x: tensor<f32>, %y: tensor<i32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>) {
  %0:4 = tf_executor.graph {
    %1:3 = tf_executor.island wraps "tf.Unpack"(%x) {T = f32, num = 2 : i64} : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
    %2:2 = tf_executor.island wraps "tf.Neg"(%1#1) {T = f32} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %2#0, %1#0, %2#0, %y : tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>
  }
  return %0#0, %0#1, %0#2, %0#3 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<i32>
}

// -----

// A graph that fetches nothing but a control token, in a function that also
// has ops outside the graph.
// CHECK-LABEL: func @control_only
// CHECK-NEXT: "tf.Print"
// CHECK-NEXT: "tf.NoOp"
// CHECK-NEXT: return
func.func @control_only(%x: tensor<f32>) {
  tf_executor.graph {
    %p, %ctl = tf_executor.island wraps "tf.Print"(%x) {T = f32} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %ctl : !tf_executor.control
  }
  "tf.NoOp"() : () -> ()
  return
}

// -----

// The exporter's form: tf.entry_function and device attributes stay.
// CHECK-LABEL: func @main
// CHECK-SAME: attributes {tf.entry_function = {control_outputs = "", inputs = "x", outputs = "y"}}
// CHECK-NEXT: %[[R:.*]] = "tf.Relu"(%arg0) {T = f32, device = ""}
// CHECK-NEXT: return %[[R]]
func.func @main(%arg0: tensor<1x2xf32>) -> tensor<1x2xf32> attributes {tf.entry_function = {control_outputs = "", inputs = "x", outputs = "y"}} {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Relu"(%arg0) {T = f32, device = ""} : (tensor<1x2xf32>) -> tensor<1x2xf32>
    tf_executor.fetch %outputs : tensor<1x2xf32>
  }
  return %0 : tensor<1x2xf32>
}

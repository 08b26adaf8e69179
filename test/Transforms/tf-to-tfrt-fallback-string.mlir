// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported | FileCheck %s

// String, resource and variant tensors are TF dtypes too.

// CHECK-LABEL: func @strings
// CHECK-SAME: (%[[S:.*]]: tensor<2x!tf_type.string>, %[[SHAPE:.*]]: tensor<2xi32>)
func.func @strings(%s: tensor<2x!tf_type.string>, %shape: tensor<2xi32>) -> (tensor<1x2x!tf_type.string>, tensor<2xi32>) {
  // CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Reshape"(%[[S]], %[[SHAPE]]) {T = !tf_type.string, Tshape = i32} : (tensor<2x!tf_type.string>, tensor<2xi32>) -> tensor<1x2x!tf_type.string>
  %0 = "tf.Reshape"(%s, %shape) {T = !tf_type.string, Tshape = i32} : (tensor<2x!tf_type.string>, tensor<2xi32>) -> tensor<1x2x!tf_type.string>
  // CHECK: %[[SH:.*]] = tfrt_fallback.kernel_call "Shape"(%[[R]]) {T = !tf_type.string, out_type = i32} : (tensor<1x2x!tf_type.string>) -> tensor<2xi32>
  %1 = "tf.Shape"(%0) {T = !tf_type.string, out_type = i32} : (tensor<1x2x!tf_type.string>) -> tensor<2xi32>
  // CHECK: return %[[R]], %[[SH]]
  return %0, %1 : tensor<1x2x!tf_type.string>, tensor<2xi32>
}

// A string op of the op table is pure (no chain); one the table does not
// list is ordered like any unknown op.
// CHECK-LABEL: func @string_const
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[C:.*]] = tfrt_fallback.constant dense<["a", "bb"]> : tensor<2x!tf_type.string>
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "StringLength"(%[[C]]) {unit = "BYTE"} : (tensor<2x!tf_type.string>) -> tensor<2xi32>
// CHECK: %[[T:.*]], %{{.*}} = tfrt_fallback.kernel_call "DecodeJSONExample"(%[[C]]) chain(%[[C0]]) : (tensor<2x!tf_type.string>) -> tensor<2x!tf_type.string>
// CHECK: return %[[R]], %[[T]]
func.func @string_const() -> (tensor<2xi32>, tensor<2x!tf_type.string>) {
  %0 = "tf.Const"() {value = dense<["a", "bb"]> : tensor<2x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<2x!tf_type.string>
  %1 = "tf.StringLength"(%0) {unit = "BYTE"} : (tensor<2x!tf_type.string>) -> tensor<2xi32>
  %2 = "tf.DecodeJSONExample"(%0) : (tensor<2x!tf_type.string>) -> tensor<2x!tf_type.string>
  return %1, %2 : tensor<2xi32>, tensor<2x!tf_type.string>
}

// A string scalar operand of an assertion.
// CHECK-LABEL: func @assert_message
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[MSG:.*]]: tensor<!tf_type.string>)
// CHECK: tfrt_fallback.kernel_call "Assert"(%[[P]], %[[MSG]]) chain(%{{.*}}) {T = [!tf_type.string], summarize = 3 : i64} : (tensor<i1>, tensor<!tf_type.string>) -> ()
func.func @assert_message(%p: tensor<i1>, %msg: tensor<!tf_type.string>) {
  "tf.Assert"(%p, %msg) {T = [!tf_type.string], summarize = 3 : i64} : (tensor<i1>, tensor<!tf_type.string>) -> ()
  return
}

// Variables: resource handles and ordered reads and writes.
// CHECK-LABEL: func @variables
// CHECK-SAME: (%[[V:.*]]: tensor<2xf32>)
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[H:.*]], %[[C1:.*]] = tfrt_fallback.kernel_call "VarHandleOp"() chain(%[[C0]]) {container = "", dtype = f32, shape = #tfrt_fallback.shape<2>, shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
// CHECK: %[[C2:.*]] = tfrt_fallback.kernel_call "AssignVariableOp"(%[[H]], %[[V]]) chain(%[[C1]]) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
// CHECK: %[[R:.*]], %{{.*}} = tfrt_fallback.kernel_call "ReadVariableOp"(%[[H]]) chain(%[[C2]]) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
// CHECK: return %[[R]]
func.func @variables(%v: tensor<2xf32>) -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2>} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  "tf.AssignVariableOp"(%h, %v) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %0 = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

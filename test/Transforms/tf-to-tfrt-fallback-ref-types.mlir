// RUN: fallback-opt %s --tfrt-fallback-pipeline=allow-unsupported --split-input-file | FileCheck %s

// TF1 reference dtypes, as TensorFlow prints a graph with VariableV2: the
// runtime has no reference variables, so a reference is read as the tensor
// it refers to. Derived type attributes drop the reference before they are
// compared (TensorFlow's DropRefType): `T` is f32 whether an operand is
// `!tf_type.f32ref` or `f32`.

// CHECK-LABEL: func @ref_operand_and_value
// The Identity's result is refined to tensor<3xf32> (infer-shapes), so the
// lowering forwards the reference's value itself.
// CHECK-SAME: (%[[R:.*]]: tensor<3xf32>, %[[X:.*]]: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>)
// CHECK: %[[M:.*]] = tfrt_fallback.kernel_call "Maximum"(%[[R]], %[[X]]) {T = f32} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: return %[[M]], %[[R]]
func.func @ref_operand_and_value(%arg0: tensor<3x!tf_type.f32ref>, %arg1: tensor<3xf32>) -> (tensor<3xf32>, tensor<*xf32>) {
  %0:2 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Maximum"(%arg0, %arg1) {device = ""} : (tensor<3x!tf_type.f32ref>, tensor<3xf32>) -> tensor<3xf32>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Identity"(%arg0) {device = ""} : (tensor<3x!tf_type.f32ref>) -> tensor<*xf32>
    tf_executor.fetch %outputs, %outputs_0 : tensor<3xf32>, tensor<*xf32>
  }
  func.return %0#0, %0#1 : tensor<3xf32>, tensor<*xf32>
}

// -----

// A variable read through Identity (ref operand, plain result of the same
// shape) is the variable's value (its `dtype` derived from the result): the
// pipeline's --tf-ref-variables-to-resources makes the VariableV2 a resource
// variable and the read a ReadVariableOp; a string reference is a string.
// CHECK-LABEL: func @variable_read
// CHECK: %[[H:.*]], %{{.*}} = tfrt_fallback.kernel_call "VarHandleOp"() chain(%{{.*}}) {container = "", dtype = f32, shape = #tfrt_fallback.shape<>, shared_name = "v_load_44"} : () -> tensor<!tf_type.resource>
// CHECK: %[[V:.*]], %{{.*}} = tfrt_fallback.kernel_call "ReadVariableOp"(%[[H]]) chain(%{{.*}}) {dtype = f32} : (tensor<!tf_type.resource>) -> tensor<f32>
// CHECK-NOT: "Identity"(%[[V]]
// CHECK: return %[[V]], %{{.*}} : tensor<f32>, tensor<!tf_type.string>
func.func @variable_read(%arg0: tensor<!tf_type.stringref>) -> (tensor<f32>, tensor<*x!tf_type.string>) {
  %0:2 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.VariableV2"() {container = "", device = "", shape = #tf_type.shape<>, shared_name = "v_load_44"} : () -> tensor<!tf_type.f32ref>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Identity"(%outputs) {device = ""} : (tensor<!tf_type.f32ref>) -> tensor<f32>
    %outputs_2, %control_3 = tf_executor.island wraps "tf.Identity"(%arg0) {device = ""} : (tensor<!tf_type.stringref>) -> tensor<*x!tf_type.string>
    tf_executor.fetch %outputs_0, %outputs_2 : tensor<f32>, tensor<*x!tf_type.string>
  }
  func.return %0#0, %0#1 : tensor<f32>, tensor<*x!tf_type.string>
}

// -----

// Written type attributes: a reference dtype means its referent, and agrees
// with operands of either kind; `dtype` of a VariableV2 written as i32
// agrees with its `!tf_type.int32ref` result (a resource variable of i32,
// read for the ConcatV2, assigned by the Assign, whose ref result is a read).
// CHECK-LABEL: func @written_attrs
// CHECK: %[[H:.*]], %{{.*}} = tfrt_fallback.kernel_call "VarHandleOp"() chain(%{{.*}}) {container = "", dtype = i32, shape = #tfrt_fallback.shape<2>, shared_name = ""} : () -> tensor<!tf_type.resource>
// CHECK: %[[V:.*]], %{{.*}} = tfrt_fallback.kernel_call "ReadVariableOp"(%[[H]])
// CHECK: kernel_call "ConcatV2"(%[[V]], %{{.*}}, %{{.*}}) {N = 2 : i64, T = i32, Tidx = i32} : (tensor<2xi32>, tensor<2xi32>, tensor<i32>) -> tensor<4xi32>
// CHECK: kernel_call "AssignVariableOp"(%[[H]], %{{.*}}) chain(%{{.*}}) {dtype = i32, validate_shape = true} : (tensor<!tf_type.resource>, tensor<2xi32>) -> ()
// CHECK: kernel_call "ReadVariableOp"(%[[H]])
func.func @written_attrs(%arg0: tensor<2xi32>) -> (tensor<4xi32>, tensor<2x!tf_type.int32ref>) {
  %axis = arith.constant dense<0> : tensor<i32>
  %0 = "tf.VariableV2"() {container = "", dtype = i32, shape = #tf_type.shape<2>, shared_name = ""} : () -> tensor<2x!tf_type.int32ref>
  %1 = "tf.ConcatV2"(%0, %arg0, %axis) {T = !tf_type.int32ref} : (tensor<2x!tf_type.int32ref>, tensor<2xi32>, tensor<i32>) -> tensor<4xi32>
  %2 = "tf.Assign"(%0, %arg0) {use_locking = true, validate_shape = true} : (tensor<2x!tf_type.int32ref>, tensor<2xi32>) -> tensor<2x!tf_type.int32ref>
  func.return %1, %2 : tensor<4xi32>, tensor<2x!tf_type.int32ref>
}

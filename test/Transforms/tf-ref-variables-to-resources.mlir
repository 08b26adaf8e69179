// RUN: fallback-opt %s --split-input-file --tf-ref-variables-to-resources --verify-diagnostics | FileCheck %s

// A variable, its initialization and reads: a handle, an assignment, and a
// read right before each user of a ref (the Assign's output ref too).
// CHECK-LABEL: func.func @assign_and_read
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK: %[[H:.*]] = "tf.VarHandleOp"() {container = "", dtype = f32, shape = #tf_type.shape<2>, shared_name = "v"} : () -> tensor<!tf_type.resource>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[H]], %[[X]]) {dtype = f32, validate_shape = true}
// CHECK-NEXT: %[[R0:.*]] = "tf.ReadVariableOp"(%[[H]]) {dtype = f32} : (tensor<!tf_type.resource>) -> tensor<*xf32>
// CHECK-NEXT: %[[A:.*]] = "tf.Identity"(%[[R0]])
// CHECK-NEXT: "tf.AssignAddVariableOp"(%[[H]], %[[A]]) {dtype = f32}
// CHECK-NEXT: %[[R1:.*]] = "tf.ReadVariableOp"(%[[H]])
// CHECK-NEXT: %[[B:.*]] = "tf.Neg"(%[[R1]])
// CHECK-NEXT: return %[[A]], %[[B]]
// CHECK-NOT: VariableV2
func.func @assign_and_read(%x: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %v = "tf.VariableV2"() {dtype = f32, shape = #tf_type.shape<2>, container = "", shared_name = "v"} : () -> tensor<*xf32>
  %a = "tf.Assign"(%v, %x) {T = f32, use_locking = true} : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %r = "tf.Identity"(%a) {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  %s = "tf.AssignAdd"(%v, %r) {T = f32} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %n = "tf.Neg"(%v) {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return %r, %n : tensor<*xf32>, tensor<*xf32>
}

// -----

// Without shared_name the variable is named after its node (the name
// location); validate_shape = false is kept; IsVariableInitialized tests
// the variable without reading it; AssignSub.
// CHECK-LABEL: func.func @named_by_node
// CHECK: %[[H:.*]] = "tf.VarHandleOp"() {container = "", dtype = i32, shape = #tf_type.shape<>, shared_name = "counter"}
// CHECK-NEXT: %[[INIT:.*]] = "tf.VarIsInitializedOp"(%[[H]]) : (tensor<!tf_type.resource>) -> tensor<i1>
// CHECK-NEXT: "tf.AssignVariableOp"(%[[H]], %{{.*}}) {dtype = i32, validate_shape = false}
// CHECK-NEXT: "tf.AssignSubVariableOp"(%[[H]], %{{.*}}) {dtype = i32}
// CHECK-NEXT: return %[[INIT]]
func.func @named_by_node(%x: tensor<i32>) -> tensor<i1> {
  %v = "tf.VariableV2"() {dtype = i32, shape = #tf_type.shape<>, container = "", shared_name = ""} : () -> tensor<*xi32> loc("counter")
  %init = "tf.IsVariableInitialized"(%v) {dtype = i32} : (tensor<*xi32>) -> tensor<i1>
  %a = "tf.Assign"(%v, %x) {T = i32, validate_shape = false} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %b = "tf.AssignSub"(%a, %x) {T = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  return %init : tensor<i1>
}

// -----

// A ref that enters a function as an argument cannot be updated there.
func.func private @body(%ref: tensor<*xf32>, %x: tensor<f32>) -> tensor<*xf32> {
  // expected-error@+1 {{'tf.Assign' op updates or tests a ref that is no tf.VariableV2 of its function; refs passed between functions are not supported}}
  %a = "tf.Assign"(%ref, %x) {T = f32} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return %a : tensor<*xf32>
}

// -----

// TensorFlow's MLIR leaves `dtype` out: the referent of the ref result
// gives it.
// CHECK-LABEL: func.func @derived_dtype
// CHECK: "tf.VarHandleOp"() {container = "", dtype = f32, shape = #tf_type.shape<>, shared_name = "w"}
func.func @derived_dtype() -> tensor<f32> {
  %v = "tf.VariableV2"() {shape = #tf_type.shape<>, container = "", shared_name = "w"} : () -> tensor<!tf_type.f32ref>
  %r = "tf.Identity"(%v) : (tensor<!tf_type.f32ref>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @no_dtype() -> tensor<*x!tf_type.resource> {
  // expected-error@+1 {{'tf.VariableV2' op requires a 'dtype' type attribute or a result whose type gives it}}
  %v = "tf.VariableV2"() {shape = #tf_type.shape<>, container = "", shared_name = "w"} : () -> tensor<*x!tf_type.resource>
  return %v : tensor<*x!tf_type.resource>
}

// RUN: fallback-opt %s --split-input-file --tf-hoist-loop-invariant-reads | FileCheck %s

// A read of a loop-invariant handle in cond and body: one read before the
// loop, its value a new loop value; the T list grows.
// CHECK-LABEL: func.func private @cond
// CHECK-SAME: (%{{.*}}: tensor<i32>, %{{.*}}: tensor<!tf_type.resource>, %[[W:.*]]: tensor<i32>) -> tensor<i1>
// CHECK-NOT: ReadVariableOp
// CHECK: "tf.Less"(%{{.*}}, %[[W]])
// CHECK-LABEL: func.func private @body
// CHECK-SAME: (%[[I:.*]]: tensor<i32>, %[[H:.*]]: tensor<!tf_type.resource>, %[[W:.*]]: tensor<i32>) -> (tensor<i32>, tensor<!tf_type.resource>, tensor<i32>)
// CHECK-NOT: ReadVariableOp
// CHECK: %[[J:.*]] = "tf.AddV2"(%[[I]], %[[W]])
// CHECK: return %[[J]], %[[H]], %[[W]]
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[HANDLE:.*]]: tensor<!tf_type.resource>
// CHECK: %[[READ:.*]] = "tf.ReadVariableOp"(%[[HANDLE]]) {dtype = i32}
// CHECK: %[[LOOP:.*]]:3 = "tf.While"(%{{.*}}, %[[HANDLE]], %[[READ]]) {T = [i32, !tf_type.resource, i32], body = @body, cond = @cond, is_stateless = false}
// CHECK: return %[[LOOP]]#0
func.func private @cond(%i: tensor<i32>, %h: tensor<!tf_type.resource>) -> tensor<i1> {
  %n = "tf.ReadVariableOp"(%h) {dtype = i32} : (tensor<!tf_type.resource>) -> tensor<i32>
  %lt = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %h: tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>) {
  %w = "tf.ReadVariableOp"(%h) {dtype = i32} : (tensor<!tf_type.resource>) -> tensor<i32>
  %j = "tf.AddV2"(%i, %w) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %h : tensor<i32>, tensor<!tf_type.resource>
}
func.func @main(%h: tensor<!tf_type.resource>, %i: tensor<i32>) -> tensor<i32> {
  %r:2 = "tf.While"(%i, %h) {T = [i32, !tf_type.resource], cond = @cond, body = @body, is_stateless = false} : (tensor<i32>, tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>)
  return %r#0 : tensor<i32>
}

// -----

// A handle the body makes itself: copied before the loop, removed from the
// body with its read, so the body has no stateful op left.
// CHECK-LABEL: func.func private @own_handle_body
// CHECK-NOT: VarHandleOp
// CHECK-NOT: ReadVariableOp
// CHECK: return
// CHECK-LABEL: func.func @own_handle
// CHECK: %[[H:.*]] = "tf.VarHandleOp"() {container = "", dtype = f32, shape = #tf_type.shape<>, shared_name = "scale"}
// CHECK-NEXT: %[[R:.*]] = "tf.ReadVariableOp"(%[[H]]) {dtype = f32}
// CHECK-NEXT: "tf.While"(%{{.*}}, %{{.*}}, %[[R]])
func.func private @own_handle_cond(%i: tensor<i32>, %x: tensor<f32>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @own_handle_body(%i: tensor<i32>, %x: tensor<f32>) -> (tensor<i32>, tensor<f32>) {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "scale", dtype = f32, shape = #tf_type.shape<>} : () -> tensor<!tf_type.resource>
  %s = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource>) -> tensor<f32>
  %y = "tf.Mul"(%x, %s) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %y : tensor<i32>, tensor<f32>
}
func.func @own_handle(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %r:2 = "tf.While"(%i, %x) {cond = @own_handle_cond, body = @own_handle_body, is_stateless = false} : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  return %r#1 : tensor<f32>
}

// -----

// The body writes a variable (here through a function it calls): the read
// stays.
// CHECK-LABEL: func.func private @writes_body
// CHECK: "tf.ReadVariableOp"
// CHECK: "tf.StatefulPartitionedCall"
// CHECK-LABEL: func.func @writes
// CHECK-NOT: ReadVariableOp
// CHECK: "tf.While"
func.func private @bump(%h: tensor<!tf_type.resource>) -> () {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  "tf.AssignAddVariableOp"(%h, %one) {dtype = i32} : (tensor<!tf_type.resource>, tensor<i32>) -> ()
  return
}
func.func private @writes_cond(%i: tensor<i32>, %h: tensor<!tf_type.resource>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @writes_body(%i: tensor<i32>, %h: tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>) {
  %w = "tf.ReadVariableOp"(%h) {dtype = i32} : (tensor<!tf_type.resource>) -> tensor<i32>
  "tf.StatefulPartitionedCall"(%h) {f = @bump, config = "", config_proto = "", executor_type = ""} : (tensor<!tf_type.resource>) -> ()
  %j = "tf.AddV2"(%i, %w) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %h : tensor<i32>, tensor<!tf_type.resource>
}
func.func @writes(%h: tensor<!tf_type.resource>, %i: tensor<i32>) -> tensor<i32> {
  %r:2 = "tf.While"(%i, %h) {cond = @writes_cond, body = @writes_body, is_stateless = false} : (tensor<i32>, tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>)
  return %r#0 : tensor<i32>
}

// -----

// A handle that changes from one iteration to the next is not invariant,
// and a body another loop shares cannot change signature: both reads stay.
// CHECK-LABEL: func.func private @varying_body
// CHECK: "tf.ReadVariableOp"
// CHECK-LABEL: func.func private @shared_body
// CHECK: "tf.ReadVariableOp"
// CHECK-LABEL: func.func @kept
// CHECK-NOT: ReadVariableOp
// CHECK: return
func.func private @any_cond(%i: tensor<i32>, %a: tensor<!tf_type.resource>, %b: tensor<!tf_type.resource>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @varying_body(%i: tensor<i32>, %a: tensor<!tf_type.resource>, %b: tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource>) {
  %w = "tf.ReadVariableOp"(%a) {dtype = i32} : (tensor<!tf_type.resource>) -> tensor<i32>
  %j = "tf.AddV2"(%i, %w) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %b, %a : tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource>
}
func.func private @shared_cond(%i: tensor<i32>, %a: tensor<!tf_type.resource>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @shared_body(%i: tensor<i32>, %a: tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>) {
  %w = "tf.ReadVariableOp"(%a) {dtype = i32} : (tensor<!tf_type.resource>) -> tensor<i32>
  %j = "tf.AddV2"(%i, %w) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %a : tensor<i32>, tensor<!tf_type.resource>
}
func.func @kept(%a: tensor<!tf_type.resource>, %b: tensor<!tf_type.resource>, %i: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %r:3 = "tf.While"(%i, %a, %b) {cond = @any_cond, body = @varying_body, is_stateless = false} : (tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>, tensor<!tf_type.resource>)
  %s:2 = "tf.While"(%i, %a) {cond = @shared_cond, body = @shared_body, is_stateless = false} : (tensor<i32>, tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>)
  %t:2 = "tf.While"(%i, %a) {cond = @shared_cond, body = @shared_body, is_stateless = false} : (tensor<i32>, tensor<!tf_type.resource>) -> (tensor<i32>, tensor<!tf_type.resource>)
  return %r#0, %s#0, %t#0 : tensor<i32>, tensor<i32>, tensor<i32>
}

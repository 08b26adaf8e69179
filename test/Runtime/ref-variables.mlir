// TF1 reference variables run as resource variables
// (--tf-ref-variables-to-resources): a VariableV2 is initialized by Assign,
// updated by AssignAdd inside a tf.While (the body names the same variable
// by its shared_name, as a TF1 loop body's own VariableV2 would), read by
// its users, and IsVariableInitialized tells a variable apart from one
// never assigned. A second loop only reads the variable "scale": the read
// leaves the loop (--tf-hoist-loop-invariant-reads), whose body then needs
// no chain. Hand-derived: acc = 100, then + 0 + 1 + 2 = 103; x = 1.5 times
// scale = 2 three times: 12.
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 --benchmark=2 | FileCheck %s
// CHECK: result #0: tensor<i32>
// CHECK-NEXT: 103
// CHECK: result #1: tensor<i1>
// CHECK-NEXT: True
// CHECK: result #2: tensor<i1>
// CHECK-NEXT: False
// CHECK: result #3: tensor<f32>
// CHECK-NEXT: 12.

// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=LOWERED
// LOWERED-LABEL: func.func private @add_i(
// LOWERED-SAME: !tfrt_fallback.chain
// LOWERED: "AssignAddVariableOp"
// LOWERED-LABEL: func.func private @times_scale(
// LOWERED-NOT: chain
// LOWERED-NOT: ReadVariableOp
// LOWERED: return
// LOWERED-LABEL: func.func @main
// LOWERED: tfrt_fallback.while @below_three @add_i
// LOWERED: %[[SCALE:.*]], %{{.*}} = tfrt_fallback.kernel_call "ReadVariableOp"(%{{.*}}) chain(%{{.*}}) {dtype = f32}
// LOWERED-NEXT: tfrt_fallback.while @below_three_f @times_scale (%{{.*}}, %{{.*}}, %[[SCALE]]) :

func.func private @below_three(%i: tensor<i32>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @add_i(%i: tensor<i32>) -> tensor<i32> {
  %acc = "tf.VariableV2"() {dtype = i32, shape = #tf_type.shape<>, container = "", shared_name = "acc"} : () -> tensor<*xi32>
  %sum = "tf.AssignAdd"(%acc, %i) {T = i32} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j : tensor<i32>
}

func.func private @below_three_f(%i: tensor<i32>, %x: tensor<f32>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @times_scale(%i: tensor<i32>, %x: tensor<f32>) -> (tensor<i32>, tensor<f32>) {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "scale", dtype = f32, shape = #tf_type.shape<>} : () -> tensor<!tf_type.resource>
  %s = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource>) -> tensor<f32>
  %y = "tf.Mul"(%x, %s) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %y : tensor<i32>, tensor<f32>
}

func.func @main() -> (tensor<*xi32>, tensor<i1>, tensor<i1>, tensor<f32>) {
  %acc = "tf.VariableV2"() {dtype = i32, shape = #tf_type.shape<>, container = "", shared_name = "acc"} : () -> tensor<*xi32>
  %hundred = "tf.Const"() {value = dense<100> : tensor<i32>} : () -> tensor<i32>
  %init = "tf.Assign"(%acc, %hundred) {T = i32, use_locking = true, validate_shape = true} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.While"(%zero) {cond = @below_three, body = @add_i, is_stateless = false} : (tensor<i32>) -> tensor<i32>
  %read = "tf.Identity"(%acc) {T = i32} : (tensor<*xi32>) -> tensor<*xi32>
  %yes = "tf.IsVariableInitialized"(%acc) {dtype = i32} : (tensor<*xi32>) -> tensor<i1>
  %never = "tf.VariableV2"() {dtype = f32, shape = #tf_type.shape<>, container = "", shared_name = "never"} : () -> tensor<*xf32>
  %no = "tf.IsVariableInitialized"(%never) {dtype = f32} : (tensor<*xf32>) -> tensor<i1>

  %scale = "tf.VarHandleOp"() {container = "", shared_name = "scale", dtype = f32, shape = #tf_type.shape<>} : () -> tensor<!tf_type.resource>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  "tf.AssignVariableOp"(%scale, %two) {dtype = f32} : (tensor<!tf_type.resource>, tensor<f32>) -> ()
  %x = "tf.Const"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %scaled:2 = "tf.While"(%zero, %x) {cond = @below_three_f, body = @times_scale, is_stateless = false} : (tensor<i32>, tensor<f32>) -> (tensor<i32>, tensor<f32>)
  return %read, %yes, %no, %scaled#1 : tensor<*xi32>, tensor<i1>, tensor<i1>, tensor<f32>
}

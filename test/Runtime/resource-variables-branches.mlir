// Chains thread through branches inside a loop: the branches of a tf.If in
// a tf.While body update a resource variable, the body reads it after the
// If, and a tf.Case after the loop updates it again; each read sees every
// update before it. From the .mlir and through a .bef, on one thread and on
// the dataflow executor.
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 | FileCheck %s
// RUN: fallback-run-lite %t.bef --threads=2 | FileCheck %s

// The lowering passes the chain into the If and the Case and through the
// loop.
// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=LOWERED
// LOWERED: tfrt_fallback.if {{.*}} chain(
// LOWERED: tfrt_fallback.while {{.*}} chain(
// LOWERED: tfrt_fallback.case {{.*}} chain(

// Hand-derived: v = 0; for i in 0..3: v += 10 if i is even else v -= 1,
// then acc += v: v = 10, 9, 19, 18 and acc = 10 + 9 + 19 + 18 = 56. Then
// the Case's branch 1 doubles v: 36.
// CHECK: result #0: tensor<f32>
// CHECK-NEXT: 56.
// CHECK: result #1: tensor<f32>
// CHECK-NEXT: 36.

!res = tensor<!tf_type.resource<tensor<f32>>>

func.func private @add_ten(%h: !res) -> () {
  %ten = "tf.Const"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
  "tf.AssignAddVariableOp"(%h, %ten) {dtype = f32} : (!res, tensor<f32>) -> ()
  return
}
func.func private @sub_one(%h: !res) -> () {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  "tf.AssignSubVariableOp"(%h, %one) {dtype = f32} : (!res, tensor<f32>) -> ()
  return
}
func.func private @keep(%h: !res) -> () {
  return
}
func.func private @double(%h: !res) -> () {
  %v = "tf.ReadVariableOp"(%h) {dtype = f32} : (!res) -> tensor<f32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %w = "tf.Mul"(%v, %two) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  "tf.AssignVariableOp"(%h, %w) {dtype = f32} : (!res, tensor<f32>) -> ()
  return
}

func.func private @below_four(%i: tensor<i32>, %acc: tensor<f32>, %h: !res) -> tensor<i1> {
  %four = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %four) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @step(%i: tensor<i32>, %acc: tensor<f32>, %h: !res) -> (tensor<i32>, tensor<f32>, !res) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %r = "tf.FloorMod"(%i, %two) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %even = "tf.Equal"(%r, %zero) {incompatible_shape_error = true} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  "tf.If"(%even, %h) {then_branch = @add_ten, else_branch = @sub_one, is_stateless = false} : (tensor<i1>, !res) -> ()
  %v = "tf.ReadVariableOp"(%h) {dtype = f32} : (!res) -> tensor<f32>
  %acc2 = "tf.AddV2"(%acc, %v) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %i2 = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %i2, %acc2, %h : tensor<i32>, tensor<f32>, !res
}

func.func @main() -> (tensor<f32>, tensor<f32>) {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<>} : () -> !res
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  "tf.AssignVariableOp"(%h, %zero) {dtype = f32} : (!res, tensor<f32>) -> ()
  %i0 = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %loop:3 = "tf.While"(%i0, %zero, %h) {cond = @below_four, body = @step, is_stateless = false, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<f32>, !res) -> (tensor<i32>, tensor<f32>, !res)
  %index = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  "tf.Case"(%index, %h) {branches = [@keep, @double], is_stateless = false} : (tensor<i32>, !res) -> ()
  %final = "tf.ReadVariableOp"(%h) {dtype = f32} : (!res) -> tensor<f32>
  return %loop#1, %final : tensor<f32>, tensor<f32>
}

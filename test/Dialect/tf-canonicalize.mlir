// RUN: fallback-opt %s --canonicalize | FileCheck %s

// The canonicalizer removes unused tf ops that the op table lists as pure, and
// keeps stateful ones, unknown ones (they may have side effects) and used
// ones.

// CHECK-LABEL: func @dead_tf_ops
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[S:.*]]: tensor<2xi32>)
func.func @dead_tf_ops(%x: tensor<2xf32>, %s: tensor<2xi32>) -> tensor<2xf32> {
  // CHECK-NOT: "tf.Const"
  // CHECK-NOT: "tf.Relu"
  // CHECK-NOT: "tf.AddV2"
  // CHECK-NOT: "tf.NoOp"
  // CHECK-NOT: "tf.Gather"
  // CHECK-NOT: "tf.Inv"
  %c = "tf.Const"() {value = dense<1.0> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.AddV2"(%0, %c) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "tf.NoOp"() : () -> ()
  %g = "tf.Gather"(%x, %s) {Tindices = i32, Tparams = f32} : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  %v = "tf.Inv"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: "tf.RandomUniform"(%[[S]])
  %2 = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  // CHECK: "tf.Print"(%[[X]])
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  // CHECK: "tf.MyCustomOp"(%[[X]])
  %3 = "tf.MyCustomOp"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[USED:.*]] = "tf.Sigmoid"(%[[X]])
  %4 = "tf.Sigmoid"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: return %[[USED]]
  return %4 : tensor<2xf32>
}

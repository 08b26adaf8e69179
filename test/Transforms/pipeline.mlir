// RUN: fallback-opt %s --tfrt-fallback-pipeline=allow-unsupported | FileCheck %s

// --tfrt-fallback-pipeline canonicalizes, lowers and cleans up: dead pure
// tf ops disappear, dead stateful ones stay, duplicate constants are merged
// and unused private functions are removed.

// CHECK-LABEL: func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[S:.*]]: tensor<2xi32>)
// CHECK-DAG: %[[CST:.*]] = tfrt_fallback.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK-NOT: tfrt_fallback.constant
// CHECK: %{{.*}}, %[[C1:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%[[S]]) chain(%[[C0]])
// CHECK: %[[SUM:.*]] = tfrt_fallback.kernel_call "AddV2"(%[[CST]], %[[X]]) {T = f32}
// CHECK: %[[MM:.*]] = tfrt_fallback.kernel_call "MatMul"(%[[SUM]], %[[CST]]) {T = f32}
// CHECK: tfrt_fallback.kernel_call "Print"(%[[MM]]) chain(%[[C1]])
// CHECK: %[[R:.*]] = call @used(%[[MM]])
// CHECK: return %[[R]]
// CHECK-NOT: "Relu"
// CHECK-NOT: "Sigmoid"
// CHECK-NOT: @unused
// CHECK-LABEL: func private @used
// CHECK-NOT: @unused
func.func @main(%x: tensor<2xf32>, %s: tensor<2xi32>) -> tensor<2xf32> {
  %c1 = "tf.Const"() {value = dense<1.0> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %c2 = "tf.Const"() {value = dense<1.0> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %dead = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %dead2 = "tf.Sigmoid"(%dead) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %dead_stateful = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %0 = "tf.AddV2"(%c1, %x) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.MatMul"(%0, %c2) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.Identity"(%1) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  "tf.Print"(%2) {T = f32} : (tensor<2xf32>) -> ()
  %3 = func.call @used(%2) : (tensor<2xf32>) -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

func.func private @unused(%x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return %x : tensor<2xf32>
}

func.func private @used(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Neg"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

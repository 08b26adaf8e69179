// RUN: not fallback-run %s --threads=1 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// Assert and CheckNumerics end to end from TF MLIR. A passing Assert lets
// its chain through; a failing one fails the stateful ops ordered after it
// (here a variable read) with the summarized data. CheckNumerics passes
// finite values and rejects a NaN.

func.func @main() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>, dtype = i1} : () -> tensor<i1>
  %f = "tf.Const"() {value = dense<false> : tensor<i1>, dtype = i1} : () -> tensor<i1>
  %x = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2>} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  "tf.AssignVariableOp"(%h, %x) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  "tf.Assert"(%t, %x) {summarize = 3 : i64} : (tensor<i1>, tensor<2xf32>) -> ()
  %r0 = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  "tf.Assert"(%f, %x) {summarize = 1 : i64} : (tensor<i1>, tensor<2xf32>) -> ()
  %r1 = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %0 = "tf.CheckNumerics"(%x) {message = "x"} : (tensor<2xf32>) -> tensor<2xf32>
  %nan = "tf.Const"() {value = dense<[0x7FC00000, 1.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %1 = "tf.CheckNumericsV2"(%nan) {message = "y"} : (tensor<2xf32>) -> tensor<2xf32>
  return %r0, %r1, %0, %1 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK: result #0: tensor<2xf32>
// CHECK-NEXT: [1., 2.]
// CHECK-NOT: result #1
// CHECK: result #2: tensor<2xf32>
// CHECK-NEXT: [1., 2.]
// CHECK-NOT: result #3
// ERR-DAG: error: result #1: Assert '{{.*}}check.mlir:17:3': assertion failed: [1...]
// ERR-DAG: error: result #3: CheckNumericsV2 '{{.*}}check.mlir:21:8': y : Tensor had NaN values

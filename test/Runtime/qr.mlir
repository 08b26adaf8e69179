// RUN: fallback-run %s --threads=1 | FileCheck %s
// Qr, the deprecated BatchMatrix* names, TopK (v1) and InTopKV2 end to end
// from TF MLIR. Expected values derived by hand: a column whose entries
// below the diagonal are already 0 needs no Householder reflection (tau =
// 0), so the QR of a diagonal matrix is q = I, r = the matrix;
// BatchMatrixInverse inverts a diagonal.

func.func @main() -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<3xi1>) {
  %a = "tf.Const"() {value = dense<[[2.0, 0.0], [0.0, 4.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %0:2 = "tf.Qr"(%a) {full_matrices = false} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  %1 = "tf.BatchMatrixInverse"(%a) {adjoint = false} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %v = "tf.Const"() {value = dense<[3.0, 9.0, 1.0]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %2:2 = "tf.TopK"(%v) {k = 2 : i64, sorted = true} : (tensor<3xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  %p = "tf.Const"() {value = dense<[[0.1, 0.9], [0.6, 0.4], [0.5, 0.5]]> : tensor<3x2xf32>, dtype = f32} : () -> tensor<3x2xf32>
  %t = "tf.Const"() {value = dense<[1, 1, 1]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %k = "tf.Const"() {value = dense<1> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %3 = "tf.InTopKV2"(%p, %t, %k) : (tensor<3x2xf32>, tensor<3xi32>, tensor<i32>) -> tensor<3xi1>
  return %0#0, %0#1, %1, %2#0, %2#1, %3 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<3xi1>
}

// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}1., 0.],
// CHECK-NEXT: [0., 1.]]
// CHECK: result #1: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}2., 0.],
// CHECK-NEXT: [0., 4.]]
// CHECK: result #2: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}0.5, 0.],
// CHECK-NEXT: [0., 0.25]]
// CHECK: result #3: tensor<2xf32>
// CHECK-NEXT: [9., 3.]
// CHECK: result #4: tensor<2xi32>
// CHECK-NEXT: [1, 0]
// A tie (row 2) counts for the target.
// CHECK: result #5: tensor<3xi1>
// CHECK-NEXT: [True, False, True]

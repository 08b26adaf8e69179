// RUN: fallback-run %s --threads=1 | FileCheck %s
// The linalg family end to end from TF MLIR (type attributes left implicit):
// MatrixInverse (adjoint), MatrixDeterminant and LogMatrixDeterminant over a
// batch, Cholesky, MatrixSolve, MatrixTriangularSolve, MatrixBandPart with
// int64 bounds, Diag, MatrixDiagV3 (a tridiagonal band), MatrixDiagPartV3
// and MatrixSetDiag. Expected values derived by hand; the matrices are
// chosen so that every result is exact in f32.

func.func @main() -> (tensor<2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x2xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<3x3xf32>, tensor<2x2xi32>, tensor<3x3xi32>, tensor<3x3xi32>, tensor<2x3xf32>) {
  %a = "tf.Const"() {value = dense<[[2.0, 1.0], [0.0, 1.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %0 = "tf.MatrixInverse"(%a) {adjoint = true} : (tensor<2x2xf32>) -> tensor<2x2xf32>

  %batch = "tf.Const"() {value = dense<[[[1.0, 5.0], [0.0, 1.0]], [[0.0, 1.0], [1.0, 0.0]], [[1.0, 2.0], [2.0, 4.0]]]> : tensor<3x2x2xf32>, dtype = f32} : () -> tensor<3x2x2xf32>
  %1 = "tf.MatrixDeterminant"(%batch) : (tensor<3x2x2xf32>) -> tensor<3xf32>
  %2:2 = "tf.LogMatrixDeterminant"(%batch) : (tensor<3x2x2xf32>) -> (tensor<3xf32>, tensor<3xf32>)

  %spd = "tf.Const"() {value = dense<[[4.0, 2.0], [2.0, 5.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %3 = "tf.Cholesky"(%spd) : (tensor<2x2xf32>) -> tensor<2x2xf32>

  %m = "tf.Const"() {value = dense<[[1.0, 1.0], [1.0, -1.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %rhs = "tf.Const"() {value = dense<[[3.0], [1.0]]> : tensor<2x1xf32>, dtype = f32} : () -> tensor<2x1xf32>
  %4 = "tf.MatrixSolve"(%m, %rhs) {adjoint = false} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %tri = "tf.Const"() {value = dense<[[2.0, 9.0], [1.0, 1.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %b = "tf.Const"() {value = dense<[[2.0], [3.0]]> : tensor<2x1xf32>, dtype = f32} : () -> tensor<2x1xf32>
  %5 = "tf.MatrixTriangularSolve"(%tri, %b) {lower = true, adjoint = false} : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>

  %x = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>, dtype = f32} : () -> tensor<3x3xf32>
  %one = "tf.Const"() {value = dense<1> : tensor<i64>, dtype = i64} : () -> tensor<i64>
  %zero = "tf.Const"() {value = dense<0> : tensor<i64>, dtype = i64} : () -> tensor<i64>
  %6 = "tf.MatrixBandPart"(%x, %one, %zero) : (tensor<3x3xf32>, tensor<i64>, tensor<i64>) -> tensor<3x3xf32>

  %d = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %7 = "tf.Diag"(%d) : (tensor<2xi32>) -> tensor<2x2xi32>

  %diags = "tf.Const"() {value = dense<[[0, 8, 9], [1, 2, 3], [4, 5, 0]]> : tensor<3x3xi32>, dtype = i32} : () -> tensor<3x3xi32>
  %k = "tf.Const"() {value = dense<[-1, 1]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %minus1 = "tf.Const"() {value = dense<-1> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %pad = "tf.Const"() {value = dense<0> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %8 = "tf.MatrixDiagV3"(%diags, %k, %minus1, %minus1, %pad) {align = "RIGHT_LEFT"} : (tensor<3x3xi32>, tensor<2xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x3xi32>
  %pad7 = "tf.Const"() {value = dense<7> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %9 = "tf.MatrixDiagPartV3"(%8, %k, %pad7) {align = "LEFT_LEFT"} : (tensor<3x3xi32>, tensor<2xi32>, tensor<i32>) -> tensor<3x3xi32>

  %y = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dtype = f32} : () -> tensor<2x3xf32>
  %nd = "tf.Const"() {value = dense<[-1.0, -2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %10 = "tf.MatrixSetDiag"(%y, %nd) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0, %1, %2#0, %2#1, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<2x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2x2xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<3x3xf32>, tensor<2x2xi32>, tensor<3x3xi32>, tensor<3x3xi32>, tensor<2x3xf32>
}

// The inverse of the transpose [[2, 0], [1, 1]].
// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}0.5, 0.],
// CHECK-NEXT: [-0.5, 1.]]
// Upper unit triangular: 1; one row swap: -1; rank 1: 0.
// CHECK: result #1: tensor<3xf32>
// CHECK-NEXT: [1., -1., 0.]
// CHECK: result #2: tensor<3xf32>
// CHECK-NEXT: [1., -1., 0.]
// CHECK: result #3: tensor<3xf32>
// CHECK-NEXT: [0., 0., -inf]
// [[4, 2], [2, 5]] = L L^T with L = [[2, 0], [1, 2]].
// CHECK: result #4: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}2., 0.],
// CHECK-NEXT: [1., 2.]]
// x + y = 3, x - y = 1.
// CHECK: result #5: tensor<2x1xf32>
// CHECK-NEXT: {{\[\[}}2.],
// CHECK-NEXT: [1.]]
// 2 x0 = 2, x0 + x1 = 3 (the 9 above the diagonal is ignored).
// CHECK: result #6: tensor<2x1xf32>
// CHECK-NEXT: {{\[\[}}1.],
// CHECK-NEXT: [2.]]
// One subdiagonal, no superdiagonal.
// CHECK: result #7: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}1., 0., 0.],
// CHECK-NEXT: [4., 5., 0.],
// CHECK-NEXT: [0., 8., 9.]]
// CHECK: result #8: tensor<2x2xi32>
// CHECK-NEXT: {{\[\[}}1, 0],
// CHECK-NEXT: [0, 2]]
// Superdiagonal [8, 9] right-aligned, subdiagonal [4, 5] left-aligned.
// CHECK: result #9: tensor<3x3xi32>
// CHECK-NEXT: {{\[\[}}1, 8, 0],
// CHECK-NEXT: [4, 2, 9],
// CHECK-NEXT: [0, 5, 3]]
// Read back left-aligned, padded with 7.
// CHECK: result #10: tensor<3x3xi32>
// CHECK-NEXT: {{\[\[}}8, 9, 7],
// CHECK-NEXT: [1, 2, 3],
// CHECK-NEXT: [4, 5, 7]]
// CHECK: result #11: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}-1., 2., 3.],
// CHECK-NEXT: [4., -2., 6.]]

// TensorStridedSliceUpdate from the .mlir and through a .bef. Expected
// values derived by hand.
// RUN: fallback-run %s | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef | FileCheck %s

// [1, 2, 3][::2] = [7, 9].
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: {{\[}}7., 2., 9.]
// [[1, 2], [3, 4]][:, 1] = [5, 6] (end_mask on dim 0, shrink on dim 1).
// CHECK: result #1: tensor<2x2xi32>
// CHECK-NEXT: {{\[\[}}1, 5],
// CHECK-NEXT: [3, 6]]

func.func @main() -> (tensor<3xf32>, tensor<2x2xi32>) {
  %v = "tf.Const"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = "tf.Const"() {value = dense<[0]> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {value = dense<[3]> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tf.Const"() {value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %u = "tf.Const"() {value = dense<[7.0, 9.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.TensorStridedSliceUpdate"(%v, %b, %e, %s, %u) {begin_mask = 0 : i64, end_mask = 0 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<2xf32>) -> tensor<3xf32>
  %m = "tf.Const"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %b2 = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %e2 = "tf.Const"() {value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2 = "tf.Const"() {value = dense<[1, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %u2 = "tf.Const"() {value = dense<[5, 6]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.TensorStridedSliceUpdate"(%m, %b2, %e2, %s2, %u2) {begin_mask = 0 : i64, end_mask = 1 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64} : (tensor<2x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  return %0, %1 : tensor<3xf32>, tensor<2x2xi32>
}

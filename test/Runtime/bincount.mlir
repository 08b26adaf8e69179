// RUN: fallback-run %s --threads=1 | FileCheck %s
// Bincount, DenseBincount and RaggedBincount end to end from TF MLIR (type
// attributes left implicit). Expected values derived by hand.

func.func @main() -> (tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xi64>) {
  %arr = "tf.Const"() {value = dense<[0, 3, 3, 1, 7]> : tensor<5xi32>, dtype = i32} : () -> tensor<5xi32>
  %size = "tf.Const"() {value = dense<4> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %none = "tf.Const"() {value = dense<> : tensor<0xi32>, dtype = i32} : () -> tensor<0xi32>
  %0 = "tf.Bincount"(%arr, %size, %none) : (tensor<5xi32>, tensor<i32>, tensor<0xi32>) -> tensor<4xi32>
  %in = "tf.Const"() {value = dense<[[0, 2], [2, 2]]> : tensor<2x2xi64>, dtype = i64} : () -> tensor<2x2xi64>
  %size3 = "tf.Const"() {value = dense<3> : tensor<i64>, dtype = i64} : () -> tensor<i64>
  %w = "tf.Const"() {value = dense<[[0.5, 1.5], [2.0, 3.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %1 = "tf.DenseBincount"(%in, %size3, %w) {binary_output = false} : (tensor<2x2xi64>, tensor<i64>, tensor<2x2xf32>) -> tensor<2x3xf32>
  %splits = "tf.Const"() {value = dense<[0, 1, 3]> : tensor<3xi64>, dtype = i64} : () -> tensor<3xi64>
  %vals = "tf.Const"() {value = dense<[2, 0, 0]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %nw = "tf.Const"() {value = dense<> : tensor<0xi64>, dtype = i64} : () -> tensor<0xi64>
  %s3 = "tf.Const"() {value = dense<3> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %2 = "tf.RaggedBincount"(%splits, %vals, %s3, %nw) {binary_output = true} : (tensor<3xi64>, tensor<3xi32>, tensor<i32>, tensor<0xi64>) -> tensor<2x3xi64>
  return %0, %1, %2 : tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xi64>
}

// 7 is beyond size 4 and dropped.
// CHECK: result #0: tensor<4xi32>
// CHECK-NEXT: [1, 1, 0, 2]
// CHECK: result #1: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}0.5, 0., 1.5],
// CHECK-NEXT: [0., 0., 5.]]
// Rows [2] and [0, 0], binary.
// CHECK: result #2: tensor<2x3xi64>
// CHECK-NEXT: {{\[\[}}0, 0, 1],
// CHECK-NEXT: [1, 0, 0]]

// RUN: fallback-run %s --threads=1 | FileCheck %s
// The array family end to end from TF MLIR (type attributes left
// implicit): ReverseSequence, Roll, OneHot, InvertPermutation, Bitcast,
// InplaceAdd, ParallelConcat and the v1 SpaceToBatch / BatchToSpace.
// Expected values derived by hand.

func.func @main() -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<3x3xf32>, tensor<3xi32>, tensor<2xi32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<4x1x1x1xf32>, tensor<1x2x2x1xf32>) {
  %x = "tf.Const"() {value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>, dtype = i32} : () -> tensor<2x3xi32>
  %len = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi64>, dtype = i64} : () -> tensor<2xi64>
  %0 = "tf.ReverseSequence"(%x, %len) {seq_dim = 1 : i64, batch_dim = 0 : i64} : (tensor<2x3xi32>, tensor<2xi64>) -> tensor<2x3xi32>
  %shift = "tf.Const"() {value = dense<[1, -1]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %axes = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %1 = "tf.Roll"(%x, %shift, %axes) : (tensor<2x3xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xi32>
  %idx = "tf.Const"() {value = dense<[2, 0, 5]> : tensor<3xi64>, dtype = i64} : () -> tensor<3xi64>
  %depth = "tf.Const"() {value = dense<3> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %on = "tf.Const"() {value = dense<1.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %off = "tf.Const"() {value = dense<0.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %2 = "tf.OneHot"(%idx, %depth, %on, %off) {axis = -1 : i64} : (tensor<3xi64>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<3x3xf32>
  %perm = "tf.Const"() {value = dense<[2, 0, 1]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %3 = "tf.InvertPermutation"(%perm) : (tensor<3xi32>) -> tensor<3xi32>
  %f = "tf.Const"() {value = dense<[1.0, -2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %4 = "tf.Bitcast"(%f) {type = i32} : (tensor<2xf32>) -> tensor<2xi32>
  %m = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %row = "tf.Const"() {value = dense<[1]> : tensor<1xi32>, dtype = i32} : () -> tensor<1xi32>
  %v = "tf.Const"() {value = dense<[[10.0, 20.0]]> : tensor<1x2xf32>, dtype = f32} : () -> tensor<1x2xf32>
  %5 = "tf.InplaceAdd"(%m, %row, %v) : (tensor<2x2xf32>, tensor<1xi32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %r0 = "tf.Const"() {value = dense<[[5.0, 6.0]]> : tensor<1x2xf32>, dtype = f32} : () -> tensor<1x2xf32>
  %6 = "tf.ParallelConcat"(%r0, %v) {shape = #tf_type.shape<2x2>} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %img = "tf.Const"() {value = dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>, dtype = f32} : () -> tensor<1x2x2x1xf32>
  %pads = "tf.Const"() {value = dense<0> : tensor<2x2xi32>, dtype = i32} : () -> tensor<2x2xi32>
  %7 = "tf.SpaceToBatch"(%img, %pads) {block_size = 2 : i64} : (tensor<1x2x2x1xf32>, tensor<2x2xi32>) -> tensor<4x1x1x1xf32>
  %8 = "tf.BatchToSpace"(%7, %pads) {block_size = 2 : i64} : (tensor<4x1x1x1xf32>, tensor<2x2xi32>) -> tensor<1x2x2x1xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<3x3xf32>, tensor<3xi32>, tensor<2xi32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<4x1x1x1xf32>, tensor<1x2x2x1xf32>
}

// Row 0 reverses its first 2 values, row 1 all 3.
// CHECK: result #0: tensor<2x3xi32>
// CHECK-NEXT: {{\[\[}}2, 1, 3],
// CHECK-NEXT: [6, 5, 4]]
// Rows swap (shift 1 of 2), columns move left by one.
// CHECK: result #1: tensor<2x3xi32>
// CHECK-NEXT: {{\[\[}}5, 6, 4],
// CHECK-NEXT: [2, 3, 1]]
// Index 5 is out of [0, 3): a row of off values.
// CHECK: result #2: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}0., 0., 1.],
// CHECK-NEXT: [1., 0., 0.],
// CHECK-NEXT: [0., 0., 0.]]
// CHECK: result #3: tensor<3xi32>
// CHECK-NEXT: [1, 2, 0]
// 1.0f is 0x3f800000, -2.0f is 0xc0000000.
// CHECK: result #4: tensor<2xi32>
// CHECK-NEXT: [1065353216, -1073741824]
// CHECK: result #5: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}1., 2.],
// CHECK-NEXT: [13., 24.]]
// CHECK: result #6: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}5., 6.],
// CHECK-NEXT: [10., 20.]]
// Each pixel of the 2x2 block becomes a batch entry, and back.
// CHECK: result #7: tensor<4x1x1x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}1.]]],
// CHECK: {{\[\[\[}}2.]]],
// CHECK: {{\[\[\[}}3.]]],
// CHECK: {{\[\[\[}}4.]]]]
// CHECK: result #8: tensor<1x2x2x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}1.],
// CHECK-NEXT: [2.]],
// CHECK: {{\[\[}}3.],
// CHECK-NEXT: [4.]]]]

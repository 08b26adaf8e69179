// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --input=%S/Inputs/i32_shape_2.npy --threads=1 | FileCheck %s
// BiasAdd (NHWC and NCHW), Softmax, Reshape with a runtime shape, Identity.

func.func @main(%x: tensor<2x3xf32>, %shape: tensor<2xi32>) -> (tensor<2x3xf32>, tensor<1x2x1x3xf32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<6xf32>) {
  %b3 = "tf.Const"() {value = dense<[0.5, -1.0, 2.0]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %b2 = "tf.Const"() {value = dense<[10.0, 20.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %0 = "tf.BiasAdd"(%x, %b3) {T = f32, data_format = "NHWC"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %s4 = "tf.Const"() {value = dense<[1, 2, 1, 3]> : tensor<4xi64>, dtype = i64} : () -> tensor<4xi64>
  %x4 = "tf.Reshape"(%x, %s4) {T = f32, Tshape = i64} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<1x2x1x3xf32>
  %1 = "tf.BiasAdd"(%x4, %b2) {T = f32, data_format = "NCHW"} : (tensor<1x2x1x3xf32>, tensor<2xf32>) -> tensor<1x2x1x3xf32>
  %2 = "tf.Softmax"(%x) {T = f32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "tf.Reshape"(%x, %shape) {T = f32, Tshape = i32} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %m1 = "tf.Const"() {value = dense<[-1]> : tensor<1xi32>, dtype = i32} : () -> tensor<1xi32>
  %4 = "tf.Reshape"(%x, %m1) {T = f32, Tshape = i32} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<6xf32>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<1x2x1x3xf32>, tensor<2x3xf32>, tensor<?x?xf32>, tensor<6xf32>
}

// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1.5, 1., 5.],
// CHECK-NEXT: [4.5, 4., 8.]]
// CHECK: result #1: tensor<1x2x1x3xf32>
// CHECK-NEXT: {{\[\[\[\[}}11., 12., 13.]],
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}24., 25., 26.]]]]
// softmax([1, 2, 3]) = [0.0900306, 0.244728, 0.665241] for both rows.
// CHECK: result #2: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}0.0900306, 0.244728, 0.665241],
// CHECK-NEXT: [0.0900306, 0.244728, 0.665241]]
// CHECK: result #3: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}1., 2.],
// CHECK-NEXT: [3., 4.],
// CHECK-NEXT: [5., 6.]]
// CHECK: result #4: tensor<6xf32>
// CHECK-NEXT: [1., 2., 3., 4., 5., 6.]

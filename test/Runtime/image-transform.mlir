// ImageProjectiveTransformV2 and V3 from the .mlir and through a .bef.
// Expected values derived by hand.
// RUN: fallback-run %s | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef | FileCheck %s

// The row [1, 2, 3, 4] read at x - 1: WRAP gives 4 at x = 0 (V2, nearest).
// CHECK: result #0: tensor<1x1x4x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}4.],
// CHECK-NEXT: [1.],
// CHECK-NEXT: [2.],
// CHECK-NEXT: [3.]]]]
// Read at x + 0.5, bilinear, CONSTANT with fill_value 8 (V3): 1.5, 2.5,
// 3.5 and 4 * 0.5 + 8 * 0.5 = 6.
// CHECK: result #1: tensor<1x1x4x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}1.5],
// CHECK-NEXT: [2.5],
// CHECK-NEXT: [3.5],
// CHECK-NEXT: [6.]]]]

func.func @main() -> (tensor<1x1x4x1xf32>, tensor<1x1x4x1xf32>) {
  %row = "tf.Const"() {value = dense<[[[[1.0], [2.0], [3.0], [4.0]]]]> : tensor<1x1x4x1xf32>} : () -> tensor<1x1x4x1xf32>
  %left = "tf.Const"() {value = dense<[[1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0]]> : tensor<1x8xf32>} : () -> tensor<1x8xf32>
  %half = "tf.Const"() {value = dense<[[1.0, 0.0, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0]]> : tensor<1x8xf32>} : () -> tensor<1x8xf32>
  %shape = "tf.Const"() {value = dense<[1, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %fill = "tf.Const"() {value = dense<8.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.ImageProjectiveTransformV2"(%row, %left, %shape) {dtype = f32, interpolation = "NEAREST", fill_mode = "WRAP"} : (tensor<1x1x4x1xf32>, tensor<1x8xf32>, tensor<2xi32>) -> tensor<1x1x4x1xf32>
  %1 = "tf.ImageProjectiveTransformV3"(%row, %half, %shape, %fill) {dtype = f32, interpolation = "BILINEAR", fill_mode = "CONSTANT"} : (tensor<1x1x4x1xf32>, tensor<1x8xf32>, tensor<2xi32>, tensor<f32>) -> tensor<1x1x4x1xf32>
  return %0, %1 : tensor<1x1x4x1xf32>, tensor<1x1x4x1xf32>
}

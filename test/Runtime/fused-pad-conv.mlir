// FusedPadConv2D and FusedResizeAndPadConv2D from the .mlir and through a
// .bef. Expected values derived by hand.
// RUN: fallback-run %s | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef | FileCheck %s

// [1, 2, 3] REFLECT-padded by 1 on each side: [2, 1, 2, 3, 2]; a [1, 2]
// filter of ones, VALID: pairwise sums 3, 3, 5, 5.
// CHECK: result #0: tensor<1x1x4x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}3.],
// CHECK-NEXT: [3.],
// CHECK-NEXT: [5.],
// CHECK-NEXT: [5.]]]]
// [1, 3] resized to width 3 with align_corners: [1, 2, 3]; SYMMETRIC by 1
// on the right: [1, 2, 3, 3]; the same filter: 3, 5, 6.
// CHECK: result #1: tensor<1x1x3x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}3.],
// CHECK-NEXT: [5.],
// CHECK-NEXT: [6.]]]]

func.func @main() -> (tensor<1x1x4x1xf32>, tensor<1x1x3x1xf32>) {
  %x = "tf.Const"() {value = dense<[[[[1.0], [2.0], [3.0]]]]> : tensor<1x1x3x1xf32>} : () -> tensor<1x1x3x1xf32>
  %pads = "tf.Const"() {value = dense<[[0, 0], [0, 0], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %f = "tf.Const"() {value = dense<1.0> : tensor<1x2x1x1xf32>} : () -> tensor<1x2x1x1xf32>
  %0 = "tf.FusedPadConv2D"(%x, %pads, %f) {mode = "REFLECT", strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x1x3x1xf32>, tensor<4x2xi32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x1xf32>
  %y = "tf.Const"() {value = dense<[[[[1.0], [3.0]]]]> : tensor<1x1x2x1xf32>} : () -> tensor<1x1x2x1xf32>
  %size = "tf.Const"() {value = dense<[1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %rpads = "tf.Const"() {value = dense<[[0, 0], [0, 0], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %1 = "tf.FusedResizeAndPadConv2D"(%y, %size, %rpads, %f) {resize_align_corners = true, mode = "SYMMETRIC", strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x1x2x1xf32>, tensor<2xi32>, tensor<4x2xi32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x1xf32>
  return %0, %1 : tensor<1x1x4x1xf32>, tensor<1x1x3x1xf32>
}

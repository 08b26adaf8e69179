// RUN: fallback-run %s --threads=1 | FileCheck %s
// f16 and bf16 convolution, matrix product and reduction, which compute in
// f32 and round once (docs/Kernels.md, "16-bit floats"). Expected values
// derived by hand.

// CHECK-LABEL: result #0: tensor<1x2x2x1xf16>
// x = 1..9 in a 3x3 image, the filter [[1, 0], [0, 1]]: x[i][j] + x[i+1][j+1].
// CHECK-NEXT: {{\[\[\[}}[6.],
// CHECK-NEXT: [8.]],
// CHECK: {{\[}}[12.],
// CHECK-NEXT: [14.]]]]
// CHECK-LABEL: result #1: tensor<2x1xbf16>
// [[1, 2], [3, 4]] x [[0.5], [0.25]] = [[1], [2.5]].
// CHECK-NEXT: {{\[\[}}1.],
// CHECK-NEXT: [2.5]]
// CHECK-LABEL: result #2: tensor<f16>
// 4096 times f16(0.1) = 1638 / 16384 is 409.5 exactly; f16 partial sums
// would stop at 256.
// CHECK-NEXT: 409.5
func.func @main() -> (tensor<1x2x2x1xf16>, tensor<2x1xbf16>, tensor<f16>) {
  %x = "tf.Const"() {value = dense<[[[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]], [[7.0], [8.0], [9.0]]]]> : tensor<1x3x3x1xf16>} : () -> tensor<1x3x3x1xf16>
  %f = "tf.Const"() {value = dense<[[[[1.0]], [[0.0]]], [[[0.0]], [[1.0]]]]> : tensor<2x2x1x1xf16>} : () -> tensor<2x2x1x1xf16>
  %conv = "tf.Conv2D"(%x, %f) {strides = [1, 1, 1, 1], padding = "VALID", dilations = [1, 1, 1, 1], data_format = "NHWC"} : (tensor<1x3x3x1xf16>, tensor<2x2x1x1xf16>) -> tensor<1x2x2x1xf16>
  %a = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xbf16>} : () -> tensor<2x2xbf16>
  %b = "tf.Const"() {value = dense<[[0.5], [0.25]]> : tensor<2x1xbf16>} : () -> tensor<2x1xbf16>
  %mm = "tf.MatMul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<2x2xbf16>, tensor<2x1xbf16>) -> tensor<2x1xbf16>
  %n = "tf.Const"() {value = dense<4096> : tensor<1xi32>} : () -> tensor<1xi32>
  %tenth = "tf.Const"() {value = dense<0.1> : tensor<f16>} : () -> tensor<f16>
  %many = "tf.Fill"(%n, %tenth) : (tensor<1xi32>, tensor<f16>) -> tensor<?xf16>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %sum = "tf.Sum"(%many, %axis) {keep_dims = false} : (tensor<?xf16>, tensor<i32>) -> tensor<f16>
  return %conv, %mm, %sum : tensor<1x2x2x1xf16>, tensor<2x1xbf16>, tensor<f16>
}

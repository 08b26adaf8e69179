// Zero padding before a convolution becomes its EXPLICIT padding, and an
// inference batch norm after one with constant weights folds into the
// filter and a bias (--tfrt-fallback-fuse); both give the values the
// separate ops give.
// The inputs are constants, which the pipeline would fold before fusing:
// the fused program is compiled with fold-constants=false.
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false -o %t.fused.mlir
// RUN: fallback-run %t.fused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline="fuse=false fold-constants=false" -o %t.unfused.mlir
// RUN: fallback-run %t.unfused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false | FileCheck %s --check-prefix=LOWERED

// LOWERED-NOT: kernel_call "Pad"
// LOWERED-NOT: kernel_call "FusedBatchNormV3"
// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: explicit_paddings = [0, 0, 1, 0, 0, 1, 0, 0]
// LOWERED-SAME: fused_ops = ["BiasAdd"]
// LOWERED-SAME: padding = "EXPLICIT"
// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Relu"]

// Hand-derived. x = (1, 2) in one row; padded with a row above and a column
// after: [[0, 0, 0], [1, 2, 0]]; the 2x2 filter of ones, VALID: (3, 2),
// + bias 0.5: (3.5, 2.5).
// CHECK: result #0: tensor<1x1x2x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}3.5],
// CHECK-NEXT: {{\[}}2.5]]]]
// Conv 1x1, filter (1, 2): pixel 1 (1, 2), pixel 2 (2, 4); + bias (1, -1):
// (2, 1), (3, 3); batch norm with mean (1, 2), variance (0.75, 8.75),
// epsilon 0.25, scale (2, 3), offset (0.5, -1): factors 2 / 1 = 2 and
// 3 / 3 = 1: ((2 - 1) 2 + 0.5, (1 - 2) - 1) = (2.5, -2) and
// ((3 - 1) 2 + 0.5, (3 - 2) - 1) = (4.5, 0); Relu: (2.5, 0), (4.5, 0).
// CHECK: result #1: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}2.5, 0.],
// CHECK-NEXT: {{\[}}4.5, 0.]]]]
func.func @main() -> (tensor<*xf32>, tensor<*xf32>) {
  %x = "tf.Const"() {value = dense<[[[[1.0], [2.0]]]]> : tensor<1x1x2x1xf32>} : () -> tensor<1x1x2x1xf32>
  %p = "tf.Const"() {value = dense<[[0, 0], [1, 0], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %w = "tf.Const"() {value = dense<1.0> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %b = "tf.Const"() {value = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %0 = "tf.Pad"(%x, %p) : (tensor<1x1x2x1xf32>, tensor<4x2xi32>) -> tensor<1x2x3x1xf32>
  %1 = "tf.Conv2D"(%0, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x2x3x1xf32>, tensor<2x2x1x1xf32>) -> tensor<*xf32>
  %2 = "tf.BiasAdd"(%1, %b) : (tensor<*xf32>, tensor<1xf32>) -> tensor<*xf32>
  %w1 = "tf.Const"() {value = dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %b1 = "tf.Const"() {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %scale = "tf.Const"() {value = dense<[2.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %offset = "tf.Const"() {value = dense<[0.5, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %mean = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %var = "tf.Const"() {value = dense<[0.75, 8.75]> : tensor<2xf32>} : () -> tensor<2xf32>
  %3 = "tf.Conv2D"(%x, %w1) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x1xf32>, tensor<1x1x1x2xf32>) -> tensor<*xf32>
  %4 = "tf.BiasAdd"(%3, %b1) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %5:6 = "tf.FusedBatchNormV3"(%4, %scale, %offset, %mean, %var) {epsilon = 0.25 : f32, is_training = false} : (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<*xf32>)
  %6 = "tf.Relu"(%5#0) : (tensor<*xf32>) -> tensor<*xf32>
  return %2, %6 : tensor<*xf32>, tensor<*xf32>
}

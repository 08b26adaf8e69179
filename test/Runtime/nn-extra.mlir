// RUN: fallback-run %s --threads=1 | FileCheck %s
// Softsign, LRN and BatchNormWithGlobalNormalization end to end from TF MLIR
// (type attributes left implicit). Expected values derived by hand.

func.func @main() -> (tensor<3xf32>, tensor<1x1x1x2xf32>, tensor<1x1x2x2xf32>) {
  %s = "tf.Const"() {value = dense<[-3.0, 0.0, 1.0]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %0 = "tf.Softsign"(%s) : (tensor<3xf32>) -> tensor<3xf32>

  %l = "tf.Const"() {value = dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>, dtype = f32} : () -> tensor<1x1x1x2xf32>
  %1 = "tf.LRN"(%l) {depth_radius = 1 : i64, bias = 3.0 : f32, alpha = 1.0 : f32, beta = 1.0 : f32} : (tensor<1x1x1x2xf32>) -> tensor<1x1x1x2xf32>

  %x = "tf.Const"() {value = dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>, dtype = f32} : () -> tensor<1x1x2x2xf32>
  %m = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %v = "tf.Const"() {value = dense<[3.0, 15.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %beta = "tf.Const"() {value = dense<[10.0, 20.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %gamma = "tf.Const"() {value = dense<[2.0, 4.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %2 = "tf.BatchNormWithGlobalNormalization"(%x, %m, %v, %beta, %gamma) {variance_epsilon = 1.0 : f32, scale_after_normalization = true} : (tensor<1x1x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x1x2x2xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<1x1x1x2xf32>, tensor<1x1x2x2xf32>
}

// x / (|x| + 1).
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: [-0.75, 0., 0.5]
// Both depth windows hold 1 + 4 = 5; 3 + 5 = 8 divides.
// CHECK: result #1: tensor<1x1x1x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}0.125, 0.25]]]]
// (x - m) * rsqrt(v + 1) * gamma + beta with rsqrt(4) * 2 = rsqrt(16) * 4 = 1.
// CHECK: result #2: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}10., 20.],
// CHECK-NEXT: [12., 22.]]]]

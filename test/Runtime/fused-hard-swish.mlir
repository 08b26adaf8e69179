// The hard swish TF.js's converter spells out after a convolution's bias,
// (c * x) * Relu6(x + 3), runs as the convolution's fused "HardSwish"
// (--tfrt-fallback-fuse), in both operand orders and after a depthwise
// convolution, and gives bit for bit what the separate ops give (the .npy
// files are compared byte for byte).
// The inputs are constants, which the pipeline would fold before fusing:
// the fused program is compiled with fold-constants=false.
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false -o %t.fused.mlir
// RUN: fallback-run %t.fused.mlir --threads=1 | FileCheck %s
// RUN: rm -rf %t.fused %t.unfused && mkdir -p %t.fused %t.unfused
// RUN: fallback-run %t.fused.mlir --threads=1 --output-dir=%t.fused
// RUN: fallback-opt %s --tfrt-fallback-pipeline="fuse=false fold-constants=false" -o %t.unfused.mlir
// RUN: fallback-run %t.unfused.mlir --threads=1 --output-dir=%t.unfused | FileCheck %s
// RUN: cmp %t.fused/output_0.npy %t.unfused/output_0.npy
// RUN: cmp %t.fused/output_1.npy %t.unfused/output_1.npy
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false | FileCheck %s --check-prefix=LOWERED

// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "HardSwish"], hard_swish_scale = 0.166625977 : f32
// LOWERED: kernel_call "_FusedDepthwiseConv2dNative"
// LOWERED-SAME: fused_ops = ["BiasAdd", "HardSwish"], hard_swish_scale = 0.166625977 : f32
// LOWERED-NOT: kernel_call "Mul"
// LOWERED-NOT: kernel_call "Relu6"

// Hand-derived, c = 0.1666259765625 (1/6 rounded to f16, as TF.js stores
// it): the 1x1 convolution with the identity filter and a zero bias gives
// x; hard swish of 1 is c * 4 = 0.66650390625, of -4 is (c * -4) * 0 = -0,
// of 5 is (c * 5) * 6 = 4.998779296875, of 0.5 is (c / 2) * 3.5 =
// 0.291595458984375. The depthwise filter (1, 2) gives (1, -8) and (5, 1).
// CHECK: result #0: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}0.666504, -0.],
// CHECK-NEXT: {{\[}}4.99878, 0.291595]]]]
// CHECK: result #1: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}0.666504, -0.],
// CHECK-NEXT: {{\[}}4.99878, 0.666504]]]]
func.func @main() -> (tensor<*xf32>, tensor<*xf32>) {
  %x = "tf.Const"() {value = dense<[[[[1.0, -4.0], [5.0, 0.5]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %w = "tf.Const"() {value = dense<[[[[1.0, 0.0], [0.0, 1.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %d = "tf.Const"() {value = dense<[[[[1.0], [2.0]]]]> : tensor<1x1x2x1xf32>} : () -> tensor<1x1x2x1xf32>
  %b = "tf.Const"() {value = dense<[0.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "tf.Const"() {value = dense<0.166625977> : tensor<f32>} : () -> tensor<f32>
  %three = "tf.Const"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %1 = "tf.Add"(%0, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %2 = "tf.Mul"(%c, %1) : (tensor<f32>, tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.AddV2"(%1, %three) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %4 = "tf.Relu6"(%3) : (tensor<*xf32>) -> tensor<*xf32>
  %5 = "tf.Mul"(%2, %4) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %6 = "tf.DepthwiseConv2dNative"(%x, %d) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x1xf32>) -> tensor<*xf32>
  %7 = "tf.BiasAdd"(%6, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %8 = "tf.AddV2"(%three, %7) : (tensor<f32>, tensor<*xf32>) -> tensor<*xf32>
  %9 = "tf.Relu6"(%8) : (tensor<*xf32>) -> tensor<*xf32>
  %10 = "tf.Mul"(%7, %c) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %11 = "tf.Mul"(%9, %10) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %5, %11 : tensor<*xf32>, tensor<*xf32>
}

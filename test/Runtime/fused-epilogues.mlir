// Contractions with their bias and activation run as one fused kernel
// (--tfrt-fallback-fuse, part of the default pipeline) and give the values
// the separate ops give.
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fuse=false -o %t.unfused.mlir
// RUN: fallback-run %t.unfused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=LOWERED

// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "LeakyRelu"]
// LOWERED: kernel_call "_FusedMatMul"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Relu6"]
// LOWERED-NOT: kernel_call "Add"

// Hand-derived. Conv2D 1x1: out0 = x0 + 2 x1, out1 = -x0 + 0.5 x1; pixel
// (1, 2) gives (5, 0), pixel (3, -4) gives (-5, -5); + bias (0.5, -1) gives
// (5.5, -1), (-4.5, -6); LeakyRelu(0.1): (5.5, -0.1), (-0.45, -0.6).
// CHECK: result #0: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}5.5, -0.1],
// CHECK-NEXT: {{\[}}-0.45, -0.6]]]]
// MatMul: [1, 2] x [[1, 3], [-0.5, 1]] = (0, 5); + (1, 2) = (1, 7);
// Relu6: (1, 6).
// CHECK: result #1: tensor<1x2xf32>
// CHECK-NEXT: {{\[\[}}1., 6.]]
func.func @main() -> (tensor<*xf32>, tensor<*xf32>) {
  %x = "tf.Const"() {value = dense<[[[[1.0, 2.0], [3.0, -4.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %w = "tf.Const"() {value = dense<[[[[1.0, -1.0], [2.0, 0.5]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %b = "tf.Const"() {value = dense<[0.5, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %1 = "tf.Add"(%0, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %2 = "tf.LeakyRelu"(%1) {alpha = 0.1 : f32} : (tensor<*xf32>) -> tensor<*xf32>
  %a = "tf.Const"() {value = dense<[[1.0, 2.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  %m = "tf.Const"() {value = dense<[[1.0, 3.0], [-0.5, 1.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %c = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %3 = "tf.MatMul"(%a, %m) : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<*xf32>
  %4 = "tf.AddV2"(%c, %3) : (tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
  %5 = "tf.Relu6"(%4) : (tensor<*xf32>) -> tensor<*xf32>
  return %2, %5 : tensor<*xf32>, tensor<*xf32>
}

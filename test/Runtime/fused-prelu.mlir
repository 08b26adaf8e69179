// The PReLU that Keras's converters spell out, Relu(x) + c (x - |x|), runs
// as the convolution's fused "Prelu" of alpha 2c (--tfrt-fallback-fuse), and
// disappears after a Relu (x - |x| is 0 there); both give the values the
// separate ops give.
// The inputs are constants, which the pipeline would fold before fusing:
// the fused program is compiled with fold-constants=false.
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false -o %t.fused.mlir
// RUN: fallback-run %t.fused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline="fuse=false fold-constants=false" -o %t.unfused.mlir
// RUN: fallback-run %t.unfused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false | FileCheck %s --check-prefix=LOWERED

// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Prelu"]
// LOWERED: kernel_call "_FusedDepthwiseConv2dNative"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Relu"]
// LOWERED-NOT: kernel_call "Abs"
// LOWERED-NOT: kernel_call "Mul"

// Hand-derived. Conv2D 1x1: out0 = x0 + 2 x1, out1 = -x0 + 0.5 x1; pixel
// (1, 2) gives (5, 0), pixel (3, -4) gives (-5, -5); + bias (0.5, -1) gives
// (5.5, -1), (-4.5, -6). PReLU with c = (0.05, 0.25), alpha (0.1, 0.5):
// (5.5, -0.5), (-0.45, -3).
// CHECK: result #0: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}5.5, -0.5],
// CHECK-NEXT: {{\[}}-0.45, -3.]]]]
// Depthwise, filter (2, -1): (2, -2), (6, 4); + bias: (2.5, -3), (6.5, 3);
// Relu: (2.5, 0), (6.5, 3); the PReLU after it changes nothing.
// CHECK: result #1: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}2.5, 0.],
// CHECK-NEXT: {{\[}}6.5, 3.]]]]
func.func @main() -> (tensor<*xf32>, tensor<*xf32>) {
  %x = "tf.Const"() {value = dense<[[[[1.0, 2.0], [3.0, -4.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %w = "tf.Const"() {value = dense<[[[[1.0, -1.0], [2.0, 0.5]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %b = "tf.Const"() {value = dense<[0.5, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "tf.Const"() {value = dense<[0.05, 0.25]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %2 = "tf.Relu"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.Abs"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  %4 = "tf.Sub"(%1, %3) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %5 = "tf.Mul"(%4, %c) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %6 = "tf.AddV2"(%2, %5) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %dw = "tf.Const"() {value = dense<[[[[2.0], [-1.0]]]]> : tensor<1x1x2x1xf32>} : () -> tensor<1x1x2x1xf32>
  %10 = "tf.DepthwiseConv2dNative"(%x, %dw) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x1xf32>) -> tensor<*xf32>
  %11 = "tf.BiasAdd"(%10, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %12 = "tf.Relu"(%11) : (tensor<*xf32>) -> tensor<*xf32>
  %13 = "tf.Abs"(%12) : (tensor<*xf32>) -> tensor<*xf32>
  %14 = "tf.Sub"(%12, %13) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %15 = "tf.Mul"(%c, %14) : (tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
  %16 = "tf.Add"(%12, %15) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %6, %16 : tensor<*xf32>, tensor<*xf32>
}

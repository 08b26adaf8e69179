// A batch norm left as Mul and Add after a depthwise convolution, then a
// Relu and a clip to [0, 6] written as Minimum and Maximum (faceres):
// the scale folds into the filter, the rest runs as one fused depthwise
// convolution with a Relu6, giving the values of the separate ops.
// The inputs are constants, which the pipeline would fold before fusing:
// the fused program is compiled with fold-constants=false.
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false -o %t.fused.mlir
// RUN: fallback-run %t.fused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline="fuse=false fold-constants=false" -o %t.unfused.mlir
// RUN: fallback-run %t.unfused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false | FileCheck %s --check-prefix=LOWERED
// LOWERED: kernel_call "_FusedDepthwiseConv2dNative"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Relu6"]
// LOWERED-NOT: kernel_call "Mul"
// LOWERED-NOT: kernel_call "Minimum"

// Hand-derived. The 1x1 depthwise filter (1, 3) on pixels (1, 2) and
// (3, -4): (1, 6), (3, -12); scaled by (2, 0.5): (2, 3), (6, -6); + shift
// (0.5, 1): (2.5, 4), (6.5, -5); Relu then clip to [0, 6]: (2.5, 4), (6, 0).
// CHECK: result #0: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}2.5, 4.],
// CHECK-NEXT: {{\[}}6., 0.]]]]
func.func @main() -> tensor<*xf32> {
  %x = "tf.Const"() {value = dense<[[[[1.0, 2.0], [3.0, -4.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %w = "tf.Const"() {value = dense<[[[[1.0], [3.0]]]]> : tensor<1x1x2x1xf32>} : () -> tensor<1x1x2x1xf32>
  %s = "tf.Const"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "tf.Const"() {value = dense<[0.5, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %six = "tf.Const"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.DepthwiseConv2dNative"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x1xf32>) -> tensor<*xf32>
  %1 = "tf.Mul"(%0, %s) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %2 = "tf.Add"(%1, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %3 = "tf.Relu"(%2) : (tensor<*xf32>) -> tensor<*xf32>
  %4 = "tf.Minimum"(%3, %six) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %5 = "tf.Maximum"(%4, %zero) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return %5 : tensor<*xf32>
}

// A convolution, then a residual AddN, then the bias (grappler's order in
// MediaPipe's models) runs as one fused convolution with fused_ops
// ["BiasAdd", "Add"] and gives the values of the separate ops (here exact:
// small integers).
// The inputs are constants, which the pipeline would fold before fusing:
// the fused program is compiled with fold-constants=false.
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false -o %t.fused.mlir
// RUN: fallback-run %t.fused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline="fuse=false fold-constants=false" -o %t.unfused.mlir
// RUN: fallback-run %t.unfused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false | FileCheck %s --check-prefix=LOWERED
// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Add"]
// LOWERED-NOT: kernel_call "AddN"

// Hand-derived. The 1x1 convolution: out0 = x0 + 2 x1, out1 = 3 x0 - x1;
// pixel (1, 2): (5, 1), pixel (3, -4): (-5, 13). Residual (10, 20) and
// (30, 40): (15, 21), (25, 53). Bias (1, -1): (16, 20), (26, 52).
// CHECK: result #0: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}16., 20.],
// CHECK-NEXT: {{\[}}26., 52.]]]]
func.func @main() -> tensor<*xf32> {
  %x = "tf.Const"() {value = dense<[[[[1.0, 2.0], [3.0, -4.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %r = "tf.Const"() {value = dense<[[[[10.0, 20.0], [30.0, 40.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %w = "tf.Const"() {value = dense<[[[[1.0, 3.0], [2.0, -1.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %b = "tf.Const"() {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %1 = "tf.AddN"(%0, %r) {N = 2 : i64} : (tensor<*xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %2 = "tf.AddV2"(%b, %1) : (tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// TF.js's tf.Prelu after a fused convolution (with a residual Add, as
// MediaPipe's face models have it) runs as the convolution's fused
// "Prelu" and gives the values of the separate ops.
// The inputs are constants, which the pipeline would fold before fusing:
// the fused program is compiled with fold-constants=false.
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false -o %t.fused.mlir
// RUN: fallback-run %t.fused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline="fuse=false fold-constants=false" -o %t.unfused.mlir
// RUN: fallback-run %t.unfused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false | FileCheck %s --check-prefix=LOWERED
// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Add", "Prelu"]
// LOWERED-NOT: kernel_call "Prelu"

// Hand-derived. The 1x1 convolution: out0 = x0 + 2 x1, out1 = 3 x0 - x1;
// pixel (1, 2): (5, 1), pixel (3, -4): (-5, 13); + bias (1, -1): (6, 0),
// (-4, 12); + residual (-10, 2), (1, -20): (-4, 2), (-3, -8). Prelu with
// alpha (0.5, 0.25): (-2, 2), (-1.5, -2).
// CHECK: result #0: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}-2., 2.],
// CHECK-NEXT: {{\[}}-1.5, -2.]]]]
func.func @main() -> tensor<*xf32> {
  %x = "tf.Const"() {value = dense<[[[[1.0, 2.0], [3.0, -4.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %r = "tf.Const"() {value = dense<[[[[-10.0, 2.0], [1.0, -20.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %w = "tf.Const"() {value = dense<[[[[1.0, 3.0], [2.0, -1.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %b = "tf.Const"() {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %a = "tf.Const"() {value = dense<[[[0.5, 0.25]]]> : tensor<1x1x2xf32>} : () -> tensor<1x1x2xf32>
  %0 = "tf._FusedConv2D"(%x, %w, %b, %r) {T = f32, fused_ops = ["BiasAdd", "Add"], num_args = 2 : i64, padding = "VALID", strides = [1, 1, 1, 1], epsilon = 0.0 : f32} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<2xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %1 = "tf.Prelu"(%0, %a) : (tensor<*xf32>, tensor<1x1x2xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

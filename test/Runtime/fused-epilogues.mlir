// Contractions with their bias and activation run as one fused kernel
// (--tfrt-fallback-fuse, part of the default pipeline) and give the values
// the separate ops give.
// The inputs are constants, which the pipeline would fold before fusing:
// the fused program is compiled with fold-constants=false.
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false -o %t.fused.mlir
// RUN: fallback-run %t.fused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline="fuse=false fold-constants=false" -o %t.unfused.mlir
// RUN: fallback-run %t.unfused.mlir --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false | FileCheck %s --check-prefix=LOWERED

// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "LeakyRelu"]
// LOWERED: kernel_call "_FusedMatMul"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Relu6"]
// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Add", "Relu"]
// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Add", "Relu"]
// LOWERED-SAME: f64
// LOWERED: kernel_call "_FusedDepthwiseConv2dNative"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Add", "Relu6"]
// LOWERED: kernel_call "_FusedConv2D"
// LOWERED-SAME: fused_ops = ["BiasAdd", "Add", "Relu"]
// LOWERED-NOT: kernel_call "Add

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
// The conv and bias of result #0, (5.5, -1), (-4.5, -6), plus the residual
// ((1, 2), (3, 4)): (6.5, 1), (-1.5, -2); Relu: (6.5, 1), (0, 0). In f32
// (the GEMM) and f64 (Eigen).
// CHECK: result #2: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}6.5, 1.],
// CHECK-NEXT: {{\[}}0., 0.]]]]
// CHECK: result #3: tensor<1x1x2x2xf64>
// CHECK-NEXT: {{\[\[\[\[}}6.5, 1.],
// CHECK-NEXT: {{\[}}0., 0.]]]]
// Depthwise, filter (2, -1): (2, -2), (6, 4); + bias: (2.5, -3), (6.5, 3);
// + residual: (3.5, -1), (9.5, 7); Relu6: (3.5, 0), (6, 6).
// CHECK: result #4: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}3.5, 0.],
// CHECK-NEXT: {{\[}}6., 6.]]]]
// A _FusedConv2D (as TF writes it) whose addend broadcasts ([2]: 10, 20):
// (15.5, 19), (5.5, 14).
// CHECK: result #5: tensor<1x1x2x2xf32>
// CHECK-NEXT: {{\[\[\[\[}}15.5, 19.],
// CHECK-NEXT: {{\[}}5.5, 14.]]]]
func.func @main() -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf64>, tensor<*xf32>, tensor<*xf32>) {
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
  %r = "tf.Const"() {value = dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %6 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %7 = "tf.BiasAdd"(%6, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %8 = "tf.AddV2"(%7, %r) : (tensor<*xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %9 = "tf.Relu"(%8) : (tensor<*xf32>) -> tensor<*xf32>
  %xd = "tf.Cast"(%x) : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf64>
  %wd = "tf.Cast"(%w) : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf64>
  %bd = "tf.Cast"(%b) : (tensor<2xf32>) -> tensor<2xf64>
  %rd = "tf.Cast"(%r) : (tensor<1x1x2x2xf32>) -> tensor<1x1x2x2xf64>
  %10 = "tf.Conv2D"(%xd, %wd) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf64>, tensor<1x1x2x2xf64>) -> tensor<*xf64>
  %11 = "tf.BiasAdd"(%10, %bd) : (tensor<*xf64>, tensor<2xf64>) -> tensor<*xf64>
  %12 = "tf.AddV2"(%rd, %11) : (tensor<1x1x2x2xf64>, tensor<*xf64>) -> tensor<*xf64>
  %13 = "tf.Relu"(%12) : (tensor<*xf64>) -> tensor<*xf64>
  %dw = "tf.Const"() {value = dense<[[[[2.0], [-1.0]]]]> : tensor<1x1x2x1xf32>} : () -> tensor<1x1x2x1xf32>
  %14 = "tf.DepthwiseConv2dNative"(%x, %dw) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x1xf32>) -> tensor<*xf32>
  %15 = "tf.Add"(%b, %14) : (tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
  %16 = "tf.Add"(%15, %r) : (tensor<*xf32>, tensor<1x1x2x2xf32>) -> tensor<*xf32>
  %17 = "tf.Relu6"(%16) : (tensor<*xf32>) -> tensor<*xf32>
  %wide = "tf.Const"() {value = dense<[10.0, 20.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %21 = "tf._FusedConv2D"(%x, %w, %b, %wide) {fused_ops = ["BiasAdd", "Add", "Relu"], num_args = 2 : i64, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<*xf32>
  return %2, %5, %9, %13, %17, %21 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf64>, tensor<*xf32>, tensor<*xf32>
}

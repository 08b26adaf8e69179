// A MatMul whose weights are a program constant packs them once and gives
// the constant's pages back (OpKernelContextInterface::releaseConstantInput;
// the .bef file is mapped): later runs use the packing, and anything reading
// the constant again reads it from the file. Hand-derived: x is 2048 times
// 2.5 (the input), every output is sum_k 2.5 * 0.5 over k = 2048, i.e.
// 2560; with the bias 1 and Relu, 2561.
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_scalar.npy --threads=1 --benchmark=2 | FileCheck %s
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_scalar.npy --threads=1 --benchmark=2 | FileCheck %s
// CHECK: benchmark: 2 runs
// CHECK: result #0: tensor<1x4xf32>
// CHECK-NEXT: {{\[\[}}2560., 2560., 2560., 2560.]]
// CHECK: result #1: tensor<1x4xf32>
// CHECK-NEXT: {{\[\[}}2561., 2561., 2561., 2561.]]

func.func @main(%v: tensor<f32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %dims = "tf.Const"() {value = dense<[1, 2048]> : tensor<2xi32>} : () -> tensor<2xi32>
  %x = "tf.Fill"(%dims, %v) : (tensor<2xi32>, tensor<f32>) -> tensor<1x2048xf32>
  %w = "tf.Const"() {value = dense<0.5> : tensor<2048x4xf32>} : () -> tensor<2048x4xf32>
  %b = "tf.Const"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = "tf.MatMul"(%x, %w) {transpose_a = false, transpose_b = false} : (tensor<1x2048xf32>, tensor<2048x4xf32>) -> tensor<1x4xf32>
  // The same weights again, in a fused MatMul (a second packing of them).
  %z = "tf._FusedMatMul"(%x, %w, %b) {fused_ops = ["BiasAdd", "Relu"], epsilon = 0.0 : f32, transpose_a = false, transpose_b = false} : (tensor<1x2048xf32>, tensor<2048x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  return %y, %z : tensor<1x4xf32>, tensor<1x4xf32>
}

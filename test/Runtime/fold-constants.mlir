// A program whose constant subgraph the pipeline folds still computes the
// same numbers, from the .mlir and through a .bef.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=PROGRAM
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy | FileCheck %s

// w = [[1, 2], [3, 4], [5, 6]]; Transpose(w) * 2 = [[2, 6, 10], [4, 8, 12]];
// Shape(w) = [3, 2], so x = [[1, 2, 3], [4, 5, 6]] reshapes to
// [[1, 2], [3, 4], [5, 6]], and its product with the scaled weights is
//   [1, 2] -> [2 + 8, 6 + 16, 10 + 24]   = [10, 22, 34]
//   [3, 4] -> [6 + 16, 18 + 32, 30 + 48] = [22, 50, 78]
//   [5, 6] -> [10 + 24, 30 + 48, 50 + 72] = [34, 78, 122]
// CHECK: result #0: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}10., 22., 34.],
// CHECK-NEXT: [22., 50., 78.],
// CHECK-NEXT: [34., 78., 122.]]

// Only the Reshape and the MatMul of the input run.
// PROGRAM-LABEL: func @main
// PROGRAM-NOT: kernel_call "Transpose"
// PROGRAM-NOT: kernel_call "Mul"
// PROGRAM-NOT: kernel_call "Shape"
// PROGRAM-DAG: tfrt_fallback.constant dense<[3, 2]> : tensor<2xi32>
// PROGRAM-DAG: tfrt_fallback.constant dense<{{\[\[}}2.000000e+00, 6.000000e+00, 1.000000e+01], [4.000000e+00, 8.000000e+00, 1.200000e+01]]> : tensor<2x3xf32>
// PROGRAM: kernel_call "Reshape"
// PROGRAM-NEXT: kernel_call "MatMul"
// PROGRAM-NEXT: return

func.func @main(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %w = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  %perm = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %wt = "tf.Transpose"(%w, %perm) : (tensor<3x2xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %ws = "tf.Mul"(%wt, %two) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %shape = "tf.Shape"(%w) : (tensor<3x2xf32>) -> tensor<2xi32>
  %rx = "tf.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %y = "tf.MatMul"(%rx, %ws) {transpose_a = false, transpose_b = false} : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %y : tensor<3x3xf32>
}

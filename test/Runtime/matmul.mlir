// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// MatMul with every transpose flag; a = [[1, 2, 3], [4, 5, 6]].
// a a^T = [[14, 32], [32, 77]]; a^T a = [[17, 22, 27], [22, 29, 36], [27, 36, 45]].

func.func @main(%a: tensor<2x3xf32>) -> (tensor<2x2xf32>, tensor<3x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = "tf.MatMul"(%a, %a) {T = f32, transpose_a = false, transpose_b = true} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  %1 = "tf.MatMul"(%a, %a) {T = f32, transpose_a = true, transpose_b = false} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %b = "tf.Const"() {value = dense<[[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]> : tensor<3x2xf32>, dtype = f32} : () -> tensor<3x2xf32>
  %2 = "tf.MatMul"(%a, %b) {T = f32, transpose_a = false, transpose_b = false} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %3 = "tf.MatMul"(%b, %a) {T = f32, transpose_a = true, transpose_b = true} : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0, %1, %2, %3 : tensor<2x2xf32>, tensor<3x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}14., 32.],
// CHECK-NEXT: [32., 77.]]
// CHECK: result #1: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}17., 22., 27.],
// CHECK-NEXT: [22., 29., 36.],
// CHECK-NEXT: [27., 36., 45.]]
// CHECK: result #2: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}4., 5.],
// CHECK-NEXT: [10., 11.]]
// b^T a^T = (a b)^T = [[4, 10], [5, 11]]
// CHECK: result #3: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}4., 10.],
// CHECK-NEXT: [5., 11.]]

// Inherent attributes printed as properties, as recent TensorFlow prints
// them, reach the kernels: transpose_b below changes the result.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s

// Hand-derived from x = [[1, 2, 3], [4, 5, 6]]: x x^T =
// [[1 + 4 + 9, 4 + 10 + 18], [4 + 10 + 18, 16 + 25 + 36]].
// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}14., 32.],
// CHECK-NEXT: [32., 77.]]

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.MatMul"(%x, %x) <{transpose_a = false, transpose_b = true}> {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x2xf32>
    tf_executor.fetch %outputs : tensor<2x2xf32>
  }
  return %0 : tensor<2x2xf32>
}

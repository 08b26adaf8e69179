// RUN: fallback-run %s --threads=1 | FileCheck %s
// SparseSegmentSum / Mean / SqrtNWithNumSegments end to end from TF MLIR
// (type attributes left implicit). Expected values derived by hand: rows
// 0 and 2 of data form segment 0, row 1 segment 2.

func.func @main() -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<4x2xf32>) {
  %data = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>, dtype = f32} : () -> tensor<3x2xf32>
  %idx = "tf.Const"() {value = dense<[0, 2, 1]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %seg = "tf.Const"() {value = dense<[0, 0, 2]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %0 = "tf.SparseSegmentSum"(%data, %idx, %seg) : (tensor<3x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %1 = "tf.SparseSegmentMean"(%data, %idx, %seg) : (tensor<3x2xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<3x2xf32>
  %n = "tf.Const"() {value = dense<4> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %2 = "tf.SparseSegmentSqrtNWithNumSegments"(%data, %idx, %seg, %n) : (tensor<3x2xf32>, tensor<3xi32>, tensor<3xi32>, tensor<i32>) -> tensor<4x2xf32>
  return %0, %1, %2 : tensor<3x2xf32>, tensor<3x2xf32>, tensor<4x2xf32>
}

// CHECK: result #0: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}6., 8.],
// CHECK-NEXT: [0., 0.],
// CHECK-NEXT: [3., 4.]]
// CHECK: result #1: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}3., 4.],
// CHECK-NEXT: [0., 0.],
// CHECK-NEXT: [3., 4.]]
// 6 / sqrt(2) = 4.24264, 8 / sqrt(2) = 5.65685.
// CHECK: result #2: tensor<4x2xf32>
// CHECK-NEXT: {{\[\[}}4.24264, 5.65685],
// CHECK-NEXT: [0., 0.],
// CHECK-NEXT: [3., 4.],
// CHECK-NEXT: [0., 0.]]

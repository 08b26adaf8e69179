// RUN: fallback-run %s --threads=1 | FileCheck %s
// Unique, UniqueWithCounts, UniqueV2 and ListDiff end to end from TF MLIR
// (type attributes left implicit, out_idx from the result types). Expected
// values derived by hand.

func.func @main() -> (tensor<3xi32>, tensor<5xi32>, tensor<3xi32>, tensor<2x2xf32>, tensor<3xi32>, tensor<2xf32>, tensor<2xi32>) {
  %x = "tf.Const"() {value = dense<[4, 1, 4, 7, 1]> : tensor<5xi32>, dtype = i32} : () -> tensor<5xi32>
  %0:3 = "tf.UniqueWithCounts"(%x) : (tensor<5xi32>) -> (tensor<3xi32>, tensor<5xi32>, tensor<3xi32>)
  %m = "tf.Const"() {value = dense<[[1.0, 2.0], [1.0, 2.0], [3.0, 4.0]]> : tensor<3x2xf32>, dtype = f32} : () -> tensor<3x2xf32>
  %axis = "tf.Const"() {value = dense<[0]> : tensor<1xi64>, dtype = i64} : () -> tensor<1xi64>
  %1:2 = "tf.UniqueV2"(%m, %axis) : (tensor<3x2xf32>, tensor<1xi64>) -> (tensor<2x2xf32>, tensor<3xi32>)
  %a = "tf.Const"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, dtype = f32} : () -> tensor<4xf32>
  %b = "tf.Const"() {value = dense<[3.0, 1.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %2:2 = "tf.ListDiff"(%a, %b) : (tensor<4xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xi32>)
  return %0#0, %0#1, %0#2, %1#0, %1#1, %2#0, %2#1 : tensor<3xi32>, tensor<5xi32>, tensor<3xi32>, tensor<2x2xf32>, tensor<3xi32>, tensor<2xf32>, tensor<2xi32>
}

// CHECK: result #0: tensor<3xi32>
// CHECK-NEXT: [4, 1, 7]
// CHECK: result #1: tensor<5xi32>
// CHECK-NEXT: [0, 1, 0, 2, 1]
// CHECK: result #2: tensor<3xi32>
// CHECK-NEXT: [2, 2, 1]
// Rows [1, 2] (twice) and [3, 4].
// CHECK: result #3: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}1., 2.],
// CHECK-NEXT: [3., 4.]]
// CHECK: result #4: tensor<3xi32>
// CHECK-NEXT: [0, 0, 1]
// 2 and 4 are not in [3, 1], at positions 1 and 3.
// CHECK: result #5: tensor<2xf32>
// CHECK-NEXT: [2., 4.]
// CHECK: result #6: tensor<2xi32>
// CHECK-NEXT: [1, 3]

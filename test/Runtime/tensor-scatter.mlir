// RUN: fallback-run %s --threads=1 | FileCheck %s
// TensorScatterUpdate / Add / Max and ScatterNdNonAliasingAdd end to end
// from TF MLIR (type attributes left implicit). Expected values derived by
// hand.

func.func @main() -> (tensor<4xf32>, tensor<4xf32>, tensor<2x2xi32>, tensor<4xf32>) {
  %t = "tf.Const"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, dtype = f32} : () -> tensor<4xf32>
  %i = "tf.Const"() {value = dense<[[3], [0], [3]]> : tensor<3x1xi32>, dtype = i32} : () -> tensor<3x1xi32>
  %u = "tf.Const"() {value = dense<[10.0, 20.0, 30.0]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %0 = "tf.TensorScatterUpdate"(%t, %i, %u) : (tensor<4xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<4xf32>
  %1 = "tf.TensorScatterAdd"(%t, %i, %u) : (tensor<4xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<4xf32>
  %m = "tf.Const"() {value = dense<[[5, 5], [5, 5]]> : tensor<2x2xi32>, dtype = i32} : () -> tensor<2x2xi32>
  %mi = "tf.Const"() {value = dense<[[1]]> : tensor<1x1xi64>, dtype = i64} : () -> tensor<1x1xi64>
  %mu = "tf.Const"() {value = dense<[[2, 9]]> : tensor<1x2xi32>, dtype = i32} : () -> tensor<1x2xi32>
  %2 = "tf.TensorScatterMax"(%m, %mi, %mu) : (tensor<2x2xi32>, tensor<1x1xi64>, tensor<1x2xi32>) -> tensor<2x2xi32>
  %3 = "tf.ScatterNdNonAliasingAdd"(%t, %i, %u) : (tensor<4xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<4xf32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<2x2xi32>, tensor<4xf32>
}

// Index 3 is written twice: the last update wins.
// CHECK: result #0: tensor<4xf32>
// CHECK-NEXT: [20., 2., 3., 30.]
// ... and Add sums both: 4 + 10 + 30.
// CHECK: result #1: tensor<4xf32>
// CHECK-NEXT: [21., 2., 3., 44.]
// CHECK: result #2: tensor<2x2xi32>
// CHECK-NEXT: {{\[\[}}5, 5],
// CHECK-NEXT: [5, 9]]
// CHECK: result #3: tensor<4xf32>
// CHECK-NEXT: [21., 2., 3., 44.]

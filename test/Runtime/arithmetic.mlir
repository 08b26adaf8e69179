// RUN: fallback-run %s --threads=1 | FileCheck %s
// TruncateDiv, Xdivy, ClipByValue, LowerBound and UpperBound end to end
// from TF MLIR (type attributes left implicit). Expected values derived by
// hand.

func.func @main() -> (tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1x3xi32>, tensor<1x3xi64>) {
  %a = "tf.Const"() {value = dense<[7, -7, 9]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %b = "tf.Const"() {value = dense<[2, 2, -4]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %0 = "tf.TruncateDiv"(%a, %b) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %x = "tf.Const"() {value = dense<[-3.5, 0.0, 2.5]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %y = "tf.Const"() {value = dense<[2.0, 0.0, -0.5]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %1 = "tf.TruncateDiv"(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %2 = "tf.Xdivy"(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %lo = "tf.Const"() {value = dense<-1.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %hi = "tf.Const"() {value = dense<1.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %3 = "tf.ClipByValue"(%x, %lo, %hi) : (tensor<3xf32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %sorted = "tf.Const"() {value = dense<[[1.0, 2.0, 2.0, 5.0]]> : tensor<1x4xf32>, dtype = f32} : () -> tensor<1x4xf32>
  %v = "tf.Const"() {value = dense<[[2.0, 0.0, 9.0]]> : tensor<1x3xf32>, dtype = f32} : () -> tensor<1x3xf32>
  %4 = "tf.LowerBound"(%sorted, %v) : (tensor<1x4xf32>, tensor<1x3xf32>) -> tensor<1x3xi32>
  %5 = "tf.UpperBound"(%sorted, %v) : (tensor<1x4xf32>, tensor<1x3xf32>) -> tensor<1x3xi64>
  return %0, %1, %2, %3, %4, %5 : tensor<3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1x3xi32>, tensor<1x3xi64>
}

// CHECK: result #0: tensor<3xi32>
// CHECK-NEXT: [3, -3, -2]
// trunc(-1.75) = -1, trunc(0 / 0) = NaN, trunc(-5) = -5.
// CHECK: result #1: tensor<3xf32>
// CHECK-NEXT: [-1., nan, -5.]
// 0 / 0 is 0 for Xdivy.
// CHECK: result #2: tensor<3xf32>
// CHECK-NEXT: [-1.75, 0., -5.]
// CHECK: result #3: tensor<3xf32>
// CHECK-NEXT: [-1., 0., 1.]
// CHECK: result #4: tensor<1x3xi32>
// CHECK-NEXT: {{\[\[}}1, 0, 4]]
// CHECK: result #5: tensor<1x3xi64>
// CHECK-NEXT: {{\[\[}}3, 0, 4]]

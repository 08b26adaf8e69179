// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// A kernel with more than 64 operands whose operand 0 is at its last use
// while a value it reads at operand 64 and later is used again afterwards:
// only the last-use operands (the first 64 can be marked) are released after
// the kernel. Expected by hand: x = 3, a = -3, b = |x| = 3, b * b = 9.

func.func @main() -> (tensor<70xf32>, tensor<f32>) {
  %x = "tf.Const"() {value = dense<3.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %a = "tf.Neg"(%x) {T = f32} : (tensor<f32>) -> tensor<f32>
  %b = "tf.Abs"(%x) {T = f32} : (tensor<f32>) -> tensor<f32>
  %p = "tf.Pack"(%a, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b, %b) {N = 70 : i64, T = f32, axis = 0 : i64} : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<70xf32>
  %r = "tf.Mul"(%b, %b) {T = f32} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %p, %r : tensor<70xf32>, tensor<f32>
}

// CHECK: result #0: tensor<70xf32>
// CHECK-NEXT: [-3., 3., 3., {{.*}}, 3., 3., 3.]
// CHECK: result #1: tensor<f32>
// CHECK-NEXT: 9.

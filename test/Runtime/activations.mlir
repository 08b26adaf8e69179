// RUN: fallback-run %s --threads=1 | FileCheck %s
// Unary ops on x = [-2, -0.5, 0, 0.5, 2, 8]; expected values from their
// definitions (sigmoid(0.5) = 1/(1+e^-0.5) = 0.622459, tanh(2) = 0.964028).

func.func @main() -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %x = "tf.Const"() {value = dense<[-2.0, -0.5, 0.0, 0.5, 2.0, 8.0]> : tensor<6xf32>, dtype = f32} : () -> tensor<6xf32>
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<6xf32>) -> tensor<6xf32>
  %1 = "tf.Relu6"(%x) {T = f32} : (tensor<6xf32>) -> tensor<6xf32>
  %2 = "tf.Sigmoid"(%x) {T = f32} : (tensor<6xf32>) -> tensor<6xf32>
  %3 = "tf.Tanh"(%x) {T = f32} : (tensor<6xf32>) -> tensor<6xf32>
  %4 = "tf.Exp"(%x) {T = f32} : (tensor<6xf32>) -> tensor<6xf32>
  %5 = "tf.Neg"(%x) {T = f32} : (tensor<6xf32>) -> tensor<6xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}

// CHECK: result #0: tensor<6xf32>
// CHECK-NEXT: [0., 0., 0., 0.5, 2., 8.]
// CHECK: result #1: tensor<6xf32>
// CHECK-NEXT: [0., 0., 0., 0.5, 2., 6.]
// CHECK: result #2: tensor<6xf32>
// CHECK-NEXT: [0.119203, 0.377541, 0.5, 0.622459, 0.880797, 0.999665]
// CHECK: result #3: tensor<6xf32>
// CHECK-NEXT: [-0.964028, -0.462117, 0., 0.462117, 0.964028, 1.]
// CHECK: result #4: tensor<6xf32>
// CHECK-NEXT: [0.135335, 0.606531, 1., 1.64872, 7.38906, 2980.96]
// CHECK: result #5: tensor<6xf32>
// CHECK-NEXT: [2., 0.5, -0., -0.5, -2., -8.]

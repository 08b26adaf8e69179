// RUN: fallback-run %s --threads=1 | FileCheck %s
// FakeQuantWithMinMaxArgs / Vars / VarsPerChannel end to end from TF
// MLIR. Expected values derived by hand: [0, 255] with 8 bits rounds to
// integers; [-0.25, 1.25] with 4 bits nudges to [-0.3, 1.2] in steps of 0.1.

func.func @main() -> (tensor<3xf32>, tensor<3xf32>, tensor<1x2xf32>) {
  %x = "tf.Const"() {value = dense<[-3.0, 1.4, 300.0]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %0 = "tf.FakeQuantWithMinMaxArgs"(%x) {min = 0.0 : f32, max = 255.0 : f32, num_bits = 8 : i64, narrow_range = false} : (tensor<3xf32>) -> tensor<3xf32>
  %y = "tf.Const"() {value = dense<[-1.0, 0.25, 2.0]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %lo = "tf.Const"() {value = dense<-0.25> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %hi = "tf.Const"() {value = dense<1.25> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %1 = "tf.FakeQuantWithMinMaxVars"(%y, %lo, %hi) {num_bits = 4 : i64, narrow_range = false} : (tensor<3xf32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %z = "tf.Const"() {value = dense<[[7.6, 7.6]]> : tensor<1x2xf32>, dtype = f32} : () -> tensor<1x2xf32>
  %clo = "tf.Const"() {value = dense<[0.0, 0.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %chi = "tf.Const"() {value = dense<[15.0, 3.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %2 = "tf.FakeQuantWithMinMaxVarsPerChannel"(%z, %clo, %chi) {num_bits = 4 : i64, narrow_range = false} : (tensor<1x2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %0, %1, %2 : tensor<3xf32>, tensor<3xf32>, tensor<1x2xf32>
}

// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: [0., 1., 255.]
// CHECK: result #1: tensor<3xf32>
// CHECK-NEXT: [-0.3, 0.3, 1.2]
// Channel 0 rounds to 8 (scale 1), channel 1 clamps to 3.
// CHECK: result #2: tensor<1x2xf32>
// CHECK-NEXT: {{\[\[}}8., 3.]]

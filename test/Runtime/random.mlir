// RUN: fallback-run %s --threads=1 | FileCheck %s
// The Philox stream end to end from TF MLIR: key and counter of the third
// Random123 known-answer vector (counter 243f6a88 85a308d3 13198a2e
// 03707344, key a4093822 299f31d0) give its words d16cfe09 94fdcceb
// 5001e420 24126ea1, raw (StatelessRandomUniformFullIntV2) and as TF's
// floats in [0, 1): bits 0x3f800000 | (word & 0x7fffff), minus 1
// (StatelessRandomUniformV2). A stateless op with the key and counter that
// StatelessRandomGetKeyCounter derives from a seed gives the same numbers
// as the seed's V1 op.

func.func @main() -> (tensor<4xui32>, tensor<4xf32>, tensor<i1>) {
  %shape = "tf.Const"() {value = dense<[4]> : tensor<1xi32>, dtype = i32} : () -> tensor<1xi32>
  %key = "tf.Const"() {value = dense<[2999170649027065890]> : tensor<1xui64>, dtype = ui64} : () -> tensor<1xui64>
  %counter = "tf.Const"() {value = dense<[9629550131187509896, 247824715720788526]> : tensor<2xui64>, dtype = ui64} : () -> tensor<2xui64>
  %alg = "tf.Const"() {value = dense<1> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %0 = "tf.StatelessRandomUniformFullIntV2"(%shape, %key, %counter, %alg) {dtype = ui32} : (tensor<1xi32>, tensor<1xui64>, tensor<2xui64>, tensor<i32>) -> tensor<4xui32>
  %1 = "tf.StatelessRandomUniformV2"(%shape, %key, %counter, %alg) {dtype = f32} : (tensor<1xi32>, tensor<1xui64>, tensor<2xui64>, tensor<i32>) -> tensor<4xf32>
  %seed = "tf.Const"() {value = dense<[42, 7]> : tensor<2xi64>, dtype = i64} : () -> tensor<2xi64>
  %v1 = "tf.StatelessRandomNormal"(%shape, %seed) {dtype = f32} : (tensor<1xi32>, tensor<2xi64>) -> tensor<4xf32>
  %kc:2 = "tf.StatelessRandomGetKeyCounter"(%seed) : (tensor<2xi64>) -> (tensor<1xui64>, tensor<2xui64>)
  %v2 = "tf.StatelessRandomNormalV2"(%shape, %kc#0, %kc#1, %alg) {dtype = f32} : (tensor<1xi32>, tensor<1xui64>, tensor<2xui64>, tensor<i32>) -> tensor<4xf32>
  %eq = "tf.Equal"(%v1, %v2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %2 = "tf.All"(%eq, %axis) {keep_dims = false} : (tensor<4xi1>, tensor<i32>) -> tensor<i1>
  return %0, %1, %2 : tensor<4xui32>, tensor<4xf32>, tensor<i1>
}

// CHECK: result #0: tensor<4xui32>
// CHECK-NEXT: [3513581065, 2499661035, 1342301216, 605187745]
// CHECK: result #1: tensor<4xf32>
// CHECK-NEXT: [0.851503, 0.982816, 0.0147743, 0.144001]
// CHECK: result #2: tensor<i1>
// CHECK-NEXT: True

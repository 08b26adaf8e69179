// RUN: fallback-run %s --threads=1 | FileCheck %s
// ShapeN, BroadcastArgs, ConcatOffset, EnsureShape, DataFormatDimMap,
// DataFormatVecPermute and PreventGradient end to end from TF MLIR (type
// attributes left implicit). Expected values derived by hand.

func.func @main() -> (tensor<2xi32>, tensor<1xi64>, tensor<3xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x3xf32>, tensor<2xi32>, tensor<4xi32>, tensor<2x3xf32>) {
  %x = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dtype = f32} : () -> tensor<2x3xf32>
  %v = "tf.Const"() {value = dense<[7.0]> : tensor<1xf32>, dtype = f32} : () -> tensor<1xf32>
  %0:2 = "tf.ShapeN"(%x, %v) {out_type = i32} : (tensor<2x3xf32>, tensor<1xf32>) -> (tensor<2xi32>, tensor<1xi32>)
  %s0 = "tf.Const"() {value = dense<[1]> : tensor<1xi64>, dtype = i64} : () -> tensor<1xi64>
  %s1 = "tf.Const"() {value = dense<[5]> : tensor<1xi64>, dtype = i64} : () -> tensor<1xi64>
  %1 = "tf.BroadcastArgs"(%s0, %s1) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %b0 = "tf.Const"() {value = dense<[2, 1, 3]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %b1 = "tf.Const"() {value = dense<[4, 1]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %2 = "tf.BroadcastArgs"(%b0, %b1) : (tensor<3xi32>, tensor<2xi32>) -> tensor<3xi32>
  %dim = "tf.Const"() {value = dense<1> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %c0 = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %c1 = "tf.Const"() {value = dense<[2, 5]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %3:2 = "tf.ConcatOffset"(%dim, %c0, %c1) : (tensor<i32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>)
  %4 = "tf.EnsureShape"(%x) {shape = #tf_type.shape<?x3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = "tf.Const"() {value = dense<[1, -1]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %5 = "tf.DataFormatDimMap"(%d) {src_format = "NHWC", dst_format = "NCHW"} : (tensor<2xi32>) -> tensor<2xi32>
  %p = "tf.Const"() {value = dense<[8, 224, 112, 3]> : tensor<4xi32>, dtype = i32} : () -> tensor<4xi32>
  %6 = "tf.DataFormatVecPermute"(%p) {src_format = "NHWC", dst_format = "NCHW"} : (tensor<4xi32>) -> tensor<4xi32>
  %7 = "tf.PreventGradient"(%x) {message = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0#0, %1, %2, %3#0, %3#1, %4, %5, %6, %7 : tensor<2xi32>, tensor<1xi64>, tensor<3xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x3xf32>, tensor<2xi32>, tensor<4xi32>, tensor<2x3xf32>
}

// CHECK: result #0: tensor<2xi32>
// CHECK-NEXT: [2, 3]
// CHECK: result #1: tensor<1xi64>
// CHECK-NEXT: [5]
// CHECK: result #2: tensor<3xi32>
// CHECK-NEXT: [2, 4, 3]
// The second input starts after the first one's 3 columns.
// CHECK: result #3: tensor<2xi32>
// CHECK-NEXT: [0, 0]
// CHECK: result #4: tensor<2xi32>
// CHECK-NEXT: [0, 3]
// CHECK: result #5: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1., 2., 3.],
// H (1) is dim 2 of NCHW, C (-1) dim 1.
// CHECK: result #6: tensor<2xi32>
// CHECK-NEXT: [2, 1]
// CHECK: result #7: tensor<4xi32>
// CHECK-NEXT: [8, 3, 224, 112]
// CHECK: result #8: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1., 2., 3.],

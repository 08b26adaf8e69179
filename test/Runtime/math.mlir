// RUN: fallback-run %s --threads=1 | FileCheck %s
// The math family end to end from TF MLIR (type attributes left implicit):
// scans with exclusive/reverse and a negative int64 axis, DivNoNan and Xlogy
// with broadcasting, bit operations, Bucketize, LinSpace, ApproximateEqual
// and the segment reductions. Expected values derived by hand from
// x = [[1, 2, 3], [4, 5, 6]].

func.func @main() -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xui8>, tensor<2x3xi32>, tensor<5xf32>, tensor<2xi1>, tensor<3x3xf32>, tensor<1x3xf32>) {
  %x = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>, dtype = f32} : () -> tensor<2x3xf32>
  %axis1 = "tf.Const"() {value = dense<1> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %axisNeg2 = "tf.Const"() {value = dense<-2> : tensor<i64>, dtype = i64} : () -> tensor<i64>
  %0 = "tf.Cumsum"(%x, %axis1) {exclusive = false, reverse = true} : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  %1 = "tf.Cumprod"(%x, %axisNeg2) {exclusive = true, reverse = false} : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>

  %y = "tf.Const"() {value = dense<[0.0, 2.0, 0.0]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %2 = "tf.DivNoNan"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %a = "tf.Const"() {value = dense<[0.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %b = "tf.Const"() {value = dense<[0.0, 1.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %3 = "tf.Xlogy"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>

  %i = "tf.Const"() {value = dense<[12, -1, 5]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %j = "tf.Const"() {value = dense<[10, 1, 40]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %4 = "tf.BitwiseXor"(%i, %j) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %5 = "tf.LeftShift"(%i, %j) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %6 = "tf.PopulationCount"(%i) : (tensor<3xi32>) -> tensor<3xui8>

  %7 = "tf.Bucketize"(%x) {boundaries = [2.0 : f32, 4.5 : f32]} : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %start = "tf.Const"() {value = dense<0.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %stop = "tf.Const"() {value = dense<1.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %num = "tf.Const"() {value = dense<5> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %8 = "tf.LinSpace"(%start, %stop, %num) : (tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<5xf32>
  %c = "tf.Const"() {value = dense<[1.0, 2.5]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %d = "tf.Const"() {value = dense<[1.05, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %9 = "tf.ApproximateEqual"(%c, %d) {tolerance = 0.1 : f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>

  %ids = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %three = "tf.Const"() {value = dense<3> : tensor<i64>, dtype = i64} : () -> tensor<i64>
  %10 = "tf.UnsortedSegmentSum"(%x, %ids, %three) : (tensor<2x3xf32>, tensor<2xi32>, tensor<i64>) -> tensor<3x3xf32>
  %zeros = "tf.Const"() {value = dense<[0, 0]> : tensor<2xi64>, dtype = i64} : () -> tensor<2xi64>
  %11 = "tf.SegmentMax"(%x, %zeros) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<1x3xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xui8>, tensor<2x3xi32>, tensor<5xf32>, tensor<2xi1>, tensor<3x3xf32>, tensor<1x3xf32>
}

// Cumsum along the rows from the end: 3+2+1, 3+2, 3; 6+5+4, 6+5, 6.
// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}6., 5., 3.],
// CHECK-NEXT: [15., 11., 6.]]
// Exclusive Cumprod down the columns (axis -2): ones, then row 0.
// CHECK: result #1: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1., 1., 1.],
// CHECK-NEXT: [1., 2., 3.]]
// x / [0, 2, 0] with 0 where the divisor is 0.
// CHECK: result #2: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}0., 1., 0.],
// CHECK-NEXT: [0., 2.5, 0.]]
// Xlogy: 0 * log(0) is 0, 2 * log(1) is 0.
// CHECK: result #3: tensor<2xf32>
// CHECK-NEXT: [0., 0.]
// 12 ^ 10 = 6, -1 ^ 1 = -2, 5 ^ 40 = 45.
// CHECK: result #4: tensor<3xi32>
// CHECK-NEXT: [6, -2, 45]
// 12 << 10 = 12288, -1 << 1 = -2, 5 << 40 clamps to 5 << 31 = INT_MIN.
// CHECK: result #5: tensor<3xi32>
// CHECK-NEXT: [12288, -2, -2147483648]
// Bits set in 12, -1, 5.
// CHECK: result #6: tensor<3xui8>
// CHECK-NEXT: [2, 32, 2]
// Buckets (-inf, 2), [2, 4.5), [4.5, inf).
// CHECK: result #7: tensor<2x3xi32>
// CHECK-NEXT: {{\[\[}}0, 1, 1],
// CHECK-NEXT: [1, 2, 2]]
// CHECK: result #8: tensor<5xf32>
// CHECK-NEXT: [0., 0.25, 0.5, 0.75, 1.]
// |1 - 1.05| < 0.1, |2.5 - 2| is not.
// CHECK: result #9: tensor<2xi1>
// CHECK-NEXT: [True, False]
// Row 0 goes to segment 1, row 1 to segment 0, segment 2 stays 0.
// CHECK: result #10: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}4., 5., 6.],
// CHECK-NEXT: [1., 2., 3.],
// CHECK-NEXT: [0., 0., 0.]]
// CHECK: result #11: tensor<1x3xf32>
// CHECK-NEXT: {{\[\[}}4., 5., 6.]]

// TensorFlow's MLIR leaves derived attributes (T, N, Tidx, SrcT/DstT,
// out_type, ...) implicit. Such a program runs, and exactly like the same
// program with every attribute written: through fallback-run, and through
// fallback-translate --mlir-to-bef (the same lowering).
// RUN: split-file %s %t
// RUN: fallback-run %t/implicit.mlir --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %t/explicit.mlir --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %t/implicit.mlir -o %t/implicit.bef
// RUN: fallback-run %t/implicit.bef --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-opt --tfrt-fallback-pipeline %t/implicit.mlir -o %t/implicit.lowered.mlir
// RUN: fallback-opt --tfrt-fallback-pipeline %t/explicit.mlir -o %t/explicit.lowered.mlir
// RUN: diff %t/implicit.lowered.mlir %t/explicit.lowered.mlir

// Hand-derived from x = [[1, 2, 3], [4, 5, 6]]: x < 3; concat of x and
// cast(x < 3) on axis 0 (c); the sum of c over axis 0; shape(c); transpose(x);
// x's columns 2 and 0; argmax of c's rows (ties pick the first); the sum of
// x's three columns; sum(c) tiled twice; sum(c) padded by 1 and 2;
// sum(c) packed twice; x reshaped to 3x2.
// CHECK: result #0: tensor<2x3xi1>
// CHECK-NEXT: {{\[\[}}True, True, False],
// CHECK-NEXT: [False, False, False]]
// CHECK: result #1: tensor<4x3xf32>
// CHECK-NEXT: {{\[\[}}1., 2., 3.],
// CHECK-NEXT: [4., 5., 6.],
// CHECK-NEXT: [1., 1., 0.],
// CHECK-NEXT: [0., 0., 0.]]
// CHECK: result #2: tensor<3xf32>
// CHECK-NEXT: [6., 8., 9.]
// CHECK: result #3: tensor<2xi32>
// CHECK-NEXT: [4, 3]
// CHECK: result #4: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}1., 4.],
// CHECK-NEXT: [2., 5.],
// CHECK-NEXT: [3., 6.]]
// CHECK: result #5: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}3., 1.],
// CHECK-NEXT: [6., 4.]]
// CHECK: result #6: tensor<4xi64>
// CHECK-NEXT: [2, 2, 0, 0]
// CHECK: result #7: tensor<2x1xf32>
// CHECK-NEXT: {{\[\[}}6.],
// CHECK-NEXT: [15.]]
// CHECK: result #8: tensor<6xf32>
// CHECK-NEXT: [6., 8., 9., 6., 8., 9.]
// CHECK: result #9: tensor<6xf32>
// CHECK-NEXT: [0., 6., 8., 9., 0., 0.]
// CHECK: result #10: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}6., 8., 9.],
// CHECK-NEXT: [6., 8., 9.]]
// CHECK: result #11: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}1., 2.],
// CHECK-NEXT: [3., 4.],
// CHECK-NEXT: [5., 6.]]

//--- implicit.mlir
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xi1>, tensor<4x3xf32>, tensor<3xf32>, tensor<2xi32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<4xi64>, tensor<2x1xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<3x2xf32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %three = "tf.Const"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %perm = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %idx = "tf.Const"() {value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %mult = "tf.Const"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %pads = "tf.Const"() {value = dense<[[1, 2]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
  %newshape = "tf.Const"() {value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "tf.Less"(%x, %three) {device = ""} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %1 = "tf.Cast"(%0) {Truncate = false} : (tensor<2x3xi1>) -> tensor<2x3xf32>
  %2 = "tf.ConcatV2"(%x, %1, %zero) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  %3 = "tf.Sum"(%2, %zero) {keep_dims = false} : (tensor<4x3xf32>, tensor<i32>) -> tensor<3xf32>
  %4 = "tf.Shape"(%2) : (tensor<4x3xf32>) -> tensor<2xi32>
  %5 = "tf.Transpose"(%x, %perm) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %6 = "tf.GatherV2"(%x, %idx, %one) {batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<2xi64>, tensor<i32>) -> tensor<2x2xf32>
  %7 = "tf.ArgMax"(%2, %one) : (tensor<4x3xf32>, tensor<i32>) -> tensor<4xi64>
  %8:3 = "tf.Split"(%one, %x) : (tensor<i32>, tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  %9 = "tf.AddN"(%8#0, %8#1, %8#2) : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %10 = "tf.Tile"(%3, %mult) : (tensor<3xf32>, tensor<1xi64>) -> tensor<6xf32>
  %11 = "tf.Pad"(%3, %pads) : (tensor<3xf32>, tensor<1x2xi64>) -> tensor<6xf32>
  %12 = "tf.Pack"(%3, %3) {axis = 0 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %13 = "tf.Reshape"(%x, %newshape) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0, %2, %3, %4, %5, %6, %7, %9, %10, %11, %12, %13 : tensor<2x3xi1>, tensor<4x3xf32>, tensor<3xf32>, tensor<2xi32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<4xi64>, tensor<2x1xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<3x2xf32>
}

//--- explicit.mlir
func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xi1>, tensor<4x3xf32>, tensor<3xf32>, tensor<2xi32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<4xi64>, tensor<2x1xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<3x2xf32>) {
  %zero = "tf.Const"() {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %three = "tf.Const"() {dtype = f32, value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %perm = "tf.Const"() {dtype = i64, value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %idx = "tf.Const"() {dtype = i64, value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %mult = "tf.Const"() {dtype = i64, value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %pads = "tf.Const"() {dtype = i64, value = dense<[[1, 2]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
  %newshape = "tf.Const"() {dtype = i64, value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "tf.Less"(%x, %three) {T = f32, device = ""} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xi1>
  %1 = "tf.Cast"(%0) {DstT = f32, SrcT = i1, Truncate = false} : (tensor<2x3xi1>) -> tensor<2x3xf32>
  %2 = "tf.ConcatV2"(%x, %1, %zero) {N = 2 : i64, T = f32, Tidx = i32} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  %3 = "tf.Sum"(%2, %zero) {T = f32, Tidx = i32, keep_dims = false} : (tensor<4x3xf32>, tensor<i32>) -> tensor<3xf32>
  %4 = "tf.Shape"(%2) {T = f32, out_type = i32} : (tensor<4x3xf32>) -> tensor<2xi32>
  %5 = "tf.Transpose"(%x, %perm) {T = f32, Tperm = i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %6 = "tf.GatherV2"(%x, %idx, %one) {Taxis = i32, Tindices = i64, Tparams = f32, batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<2xi64>, tensor<i32>) -> tensor<2x2xf32>
  %7 = "tf.ArgMax"(%2, %one) {T = f32, Tidx = i32, output_type = i64} : (tensor<4x3xf32>, tensor<i32>) -> tensor<4xi64>
  %8:3 = "tf.Split"(%one, %x) {T = f32, num_split = 3 : i64} : (tensor<i32>, tensor<2x3xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  %9 = "tf.AddN"(%8#0, %8#1, %8#2) {N = 3 : i64, T = f32} : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %10 = "tf.Tile"(%3, %mult) {T = f32, Tmultiples = i64} : (tensor<3xf32>, tensor<1xi64>) -> tensor<6xf32>
  %11 = "tf.Pad"(%3, %pads) {T = f32, Tpaddings = i64} : (tensor<3xf32>, tensor<1x2xi64>) -> tensor<6xf32>
  %12 = "tf.Pack"(%3, %3) {N = 2 : i64, T = f32, axis = 0 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %13 = "tf.Reshape"(%x, %newshape) {T = f32, Tshape = i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  return %0, %2, %3, %4, %5, %6, %7, %9, %10, %11, %12, %13 : tensor<2x3xi1>, tensor<4x3xf32>, tensor<3xf32>, tensor<2xi32>, tensor<3x2xf32>, tensor<2x2xf32>, tensor<4xi64>, tensor<2x1xf32>, tensor<6xf32>, tensor<6xf32>, tensor<2x3xf32>, tensor<3x2xf32>
}

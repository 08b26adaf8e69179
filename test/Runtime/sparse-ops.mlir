// SparseTensorDenseMatMul, SparseReorder, SparseReshape,
// SparseFillEmptyRows, SparseAdd, SparseSlice and SparseReduceSum chained on
// the parts of SparseTensors (int64 indices, values, int64 dense shape).
// From the .mlir and through a .bef.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy | FileCheck %s

// Hand-derived from x = [[1, 2, 3], [4, 5, 6]].
// #0: A = [[0, 2], [1, 0]] (entries (0,1)=2, (1,0)=1) times x.
// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}8., 10., 12.],
// CHECK-NEXT: [1., 2., 3.]]
// #1, #2: entries (1,0), (0,2), (0,1) with x's first row [1, 2, 3] as
// values, reordered: (0,1)=3, (0,2)=2, (1,0)=1.
// CHECK: result #1: tensor<3x2xi64>
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [0, 2],
// CHECK-NEXT: [1, 0]]
// CHECK: result #2: tensor<3xf32>
// CHECK-NEXT: {{\[}}3., 2., 1.]
// #3, #4: those indices of a [2, 3] tensor reshaped to [-1, 2]: positions
// 1, 2, 3 -> (0,1), (1,0), (1,1); the shape [3, 2].
// CHECK: result #3: tensor<3x2xi64>
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [1, 0],
// CHECK-NEXT: [1, 1]]
// CHECK: result #4: tensor<2xi64>
// CHECK-NEXT: {{\[}}3, 2]
// #5 - #8: in a [4, 2] tensor rows 2 and 3 are empty and get 0.5 at
// column 0.
// CHECK: result #5: tensor<5x2xi64>
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [1, 0],
// CHECK-NEXT: [1, 1],
// CHECK-NEXT: [2, 0],
// CHECK-NEXT: [3, 0]]
// CHECK: result #6: tensor<5xf32>
// CHECK-NEXT: {{\[}}3., 2., 1., 0.5, 0.5]
// CHECK: result #7: tensor<4xi1>
// CHECK-NEXT: {{\[}}False, False, True, True]
// CHECK: result #8: tensor<3xi64>
// CHECK-NEXT: {{\[}}0, 1, 2]
// #9, #10: the reordered tensor (0,1)=3, (0,2)=2, (1,0)=1 plus (0,2)=-2,
// (1,2)=5: (0,2) sums to 0 < 0.5 and is dropped.
// CHECK: result #9: tensor<3x2xi64>
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [1, 0],
// CHECK-NEXT: [1, 2]]
// CHECK: result #10: tensor<3xf32>
// CHECK-NEXT: {{\[}}3., 1., 5.]
// #11, #12: that sum's column 1 onwards ([2, 2] from [0, 1]): (0,1) -> (0,0)
// and (1,2) -> (1,1).
// CHECK: result #11: tensor<2x2xi64>
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [1, 1]]
// CHECK: result #12: tensor<2xf32>
// CHECK-NEXT: {{\[}}3., 5.]
// #13: the sum's rows summed: [3, 1 + 5].
// CHECK: result #13: tensor<2xf32>
// CHECK-NEXT: {{\[}}3., 6.]

func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<3x2xi64>, tensor<3xf32>, tensor<3x2xi64>, tensor<2xi64>, tensor<5x2xi64>, tensor<5xf32>, tensor<4xi1>, tensor<3xi64>, tensor<3x2xi64>, tensor<3xf32>, tensor<2x2xi64>, tensor<2xf32>, tensor<2xf32>) {
  %a_ix = "tf.Const"() {value = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %a_val = "tf.Const"() {value = dense<[2.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %a_shape = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %product = "tf.SparseTensorDenseMatMul"(%a_ix, %a_val, %a_shape, %x) {adjoint_a = false, adjoint_b = false} : (tensor<2x2xi64>, tensor<2xf32>, tensor<2xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>

  %begin = "tf.Const"() {value = dense<[0, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %size = "tf.Const"() {value = dense<[1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %row0 = "tf.Slice"(%x, %begin, %size) : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<1x3xf32>
  %flat = "tf.Const"() {value = dense<[3]> : tensor<1xi32>} : () -> tensor<1xi32>
  %values = "tf.Reshape"(%row0, %flat) : (tensor<1x3xf32>, tensor<1xi32>) -> tensor<3xf32>
  %ix = "tf.Const"() {value = dense<[[1, 0], [0, 2], [0, 1]]> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
  %shape = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sorted:2 = "tf.SparseReorder"(%ix, %values, %shape) : (tensor<3x2xi64>, tensor<3xf32>, tensor<2xi64>) -> (tensor<3x2xi64>, tensor<3xf32>)

  %target = "tf.Const"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %reshaped:2 = "tf.SparseReshape"(%sorted#0, %shape, %target) : (tensor<3x2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<3x2xi64>, tensor<2xi64>)

  %tall = "tf.Const"() {value = dense<[4, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %half = "tf.Const"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %filled:4 = "tf.SparseFillEmptyRows"(%reshaped#0, %sorted#1, %tall, %half) : (tensor<3x2xi64>, tensor<3xf32>, tensor<2xi64>, tensor<f32>) -> (tensor<5x2xi64>, tensor<5xf32>, tensor<4xi1>, tensor<3xi64>)

  %b_ix = "tf.Const"() {value = dense<[[0, 2], [1, 2]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %b_val = "tf.Const"() {value = dense<[-2.0, 5.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %thresh = "tf.Const"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %sum:3 = "tf.SparseAdd"(%sorted#0, %sorted#1, %shape, %b_ix, %b_val, %shape, %thresh) : (tensor<3x2xi64>, tensor<3xf32>, tensor<2xi64>, tensor<2x2xi64>, tensor<2xf32>, tensor<2xi64>, tensor<f32>) -> (tensor<3x2xi64>, tensor<3xf32>, tensor<2xi64>)

  %start = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %extent = "tf.Const"() {value = dense<[2, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %slice:3 = "tf.SparseSlice"(%sum#0, %sum#1, %sum#2, %start, %extent) : (tensor<3x2xi64>, tensor<3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<2x2xi64>, tensor<2xf32>, tensor<2xi64>)

  %axis = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %rowsum = "tf.SparseReduceSum"(%sum#0, %sum#1, %sum#2, %axis) {keep_dims = false} : (tensor<3x2xi64>, tensor<3xf32>, tensor<2xi64>, tensor<1xi32>) -> tensor<2xf32>

  return %product, %sorted#0, %sorted#1, %reshaped#0, %reshaped#1, %filled#0, %filled#1, %filled#2, %filled#3, %sum#0, %sum#1, %slice#0, %slice#1, %rowsum : tensor<2x3xf32>, tensor<3x2xi64>, tensor<3xf32>, tensor<3x2xi64>, tensor<2xi64>, tensor<5x2xi64>, tensor<5xf32>, tensor<4xi1>, tensor<3xi64>, tensor<3x2xi64>, tensor<3xf32>, tensor<2x2xi64>, tensor<2xf32>, tensor<2xf32>
}

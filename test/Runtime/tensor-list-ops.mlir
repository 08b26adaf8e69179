// The TensorList ops beyond reserve / set / get / stack: a tf.While pushes
// rows onto an EmptyTensorList (the list crosses the loop as a loop
// value), then PopBack, Gather, ScatterV2, ScatterIntoExistingList, Resize,
// Split, ConcatLists, ConcatV2, ElementShape and PushBackBatch (on the list
// reshaped to a batch of one) read and rebuild lists. From the .mlir and
// through a .bef, on one thread and on the dataflow executor.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s

// Hand-derived from x = [[1, 2, 3], [4, 5, 6]]. The loop pushes 10 * row i
// for i = 0, 1: [[10, 20, 30], [40, 50, 60]].
// #0, #1: PopBack gives [40, 50, 60] and a list of length 1.
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: {{\[}}40., 50., 60.]
// CHECK: result #1: tensor<i32>
// CHECK-NEXT: 1
// #2: Gather [1, 0, 1] of the pushed list.
// CHECK: result #2: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}40., 50., 60.],
// CHECK-NEXT: [10., 20., 30.],
// CHECK-NEXT: [40., 50., 60.]]
// #3: ScatterV2 of x's rows to elements 2 and 0 of a list of 4, resized to
// 3: [[4, 5, 6], unset, [1, 2, 3]]; then row 0 of x scattered into element
// 1 of it.
// CHECK: result #3: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}4., 5., 6.],
// CHECK-NEXT: [1., 2., 3.],
// CHECK-NEXT: [1., 2., 3.]]
// #4, #5: x split in pieces of 1 and 1 rows, the list concatenated with
// itself and its elements concatenated: x twice, lengths [1, 1, 1, 1].
// CHECK: result #4: tensor<4x3xf32>
// CHECK-NEXT: {{\[\[}}1., 2., 3.],
// CHECK-NEXT: [4., 5., 6.],
// CHECK-NEXT: [1., 2., 3.],
// CHECK-NEXT: [4., 5., 6.]]
// CHECK: result #5: tensor<4xi64>
// CHECK-NEXT: {{\[}}1, 1, 1, 1]
// #6: the split list's element shape, [-1, 3].
// CHECK: result #6: tensor<2xi32>
// CHECK-NEXT: {{\[}}-1, 3]
// #7: the pushed list as a batch of one, with [7, 8, 9] pushed, back to a
// list and stacked.
// CHECK: result #7: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}10., 20., 30.],
// CHECK-NEXT: [40., 50., 60.],
// CHECK-NEXT: [7., 8., 9.]]

func.func private @rows_left(%i: tensor<i32>, %x: tensor<2x3xf32>, %l: tensor<!tf_type.variant<tensor<3xf32>>>) -> tensor<i1> {
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %two) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}

func.func private @push_row(%i: tensor<i32>, %x: tensor<2x3xf32>, %l: tensor<!tf_type.variant<tensor<3xf32>>>) -> (tensor<i32>, tensor<2x3xf32>, tensor<!tf_type.variant<tensor<3xf32>>>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %ten = "tf.Const"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %row = "tf.GatherV2"(%x, %i, %axis) {batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<3xf32>
  %scaled = "tf.Mul"(%row, %ten) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %next = "tf.TensorListPushBack"(%l, %scaled) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<3xf32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %i2 = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %i2, %x, %next : tensor<i32>, tensor<2x3xf32>, tensor<!tf_type.variant<tensor<3xf32>>>
}

func.func @main(%x: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<i32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>, tensor<4xi64>, tensor<2xi32>, tensor<3x3xf32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %unbounded = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %shape = "tf.Const"() {value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
  %empty = "tf.EmptyTensorList"(%shape, %unbounded) {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %loop:3 = "tf.While"(%zero, %x, %empty) {cond = @rows_left, body = @push_row, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<2x3xf32>, tensor<!tf_type.variant<tensor<3xf32>>>) -> (tensor<i32>, tensor<2x3xf32>, tensor<!tf_type.variant<tensor<3xf32>>>)
  %pushed = "tf.Identity"(%loop#2) : (tensor<!tf_type.variant<tensor<3xf32>>>) -> tensor<!tf_type.variant<tensor<3xf32>>>

  %popped:2 = "tf.TensorListPopBack"(%pushed, %shape) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<3xf32>)
  %rest = "tf.TensorListLength"(%popped#0) : (tensor<!tf_type.variant<tensor<3xf32>>>) -> tensor<i32>

  %picks = "tf.Const"() {value = dense<[1, 0, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %gathered = "tf.TensorListGather"(%pushed, %picks, %shape) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<3xi32>, tensor<1xi32>) -> tensor<3x3xf32>

  %to = "tf.Const"() {value = dense<[2, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %four = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %scattered = "tf.TensorListScatterV2"(%x, %to, %shape, %four) {element_dtype = f32, shape_type = i32} : (tensor<2x3xf32>, tensor<2xi32>, tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %resized = "tf.TensorListResize"(%scattered, %three) : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %row0 = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %at1 = "tf.Const"() {value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %filled = "tf.TensorListScatterIntoExistingList"(%resized, %row0, %at1) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1x3xf32>, tensor<1xi32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %stacked = "tf.TensorListStack"(%filled, %shape) {element_dtype = f32, num_elements = 3 : i64} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> tensor<3x3xf32>

  %pieceShape = "tf.Const"() {value = dense<[-1, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %lengths = "tf.Const"() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %split = "tf.TensorListSplit"(%x, %pieceShape, %lengths) {element_dtype = f32, shape_type = i32} : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi64>) -> tensor<!tf_type.variant<tensor<?x3xf32>>>
  %twice = "tf.TensorListConcatLists"(%split, %split) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<!tf_type.variant<tensor<?x3xf32>>>) -> tensor<!tf_type.variant<tensor<?x3xf32>>>
  %noLeading = "tf.Const"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %concat:2 = "tf.TensorListConcatV2"(%twice, %pieceShape, %noLeading) {element_dtype = f32, shape_type = i32} : (tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<2xi32>, tensor<0xi64>) -> (tensor<4x3xf32>, tensor<4xi64>)
  %elementShape = "tf.TensorListElementShape"(%split) {shape_type = i32} : (tensor<!tf_type.variant<tensor<?x3xf32>>>) -> tensor<2xi32>

  %one = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %batch = "tf.Reshape"(%pushed, %one) : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> tensor<1x!tf_type.variant<tensor<3xf32>>>
  %more = "tf.Const"() {value = dense<[[7.0, 8.0, 9.0]]> : tensor<1x3xf32>} : () -> tensor<1x3xf32>
  %grown = "tf.TensorListPushBackBatch"(%batch, %more) {element_dtype = f32} : (tensor<1x!tf_type.variant<tensor<3xf32>>>, tensor<1x3xf32>) -> tensor<1x!tf_type.variant<tensor<3xf32>>>
  %scalar = "tf.Const"() {value = dense<> : tensor<0xi32>} : () -> tensor<0xi32>
  %list = "tf.Reshape"(%grown, %scalar) : (tensor<1x!tf_type.variant<tensor<3xf32>>>, tensor<0xi32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %batchStacked = "tf.TensorListStack"(%list, %shape) {element_dtype = f32, num_elements = 3 : i64} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> tensor<3x3xf32>

  return %popped#1, %rest, %gathered, %stacked, %concat#0, %concat#1, %elementShape, %batchStacked : tensor<3xf32>, tensor<i32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<4x3xf32>, tensor<4xi64>, tensor<2xi32>, tensor<3x3xf32>
}

// TensorLists (variant tensors) as TensorFlow's tf.while_loop over a list
// writes them: TensorListFromTensor splits the input into rows, a tf.While
// reads them with TensorListGetItem and fills a TensorListReserve'd list
// with TensorListSetItem (lists cross the loop as loop values), and
// TensorListStack / TensorListLength read the results; an element never set
// stacks as zeros. From the .mlir and through a .bef (variant values are
// dtype 21 there), on one thread and on the dataflow executor.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s

// Hand-derived from x = [[1, 2, 3], [4, 5, 6]]: the loop writes row i of
// the output from row n - 1 - i of the input, doubled: [[8, 10, 12],
// [2, 4, 6]]; the output list has length n = 2. A list of 3 with only
// element 1 set to [4, 5, 6] stacks as [[0, 0, 0], [4, 5, 6], [0, 0, 0]].
// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}8., 10., 12.],
// CHECK-NEXT: [2., 4., 6.]]
// CHECK: result #1: tensor<i32>
// CHECK-NEXT: 2
// CHECK: result #2: tensor<3x3xf32>
// CHECK-NEXT: {{\[\[}}0., 0., 0.],
// CHECK-NEXT: [4., 5., 6.],
// CHECK-NEXT: [0., 0., 0.]]

func.func private @rows_left(%i: tensor<i32>, %in: tensor<!tf_type.variant<tensor<3xf32>>>, %out: tensor<!tf_type.variant<tensor<3xf32>>>) -> tensor<i1> {
  %n = "tf.TensorListLength"(%in) : (tensor<!tf_type.variant<tensor<3xf32>>>) -> tensor<i32>
  %lt = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}

func.func private @reverse_double(%i: tensor<i32>, %in: tensor<!tf_type.variant<tensor<3xf32>>>, %out: tensor<!tf_type.variant<tensor<3xf32>>>) -> (tensor<i32>, tensor<!tf_type.variant<tensor<3xf32>>>, tensor<!tf_type.variant<tensor<3xf32>>>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %shape = "tf.Const"() {value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
  %n = "tf.TensorListLength"(%in) : (tensor<!tf_type.variant<tensor<3xf32>>>) -> tensor<i32>
  %last = "tf.Sub"(%n, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %j = "tf.Sub"(%last, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %row = "tf.TensorListGetItem"(%in, %j, %shape) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>, tensor<1xi32>) -> tensor<3xf32>
  %doubled = "tf.Mul"(%row, %two) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %next = "tf.TensorListSetItem"(%out, %i, %doubled) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>, tensor<3xf32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %i2 = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %i2, %in, %next : tensor<i32>, tensor<!tf_type.variant<tensor<3xf32>>>, tensor<!tf_type.variant<tensor<3xf32>>>
}

func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<i32>, tensor<3x3xf32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %shape = "tf.Const"() {value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
  %in = "tf.TensorListFromTensor"(%x, %shape) {element_dtype = f32, shape_type = i32} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %empty = "tf.TensorListReserve"(%shape, %two) {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %loop:3 = "tf.While"(%zero, %in, %empty) {cond = @rows_left, body = @reverse_double, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<!tf_type.variant<tensor<3xf32>>>, tensor<!tf_type.variant<tensor<3xf32>>>) -> (tensor<i32>, tensor<!tf_type.variant<tensor<3xf32>>>, tensor<!tf_type.variant<tensor<3xf32>>>)
  %stacked = "tf.TensorListStack"(%loop#2, %shape) {element_dtype = f32, num_elements = -1 : i64} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> tensor<2x3xf32>
  %length = "tf.TensorListLength"(%loop#2) : (tensor<!tf_type.variant<tensor<3xf32>>>) -> tensor<i32>
  // Three elements, only element 1 set (to the input's second row).
  %sparse = "tf.TensorListReserve"(%shape, %three) {element_dtype = f32, shape_type = i32} : (tensor<1xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %row1 = "tf.TensorListGetItem"(%in, %one, %shape) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>, tensor<1xi32>) -> tensor<3xf32>
  %set = "tf.TensorListSetItem"(%sparse, %one, %row1) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>, tensor<3xf32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %zeros = "tf.TensorListStack"(%set, %shape) {element_dtype = f32, num_elements = 3 : i64} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> tensor<3x3xf32>
  return %stacked, %length, %zeros : tensor<2x3xf32>, tensor<i32>, tensor<3x3xf32>
}

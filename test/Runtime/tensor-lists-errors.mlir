// TensorList errors are values naming the op and its location, in
// TensorFlow's words: an index past the end, a Stack whose num_elements is
// not the list's length, and a read past the end inside a loop, which ends
// the loop (its results become the error) while independent work completes.
// RUN: not fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s < %t.err
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: not fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy --threads=2 > %t.par.out 2> %t.par.err
// RUN: FileCheck %s --check-prefix=OUT < %t.par.out
// RUN: FileCheck %s < %t.par.err
// CHECK: error: result #0: TensorListGetItem '{{.*}}:{{[0-9]+}}:{{[0-9]+}}': Trying to access element 5 in a list with 2 elements.
// CHECK: error: result #1: TensorListStack '{{.*}}:{{[0-9]+}}:{{[0-9]+}}': Operation expected a list with 4 elements but got a list with 2 elements.
// CHECK: error: result #2: TensorListGetItem '{{.*}}:{{[0-9]+}}:{{[0-9]+}}': Trying to access element 2 in a list with 2 elements.
// The sum of the input, 21, does not depend on the lists.
// OUT: result #3: tensor<f32>
// OUT-NEXT: 21.

// Sums rows 0, 1, 2 of a list of two rows: row 2 does not exist.
func.func private @below_three(%i: tensor<i32>, %acc: tensor<3xf32>, %l: tensor<!tf_type.variant<tensor<3xf32>>>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @add_row(%i: tensor<i32>, %acc: tensor<3xf32>, %l: tensor<!tf_type.variant<tensor<3xf32>>>) -> (tensor<i32>, tensor<3xf32>, tensor<!tf_type.variant<tensor<3xf32>>>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %shape = "tf.Const"() {value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
  %row = "tf.TensorListGetItem"(%l, %i, %shape) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>, tensor<1xi32>) -> tensor<3xf32>
  %sum = "tf.AddV2"(%acc, %row) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %i2 = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %i2, %sum, %l : tensor<i32>, tensor<3xf32>, tensor<!tf_type.variant<tensor<3xf32>>>
}

func.func @main(%x: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<f32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %five = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %shape = "tf.Const"() {value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
  %zeros = "tf.Const"() {value = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %in = "tf.TensorListFromTensor"(%x, %shape) {element_dtype = f32, shape_type = i32} : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<!tf_type.variant<tensor<3xf32>>>
  %past_end = "tf.TensorListGetItem"(%in, %five, %shape) {element_dtype = f32} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<i32>, tensor<1xi32>) -> tensor<3xf32>
  %wrong_count = "tf.TensorListStack"(%in, %shape) {element_dtype = f32, num_elements = 4 : i64} : (tensor<!tf_type.variant<tensor<3xf32>>>, tensor<1xi32>) -> tensor<2x3xf32>
  %loop:3 = "tf.While"(%zero, %zeros, %in) {cond = @below_three, body = @add_row, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<3xf32>, tensor<!tf_type.variant<tensor<3xf32>>>) -> (tensor<i32>, tensor<3xf32>, tensor<!tf_type.variant<tensor<3xf32>>>)
  %axes = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %sum = "tf.Sum"(%x, %axes) {keep_dims = false} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  return %past_end, %wrong_count, %loop#1, %sum : tensor<3xf32>, tensor<2x3xf32>, tensor<3xf32>, tensor<f32>
}

// DenseToDenseSetOperation, DenseToSparseSetOperation and
// SparseToSparseSetOperation on int32 and string sets: the sets are the
// rows of the last dimension, the results SparseTensors with each row's set
// sorted. From the .mlir and through a .bef.
// RUN: fallback-run %s --input=%S/Inputs/i32_4.npy --input=%S/Inputs/str_3.npy | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/i32_4.npy --input=%S/Inputs/str_3.npy | FileCheck %s

// Hand-derived from x = [1, -2, 3, -4] as a = [[1, -2], [3, -4]] and
// b = [[3, 3], [-4, 7]].
// #0 - #2: a union b: {-2, 1, 3} and {-4, 3, 7}.
// CHECK: result #0: tensor<6x2xi64>
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [0, 1],
// CHECK-NEXT: [0, 2],
// CHECK-NEXT: [1, 0],
// CHECK-NEXT: [1, 1],
// CHECK-NEXT: [1, 2]]
// CHECK: result #1: tensor<6xi32>
// CHECK-NEXT: {{\[}}-2, 1, 3, -4, 3, 7]
// CHECK: result #2: tensor<2xi64>
// CHECK-NEXT: {{\[}}2, 3]
// #3 - #5: a minus the sparse [[9, 1], [3, -]] ((0,0)=9, (0,1)=1, (1,0)=3
// in a [2, 2] shape): {-2} and {-4}.
// CHECK: result #3: tensor<2x2xi64>
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [1, 0]]
// CHECK: result #4: tensor<2xi32>
// CHECK-NEXT: {{\[}}-2, -4]
// CHECK: result #5: tensor<2xi64>
// CHECK-NEXT: {{\[}}2, 1]
// #6 - #8: the strings [b'ab', b'cde', b'f'] as one set intersected with
// the sparse set {b'f', b'zz', b'ab'}: {b'ab', b'f'}.
// CHECK: result #6: tensor<2x2xi64>
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [0, 1]]
// CHECK: result #7: tensor<2x!tf_type.string>
// CHECK-NEXT: {{\[}}b'ab', b'f']
// CHECK: result #8: tensor<2xi64>
// CHECK-NEXT: {{\[}}1, 2]
func.func @main(%x: tensor<4xi32>, %s: tensor<3x!tf_type.string>) -> (tensor<6x2xi64>, tensor<6xi32>, tensor<2xi64>, tensor<2x2xi64>, tensor<2xi32>, tensor<2xi64>, tensor<2x2xi64>, tensor<2x!tf_type.string>, tensor<2xi64>) {
  %shape22 = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %a = "tf.Reshape"(%x, %shape22) : (tensor<4xi32>, tensor<2xi32>) -> tensor<2x2xi32>
  %b = "tf.Const"() {value = dense<[[3, 3], [-4, 7]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %union:3 = "tf.DenseToDenseSetOperation"(%a, %b) {set_operation = "union", validate_indices = true} : (tensor<2x2xi32>, tensor<2x2xi32>) -> (tensor<6x2xi64>, tensor<6xi32>, tensor<2xi64>)

  %sp_ix = "tf.Const"() {value = dense<[[0, 0], [0, 1], [1, 0]]> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
  %sp_val = "tf.Const"() {value = dense<[9, 1, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %sp_shape = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %diff:3 = "tf.DenseToSparseSetOperation"(%a, %sp_ix, %sp_val, %sp_shape) {set_operation = "a-b", validate_indices = true} : (tensor<2x2xi32>, tensor<3x2xi64>, tensor<3xi32>, tensor<2xi64>) -> (tensor<2x2xi64>, tensor<2xi32>, tensor<2xi64>)

  %s_ix = "tf.Const"() {value = dense<[[0, 0], [0, 1], [0, 2]]> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
  %s_shape = "tf.Const"() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %t_ix = "tf.Const"() {value = dense<[[0, 0], [0, 1], [0, 2]]> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
  %t_val = "tf.Const"() {value = dense<["f", "zz", "ab"]> : tensor<3x!tf_type.string>} : () -> tensor<3x!tf_type.string>
  %t_shape = "tf.Const"() {value = dense<[1, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %both:3 = "tf.SparseToSparseSetOperation"(%s_ix, %s, %s_shape, %t_ix, %t_val, %t_shape) {set_operation = "intersection", validate_indices = true} : (tensor<3x2xi64>, tensor<3x!tf_type.string>, tensor<2xi64>, tensor<3x2xi64>, tensor<3x!tf_type.string>, tensor<2xi64>) -> (tensor<2x2xi64>, tensor<2x!tf_type.string>, tensor<2xi64>)

  return %union#0, %union#1, %union#2, %diff#0, %diff#1, %diff#2, %both#0, %both#1, %both#2 : tensor<6x2xi64>, tensor<6xi32>, tensor<2xi64>, tensor<2x2xi64>, tensor<2xi32>, tensor<2xi64>, tensor<2x2xi64>, tensor<2x!tf_type.string>, tensor<2xi64>
}

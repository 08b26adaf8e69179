// RaggedRange, RaggedGather, RaggedTensorToTensor, RaggedTensorToSparse and
// the variant encoding (RaggedTensorToVariant, RaggedTensorFromVariant) on
// one ragged tensor. From the .mlir and through a .bef.
// RUN: fallback-run %s --input=%S/Inputs/i32_4.npy | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/i32_4.npy | FileCheck %s

// Hand-derived from x = [1, -2, 3, -4]: r = ragged.range(0, x) =
// [[0], [], [0, 1, 2], []].
// CHECK: result #0: tensor<5xi64>
// CHECK-NEXT: {{\[}}0, 1, 1, 4, 4]
// CHECK: result #1: tensor<4xi32>
// CHECK-NEXT: {{\[}}0, 0, 1, 2]
// #2, #3: r's rows [2, 0, 2] = [[0, 1, 2], [0], [0, 1, 2]].
// CHECK: result #2: tensor<4xi64>
// CHECK-NEXT: {{\[}}0, 3, 4, 7]
// CHECK: result #3: tensor<7xi32>
// CHECK-NEXT: {{\[}}0, 1, 2, 0, 0, 1, 2]
// #4: r padded with 9.
// CHECK: result #4: tensor<4x3xi32>
// CHECK-NEXT: {{\[\[}}0, 9, 9],
// CHECK-NEXT: [9, 9, 9],
// CHECK-NEXT: [0, 1, 2],
// CHECK-NEXT: [9, 9, 9]]
// #5, #6: r as a SparseTensor of dense shape [4, 3].
// CHECK: result #5: tensor<4x2xi64>
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [2, 0],
// CHECK-NEXT: [2, 1],
// CHECK-NEXT: [2, 2]]
// CHECK: result #6: tensor<2xi64>
// CHECK-NEXT: {{\[}}4, 3]
// #7, #8: r's rows as four variants, stacked back into r.
// CHECK: result #7: tensor<5xi64>
// CHECK-NEXT: {{\[}}0, 1, 1, 4, 4]
// CHECK: result #8: tensor<4xi32>
// CHECK-NEXT: {{\[}}0, 0, 1, 2]
func.func @main(%x: tensor<4xi32>) -> (tensor<5xi64>, tensor<4xi32>, tensor<4xi64>, tensor<7xi32>, tensor<4x3xi32>, tensor<4x2xi64>, tensor<2xi64>, tensor<5xi64>, tensor<4xi32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %r:2 = "tf.RaggedRange"(%zero, %x, %one) : (tensor<i32>, tensor<4xi32>, tensor<i32>) -> (tensor<5xi64>, tensor<4xi32>)

  %rows = "tf.Const"() {value = dense<[2, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %g:2 = "tf.RaggedGather"(%r#0, %r#1, %rows) : (tensor<5xi64>, tensor<4xi32>, tensor<3xi32>) -> (tensor<4xi64>, tensor<7xi32>)

  %unknown = "tf.Const"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %nine = "tf.Const"() {value = dense<9> : tensor<i32>} : () -> tensor<i32>
  %dense = "tf.RaggedTensorToTensor"(%unknown, %r#1, %nine, %r#0) {row_partition_types = ["ROW_SPLITS"]} : (tensor<i64>, tensor<4xi32>, tensor<i32>, tensor<5xi64>) -> tensor<4x3xi32>

  %sp:3 = "tf.RaggedTensorToSparse"(%r#0, %r#1) : (tensor<5xi64>, tensor<4xi32>) -> (tensor<4x2xi64>, tensor<4xi32>, tensor<2xi64>)

  %v = "tf.RaggedTensorToVariant"(%r#0, %r#1) {batched_input = true} : (tensor<5xi64>, tensor<4xi32>) -> tensor<4x!tf_type.variant>
  %back:2 = "tf.RaggedTensorFromVariant"(%v) {input_ragged_rank = 0 : i64, output_ragged_rank = 1 : i64} : (tensor<4x!tf_type.variant>) -> (tensor<5xi64>, tensor<4xi32>)

  return %r#0, %r#1, %g#0, %g#1, %dense, %sp#0, %sp#2, %back#0, %back#1 : tensor<5xi64>, tensor<4xi32>, tensor<4xi64>, tensor<7xi32>, tensor<4x3xi32>, tensor<4x2xi64>, tensor<2xi64>, tensor<5xi64>, tensor<4xi32>
}

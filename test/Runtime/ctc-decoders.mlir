// CTCGreedyDecoder and CTCBeamSearchDecoder from the .mlir and through a
// .bef. Expected values derived by hand (see the comments).
// RUN: fallback-run %s | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef | FileCheck %s

// Greedy, merge_repeated: entry 0 (length 4) has argmax 0, 0, blank, 0 ->
// [0, 0]; entry 1 (length 2) 1, 1 -> [1]. log_probability is minus the sum
// of the step maxima: -(0.5 + 0.25 + 0.75 + 1) and -(1 + 0.5).
// CHECK: result #0: tensor<3x2xi64>
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [0, 1],
// CHECK-NEXT: [1, 0]]
// CHECK: result #1: tensor<3xi64>
// CHECK-NEXT: {{\[}}0, 0, 1]
// CHECK: result #2: tensor<2xi64>
// CHECK-NEXT: {{\[}}2, 2]
// CHECK: result #3: tensor<2x1xf32>
// CHECK-NEXT: {{\[\[}}-2.5],
// CHECK-NEXT: [-1.5]]
// Beam search (beam 10, merge_repeated = false) on 3 steps where label 0,
// blank, label 0 dominate: the best labeling is [0, 0] (entry 0 of batch
// 0 at steps 0 and 1 of the path).
// CHECK: result #4: tensor<2x2xi64>
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [0, 1]]
// CHECK: result #5: tensor<2xi64>
// CHECK-NEXT: {{\[}}0, 0]
// CHECK: result #6: tensor<2xi64>
// CHECK-NEXT: {{\[}}1, 2]
// CHECK: result #7: tensor<1x1xf32>

func.func @main() -> (tensor<3x2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<2x1xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<1x1xf32>) {
  %x = "tf.Const"() {value = dense<[[[0.5, 0.0, 0.25], [0.0, 1.0, 0.0]], [[0.25, 0.0, 0.0], [0.0, 0.5, 0.25]], [[0.0, 0.25, 0.75], [9.0, 0.0, 0.0]], [[1.0, 0.0, 0.0], [0.0, 9.0, 0.0]]]> : tensor<4x2x3xf32>} : () -> tensor<4x2x3xf32>
  %len = "tf.Const"() {value = dense<[4, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %g:4 = "tf.CTCGreedyDecoder"(%x, %len) {merge_repeated = true, blank_index = -1 : i64} : (tensor<4x2x3xf32>, tensor<2xi32>) -> (tensor<3x2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<2x1xf32>)
  %y = "tf.Const"() {value = dense<[[[5.0, 0.0, 0.0]], [[0.0, 0.0, 5.0]], [[5.0, 0.0, 0.0]]]> : tensor<3x1x3xf32>} : () -> tensor<3x1x3xf32>
  %ylen = "tf.Const"() {value = dense<[3]> : tensor<1xi32>} : () -> tensor<1xi32>
  %b:4 = "tf.CTCBeamSearchDecoder"(%y, %ylen) {beam_width = 10 : i64, top_paths = 1 : i64, merge_repeated = false} : (tensor<3x1x3xf32>, tensor<1xi32>) -> (tensor<2x2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<1x1xf32>)
  return %g#0, %g#1, %g#2, %g#3, %b#0, %b#1, %b#2, %b#3 : tensor<3x2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<2x1xf32>, tensor<2x2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<1x1xf32>
}

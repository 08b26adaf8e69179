// CombinedNonMaxSuppression from the .mlir and through a .bef. Expected
// values derived by hand.
// RUN: fallback-run %s | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef | FileCheck %s

// Boxes 0 and 1 overlap (IoU 0.625), 2 is disjoint and sticks out of
// [0, 1].
// Class 0 scores 0.75, 0.5, 0.25: box 0, box 1 suppressed, box 2. Class 1
// scores 0, 0.625, 0: box 1 alone (the zeros are under the threshold
// 0.125). Merged by score: 0.75 (c0, box 0), 0.625 (c1, box 1), 0.25 (c0,
// box 2, clipped to [0, 1]); padded to max_total_size 4.
// CHECK: result #0: tensor<1x4x4xf32>
// CHECK-NEXT: {{\[\[\[}}0., 0., 1., 1.],
// CHECK-NEXT: [0., 0., 1., 0.625],
// CHECK-NEXT: [0., 1., 1., 1.],
// CHECK-NEXT: [0., 0., 0., 0.]]]
// CHECK: result #1: tensor<1x4xf32>
// CHECK-NEXT: {{\[\[}}0.75, 0.625, 0.25, 0.]]
// CHECK: result #2: tensor<1x4xf32>
// CHECK-NEXT: {{\[\[}}0., 1., 0., 0.]]
// CHECK: result #3: tensor<1xi32>
// CHECK-NEXT: {{\[}}3]

func.func @main() -> (tensor<1x4x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1xi32>) {
  %boxes = "tf.Const"() {value = dense<[[[[0.0, 0.0, 1.0, 1.0]], [[0.0, 0.0, 1.0, 0.625]], [[0.0, 2.0, 1.0, 3.0]]]]> : tensor<1x3x1x4xf32>} : () -> tensor<1x3x1x4xf32>
  %scores = "tf.Const"() {value = dense<[[[0.75, 0.0], [0.5, 0.625], [0.25, 0.0]]]> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
  %per_class = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %total = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %iou = "tf.Const"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %threshold = "tf.Const"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %r:4 = "tf.CombinedNonMaxSuppression"(%boxes, %scores, %per_class, %total, %iou, %threshold) {pad_per_class = false, clip_boxes = true} : (tensor<1x3x1x4xf32>, tensor<1x3x2xf32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<1x4x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1xi32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<1x4x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1xi32>
}

// RUN: fallback-run %s --threads=1 | FileCheck %s
// ResizeBicubic, CropAndResize, ExtractImagePatches, NonMaxSuppressionV4
// and NonMaxSuppressionWithOverlaps end to end from TF MLIR (type
// attributes left implicit). Expected values derived by hand.

func.func @main() -> (tensor<1x1x3x1xf32>, tensor<1x2x2x1xf32>, tensor<1x1x1x4xf32>, tensor<3xi32>, tensor<i32>, tensor<2xi32>) {
  %row = "tf.Const"() {value = dense<[[[[0.0], [1.0], [4.0], [9.0]]]]> : tensor<1x1x4x1xf32>, dtype = f32} : () -> tensor<1x1x4x1xf32>
  %size = "tf.Const"() {value = dense<[1, 3]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %0 = "tf.ResizeBicubic"(%row, %size) {align_corners = true, half_pixel_centers = false} : (tensor<1x1x4x1xf32>, tensor<2xi32>) -> tensor<1x1x3x1xf32>
  %img = "tf.Const"() {value = dense<[[[[0.0], [1.0], [2.0]], [[3.0], [4.0], [5.0]], [[6.0], [7.0], [8.0]]]]> : tensor<1x3x3x1xf32>, dtype = f32} : () -> tensor<1x3x3x1xf32>
  %boxes = "tf.Const"() {value = dense<[[0.0, 0.0, 0.5, 0.5]]> : tensor<1x4xf32>, dtype = f32} : () -> tensor<1x4xf32>
  %ind = "tf.Const"() {value = dense<[0]> : tensor<1xi32>, dtype = i32} : () -> tensor<1xi32>
  %crop = "tf.Const"() {value = dense<[2, 2]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %1 = "tf.CropAndResize"(%img, %boxes, %ind, %crop) {method = "bilinear", extrapolation_value = 0.0 : f32} : (tensor<1x3x3x1xf32>, tensor<1x4xf32>, tensor<1xi32>, tensor<2xi32>) -> tensor<1x2x2x1xf32>
  %2 = "tf.ExtractImagePatches"(%img) {ksizes = [1, 2, 2, 1], strides = [1, 2, 2, 1], rates = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x3x3x1xf32>) -> tensor<1x1x1x4xf32>
  %b = "tf.Const"() {value = dense<[[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, 5.0, 1.0, 6.0]]> : tensor<3x4xf32>, dtype = f32} : () -> tensor<3x4xf32>
  %s = "tf.Const"() {value = dense<[0.9, 0.8, 0.7]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %max = "tf.Const"() {value = dense<3> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %iou = "tf.Const"() {value = dense<0.5> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %3:2 = "tf.NonMaxSuppressionV4"(%b, %s, %max, %iou, %zero) {pad_to_max_output_size = true} : (tensor<3x4xf32>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<3xi32>, tensor<i32>)
  %ov = "tf.Const"() {value = dense<[[1.0, 0.9], [0.9, 1.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %s2 = "tf.Const"() {value = dense<[0.1, 0.2]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %one = "tf.Const"() {value = dense<0.95> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %4 = "tf.NonMaxSuppressionWithOverlaps"(%ov, %s2, %max, %one, %zero) : (tensor<2x2xf32>, tensor<2xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2xi32>
  return %0, %1, %2, %3#0, %3#1, %4 : tensor<1x1x3x1xf32>, tensor<1x2x2x1xf32>, tensor<1x1x1x4xf32>, tensor<3xi32>, tensor<i32>, tensor<2xi32>
}

// align_corners: samples at 0, 1.5, 3; at 1.5 the taps weigh -0.09375,
// 0.59375, 0.59375, -0.09375: 0.59375 * 5 - 0.09375 * 9 = 2.125.
// CHECK: result #0: tensor<1x1x3x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}0.],
// CHECK-NEXT: [2.125],
// CHECK-NEXT: [9.]]]]
// The top-left quarter sampled at rows and columns 0 and 1.
// CHECK: result #1: tensor<1x2x2x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}0.],
// CHECK-NEXT: [1.]],
// CHECK: {{\[\[}}3.],
// CHECK-NEXT: [4.]]]]
// CHECK: result #2: tensor<1x1x1x4xf32>
// CHECK-NEXT: {{\[\[\[\[}}0., 1., 3., 4.]]]]
// Box 1 overlaps box 0 by 0.82 and is dropped; padded to 3.
// CHECK: result #3: tensor<3xi32>
// CHECK-NEXT: [0, 2, 0]
// CHECK: result #4: tensor<i32>
// CHECK-NEXT: 2
// 0.9 < 0.95 keeps both, higher score first.
// CHECK: result #5: tensor<2xi32>
// CHECK-NEXT: [1, 0]

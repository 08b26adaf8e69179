// RUN: fallback-run %s --threads=1 | FileCheck %s
// The color family end to end from TF MLIR (type attributes left
// implicit): RGBToHSV, HSVToRGB, AdjustHue, AdjustSaturation and
// AdjustContrastv2. Expected values derived by hand.

func.func @main() -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x1x1x3xf32>, tensor<1x1x1x3xf32>, tensor<1x2x1x1xf32>) {
  %rgb = "tf.Const"() {value = dense<[[0.0, 1.0, 0.0], [0.5, 0.5, 0.5]]> : tensor<2x3xf32>, dtype = f32} : () -> tensor<2x3xf32>
  %0 = "tf.RGBToHSV"(%rgb) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "tf.HSVToRGB"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %red = "tf.Const"() {value = dense<[[[[1.0, 0.0, 0.0]]]]> : tensor<1x1x1x3xf32>, dtype = f32} : () -> tensor<1x1x1x3xf32>
  %third = "tf.Const"() {value = dense<0.333333343> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %2 = "tf.AdjustHue"(%red, %third) : (tensor<1x1x1x3xf32>, tensor<f32>) -> tensor<1x1x1x3xf32>
  %half = "tf.Const"() {value = dense<0.5> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %3 = "tf.AdjustSaturation"(%red, %half) : (tensor<1x1x1x3xf32>, tensor<f32>) -> tensor<1x1x1x3xf32>
  %img = "tf.Const"() {value = dense<[[[[1.0]], [[3.0]]]]> : tensor<1x2x1x1xf32>, dtype = f32} : () -> tensor<1x2x1x1xf32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %4 = "tf.AdjustContrastv2"(%img, %two) : (tensor<1x2x1x1xf32>, tensor<f32>) -> tensor<1x2x1x1xf32>
  return %0, %1, %2, %3, %4 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x1x1x3xf32>, tensor<1x1x1x3xf32>, tensor<1x2x1x1xf32>
}

// Green is hue 1/3, full saturation; grey has no hue or saturation.
// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}0.333333{{[0-9]*}}, 1., 1.],
// CHECK-NEXT: [0., 0., 0.5]]
// CHECK: result #1: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}0., 1., 0.],
// CHECK-NEXT: [0.5, 0.5, 0.5]]
// Red turned by a third of the circle is green.
// CHECK: result #2: tensor<1x1x1x3xf32>
// CHECK-NEXT: {{\[\[\[\[}}0., 1., 0.]]]]
// Half the saturation: the min channels rise to half the value.
// CHECK: result #3: tensor<1x1x1x3xf32>
// CHECK-NEXT: {{\[\[\[\[}}1., 0.5, 0.5]]]]
// Mean 2; (x - 2) * 2 + 2.
// CHECK: result #4: tensor<1x2x1x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}0.]],
// CHECK: {{\[\[}}4.]]]]

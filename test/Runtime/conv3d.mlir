// RUN: fallback-run %s --threads=1 | FileCheck %s
// Conv3D, Conv3DBackpropInputV2, DepthwiseConv2dNativeBackpropInput,
// AvgPool3D, MaxPool3D, MaxPoolWithArgmax and Dilation2D end to end from
// TF MLIR (type attributes left implicit). Expected values derived by
// hand: a single output pixel of a transposed convolution spreads its
// value times the filter over the window.

func.func @main() -> (tensor<1x1x1x1x1xf32>, tensor<1x2x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1x1x1x1x1xf32>, tensor<1x1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xi64>, tensor<1x2x2x1xf32>) {
  %vol = "tf.Const"() {value = dense<[[[[[0.0], [1.0]], [[2.0], [3.0]]], [[[4.0], [5.0]], [[6.0], [7.0]]]]]> : tensor<1x2x2x2x1xf32>, dtype = f32} : () -> tensor<1x2x2x2x1xf32>
  %ones = "tf.Const"() {value = dense<1.0> : tensor<2x2x2x1x1xf32>, dtype = f32} : () -> tensor<2x2x2x1x1xf32>
  %0 = "tf.Conv3D"(%vol, %ones) {strides = [1, 1, 1, 1, 1], padding = "VALID", data_format = "NDHWC", dilations = [1, 1, 1, 1, 1]} : (tensor<1x2x2x2x1xf32>, tensor<2x2x2x1x1xf32>) -> tensor<1x1x1x1x1xf32>
  %sizes = "tf.Const"() {value = dense<[1, 2, 2, 2, 1]> : tensor<5xi32>, dtype = i32} : () -> tensor<5xi32>
  %dy = "tf.Const"() {value = dense<2.0> : tensor<1x1x1x1x1xf32>, dtype = f32} : () -> tensor<1x1x1x1x1xf32>
  %1 = "tf.Conv3DBackpropInputV2"(%sizes, %ones, %dy) {strides = [1, 1, 1, 1, 1], padding = "VALID", data_format = "NDHWC", dilations = [1, 1, 1, 1, 1]} : (tensor<5xi32>, tensor<2x2x2x1x1xf32>, tensor<1x1x1x1x1xf32>) -> tensor<1x2x2x2x1xf32>
  %isz = "tf.Const"() {value = dense<[1, 2, 2, 1]> : tensor<4xi32>, dtype = i32} : () -> tensor<4xi32>
  %f = "tf.Const"() {value = dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]]]> : tensor<2x2x1x1xf32>, dtype = f32} : () -> tensor<2x2x1x1xf32>
  %g = "tf.Const"() {value = dense<3.0> : tensor<1x1x1x1xf32>, dtype = f32} : () -> tensor<1x1x1x1xf32>
  %2 = "tf.DepthwiseConv2dNativeBackpropInput"(%isz, %f, %g) {strides = [1, 1, 1, 1], padding = "VALID", data_format = "NHWC", dilations = [1, 1, 1, 1]} : (tensor<4xi32>, tensor<2x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x2x1xf32>
  %3 = "tf.AvgPool3D"(%vol) {ksize = [1, 2, 2, 2, 1], strides = [1, 2, 2, 2, 1], padding = "VALID", data_format = "NDHWC"} : (tensor<1x2x2x2x1xf32>) -> tensor<1x1x1x1x1xf32>
  %4 = "tf.MaxPool3D"(%vol) {ksize = [1, 2, 2, 2, 1], strides = [1, 2, 2, 2, 1], padding = "VALID", data_format = "NDHWC"} : (tensor<1x2x2x2x1xf32>) -> tensor<1x1x1x1x1xf32>
  %img = "tf.Const"() {value = dense<[[[[1.0], [5.0]], [[3.0], [2.0]]]]> : tensor<1x2x2x1xf32>, dtype = f32} : () -> tensor<1x2x2x1xf32>
  %5:2 = "tf.MaxPoolWithArgmax"(%img) {ksize = [1, 2, 2, 1], strides = [1, 2, 2, 1], padding = "VALID", include_batch_in_index = false} : (tensor<1x2x2x1xf32>) -> (tensor<1x1x1x1xf32>, tensor<1x1x1x1xi64>)
  %ten = "tf.Const"() {value = dense<10.0> : tensor<1x1x1xf32>, dtype = f32} : () -> tensor<1x1x1xf32>
  %6 = "tf.Dilation2D"(%img, %ten) {strides = [1, 1, 1, 1], rates = [1, 1, 1, 1], padding = "VALID"} : (tensor<1x2x2x1xf32>, tensor<1x1x1xf32>) -> tensor<1x2x2x1xf32>
  return %0, %1, %2, %3, %4, %5#0, %5#1, %6 : tensor<1x1x1x1x1xf32>, tensor<1x2x2x2x1xf32>, tensor<1x2x2x1xf32>, tensor<1x1x1x1x1xf32>, tensor<1x1x1x1x1xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xi64>, tensor<1x2x2x1xf32>
}

// 0 + 1 + ... + 7.
// CHECK: result #0: tensor<1x1x1x1x1xf32>
// CHECK-NEXT: {{\[\[\[\[\[}}28.]]]]]
// CHECK: result #1: tensor<1x2x2x2x1xf32>
// CHECK-NEXT: {{\[\[\[\[\[}}2.],
// CHECK-COUNT-7: 2.]
// CHECK: result #2: tensor<1x2x2x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}3.],
// CHECK-NEXT: [6.]],
// CHECK: {{\[\[}}9.],
// CHECK-NEXT: [12.]]]]
// CHECK: result #3: tensor<1x1x1x1x1xf32>
// CHECK-NEXT: {{\[\[\[\[\[}}3.5]]]]]
// CHECK: result #4: tensor<1x1x1x1x1xf32>
// CHECK-NEXT: {{\[\[\[\[\[}}7.]]]]]
// CHECK: result #5: tensor<1x1x1x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}5.]]]]
// CHECK: result #6: tensor<1x1x1x1xi64>
// CHECK-NEXT: {{\[\[\[\[}}1]]]]
// CHECK: result #7: tensor<1x2x2x1xf32>
// CHECK-NEXT: {{\[\[\[\[}}11.],
// CHECK-NEXT: [15.]],
// CHECK: {{\[\[}}13.],
// CHECK-NEXT: [12.]]]]

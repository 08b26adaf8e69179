// AudioSpectrogram of an input and Mfcc of a ramp spectrogram. From the
// .mlir and through a .bef.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy | FileCheck %s

// #0: x = [[1, 2, 3], [4, 5, 6]] as 6 samples of one channel; window 4
// (periodic Hann [0, 0.5, 1, 0.5], FFT length 4), stride 2: frames
// [1, 2, 3, 4] -> [0, 1, 3, 2] and [3, 4, 5, 6] -> [0, 2, 5, 3];
// |X_0|^2 = 6^2, |X_1|^2 = |-3 + i|^2 = 10, X_2 = 0 and 10^2,
// |-5 + i|^2 = 26, 0 (the zero bins hold double rounding's remainder).
// CHECK: result #0: tensor<1x2x3xf32>
// CHECK-NEXT: {{\[\[\[}}36., 10., {{0\.|[0-9.]+e-[0-9]+}}],
// CHECK-NEXT: [100., 26., {{0\.|[0-9.]+e-[0-9]+}}]]]
// #1: the magnitudes: 6, sqrt(10) = 3.16228; 10, sqrt(26) = 5.09902.
// CHECK: result #1: tensor<1x2x3xf32>
// CHECK-NEXT: {{\[\[\[}}6., 3.16228, {{0\.|[0-9.]+e-[0-9]+}}],
// CHECK-NEXT: [10., 5.09902, {{0\.|[0-9.]+e-[0-9]+}}]]]
// #2: TF's golden MFCCs of one frame of 1, 2, ..., 513 at 22050 Hz
// (tensorflow/core/kernels/mfcc_op_test.cc: 29.13970072, -6.41568601,
// -0.61903012, -0.96778652, -0.26819878, -0.40907028, -0.15614748,
// -0.23203119, -0.10481487, -0.1543029, -0.0769791, -0.10806114,
// -0.06047613), to 4 decimals.
// CHECK: result #2: tensor<1x1x13xf32>
// CHECK-NEXT: {{\[\[\[}}29.1397{{[0-9]*}}, -6.4156{{[0-9]*}}, -0.6190{{[0-9]*}}, -0.9677{{[0-9]*}},
// CHECK-SAME: -0.2681{{[0-9]*}}, -0.4090{{[0-9]*}}, -0.1561{{[0-9]*}}, -0.2320{{[0-9]*}},
// CHECK-SAME: -0.1048{{[0-9]*}}, -0.1543{{[0-9]*}}, -0.0769{{[0-9]*}}, -0.1080{{[0-9]*}},
// CHECK-SAME: -0.0604{{[0-9]*}}]]]

func.func @main(%x: tensor<2x3xf32>) -> (tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x1x13xf32>) {
  %shape = "tf.Const"() {value = dense<[6, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %audio = "tf.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<6x1xf32>
  %power = "tf.AudioSpectrogram"(%audio) {window_size = 4 : i64, stride = 2 : i64, magnitude_squared = true} : (tensor<6x1xf32>) -> tensor<1x2x3xf32>
  %magnitude = "tf.AudioSpectrogram"(%audio) {window_size = 4 : i64, stride = 2 : i64} : (tensor<6x1xf32>) -> tensor<1x2x3xf32>

  %start = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %limit = "tf.Const"() {value = dense<514.0> : tensor<f32>} : () -> tensor<f32>
  %delta = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %ramp = "tf.Range"(%start, %limit, %delta) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<513xf32>
  %bins_shape = "tf.Const"() {value = dense<[1, 1, 513]> : tensor<3xi32>} : () -> tensor<3xi32>
  %bins = "tf.Reshape"(%ramp, %bins_shape) : (tensor<513xf32>, tensor<3xi32>) -> tensor<1x1x513xf32>
  %rate = "tf.Const"() {value = dense<22050> : tensor<i32>} : () -> tensor<i32>
  %mfcc = "tf.Mfcc"(%bins, %rate) {upper_frequency_limit = 4000.0 : f32, lower_frequency_limit = 20.0 : f32, filterbank_channel_count = 40 : i64, dct_coefficient_count = 13 : i64} : (tensor<1x1x513xf32>, tensor<i32>) -> tensor<1x1x13xf32>

  return %power, %magnitude, %mfcc : tensor<1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x1x13xf32>
}

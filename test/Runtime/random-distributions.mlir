// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 | FileCheck %s
// The gamma, Poisson, shuffle and crop samplers on TF's Philox streams,
// end to end. Expected values from a reference Philox written in Python
// (the Random123 algorithm) and TF's rules for using its words:
//  #0 StatelessRandomGammaV3, alpha 1, on the key and counter of the third
//     Random123 known-answer vector: output i is -log1p(-u), u the double
//     of words 2 and 3 of call counter + 256 i.
//  #1 StatelessRandomPoisson, rate 4, seed [42, 7]: Knuth's count of
//     uniforms on the seed's mixed stream, output i from call 256 i.
//  #2 RandomShuffle with seed 5, seed2 9 of [0, 1, 2, 3, 4]: swaps i <->
//     i + w[i] % (5 - i) with the words of call 0 on key 5, counter
//     (0, 0, 9, 0).
//  #3-#5 StatelessSampleDistortedBoundingBox with area and aspect ranges
//     [1, 1] on a 10 x 10 image: the whole image.

func.func @main() -> (tensor<3xf64>, tensor<4xi32>, tensor<5xi32>, tensor<3xi32>, tensor<3xi32>, tensor<1x1x4xf32>) {
  %shape = "tf.Const"() {value = dense<[3]> : tensor<1xi32>, dtype = i32} : () -> tensor<1xi32>
  %key = "tf.Const"() {value = dense<[2999170649027065890]> : tensor<1xui64>, dtype = ui64} : () -> tensor<1xui64>
  %counter = "tf.Const"() {value = dense<[9629550131187509896, 247824715720788526]> : tensor<2xui64>, dtype = ui64} : () -> tensor<2xui64>
  %alg = "tf.Const"() {value = dense<1> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %alpha = "tf.Const"() {value = dense<1.0> : tensor<f64>, dtype = f64} : () -> tensor<f64>
  %0 = "tf.StatelessRandomGammaV3"(%shape, %key, %counter, %alg, %alpha) {dtype = f64, shape_dtype = i32} : (tensor<1xi32>, tensor<1xui64>, tensor<2xui64>, tensor<i32>, tensor<f64>) -> tensor<3xf64>

  %pshape = "tf.Const"() {value = dense<[4]> : tensor<1xi32>, dtype = i32} : () -> tensor<1xi32>
  %seed = "tf.Const"() {value = dense<[42, 7]> : tensor<2xi64>, dtype = i64} : () -> tensor<2xi64>
  %rate = "tf.Const"() {value = dense<4.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %1 = "tf.StatelessRandomPoisson"(%pshape, %seed, %rate) {dtype = i32, Rtype = f32, T = i32, Tseed = i64} : (tensor<1xi32>, tensor<2xi64>, tensor<f32>) -> tensor<4xi32>

  %values = "tf.Const"() {value = dense<[0, 1, 2, 3, 4]> : tensor<5xi32>, dtype = i32} : () -> tensor<5xi32>
  %2 = "tf.RandomShuffle"(%values) {seed = 5 : i64, seed2 = 9 : i64} : (tensor<5xi32>) -> tensor<5xi32>

  %size = "tf.Const"() {value = dense<[10, 10, 3]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %boxes = "tf.Const"() {value = dense<[[[0.1, 0.2, 0.5, 0.6]]]> : tensor<1x1x4xf32>, dtype = f32} : () -> tensor<1x1x4xf32>
  %covered = "tf.Const"() {value = dense<0.1> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %3:3 = "tf.StatelessSampleDistortedBoundingBox"(%size, %boxes, %covered, %seed) {area_range = [1.0 : f32, 1.0 : f32], aspect_ratio_range = [1.0 : f32, 1.0 : f32], max_attempts = 100 : i64, use_image_if_no_bounding_boxes = false} : (tensor<3xi32>, tensor<1x1x4xf32>, tensor<f32>, tensor<2xi64>) -> (tensor<3xi32>, tensor<3xi32>, tensor<1x1x4xf32>)
  return %0, %1, %2, %3#0, %3#1, %3#2 : tensor<3xf64>, tensor<4xi32>, tensor<5xi32>, tensor<3xi32>, tensor<3xi32>, tensor<1x1x4xf32>
}

// CHECK: result #0: tensor<3xf64>
// CHECK-NEXT: [0.125784, 0.160946, 0.638313]
// CHECK: result #1: tensor<4xi32>
// CHECK-NEXT: [3, 2, 6, 5]
// CHECK: result #2: tensor<5xi32>
// CHECK-NEXT: [2, 0, 1, 4, 3]
// CHECK: result #3: tensor<3xi32>
// CHECK-NEXT: [0, 0, 0]
// CHECK: result #4: tensor<3xi32>
// CHECK-NEXT: [10, 10, -1]
// CHECK: result #5: tensor<1x1x4xf32>
// CHECK-NEXT: {{\[\[\[}}0., 0., 1., 1.]]]

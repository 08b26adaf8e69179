// Every .npy dtype goes in and out unchanged (Identity is zero-copy).
// RUN: fallback-run %s --threads=1 --input=%S/Inputs/f64_2.npy --input=%S/Inputs/f16_2.npy --input=%S/Inputs/i32_4.npy --input=%S/Inputs/i64_2.npy --input=%S/Inputs/u8_3.npy --input=%S/Inputs/i8_2.npy --input=%S/Inputs/bool_3.npy --input=%S/Inputs/f32_scalar.npy --input=%S/Inputs/f32_empty.npy --input=%S/Inputs/f32_2x3_v2.npy --output-dir=%t | FileCheck %s
// The written files read back the same.
// RUN: fallback-run %s --threads=1 --input=%t/output_0.npy --input=%t/output_1.npy --input=%t/output_2.npy --input=%t/output_3.npy --input=%t/output_4.npy --input=%t/output_5.npy --input=%t/output_6.npy --input=%t/output_7.npy --input=%t/output_8.npy --input=%t/output_9.npy | FileCheck %s

func.func @main(%a: tensor<2xf64>, %b: tensor<2xf16>, %c: tensor<4xi32>, %d: tensor<2xi64>, %e: tensor<3xui8>, %f: tensor<2xi8>, %g: tensor<3xi1>, %h: tensor<f32>, %i: tensor<0x3xf32>, %j: tensor<2x3xf32>) -> (tensor<2xf64>, tensor<2xf16>, tensor<4xi32>, tensor<2xi64>, tensor<3xui8>, tensor<2xi8>, tensor<3xi1>, tensor<f32>, tensor<0x3xf32>, tensor<2x3xf32>) {
  %0 = "tf.Identity"(%a) {T = f64} : (tensor<2xf64>) -> tensor<2xf64>
  return %0, %b, %c, %d, %e, %f, %g, %h, %i, %j : tensor<2xf64>, tensor<2xf16>, tensor<4xi32>, tensor<2xi64>, tensor<3xui8>, tensor<2xi8>, tensor<3xi1>, tensor<f32>, tensor<0x3xf32>, tensor<2x3xf32>
}

// CHECK: result #0: tensor<2xf64>
// CHECK-NEXT: [0.5, -1.25]
// CHECK: result #1: tensor<2xf16>
// CHECK-NEXT: [1.5, -2.]
// CHECK: result #2: tensor<4xi32>
// CHECK-NEXT: [1, -2, 3, -4]
// CHECK: result #3: tensor<2xi64>
// CHECK-NEXT: [-9007199254740993, 7]
// CHECK: result #4: tensor<3xui8>
// CHECK-NEXT: [0, 128, 255]
// CHECK: result #5: tensor<2xi8>
// CHECK-NEXT: [-128, 127]
// CHECK: result #6: tensor<3xi1>
// CHECK-NEXT: [True, False, True]
// CHECK: result #7: tensor<f32>
// CHECK-NEXT: 2.5
// CHECK: result #8: tensor<0x3xf32>
// CHECK-NEXT: []
// CHECK: result #9: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1., 2., 3.],
// CHECK-NEXT: [4., 5., 6.]]

// fallback-run --reference-f64 runs a TF program's float32 values in
// float64 (--tf-promote-to-f64): (1 + 1e-8) - 1 is 0 in float32, whose
// spacing at 1 is 1.2e-7, and the float32 value nearest 1e-8,
// 9.99999993922529e-9, in float64. Inputs stay float32.
// RUN: fallback-run %s --input=%S/Inputs/f32_scalar.npy | FileCheck %s --check-prefix=F32
// RUN: fallback-run %s --reference-f64 --input=%S/Inputs/f32_scalar.npy | FileCheck %s --check-prefix=F64
// A binary program has no TF types left to promote.
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: not fallback-run %t.bef --reference-f64 2>&1 | FileCheck %s --check-prefix=BEF
// F32: result #0: tensor<f32>
// F32-NEXT: 0.
// F64: result #0: tensor<f64>
// F64-NEXT: 1e-08
// BEF: error: --reference-f64 needs a TF program (.mlir, model.json, GraphDef, .tflite), not a binary one

func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %tiny = "tf.Const"() {value = dense<1.0e-8> : tensor<f32>} : () -> tensor<f32>
  %zero = "tf.Mul"(%x, %tiny) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %0 = "tf.AddV2"(%one, %tiny) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = "tf.Sub"(%0, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

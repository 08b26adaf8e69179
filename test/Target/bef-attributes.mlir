// RUN: fallback-translate --mlir-to-bef %s | fallback-translate --bef-to-mlir | FileCheck %s
// Every TensorFlow attribute kind is encoded and decoded.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32> {
  // CHECK: tfrt_fallback.kernel_call "Everything"
  // CHECK-SAME: b = true
  // CHECK-SAME: bs = [true, false]
  // CHECK-SAME: dt = i1
  // CHECK-SAME: dts = [f32, ui8, bf16, f16, i64]
  // CHECK-SAME: empty = []
  // CHECK-SAME: f = 2.500000e-01 : f32
  // CHECK-SAME: fn = @body
  // CHECK-SAME: fs = [1.000000e+00 : f32, -2.000000e+00 : f32]
  // CHECK-SAME: i = -7 : i64
  // CHECK-SAME: is = [1, 2, 2, 1]
  // CHECK-SAME: s = "SAME"
  // CHECK-SAME: sh = #tfrt_fallback.shape<2x?>
  // CHECK-SAME: shs = [#tfrt_fallback.shape<*>, #tfrt_fallback.shape<>]
  // CHECK-SAME: ss = ["a", "", "bc"]
  // CHECK-SAME: t = dense<[1, 2, 3]> : tensor<3xi32>
  %0 = tfrt_fallback.kernel_call "Everything"(%x) {
    b = true, bs = [true, false], dt = i1, dts = [f32, ui8, bf16, f16, i64],
    empty = [], f = 0.25 : f32, fn = @body, fs = [1.0 : f32, -2.0 : f32],
    i = -7 : i64, is = [1, 2, 2, 1], s = "SAME", sh = #tfrt_fallback.shape<2x?>,
    shs = [#tfrt_fallback.shape<*>, #tfrt_fallback.shape<>], ss = ["a", "", "bc"],
    t = dense<[1, 2, 3]> : tensor<3xi32>} : (tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}

// Complex tensors end to end: a complex64 .npy input, complex constants,
// Complex/Real/Imag/ComplexAbs/Conj, Cast, and the FFTs, from the .mlir and
// through a .bef; complex results print as NumPy does and write as .npy.
// RUN: fallback-run %s --input=%S/Inputs/c64_4.npy --output-dir=%t | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/c64_4.npy | FileCheck %s
// The written complex result reads back as the same values.
// RUN: fallback-run %s --entry=echo --input=%t/output_3.npy | FileCheck %s --check-prefix=ECHO

func.func @main(%z: tensor<4xcomplex<f32>>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<4xf32>, tensor<2x2xcomplex<f64>>, tensor<4xi32>) {
  %re = "tf.Real"(%z) {T = complex<f32>, Tout = f32} : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %im = "tf.Imag"(%z) {T = complex<f32>, Tout = f32} : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %abs = "tf.ComplexAbs"(%z) {T = complex<f32>, Tout = f32} : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  %conj = "tf.Conj"(%z) {T = complex<f32>} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %x = "tf.Const"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, dtype = f32} : () -> tensor<4xf32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %cx = "tf.Complex"(%x, %zero) {T = f32, Tout = complex<f32>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xcomplex<f32>>
  %fft = "tf.FFT"(%cx) {Tcomplex = complex<f32>} : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %n = "tf.Const"() {value = dense<4> : tensor<1xi32>, dtype = i32} : () -> tensor<1xi32>
  %rfft = "tf.RFFT"(%x, %n) {Treal = f32, Tcomplex = complex<f32>} : (tensor<4xf32>, tensor<1xi32>) -> tensor<3xcomplex<f32>>
  %irfft = "tf.IRFFT"(%rfft, %n) {Treal = f32, Tcomplex = complex<f32>} : (tensor<3xcomplex<f32>>, tensor<1xi32>) -> tensor<4xf32>
  %c = "tf.Const"() {value = dense<[[(1.0, 0.0), (2.0, 0.0)], [(3.0, 0.0), (4.0, 0.0)]]> : tensor<2x2xcomplex<f64>>, dtype = complex<f64>} : () -> tensor<2x2xcomplex<f64>>
  %fft2 = "tf.FFT2D"(%c) {Tcomplex = complex<f64>} : (tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>>
  %int = "tf.Cast"(%z) {SrcT = complex<f32>, DstT = i32} : (tensor<4xcomplex<f32>>) -> tensor<4xi32>
  return %re, %im, %abs, %conj, %fft, %rfft, %irfft, %fft2, %int : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<4xf32>, tensor<2x2xcomplex<f64>>, tensor<4xi32>
}

func.func @echo(%z: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  return %z : tensor<4xcomplex<f32>>
}

// Hand-derived from z = [1+2j, 3-4j, 0.5+0j, -1-1j] and x = [1, 2, 3, 4].
// CHECK: result #0: tensor<4xf32>
// CHECK-NEXT: [1., 3., 0.5, -1.]
// CHECK: result #1: tensor<4xf32>
// CHECK-NEXT: [2., -4., 0., -1.]
// |1+2j| = sqrt(5), |3-4j| = 5, |-1-1j| = sqrt(2).
// CHECK: result #2: tensor<4xf32>
// CHECK-NEXT: [2.23607, 5., 0.5, 1.41421]
// CHECK: result #3: tensor<4xcomplex<f32>>
// CHECK-NEXT: [1.-2.j, 3.+4.j, 0.5-0.j, -1.+1.j]
// The DFT of [1, 2, 3, 4]: [10, -2+2j, -2, -2-2j].
// CHECK: result #4: tensor<4xcomplex<f32>>
// CHECK-NEXT: [10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j]
// CHECK: result #5: tensor<3xcomplex<f32>>
// CHECK-NEXT: [10.+0.j, -2.+2.j, -2.+0.j]
// CHECK: result #6: tensor<4xf32>
// CHECK-NEXT: [1., 2., 3., 4.]
// CHECK: result #7: tensor<2x2xcomplex<f64>>
// CHECK-NEXT: {{\[\[}}10.+0.j, -2.+0.j],
// CHECK-NEXT: [-4.+0.j, 0.+0.j]]
// CHECK: result #8: tensor<4xi32>
// CHECK-NEXT: [1, 3, 0, -1]

// ECHO: result #0: tensor<4xcomplex<f32>>
// ECHO-NEXT: [1.-2.j, 3.+4.j, 0.5-0.j, -1.+1.j]

// A deadline stops a long run: pending kernels are skipped, the result is a
// DEADLINE_EXCEEDED error naming the kernel where the run stopped, and
// fallback-run exits 1 soon after the deadline (60 MatMuls of 1024x1024
// take seconds; the run ends after a few of them).
// RUN: not fallback-run %s --threads=1 --deadline-ms=200 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: not fallback-run %s --threads=2 --deadline-ms=200 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: result #0: the run's deadline passed before {{Fill|MatMul}} '{{.*}}deadline.mlir:{{[0-9]+}}:{{[0-9]+}}' in 'main'
// A deadline the run meets changes nothing.
// RUN: fallback-run %src_root/examples/mlp.mlir --input=%src_root/examples/mlp_input.npy --deadline-ms=60000 | FileCheck %s --check-prefix=MET
// MET: result #0:
// RUN: not fallback-run %s --deadline-ms=-5 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: --deadline-ms takes a number of milliseconds

func.func @main() -> tensor<1024x1024xf32> {
  %dims = "tf.Const"() {value = dense<1024> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %m0 = "tf.Fill"(%dims, %zero) {T = f32, index_type = i32} : (tensor<2xi32>, tensor<f32>) -> tensor<1024x1024xf32>
  %m1 = "tf.MatMul"(%m0, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m2 = "tf.MatMul"(%m1, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m3 = "tf.MatMul"(%m2, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m4 = "tf.MatMul"(%m3, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m5 = "tf.MatMul"(%m4, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m6 = "tf.MatMul"(%m5, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m7 = "tf.MatMul"(%m6, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m8 = "tf.MatMul"(%m7, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m9 = "tf.MatMul"(%m8, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m10 = "tf.MatMul"(%m9, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m11 = "tf.MatMul"(%m10, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m12 = "tf.MatMul"(%m11, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m13 = "tf.MatMul"(%m12, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m14 = "tf.MatMul"(%m13, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m15 = "tf.MatMul"(%m14, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m16 = "tf.MatMul"(%m15, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m17 = "tf.MatMul"(%m16, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m18 = "tf.MatMul"(%m17, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m19 = "tf.MatMul"(%m18, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m20 = "tf.MatMul"(%m19, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m21 = "tf.MatMul"(%m20, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m22 = "tf.MatMul"(%m21, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m23 = "tf.MatMul"(%m22, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m24 = "tf.MatMul"(%m23, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m25 = "tf.MatMul"(%m24, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m26 = "tf.MatMul"(%m25, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m27 = "tf.MatMul"(%m26, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m28 = "tf.MatMul"(%m27, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m29 = "tf.MatMul"(%m28, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m30 = "tf.MatMul"(%m29, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m31 = "tf.MatMul"(%m30, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m32 = "tf.MatMul"(%m31, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m33 = "tf.MatMul"(%m32, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m34 = "tf.MatMul"(%m33, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m35 = "tf.MatMul"(%m34, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m36 = "tf.MatMul"(%m35, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m37 = "tf.MatMul"(%m36, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m38 = "tf.MatMul"(%m37, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m39 = "tf.MatMul"(%m38, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m40 = "tf.MatMul"(%m39, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m41 = "tf.MatMul"(%m40, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m42 = "tf.MatMul"(%m41, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m43 = "tf.MatMul"(%m42, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m44 = "tf.MatMul"(%m43, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m45 = "tf.MatMul"(%m44, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m46 = "tf.MatMul"(%m45, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m47 = "tf.MatMul"(%m46, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m48 = "tf.MatMul"(%m47, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m49 = "tf.MatMul"(%m48, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m50 = "tf.MatMul"(%m49, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m51 = "tf.MatMul"(%m50, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m52 = "tf.MatMul"(%m51, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m53 = "tf.MatMul"(%m52, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m54 = "tf.MatMul"(%m53, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m55 = "tf.MatMul"(%m54, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m56 = "tf.MatMul"(%m55, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m57 = "tf.MatMul"(%m56, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m58 = "tf.MatMul"(%m57, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m59 = "tf.MatMul"(%m58, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %m60 = "tf.MatMul"(%m59, %m0) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1024x1024xf32>, tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %m60 : tensor<1024x1024xf32>
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/kernels.manifest" --split-input-file --verify-diagnostics | FileCheck %s

// The kernel manifest is checked against the derived attributes: a program
// that leaves T implicit is accepted or refused as one that writes it.

// CHECK-LABEL: func @derived_supported
// CHECK: kernel_call "MatMul"(%{{.*}}, %{{.*}}) {T = f32, transpose_a = false}
// CHECK: kernel_call "Cast"(%{{.*}}) {DstT = i64, SrcT = i32}
func.func @derived_supported(%x: tensor<2x2xf32>, %i: tensor<2xi32>) -> (tensor<2x2xf32>, tensor<2xi64>) {
  %0 = "tf.MatMul"(%x, %x) {transpose_a = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = "tf.Cast"(%i) : (tensor<2xi32>) -> tensor<2xi64>
  return %0, %1 : tensor<2x2xf32>, tensor<2xi64>
}

// -----

func.func @derived_unsupported(%x: tensor<2x2xf16>) -> tensor<2x2xf16> {
  // expected-error-re@+1 {{'tf.MatMul' op has no fallback kernel for T=f16: the kernel manifest '{{.*}}' has 'MatMul' for T in {f32, f64}}}
  %0 = "tf.MatMul"(%x, %x) : (tensor<2x2xf16>, tensor<2x2xf16>) -> tensor<2x2xf16>
  return %0 : tensor<2x2xf16>
}

// -----

func.func @derived_unsupported_pair(%x: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error-re@+1 {{'tf.Cast' op has no fallback kernel for DstT=f32, SrcT=i64: the kernel manifest '{{.*}}' has 'Cast' for SrcT in {f32, i32}, DstT in {f32, i32, i64}}}
  %0 = "tf.Cast"(%x) : (tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

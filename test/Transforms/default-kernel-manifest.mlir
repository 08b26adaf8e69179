// Without kernel-manifest, the lowering checks every op against the kernels
// of this build's runtime.
// RUN: fallback-opt %s --tf-to-tfrt-fallback --split-input-file --verify-diagnostics
// allow-unsupported keeps lowering them.
// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file | FileCheck %s

func.func @unknown(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.NoSuchOp' op has no fallback kernel: this build's runtime has no kernel for op 'NoSuchOp' (pass native-ops=NoSuchOp if the runtime has a native kernel, kernel-manifest=FILE to target another runtime, or allow-unsupported)}}
  %0 = "tf.NoSuchOp"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// CHECK-LABEL: func.func @unknown
// CHECK: tfrt_fallback.kernel_call "NoSuchOp"

// -----

func.func @wrong_dtype(%x: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error-re@+1 {{'tf.Sqrt' op has no fallback kernel for T=i1: this build's runtime has 'Sqrt' for T in {{[{]}}{{.*}}{{[}]}}}}
  %0 = "tf.Sqrt"(%x) {T = i1} : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}
// CHECK-LABEL: func.func @wrong_dtype

// -----

// CHECK-LABEL: func.func @known
func.func @known(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfrt_fallback.kernel_call "Sqrt"
  %0 = "tf.Sqrt"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/manifest-header-only.manifest" --verify-diagnostics

// A manifest with only its header lists no kernels: every op needs a native
// kernel, while constants still lower.

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = "tf.Const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-error-re@+1 {{'tf.AddV2' op has no fallback kernel: the kernel manifest '{{.*}}manifest-header-only.manifest' has no kernel for op 'AddV2'}}
  %0 = "tf.AddV2"(%x, %c) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

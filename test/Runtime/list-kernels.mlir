// The runtime's registry, and the manifest it writes, which the compiler
// then checks programs against.
// RUN: fallback-run --list-kernels --manifest=%t.manifest | FileCheck %s --check-prefix=LIST
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.manifest
// RUN: fallback-opt --split-input-file --verify-diagnostics --tf-to-tfrt-fallback="kernel-manifest=%t.manifest" %s | FileCheck %s

// LIST-DAG: AddV2 T in {f32}
// LIST-DAG: Conv2D T in {f32}
// LIST-DAG: NonMaxSuppressionV5
// MANIFEST: # tfrt-fallback kernel manifest v1
// MANIFEST-DAG: kernel AddV2 T=f32
// MANIFEST-DAG: kernel _FusedConv2D T=f32
// A build without a manifest has the framework's optional parts too.
// MANIFEST-DAG: feature control-flow
// MANIFEST-DAG: feature strings
// MANIFEST-DAG: feature memory-plan

// CHECK-LABEL: func @supported
func.func @supported(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfrt_fallback.kernel_call "AddV2"
  %0 = "tf.AddV2"(%x, %x) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unsupported_dtype(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error-re@+1 {{'tf.AddV2' op has no fallback kernel for T=complex<f32>: the kernel manifest '{{.*}}' has 'AddV2' for T in {{.*}}}}
  %0 = "tf.AddV2"(%x, %x) {T = complex<f32>} : (tensor<2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// -----

func.func @unknown_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error-re@+1 {{'tf.NoSuchKernel' op has no fallback kernel: the kernel manifest '{{.*}}' has no kernel for op 'NoSuchKernel'}}
  %0 = "tf.NoSuchKernel"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

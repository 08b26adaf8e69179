// RUN: fallback-opt %s --tfrt-fallback-pipeline="kernel-manifest=%S/../Inputs/kernels.manifest" --split-input-file --verify-diagnostics
// RUN: fallback-opt %s --tfrt-fallback-pipeline="kernel-manifest=%S/../Inputs/kernels.manifest allow-unsupported" --split-input-file | FileCheck %s

// Through the pipeline, used ops that the runtime lacks are still errors,
// unless allow-unsupported is passed.

// CHECK-LABEL: func @used_unsupported
// CHECK: tfrt_fallback.kernel_call "Sigmoid"
func.func @used_unsupported(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Sigmoid' op has no fallback kernel}}
  %0 = "tf.Sigmoid"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A dead stateful op is not removed, so it must be supported too.
// CHECK-LABEL: func @dead_stateful_unsupported
// CHECK: tfrt_fallback.kernel_call "RandomUniform"({{.*}}) chain({{.*}}) {T = i32, dtype = f16}
func.func @dead_stateful_unsupported(%s: tensor<2xi32>) {
  // expected-error@+1 {{'tf.RandomUniform' op has no fallback kernel for T=i32, dtype=f16}}
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f16} : (tensor<2xi32>) -> tensor<2xf16>
  return
}

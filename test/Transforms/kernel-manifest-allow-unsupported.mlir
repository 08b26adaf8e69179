// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/kernels.manifest allow-unsupported" | FileCheck %s
// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/kernels.manifest allow-unsupported=true" | FileCheck %s
// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/kernels.manifest allow-unsupported=false" 2>&1 | FileCheck %s --check-prefix=ERR

// allow-unsupported lowers ops the manifest lacks anyway (e.g. for a runtime
// that registers more kernels at startup).

// CHECK-LABEL: func @lowered_anyway
// CHECK: %[[A:.*]] = tfrt_fallback.kernel_call "Sigmoid"(%{{.*}}) {T = f32}
// CHECK: %[[B:.*]] = tfrt_fallback.kernel_call "AddV2"(%{{.*}}, %{{.*}}) {T = f64}
// CHECK: %[[C:.*]] = tfrt_fallback.kernel_call "Relu"(%[[A]]) {T = f32}
// CHECK: return %[[C]], %[[B]]
// ERR: error: 'tf.Sigmoid' op has no fallback kernel
// ERR: error: 'tf.AddV2' op has no fallback kernel for T=f64
func.func @lowered_anyway(%x: tensor<2xf32>, %y: tensor<2xf64>) -> (tensor<2xf32>, tensor<2xf64>) {
  %0 = "tf.Sigmoid"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.AddV2"(%y, %y) {T = f64} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  %2 = "tf.Relu"(%0) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %2, %1 : tensor<2xf32>, tensor<2xf64>
}

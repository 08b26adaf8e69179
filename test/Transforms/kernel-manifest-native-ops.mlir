// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/kernels.manifest native-ops=Sqrt" | FileCheck %s

// A native op needs no entry in the kernel manifest.

// CHECK-LABEL: func @native_not_in_manifest
// CHECK: %[[S:.*]] = "tf.Sqrt"(%{{.*}}) {T = f64}
// CHECK: tfrt_fallback.kernel_call "MatMul"(%[[S]], %[[S]]) {T = f64}
func.func @native_not_in_manifest(%x: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %0 = "tf.Sqrt"(%x) {T = f64} : (tensor<2x2xf64>) -> tensor<2x2xf64>
  %1 = "tf.MatMul"(%0, %0) {T = f64} : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %1 : tensor<2x2xf64>
}

// A node whose type attribute disagrees with its operands is rejected when
// the program is loaded, before a kernel could read an f32 buffer as f64.
// RUN: not fallback-run %s 2>&1 | FileCheck %s

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: {{.*}}node-type-mismatch.mlir:[[@LINE+1]]:8: op 'LeakyRelu' has T=f64 but its input #0 is f32
  %0 = tfrt_fallback.kernel_call "LeakyRelu"(%x) {T = f64, alpha = 2.000000e-01 : f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

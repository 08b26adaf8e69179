// A node with fewer inputs than its op takes is rejected when the program is
// loaded, before a kernel could index past its inputs.
// RUN: not fallback-run %s 2>&1 | FileCheck %s

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: {{.*}}node-arity.mlir:[[@LINE+1]]:8: op 'AddV2' takes 2 inputs, got 1
  %0 = tfrt_fallback.kernel_call "AddV2"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

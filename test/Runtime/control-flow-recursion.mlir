// The runtime runs callees on the caller's stack: a function that calls
// itself through control flow is refused when the program is loaded.
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: not fallback-run %t.bef --input=%S/Inputs/f32_scalar.npy 2>&1 | FileCheck %s
// CHECK: error: invalid binary program: function 'main' calls itself (directly or through other functions)

func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %p = tfrt_fallback.constant dense<false> : tensor<i1>
  %0 = tfrt_fallback.if %p then @main else @identity (%x) : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @identity(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

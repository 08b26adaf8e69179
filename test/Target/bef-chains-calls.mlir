// RUN: fallback-translate --mlir-to-bef %s | fallback-translate --bef-to-mlir | FileCheck %s
// Chains, ordered kernels and calls between functions.

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
  %c0 = tfrt_fallback.new_chain
  // CHECK: %{{.*}}, %[[C1:.*]] = tfrt_fallback.kernel_call "Print"(%{{.*}}) chain(%[[C0]])
  %p, %c1 = tfrt_fallback.kernel_call "Print"(%x) chain(%c0) {T = f32} : (tensor<f32>) -> tensor<f32>
  // CHECK: %[[R:.*]]:2 = call @helper(%[[C1]], %{{.*}}) : (!tfrt_fallback.chain, tensor<f32>) -> (tensor<f32>, !tfrt_fallback.chain)
  %r:2 = call @helper(%c1, %p) : (!tfrt_fallback.chain, tensor<f32>) -> (tensor<f32>, !tfrt_fallback.chain)
  // CHECK: tfrt_fallback.merge_chains %[[C1]], %[[R]]#1
  %m = tfrt_fallback.merge_chains %c1, %r#1
  return %r#0 : tensor<f32>
}

// CHECK-LABEL: func.func private @helper
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[Y:.*]]: tensor<f32>) -> (tensor<f32>, !tfrt_fallback.chain)
func.func private @helper(%c: !tfrt_fallback.chain, %y: tensor<f32>) -> (tensor<f32>, !tfrt_fallback.chain) {
  // CHECK: tfrt_fallback.kernel_call "Neg"(%[[Y]]) {T = f32}
  %n = tfrt_fallback.kernel_call "Neg"(%y) {T = f32} : (tensor<f32>) -> tensor<f32>
  return %n, %c : tensor<f32>, !tfrt_fallback.chain
}

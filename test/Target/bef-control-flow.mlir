// RUN: fallback-translate --mlir-to-bef %s | fallback-translate --bef-to-mlir | FileCheck %s
// tfrt_fallback.if, case and while travel through the binary program as the
// If, Case and While opcodes, with their callees and chains.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[I:.*]]: tensor<i32>, %[[X:.*]]: tensor<2xf32>)
func.func @main(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<2xf32>) -> tensor<?xf32> {
  // CHECK: %[[A:.*]] = tfrt_fallback.if %[[P]] then @double else @negate (%[[X]]) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %a = tfrt_fallback.if %p then @double else @negate (%x) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
  %c0 = tfrt_fallback.new_chain
  // CHECK: %[[B:.*]], %[[C1:.*]] = tfrt_fallback.case %[[I]] [@double, @negate, @double] (%[[A]]) chain(%[[C0]]) : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  %b, %c1 = tfrt_fallback.case %i [@double, @negate, @double] (%a) chain(%c0) : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[W:.*]]:2, %{{.*}} = tfrt_fallback.while @less @step (%[[I]], %[[B]]) chain(%[[C1]]) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<?xf32>)
  %w:2, %c2 = tfrt_fallback.while @less @step (%i, %b) chain(%c1) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<?xf32>)
  return %w#1 : tensor<?xf32>
}

// CHECK-LABEL: func.func private @double
func.func private @double(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tfrt_fallback.kernel_call "AddV2"(%x, %x) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
// CHECK-LABEL: func.func private @negate
func.func private @negate(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = tfrt_fallback.kernel_call "Neg"(%x) {T = f32} : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
// CHECK-LABEL: func.func private @less
// CHECK-SAME: (%{{.*}}: !tfrt_fallback.chain, %{{.*}}: tensor<i32>, %{{.*}}: tensor<?xf32>) -> (tensor<i1>, !tfrt_fallback.chain)
func.func private @less(%c: !tfrt_fallback.chain, %i: tensor<i32>, %x: tensor<?xf32>) -> (tensor<i1>, !tfrt_fallback.chain) {
  %0 = tfrt_fallback.kernel_call "Less"(%i, %i) {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0, %c : tensor<i1>, !tfrt_fallback.chain
}
// CHECK-LABEL: func.func private @step
func.func private @step(%i: tensor<i32>, %x: tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>) {
  return %i, %x : tensor<i32>, tensor<?xf32>
}

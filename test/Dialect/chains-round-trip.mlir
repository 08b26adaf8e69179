// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: fallback-opt %s --mlir-print-op-generic | fallback-opt | FileCheck %s

// tfrt_fallback.new_chain, tfrt_fallback.merge_chains and the chain type.

// CHECK-LABEL: func @new_chain
func.func @new_chain() -> !tfrt_fallback.chain {
  // CHECK: %[[C:.*]] = tfrt_fallback.new_chain
  // CHECK: return %[[C]] : !tfrt_fallback.chain
  // GENERIC: "tfrt_fallback.new_chain"() : () -> !tfrt_fallback.chain
  %c = tfrt_fallback.new_chain
  return %c : !tfrt_fallback.chain
}

// CHECK-LABEL: func @merge_two
// CHECK-SAME: (%[[A:.*]]: !tfrt_fallback.chain, %[[B:.*]]: !tfrt_fallback.chain)
func.func @merge_two(%a: !tfrt_fallback.chain, %b: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  // CHECK: %[[M:.*]] = tfrt_fallback.merge_chains %[[A]], %[[B]]
  // CHECK: return %[[M]]
  // GENERIC: "tfrt_fallback.merge_chains"(%{{.*}}, %{{.*}}) : (!tfrt_fallback.chain, !tfrt_fallback.chain) -> !tfrt_fallback.chain
  %m = tfrt_fallback.merge_chains %a, %b
  return %m : !tfrt_fallback.chain
}

// CHECK-LABEL: func @merge_one
// CHECK-SAME: (%[[A:.*]]: !tfrt_fallback.chain)
func.func @merge_one(%a: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  // CHECK: %[[M:.*]] = tfrt_fallback.merge_chains %[[A]]
  // CHECK: return %[[M]]
  %m = tfrt_fallback.merge_chains %a
  return %m : !tfrt_fallback.chain
}

// CHECK-LABEL: func @merge_many
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
func.func @merge_many(%x: tensor<2xf32>) -> !tfrt_fallback.chain {
  // CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
  // CHECK: %[[C1:.*]] = tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C0]])
  // CHECK: %[[C2:.*]] = tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C0]])
  // CHECK: %[[M:.*]] = tfrt_fallback.merge_chains %[[C0]], %[[C1]], %[[C2]] {note = "join"}
  // CHECK: return %[[M]]
  %c0 = tfrt_fallback.new_chain
  %c1 = tfrt_fallback.kernel_call "Print"(%x) chain(%c0) {T = f32} : (tensor<2xf32>) -> ()
  %c2 = tfrt_fallback.kernel_call "Print"(%x) chain(%c0) {T = f32} : (tensor<2xf32>) -> ()
  %m = tfrt_fallback.merge_chains %c0, %c1, %c2 {note = "join"}
  return %m : !tfrt_fallback.chain
}

// Chains print with a readable name.
// CHECK-LABEL: func @asm_names
func.func @asm_names(%x: tensor<2xf32>) {
  // CHECK: %chain = tfrt_fallback.new_chain
  // CHECK: %chain_0 = tfrt_fallback.kernel_call "Print"
  // CHECK: %chain_1 = tfrt_fallback.merge_chains %chain, %chain_0
  %0 = tfrt_fallback.new_chain
  %1 = tfrt_fallback.kernel_call "Print"(%x) chain(%0) {T = f32} : (tensor<2xf32>) -> ()
  %2 = tfrt_fallback.merge_chains %0, %1
  return
}

// The chain type is usable in function signatures and calls.
// CHECK-LABEL: func @chain_through_call
func.func @chain_through_call(%c: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  // CHECK: %[[R:.*]] = call @chain_through_call(%{{.*}}) : (!tfrt_fallback.chain) -> !tfrt_fallback.chain
  %r = func.call @chain_through_call(%c) : (!tfrt_fallback.chain) -> !tfrt_fallback.chain
  return %r : !tfrt_fallback.chain
}

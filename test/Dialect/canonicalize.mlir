// RUN: fallback-opt %s --canonicalize --split-input-file | FileCheck %s

// merge_chains of a single chain folds to that chain.
// CHECK-LABEL: func @merge_one_folds
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain)
// CHECK-NOT: merge_chains
// CHECK: return %[[C]] : !tfrt_fallback.chain
func.func @merge_one_folds(%c: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  %m = tfrt_fallback.merge_chains %c
  return %m : !tfrt_fallback.chain
}

// -----

// Merging two chains does not fold.
// CHECK-LABEL: func @merge_two_kept
// CHECK-SAME: (%[[A:.*]]: !tfrt_fallback.chain, %[[B:.*]]: !tfrt_fallback.chain)
// CHECK: %[[M:.*]] = tfrt_fallback.merge_chains %[[A]], %[[B]]
// CHECK: return %[[M]]
func.func @merge_two_kept(%a: !tfrt_fallback.chain, %b: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  %m = tfrt_fallback.merge_chains %a, %b
  return %m : !tfrt_fallback.chain
}

// -----

// The folded merge feeds the next ordered op directly.
// CHECK-LABEL: func @merge_one_feeds_call
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[C:.*]]: !tfrt_fallback.chain)
// CHECK: %[[C1:.*]] = tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C]])
// CHECK: return %[[C1]]
func.func @merge_one_feeds_call(%x: tensor<2xf32>, %c: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  %m = tfrt_fallback.merge_chains %c
  %c1 = tfrt_fallback.kernel_call "Print"(%x) chain(%m) {T = f32} : (tensor<2xf32>) -> ()
  return %c1 : !tfrt_fallback.chain
}

// -----

// A kernel call without a chain is pure: when its results are unused it is
// removed. One with a chain has side effects and stays, even when nothing
// uses its results or its output chain.
// CHECK-LABEL: func @dead_calls
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[S:.*]]: tensor<2xi32>)
// CHECK-NOT: "Relu"
// CHECK-NOT: "AddV2"
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %{{.*}}, %[[C1:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%[[S]]) chain(%[[C0]])
// CHECK: tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C1]])
// CHECK-NOT: "Relu"
// CHECK: return %[[X]]
func.func @dead_calls(%x: tensor<2xf32>, %s: tensor<2xi32>) -> tensor<2xf32> {
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = tfrt_fallback.kernel_call "AddV2"(%0, %x) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %c0 = tfrt_fallback.new_chain
  %2, %c1 = tfrt_fallback.kernel_call "RandomUniform"(%s) chain(%c0) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %c2 = tfrt_fallback.kernel_call "Print"(%x) chain(%c1) {T = f32} : (tensor<2xf32>) -> ()
  %3 = tfrt_fallback.kernel_call "Relu"(%2) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %x : tensor<2xf32>
}

// -----

// A pure call with no results at all is dead too: without a chain nothing
// can observe it.
// CHECK-LABEL: func @dead_no_results
// CHECK-NOT: kernel_call
// CHECK: return
func.func @dead_no_results(%x: tensor<2xf32>) {
  tfrt_fallback.kernel_call "NoOp"() : () -> ()
  tfrt_fallback.kernel_call "Consume"(%x) : (tensor<2xf32>) -> ()
  return
}

// -----

// Unused constants, new chains and merges are pure and removed.
// CHECK-LABEL: func @dead_pure_ops
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain)
// CHECK-NEXT: return
func.func @dead_pure_ops(%c: !tfrt_fallback.chain) {
  %cst = tfrt_fallback.constant dense<1.0> : tensor<4xf32>
  %c0 = tfrt_fallback.new_chain
  %m = tfrt_fallback.merge_chains %c, %c0
  return
}

// -----

// Duplicate constants are merged by the canonicalizer's constant folding.
// CHECK-LABEL: func @duplicate_constants
// CHECK: %[[CST:.*]] = tfrt_fallback.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-NOT: tfrt_fallback.constant
// CHECK: "AddV2"(%[[CST]], %[[CST]])
func.func @duplicate_constants() -> tensor<2xf32> {
  %a = tfrt_fallback.constant dense<1.0> : tensor<2xf32>
  %b = tfrt_fallback.constant dense<1.0> : tensor<2xf32>
  %0 = tfrt_fallback.kernel_call "AddV2"(%a, %b) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Constants of different types or values stay apart.
// CHECK-LABEL: func @distinct_constants
// CHECK-DAG: tfrt_fallback.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK-DAG: tfrt_fallback.constant dense<2.000000e+00> : tensor<2xf32>
// CHECK-DAG: tfrt_fallback.constant dense<1.000000e+00> : tensor<2xf64>
func.func @distinct_constants() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf64>) {
  %a = tfrt_fallback.constant dense<1.0> : tensor<2xf32>
  %b = tfrt_fallback.constant dense<2.0> : tensor<2xf32>
  %c = tfrt_fallback.constant dense<1.0> : tensor<2xf64>
  return %a, %b, %c : tensor<2xf32>, tensor<2xf32>, tensor<2xf64>
}

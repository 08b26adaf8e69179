// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | fallback-opt | FileCheck %s

// tfrt_fallback.if, case and while print as they parse, with and without a
// chain, and with callees whose shapes are less refined than the op's.

func.func private @double(%x: tensor<2xf32>) -> tensor<2xf32>
func.func private @negate(%x: tensor<?xf32>) -> tensor<?xf32>
func.func private @print(%c: !tfrt_fallback.chain, %x: tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
func.func private @less(%i: tensor<i32>, %x: tensor<?xf32>) -> tensor<i1>
func.func private @step(%i: tensor<i32>, %x: tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>)
func.func private @checked_less(%c: !tfrt_fallback.chain, %i: tensor<i32>, %x: tensor<?xf32>) -> (tensor<i1>, !tfrt_fallback.chain)
func.func private @nothing()

// CHECK-LABEL: func @control_flow
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[I:.*]]: tensor<i32>, %[[X:.*]]: tensor<2xf32>)
func.func @control_flow(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<2xf32>) -> tensor<?xf32> {
  // CHECK: %[[A:.*]] = tfrt_fallback.if %[[P]] then @double else @negate (%[[X]]) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %a = tfrt_fallback.if %p then @double else @negate (%x) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
  %c0 = tfrt_fallback.new_chain
  // CHECK: %[[B:.*]], %[[C1:.*]] = tfrt_fallback.if %[[P]] then @print else @double (%[[A]]) chain(%[[C0]]) {note = "kept"} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %b, %c1 = tfrt_fallback.if %p then @print else @double (%a) chain(%c0) {note = "kept"} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[D:.*]] = tfrt_fallback.case %[[I]] [@double, @negate] (%[[B]]) : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  %d = tfrt_fallback.case %i [@double, @negate] (%b) : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[E:.*]], %[[C2:.*]] = tfrt_fallback.case %[[I]] [@print] (%[[D]]) chain(%[[C1]])
  %e, %c2 = tfrt_fallback.case %i [@print] (%d) chain(%c1) : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[W:.*]]:2 = tfrt_fallback.while @less @step (%[[I]], %[[E]]) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<?xf32>)
  %w:2 = tfrt_fallback.while @less @step (%i, %e) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<?xf32>)
  // CHECK: %[[V:.*]]:2, %[[C3:.*]] = tfrt_fallback.while @checked_less @step (%[[I]], %[[W]]#1) chain(%[[C2]]) : (tensor<i32>, tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>)
  %v:2, %c3 = tfrt_fallback.while @checked_less @step (%i, %w#1) chain(%c2) : (tensor<i32>, tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>)
  // No values at all.
  // CHECK: tfrt_fallback.if %[[P]] then @nothing else @nothing () : (tensor<i1>) -> ()
  tfrt_fallback.if %p then @nothing else @nothing () : (tensor<i1>) -> ()
  return %v#1 : tensor<?xf32>
}

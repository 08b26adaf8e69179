// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file | FileCheck %s

// Calls between functions. A pure callee keeps its signature and its calls
// are unchanged.

// CHECK-LABEL: func private @pure_callee
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK-NOT: chain
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]])
// CHECK: return %[[R]] : tensor<2xf32>
func.func private @pure_callee(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @caller
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NOT: chain
// CHECK: %[[A:.*]] = call @pure_callee(%[[X]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[B:.*]] = call @pure_callee(%[[A]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: return %[[B]]
func.func @caller(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @pure_callee(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = func.call @pure_callee(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// A public callee with side effects starts its own chain: its signature is
// part of the program's interface and does not change.
// CHECK-LABEL: func @public_effect
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C0]])
// CHECK: return %[[X]] : tensor<2xf32>
func.func @public_effect(%x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return %x : tensor<2xf32>
}

// A call has no chain of its own: it calls a private copy of the public
// callee that takes the caller's chain, so it stays in order.
// CHECK-LABEL: func private @public_effect_ordered
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C]])
// CHECK-LABEL: func @calls_public
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: call @public_effect_ordered(%[[C0]], %{{.*}}) : (!tfrt_fallback.chain, tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
func.func @calls_public(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @public_effect(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// External declarations are left alone.
// CHECK-LABEL: func private @external(tensor<2xf32>) -> tensor<2xf32>
func.func private @external(%x: tensor<2xf32>) -> tensor<2xf32>

// CHECK-LABEL: func @calls_external
// CHECK: call @external(%{{.*}}) : (tensor<2xf32>) -> tensor<2xf32>
func.func @calls_external(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @external(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: fallback-opt %s --cse --split-input-file | FileCheck %s

// Duplicate constants are CSE'd.
// CHECK-LABEL: func @constants
// CHECK: %[[CST:.*]] = tfrt_fallback.constant dense<[1, 2]> : tensor<2xi32>
// CHECK-NOT: tfrt_fallback.constant
// CHECK: return %[[CST]], %[[CST]]
func.func @constants() -> (tensor<2xi32>, tensor<2xi32>) {
  %a = tfrt_fallback.constant dense<[1, 2]> : tensor<2xi32>
  %b = tfrt_fallback.constant dense<[1, 2]> : tensor<2xi32>
  return %a, %b : tensor<2xi32>, tensor<2xi32>
}

// -----

// Identical pure kernel calls compute the same value and are CSE'd.
// CHECK-LABEL: func @pure_calls
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]])
// CHECK-NOT: kernel_call
// CHECK: return %[[R]], %[[R]]
func.func @pure_calls(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Calls that differ in their attributes or device are different.
// CHECK-LABEL: func @different_calls
// CHECK-COUNT-3: tfrt_fallback.kernel_call "MatMul"
func.func @different_calls(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = tfrt_fallback.kernel_call "MatMul"(%x, %x) {T = f32, transpose_a = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = tfrt_fallback.kernel_call "MatMul"(%x, %x) {T = f32, transpose_a = true} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = tfrt_fallback.kernel_call "MatMul"(%x, %x) device("/device:GPU:0") {T = f32, transpose_a = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// Ordered calls are never CSE'd: each random draw is a new one.
// CHECK-LABEL: func @ordered_calls
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[A:.*]], %[[C1:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%{{.*}}) chain(%[[C0]])
// CHECK: %[[B:.*]], %[[C2:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%{{.*}}) chain(%[[C0]])
// CHECK: return %[[A]], %[[B]]
func.func @ordered_calls(%s: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %c0 = tfrt_fallback.new_chain
  %0, %c1 = tfrt_fallback.kernel_call "RandomUniform"(%s) chain(%c0) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %1, %c2 = tfrt_fallback.kernel_call "RandomUniform"(%s) chain(%c0) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// new_chain is pure: two of them are the same ready chain.
// CHECK-LABEL: func @new_chains
// CHECK: %[[C:.*]] = tfrt_fallback.new_chain
// CHECK-NOT: new_chain
// CHECK: return %[[C]], %[[C]]
func.func @new_chains() -> (!tfrt_fallback.chain, !tfrt_fallback.chain) {
  %a = tfrt_fallback.new_chain
  %b = tfrt_fallback.new_chain
  return %a, %b : !tfrt_fallback.chain, !tfrt_fallback.chain
}

// RUN: fallback-translate --mlir-to-bef %s | fallback-translate --bef-to-mlir | FileCheck %s
// A lowered program survives the binary program and comes back the same.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[S:.*]]: tensor<?xi32>) -> (tensor<2x3xf32>, tensor<*xf32>, tensor<i1>)
func.func @main(%x: tensor<2x3xf32>, %s: tensor<?xi32>) -> (tensor<2x3xf32>, tensor<*xf32>, tensor<i1>) {
  // CHECK-DAG: %[[W:.*]] = tfrt_fallback.constant dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
  // CHECK-DAG: %[[B:.*]] = tfrt_fallback.constant dense<true> : tensor<i1>
  %w = tfrt_fallback.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = tfrt_fallback.constant dense<true> : tensor<i1>
  // CHECK: %[[A:.*]] = tfrt_fallback.kernel_call "AddV2"(%[[X]], %[[W]]) device("/device:CPU:0") {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %a = tfrt_fallback.kernel_call "AddV2"(%x, %w) device("/device:CPU:0") {T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Reshape"(%[[A]], %[[S]]) {T = f32, Tshape = i32} : (tensor<2x3xf32>, tensor<?xi32>) -> tensor<*xf32>
  %r = tfrt_fallback.kernel_call "Reshape"(%a, %s) {T = f32, Tshape = i32} : (tensor<2x3xf32>, tensor<?xi32>) -> tensor<*xf32>
  // CHECK: return %[[A]], %[[R]], %[[B]]
  return %a, %r, %b : tensor<2x3xf32>, tensor<*xf32>, tensor<i1>
}

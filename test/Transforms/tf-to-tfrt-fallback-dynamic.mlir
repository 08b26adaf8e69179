// RUN: fallback-opt %s --tf-to-tfrt-fallback | FileCheck %s

// Unranked and dynamically shaped tensors pass through unchanged: the
// runtime learns the shapes when the kernel runs.

// CHECK-LABEL: func @unranked
// CHECK-SAME: (%[[X:.*]]: tensor<*xf32>)
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]]) {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
// CHECK: return %[[R]] : tensor<*xf32>
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// CHECK-LABEL: func @dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x4xf32>, %[[B:.*]]: tensor<4x?xf32>)
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "MatMul"(%[[A]], %[[B]]) {T = f32, transpose_a = false, transpose_b = false} : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
func.func @dynamic(%a: tensor<?x4xf32>, %b: tensor<4x?xf32>) -> tensor<?x?xf32> {
  %0 = "tf.MatMul"(%a, %b) {T = f32, transpose_a = false, transpose_b = false} : (tensor<?x4xf32>, tensor<4x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// Shape-computing ops between static, dynamic and unranked tensors.
// CHECK-LABEL: func @reshape
// CHECK-SAME: (%[[X:.*]]: tensor<?xi64>)
// CHECK: %[[SHAPE:.*]] = tfrt_fallback.constant dense<[-1, 2]> : tensor<2xi32>
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Reshape"(%[[X]], %[[SHAPE]]) {T = i64, Tshape = i32} : (tensor<?xi64>, tensor<2xi32>) -> tensor<?x2xi64>
// CHECK: %[[S:.*]] = tfrt_fallback.kernel_call "Shape"(%[[R]]) {T = i64, out_type = i32} : (tensor<?x2xi64>) -> tensor<2xi32>
// CHECK: %[[U:.*]] = tfrt_fallback.kernel_call "Reshape"(%[[X]], %[[S]]) {T = i64, Tshape = i32} : (tensor<?xi64>, tensor<2xi32>) -> tensor<*xi64>
func.func @reshape(%x: tensor<?xi64>) -> (tensor<?x2xi64>, tensor<*xi64>) {
  %shape = "tf.Const"() {value = dense<[-1, 2]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%x, %shape) {T = i64, Tshape = i32} : (tensor<?xi64>, tensor<2xi32>) -> tensor<?x2xi64>
  %1 = "tf.Shape"(%0) {T = i64, out_type = i32} : (tensor<?x2xi64>) -> tensor<2xi32>
  %2 = "tf.Reshape"(%x, %1) {T = i64, Tshape = i32} : (tensor<?xi64>, tensor<2xi32>) -> tensor<*xi64>
  return %0, %2 : tensor<?x2xi64>, tensor<*xi64>
}

// Zero-sized dimensions.
// CHECK-LABEL: func @empty_tensor
// CHECK: tfrt_fallback.kernel_call "ZerosLike"(%{{.*}}) {T = f16} : (tensor<0x3xf16>) -> tensor<0x3xf16>
func.func @empty_tensor(%x: tensor<0x3xf16>) -> tensor<0x3xf16> {
  %0 = "tf.ZerosLike"(%x) {T = f16} : (tensor<0x3xf16>) -> tensor<0x3xf16>
  return %0 : tensor<0x3xf16>
}

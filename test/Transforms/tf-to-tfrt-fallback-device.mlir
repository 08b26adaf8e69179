// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported | FileCheck %s

// The TF `device` attribute moves to the kernel call's own device; an empty
// device (TF's "no placement") is dropped. It never appears in op_attrs.

// CHECK-LABEL: func @devices
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[S:.*]]: tensor<2xi32>)
func.func @devices(%x: tensor<2xf32>, %s: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // The chain of the stateful op below starts at the top of the function.
  // CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
  // CHECK: %[[A:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]]) device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %0 = "tf.Relu"(%x) {T = f32, device = "/job:localhost/replica:0/task:0/device:CPU:0"} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[B:.*]] = tfrt_fallback.kernel_call "Relu"(%[[A]]) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Relu"(%0) {T = f32, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: %[[C:.*]] = tfrt_fallback.kernel_call "Relu"(%[[B]]) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.Relu"(%1) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  // A stateful op keeps its device next to its chain.
  // CHECK: %[[D:.*]], %{{.*}} = tfrt_fallback.kernel_call "RandomUniform"(%[[S]]) chain(%[[C0]]) device("/device:GPU:0") {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %3 = "tf.RandomUniform"(%s) {T = i32, dtype = f32, device = "/device:GPU:0"} : (tensor<2xi32>) -> tensor<2xf32>
  // CHECK-NOT: device = 
  // CHECK: return %[[C]], %[[D]], %[[A]]
  return %2, %3, %0 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

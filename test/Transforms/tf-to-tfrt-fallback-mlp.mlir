// RUN: fallback-opt %s --tf-to-tfrt-fallback | FileCheck %s
// RUN: fallback-opt %s --tf-to-tfrt-fallback | fallback-opt | FileCheck %s

// The two-layer perceptron of examples/mlp.mlir: constants become
// tfrt_fallback.constant, every op becomes a pure kernel call (no chain),
// the device moves to the call, _output_shapes is dropped, Identity is
// forwarded and NoOp removed.

// CHECK-LABEL: func @main
// CHECK-SAME: (%[[X:.*]]: tensor<1x4xf32>) -> tensor<1x3xf32>
// CHECK-NOT: new_chain
// CHECK: %[[W0:.*]] = tfrt_fallback.constant dense<{{\[\[}}5.000000e-01, -1.000000e+00, 2.500000e-01], [1.000000e+00, 5.000000e-01, -5.000000e-01], [-2.500000e-01, 1.000000e+00, 7.500000e-01], [0.000000e+00, -5.000000e-01, 1.000000e+00]]> : tensor<4x3xf32>
// CHECK: %[[B0:.*]] = tfrt_fallback.constant dense<[1.000000e-01, -2.000000e-01, 3.000000e-01]> : tensor<3xf32>
// CHECK: %[[W1:.*]] = tfrt_fallback.constant dense<{{.*}}> : tensor<3x3xf32>
// CHECK: %[[MM0:.*]] = tfrt_fallback.kernel_call "MatMul"(%[[X]], %[[W0]]) device("/device:CPU:0") {T = f32, transpose_a = false, transpose_b = false} : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
// CHECK: %[[BA:.*]] = tfrt_fallback.kernel_call "BiasAdd"(%[[MM0]], %[[B0]]) {T = f32, data_format = "NHWC"} : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
// CHECK: %[[RELU:.*]] = tfrt_fallback.kernel_call "Relu"(%[[BA]]) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK: %[[MM1:.*]] = tfrt_fallback.kernel_call "MatMul"(%[[RELU]], %[[W1]]) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<1x3xf32>
// CHECK: %[[SM:.*]] = tfrt_fallback.kernel_call "Softmax"(%[[MM1]]) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NOT: Identity
// CHECK-NOT: NoOp
// CHECK-NOT: _output_shapes
// CHECK: return %[[SM]] : tensor<1x3xf32>
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x3xf32> {
  %w0 = "tf.Const"() {value = dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 1.0, 0.75], [0.0, -0.5, 1.0]]> : tensor<4x3xf32>, dtype = f32} : () -> tensor<4x3xf32>
  %b0 = "tf.Const"() {value = dense<[0.1, -0.2, 0.3]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %w1 = "tf.Const"() {value = dense<[[1.0, 0.0, -1.0], [0.5, 0.5, 0.5], [-1.0, 2.0, 0.0]]> : tensor<3x3xf32>, dtype = f32} : () -> tensor<3x3xf32>
  %0 = "tf.MatMul"(%x, %w0) {transpose_a = false, transpose_b = false, T = f32, device = "/device:CPU:0", _output_shapes = [#tf_type.shape<1x3>]} : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  %1 = "tf.BiasAdd"(%0, %b0) {T = f32, data_format = "NHWC"} : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %2 = "tf.Relu"(%1) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %3 = "tf.MatMul"(%2, %w1) {transpose_a = false, transpose_b = false, T = f32} : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<1x3xf32>
  %4 = "tf.Softmax"(%3) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %5 = "tf.Identity"(%4) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  "tf.NoOp"() : () -> ()
  return %5 : tensor<1x3xf32>
}

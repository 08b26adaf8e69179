// RUN: fallback-opt %s --tf-to-tfrt-fallback --split-input-file | FileCheck %s

// Recent TensorFlow prints an op's inherent attributes as properties
// (`<{...}>`); they lower like attributes written in the dictionary, and
// derived attributes are derived next to them.

// CHECK-LABEL: func @properties
// CHECK: %[[C:.*]] = tfrt_fallback.constant dense<[1.000000e+00, -2.000000e+00]> : tensor<2xf32>
// CHECK: kernel_call "MatMul"(%{{.*}}, %{{.*}}) device("/device:CPU:0") {T = f32, transpose_a = false, transpose_b = true}
// CHECK: kernel_call "ConcatV2"(%[[C]], %[[C]], %{{.*}}) {N = 2 : i64, T = f32, Tidx = i32}
func.func @properties(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<4xf32>) {
  %0 = "tf.Const"() <{value = dense<[1.0, -2.0]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
  %axis = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %1 = "tf.MatMul"(%x, %x) <{transpose_a = false, transpose_b = true}> {device = "/device:CPU:0", _output_shapes = [#tf_type.shape<2x2>]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %2 = "tf.ConcatV2"(%0, %0, %axis) <{operandSegmentSizes = array<i32: 2, 1>}> : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  return %1, %2 : tensor<2x2xf32>, tensor<4xf32>
}

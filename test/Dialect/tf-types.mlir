// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | fallback-opt | FileCheck %s

// The tf_type types and attributes, as TensorFlow's MLIR tools print them,
// on generic tf ops and as dtypes of kernel calls.

// CHECK-LABEL: func @types
// CHECK-SAME: tensor<!tf_type.string>
// CHECK-SAME: tensor<!tf_type.resource>
// CHECK-SAME: tensor<!tf_type.resource<tensor<2x3xf32>>>
// CHECK-SAME: tensor<!tf_type.variant>
// CHECK-SAME: tensor<!tf_type.variant<tensor<?xi32>, tensor<f32>>>
// CHECK-SAME: !tf_type.control
func.func @types(%s: tensor<!tf_type.string>, %r: tensor<!tf_type.resource>, %rt: tensor<!tf_type.resource<tensor<2x3xf32>>>, %v: tensor<!tf_type.variant>, %vt: tensor<!tf_type.variant<tensor<?xi32>, tensor<f32>>>, %ctl: !tf_type.control) {
  return
}

// CHECK-LABEL: func @tf_ops
func.func @tf_ops(%r: tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32> {
  // CHECK: "tf.ReadVariableOp"(%{{.*}}) {_output_shapes = [#tf_type.shape<2>, #tf_type.shape<?x3>, #tf_type.shape<*>, #tf_type.shape<>], dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %0 = "tf.ReadVariableOp"(%r) {dtype = f32, _output_shapes = [#tf_type.shape<2>, #tf_type.shape<?x3>, #tf_type.shape<*>, #tf_type.shape<>]} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Resource and variant handles may flow through kernel calls.
// CHECK-LABEL: func @kernel_call_handles
func.func @kernel_call_handles(%r: tensor<!tf_type.resource<tensor<2xf32>>>, %c: !tfrt_fallback.chain) -> (tensor<2xf32>, tensor<!tf_type.variant>) {
  // CHECK: tfrt_fallback.kernel_call "ReadVariableOp"(%{{.*}}) chain(%{{.*}}) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %0, %c1 = tfrt_fallback.kernel_call "ReadVariableOp"(%r) chain(%c) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  // CHECK: tfrt_fallback.kernel_call "TensorListFromTensor"(%{{.*}}, %{{.*}}) {element_dtype = f32, shape_type = i32} : (tensor<2xf32>, tensor<0xi32>) -> tensor<!tf_type.variant>
  %shape = tfrt_fallback.constant dense<> : tensor<0xi32>
  %1 = tfrt_fallback.kernel_call "TensorListFromTensor"(%0, %shape) {element_dtype = f32, shape_type = i32} : (tensor<2xf32>, tensor<0xi32>) -> tensor<!tf_type.variant>
  return %0, %1 : tensor<2xf32>, tensor<!tf_type.variant>
}

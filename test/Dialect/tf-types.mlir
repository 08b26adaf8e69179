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

// TensorFlow's reference dtypes (TF1 variables) and quantized dtypes.
// CHECK-LABEL: func @ref_types
// CHECK-SAME: tensor<96x!tf_type.f32ref>
// CHECK-SAME: tensor<!tf_type.int32ref>
// CHECK-SAME: tensor<2x!tf_type.stringref>
// CHECK-SAME: tensor<!tf_type.boolref>
// CHECK-SAME: tensor<!tf_type.resourceref>
// CHECK-SAME: tensor<!tf_type.variantref>
// CHECK-SAME: tensor<!tf_type.qint8ref>
// CHECK-SAME: tensor<!tf_type.complex128ref>
// CHECK-SAME: tensor<!tf_type.float8e4m3b11fnuzref>
func.func @ref_types(%a: tensor<96x!tf_type.f32ref>, %b: tensor<!tf_type.int32ref>, %c: tensor<2x!tf_type.stringref>, %d: tensor<!tf_type.boolref>, %e: tensor<!tf_type.resourceref>, %f: tensor<!tf_type.variantref>, %g: tensor<!tf_type.qint8ref>, %h: tensor<!tf_type.complex128ref>, %i: tensor<!tf_type.float8e4m3b11fnuzref>) {
  return
}

// CHECK-LABEL: func @quantized_types
// CHECK-SAME: tensor<4x!tf_type.qint8>, %{{.*}}: tensor<!tf_type.quint8>, %{{.*}}: tensor<!tf_type.qint16>, %{{.*}}: tensor<!tf_type.quint16>, %{{.*}}: tensor<2x2x!tf_type.qint32>
func.func @quantized_types(%a: tensor<4x!tf_type.qint8>, %b: tensor<!tf_type.quint8>, %c: tensor<!tf_type.qint16>, %d: tensor<!tf_type.quint16>, %e: tensor<2x2x!tf_type.qint32>) {
  return
}

// Every resource spelling TensorFlow accepts: bare, with one subtype, with
// several, with unranked and string subtypes.
// CHECK-LABEL: func @resource_spellings
// CHECK-SAME: tensor<*x!tf_type.resource>
// CHECK-SAME: tensor<!tf_type.resource<tensor<*xf32>>>
// CHECK-SAME: tensor<2x!tf_type.resource<tensor<i32>, tensor<?x3xf32>>>
// CHECK-SAME: tensor<!tf_type.resource<tensor<!tf_type.string>>>
func.func @resource_spellings(%a: tensor<*x!tf_type.resource>, %b: tensor<!tf_type.resource<tensor<*xf32>>>, %c: tensor<2x!tf_type.resource<tensor<i32>, tensor<?x3xf32>>>, %d: tensor<!tf_type.resource<tensor<!tf_type.string>>>) {
  return
}

// CHECK-LABEL: func @tf_type_attrs
func.func @tf_type_attrs(%x: tensor<f32>) -> tensor<1xf32> {
  // CHECK: "tf.PartitionedCall"(%{{.*}}) {config = "", config_proto = "", executor_type = "", f = #tf_type.func<@callee, {T = f32}>, g = #tf_type.func<"", {}>, h = #tf_type.func<@callee, {}>} : (tensor<f32>) -> tensor<f32>
  %0 = "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = #tf_type.func<@callee, {T = f32}>, g = #tf_type.func<"", {}>, h = #tf_type.func<@callee, {}>} : (tensor<f32>) -> tensor<f32>
  // CHECK: "tf.Const"() {value = #tf_type<tensor_proto : "0x080112041202080122040000803F"> : tensor<1xf32>} : () -> tensor<1xf32>
  %1 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080112041202080122040000803F"> : tensor<1xf32>} : () -> tensor<1xf32>
  return %1 : tensor<1xf32>
}

func.func private @callee(%x: tensor<f32>) -> tensor<f32>

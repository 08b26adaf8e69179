// RUN: fallback-opt %s --tf-to-tfrt-fallback -split-input-file -verify-diagnostics

func.func @dtype_mismatch() -> tensor<1xi32> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant of DataType 1 but the type 'tensor<1xi32>'}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080112041202080122040000803F"> : tensor<1xi32>} : () -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

// -----

func.func @shape_mismatch() -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant whose shape is not that of its type 'tensor<2xf32>'}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080112041202080122040000803F"> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @truncated() -> tensor<f32> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant that is not a valid TensorProto}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x0801120412"> : tensor<f32>} : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @content_size() -> tensor<1xf32> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant with 2 bytes of tensor_content for 4}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x08011204120208012202803F"> : tensor<1xf32>} : () -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @too_many_values() -> tensor<1xi32> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant with 2 values for 1 elements}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080312041202080138013802"> : tensor<1xi32>} : () -> tensor<1xi32>
  return %0 : tensor<1xi32>
}

// -----

func.func @dynamic() -> tensor<?xf32> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant of type 'tensor<?xf32>', which has no static shape}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x0801"> : tensor<?xf32>} : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @variant() -> tensor<!tf_type.variant> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant of element type '!tf_type.variant', which the decoder does not support}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x0815"> : tensor<!tf_type.variant>} : () -> tensor<!tf_type.variant>
  return %0 : tensor<!tf_type.variant>
}

// -----

func.func @attribute() {
  // expected-error@+1 {{'tf.MadeUpOp' op attribute 't' has a TensorProto constant whose shape is not that of its type 'tensor<3xf32>'}}
  "tf.MadeUpOp"() {t = #tf_type<tensor_proto : "0x080112041202080122040000803F"> : tensor<3xf32>} : () -> ()
  return
}

// -----

// A resource TensorProto (field 1: DT_RESOURCE = 20, an empty shape) holds a
// serialized handle, which the decoder does not decode.
func.func @resource() -> tensor<!tf_type.resource> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant of element type '!tf_type.resource', which the decoder does not support}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x08141200"> : tensor<!tf_type.resource>} : () -> tensor<!tf_type.resource>
  return %0 : tensor<!tf_type.resource>
}

// -----

// One value (1.0) repeated over 2^61 elements: refused, not allocated.
func.func @too_large() -> tensor<2305843009213693952xf32> {
  // expected-error@+1 {{'tf.Const' op has a TensorProto constant of type 'tensor<2305843009213693952xf32>', larger than the decoder holds (2147483648 bytes)}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x0801120c120a088080808080808080202d0000803f"> : tensor<2305843009213693952xf32>} : () -> tensor<2305843009213693952xf32>
  return %0 : tensor<2305843009213693952xf32>
}

// -----

// 2^32 x 2^32 elements overflow 64 bits.
func.func @overflow() -> tensor<4294967296x4294967296xf32> {
  // expected-error@+1 {{larger than the decoder holds}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x08011210120608808080801012060880808080102d0000803f"> : tensor<4294967296x4294967296xf32>} : () -> tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}

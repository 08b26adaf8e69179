// RUN: fallback-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{unknown tf_type type 'float32ref'}}
func.func @unknown_type(%x: tensor<!tf_type.float32ref>)

// -----

// expected-error@+1 {{unknown tf_type type 'qint64'}}
func.func @unknown_quantized(%x: tensor<!tf_type.qint64>)

// -----

func.func @proto_not_hex() {
  // expected-error@+1 {{expects a TensorProto as a string of hexadecimal digits starting with 0x}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0801"> : tensor<f32>} : () -> tensor<f32>
  return
}

// -----

func.func @proto_odd_digits() {
  // expected-error@+1 {{expects a TensorProto as a string of hexadecimal digits starting with 0x}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080"> : tensor<f32>} : () -> tensor<f32>
  return
}

// -----

func.func @proto_without_type() {
  // expected-error@+1 {{expects a tensor type after #tf_type<tensor_proto ...>, as in `: tensor<f32>`}}
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x0801">} : () -> tensor<f32>
  return
}

// -----

func.func @func_attr_name(%x: tensor<f32>) {
  // expected-error@+1 {{expects a symbol or "" as the function of #tf_type.func}}
  "tf.PartitionedCall"(%x) {f = #tf_type.func<"callee", {}>} : (tensor<f32>) -> ()
  return
}

// -----

func.func @func_attr_dict(%x: tensor<f32>) {
  // expected-error@+1 {{expected ','}}
  "tf.PartitionedCall"(%x) {f = #tf_type.func<@callee>} : (tensor<f32>) -> ()
  return
}

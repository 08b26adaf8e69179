// RUN: fallback-opt %s --split-input-file --verify-diagnostics

// Verifier errors of tfrt_fallback.kernel_call: op name, chains, device.

func.func @empty_op_name(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op requires a non-empty TensorFlow op name}}
  %0 = tfrt_fallback.kernel_call ""(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tf_prefix(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op name 'tf.Relu' must not carry the 'tf.' dialect prefix; write 'Relu'}}
  %0 = tfrt_fallback.kernel_call "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @space_in_name(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op name 'Add V2' is not a valid TensorFlow op name}}
  %0 = tfrt_fallback.kernel_call "Add V2"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @leading_digit(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op name '2D' is not a valid TensorFlow op name}}
  %0 = tfrt_fallback.kernel_call "2D"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dot_in_name(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op name 'mhlo.add' is not a valid TensorFlow op name}}
  %0 = tfrt_fallback.kernel_call "mhlo.add"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dash_in_name(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op name 'Add-V2' is not a valid TensorFlow op name}}
  %0 = tfrt_fallback.kernel_call "Add-V2"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @leading_gt(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op name '>Op' is not a valid TensorFlow op name}}
  %0 = tfrt_fallback.kernel_call ">Op"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @in_chain_without_out_chain(%x: tensor<2xf32>, %c: !tfrt_fallback.chain) {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op takes an input chain but produces no output chain; an ordered op must produce the next chain}}
  "tfrt_fallback.kernel_call"(%x, %c) <{op_attrs = {T = f32}, op_name = "Print", operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 0, 0>}> : (tensor<2xf32>, !tfrt_fallback.chain) -> ()
  return
}

// -----

func.func @out_chain_without_in_chain(%x: tensor<2xf32>) -> !tfrt_fallback.chain {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op produces an output chain but takes no input chain; pass the chain it is ordered after}}
  %c = "tfrt_fallback.kernel_call"(%x) <{op_attrs = {T = f32}, op_name = "Print", operandSegmentSizes = array<i32: 1, 0>, resultSegmentSizes = array<i32: 0, 1>}> : (tensor<2xf32>) -> !tfrt_fallback.chain
  return %c : !tfrt_fallback.chain
}

// -----

func.func @in_chain_with_results_without_out_chain(%x: tensor<2xi32>, %c: !tfrt_fallback.chain) -> tensor<2xf32> {
  // expected-error@+1 {{op takes an input chain but produces no output chain}}
  %0 = "tfrt_fallback.kernel_call"(%x, %c) <{op_attrs = {}, op_name = "RandomUniform", operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 0>}> : (tensor<2xi32>, !tfrt_fallback.chain) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @empty_device(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op has an empty device; omit 'device' instead}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) device("") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @empty_device_generic(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op has an empty device; omit 'device' instead}}
  %0 = "tfrt_fallback.kernel_call"(%x) <{device = "", op_attrs = {}, op_name = "Relu", operandSegmentSizes = array<i32: 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// The chain operand must be a chain.
func.func @chain_not_a_chain(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{operand #1 must be a chain that orders ops with side effects, but got 'tensor<2xf32>'}}
  %0:2 = "tfrt_fallback.kernel_call"(%x, %x) <{op_attrs = {}, op_name = "Print", operandSegmentSizes = array<i32: 1, 1>, resultSegmentSizes = array<i32: 1, 1>}> : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
  return %0#0 : tensor<2xf32>
}

// -----

// The op name and the TF attributes are required.
func.func @missing_op_name(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{requires attribute 'op_name'}}
  %0 = "tfrt_fallback.kernel_call"(%x) <{op_attrs = {}, operandSegmentSizes = array<i32: 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @missing_op_attrs(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{requires attribute 'op_attrs'}}
  %0 = "tfrt_fallback.kernel_call"(%x) <{op_name = "Relu", operandSegmentSizes = array<i32: 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @segment_sizes_mismatch(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{operand count (1) does not match with the total size (2) specified in attribute 'operandSegmentSizes'}}
  %0 = "tfrt_fallback.kernel_call"(%x) <{op_attrs = {}, op_name = "Relu", operandSegmentSizes = array<i32: 2, 0>, resultSegmentSizes = array<i32: 1, 0>}> : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

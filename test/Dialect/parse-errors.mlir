// RUN: fallback-opt %s --split-input-file --verify-diagnostics

// Malformed custom syntax of the tfrt_fallback ops and types gives a
// diagnostic at the offending token.

func.func @missing_operand_parens(%x: tensor<2xf32>) {
  // expected-error@+1 {{expected '(' in operand list}}
  %0 = tfrt_fallback.kernel_call "Relu" %x : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @unclosed_operand_list(%x: tensor<2xf32>) {
  // expected-error@+1 {{expected ')' in operand list}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @unquoted_op_name(%x: tensor<2xf32>) {
  // expected-error@+1 {{expected attribute value}}
  %0 = tfrt_fallback.kernel_call Relu(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @op_name_not_a_string(%x: tensor<2xf32>) {
  // expected-error@+1 {{invalid kind of attribute specified}}
  %0 = tfrt_fallback.kernel_call 42(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @not_a_function_type(%x: tensor<2xf32>) {
  // expected-error@+1 {{invalid kind of type specified: expected builtin.function, but found 'tensor<2xf32>'}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) : tensor<2xf32>
  return
}

// -----

func.func @missing_type(%x: tensor<2xf32>) {
  // expected-error@+1 {{expected ':'}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32}
  return
}

// -----

func.func @too_many_operand_types(%x: tensor<2xf32>) {
  // expected-error@+1 {{number of operands and types do not match: got 1 operands and 2 types}}
  %0 = tfrt_fallback.kernel_call "AddV2"(%x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// expected-note@+1 {{prior use here}}
func.func @operand_type_mismatch(%x: tensor<2xf32>) {
  // expected-error@+1 {{use of value '%x' expects different type than prior uses: 'tensor<2xi32>' vs 'tensor<2xf32>'}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) : (tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @result_count_mismatch(%x: tensor<2xf32>) {
  // expected-error@+1 {{operation defines 2 results but was provided 1 to bind}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

// The output chain is a result too.
func.func @chain_result_not_bound(%x: tensor<2xf32>, %c: !tfrt_fallback.chain) {
  // expected-error@+1 {{operation defines 2 results but was provided 1 to bind}}
  %0 = tfrt_fallback.kernel_call "RandomUniform"(%x) chain(%c) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @chain_without_parens(%x: tensor<2xf32>, %c: !tfrt_fallback.chain) {
  // expected-error@+1 {{expected '('}}
  %0, %c1 = tfrt_fallback.kernel_call "Print"(%x) chain %c : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// expected-note@+1 {{prior use here}}
func.func @chain_of_tensor(%x: tensor<2xf32>) {
  // expected-error@+1 {{use of value '%x' expects different type than prior uses: '!tfrt_fallback.chain' vs 'tensor<2xf32>'}}
  %0, %c1 = tfrt_fallback.kernel_call "Print"(%x) chain(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

// chain(...) comes before device(...).
func.func @device_before_chain(%x: tensor<2xf32>, %c: !tfrt_fallback.chain) {
  // expected-error@+1 {{expected ':'}}
  %0, %c1 = tfrt_fallback.kernel_call "Print"(%x) device("/device:CPU:0") chain(%c) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @device_not_a_string(%x: tensor<2xf32>) {
  // expected-error@+1 {{invalid kind of attribute specified}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) device(1) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @unclosed_attr_dict(%x: tensor<2xf32>) {
  // expected-error@+1 {{expected '}' in attribute dictionary}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32 : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @attributes_without_dict(%x: tensor<2xf32>) {
  // expected-error@+1 {{expected '{' in attribute dictionary}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32} attributes : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @bad_result_type(%x: tensor<2xf32>) {
  // expected-error@+1 {{expected non-function type}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xfoo>
  return
}

// -----

func.func @constant_not_elements() {
  // expected-error@+1 {{invalid kind of attribute specified}}
  %0 = tfrt_fallback.constant 1.0 : f32
  return
}

// -----

func.func @constant_without_value() {
  // expected-error@+1 {{expected attribute value}}
  %0 = tfrt_fallback.constant : tensor<2xf32>
  return
}

// -----

func.func @new_chain_with_operands() {
  // expected-error@+1 {{expected operation name in quotes}}
  %0 = tfrt_fallback.new_chain()
  return
}

// -----

func.func @merge_chains_trailing_comma(%c: !tfrt_fallback.chain) {
  // expected-error@+1 {{expected SSA operand}}
  %0 = tfrt_fallback.merge_chains %c,
  return
}

// -----

// expected-error@+1 {{unknown  type `chains` in dialect `tfrt_fallback`}}
func.func private @unknown_type() -> !tfrt_fallback.chains

// -----

// expected-error@+1 {{custom op 'tfrt_fallback.call' is unknown}}
tfrt_fallback.call "Relu"() : () -> ()

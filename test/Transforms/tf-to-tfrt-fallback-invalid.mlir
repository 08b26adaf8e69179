// RUN: fallback-opt %s --tf-to-tfrt-fallback --split-input-file --verify-diagnostics

// Programs tf-to-tfrt-fallback cannot lower: each error is at the op.

func.func @unexpressible_attr(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Relu' op attribute 'config' is {a = 1 : i64}, which TensorFlow cannot express}}
  %0 = "tf.Relu"(%x) {T = f32, config = {a = 1 : i64}} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @non_tf_type_attr(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Cast' op attribute 'DstT' is the type i7, which is not a TensorFlow dtype}}
  %0 = "tf.Cast"(%x) {SrcT = f32, DstT = i7} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @nested_list_attr(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.MaxPool' op attribute 'ksize' is a list of lists, which TensorFlow cannot express}}
  %0 = "tf.MaxPool"(%x) {T = f32, ksize = [[1, 2]]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @mixed_list_attr(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.MaxPool' op attribute 'ksize' is a list that mixes int and float elements}}
  %0 = "tf.MaxPool"(%x) {T = f32, ksize = [1, 2.0 : f32]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @device_not_a_string(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Relu' op has a 'device' that is not a string}}
  %0 = "tf.Relu"(%x) {T = f32, device = 0 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @non_tensor_operand(%x: i32) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Fill' op operand #0 has type 'i32', which is not a tensor of a TensorFlow dtype}}
  %0 = "tf.Fill"(%x) : (i32) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @non_tf_dtype_operand(%x: tensor<2xindex>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Cast' op operand #0 has type 'tensor<2xindex>', which is not a tensor of a TensorFlow dtype}}
  %0 = "tf.Cast"(%x) : (tensor<2xindex>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @non_tensor_result(%x: tensor<2xf32>) -> f32 {
  // expected-error@+1 {{'tf.Sum' op result #0 has type 'f32', which is not a tensor of a TensorFlow dtype}}
  %0 = "tf.Sum"(%x) : (tensor<2xf32>) -> f32
  return %0 : f32
}

// -----

func.func @memref_operand(%x: memref<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Relu' op operand #0 has type 'memref<2xf32>', which is not a tensor of a TensorFlow dtype}}
  %0 = "tf.Relu"(%x) {T = f32} : (memref<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @const_type_mismatch() -> tensor<3xf32> {
  // expected-error@+1 {{'tf.Const' op must have no operands and one result of the type of its value, 'tensor<2xf32>'}}
  %0 = "tf.Const"() {value = dense<1.0> : tensor<2xf32>, dtype = f32} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @const_dynamic_result() -> tensor<?xf32> {
  // expected-error@+1 {{'tf.Const' op must have no operands and one result of the type of its value, 'tensor<2xf32>'}}
  %0 = "tf.Const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @const_with_operand(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Const' op must have no operands and one result of the type of its value, 'tensor<2xf32>'}}
  %0 = "tf.Const"(%x) {value = dense<1.0> : tensor<2xf32>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @const_without_value() -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Const' op requires a tensor 'value' attribute}}
  %0 = "tf.Const"() {dtype = f32} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @const_non_tf_dtype() -> tensor<2xi7> {
  // expected-error@+1 {{'tf.Const' op has a value of element type 'i7', which is not a TensorFlow dtype}}
  %0 = "tf.Const"() {value = dense<1> : tensor<2xi7>} : () -> tensor<2xi7>
  return %0 : tensor<2xi7>
}

// -----

func.func @noop_with_result() -> tensor<2xf32> {
  // expected-error@+1 {{'tf.NoOp' op has results; tf.NoOp produces none}}
  %0 = "tf.NoOp"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Every failing op of a function is reported, not just the first.
func.func @several_errors(%x: i32, %y: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.A' op operand #0 has type 'i32'}}
  %0 = "tf.A"(%x) : (i32) -> tensor<2xf32>
  // expected-error@+1 {{'tf.B' op attribute 'u' is {a = 1 : i64}}}
  %1 = "tf.B"(%y) {u = {a = 1 : i64}} : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// A call's types may be more or less refined than its callee's, but of the
// same dtype and compatible shapes.
func.func @call_other_dtype(%arg0: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tf.PartitionedCall' op has operand or result types that are not compatible with the signature of @takes_f32, '(tensor<*xf32>) -> tensor<*xf32>'}}
  %0 = "tf.PartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @takes_f32} : (tensor<2xi32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @takes_f32(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  func.return %arg0 : tensor<*xf32>
}

// -----

func.func @call_other_shape(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tf.PartitionedCall' op has operand or result types that are not compatible with the signature of @takes_3, '(tensor<3xf32>) -> tensor<3xf32>'}}
  %0 = "tf.PartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @takes_3} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @takes_3(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  func.return %arg0 : tensor<3xf32>
}

// -----

// Functional control flow whose function attributes do not name one
// function each (only tf.Case's `branches` is a list): an error at the op,
// not a loop with one callee.
func.func private @cond(%i: tensor<i32>) -> tensor<i1>
func.func @list_body(%i: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{'tf.While' op requires its function attributes (cond, body) to name functions of the module}}
  %0 = "tf.While"(%i) {cond = @cond, body = [], is_stateless = true} : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @no_branches(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tf.Case' op requires its function attributes (branches) to name functions of the module}}
  %0 = "tf.Case"(%i, %x) {branches = [], is_stateless = true} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

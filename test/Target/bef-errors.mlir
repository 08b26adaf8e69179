// RUN: fallback-translate --mlir-to-bef --split-input-file --verify-diagnostics %s -o /dev/null
// What the binary program format cannot hold is an error at the op.

// expected-error@+1 {{'func.func' op is a declaration; a binary program needs every function body}}
func.func private @external(tensor<f32>) -> tensor<f32>

// -----

// expected-error@+1 {{uses the element type '!tf_type.f32ref', which the binary program format cannot carry}}
func.func @main(%x: tensor<2x!tf_type.f32ref>) -> tensor<2x!tf_type.f32ref> {
  %0 = tfrt_fallback.kernel_call "Identity"(%x) {T = !tf_type.f32ref} : (tensor<2x!tf_type.f32ref>) -> tensor<2x!tf_type.f32ref>
  return %0 : tensor<2x!tf_type.f32ref>
}

// -----

// expected-error@+1 {{'func.func' op must have a body of one block to be serialized}}
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
^unreachable:
  return %x : tensor<f32>
}

// -----

// A list of functions (tf.Case's `branches`): the loader could not read it.
func.func @function_list(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op has a list of function attributes, which the binary program format cannot carry}}
  %0 = tfrt_fallback.kernel_call "Case"(%i, %x) {branches = [@branch, @branch]} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @branch(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}

// -----

// A splat stands for 2^61 elements: refused, not materialized.
func.func @huge_splat() -> tensor<2305843009213693952xf32> {
  // expected-error@+1 {{'tfrt_fallback.constant' op has a constant of type 'tensor<2305843009213693952xf32>', larger than a binary program holds (4294967296 bytes)}}
  %0 = tfrt_fallback.constant dense<1.0> : tensor<2305843009213693952xf32>
  return %0 : tensor<2305843009213693952xf32>
}

// RUN: fallback-opt %s --split-input-file --verify-diagnostics

// Operands and results of a kernel_call are tensors of TensorFlow dtypes.

func.func @operand_i7(%x: tensor<2xi7>) -> tensor<2xf32> {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op operand #0 has element type 'i7', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Cast"(%x) : (tensor<2xi7>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @second_operand_index(%x: tensor<2xf32>, %i: tensor<2xindex>) -> tensor<2xf32> {
  // expected-error@+1 {{op operand #1 has element type 'index', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "GatherV2"(%x, %i) : (tensor<2xf32>, tensor<2xindex>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @result_index(%x: tensor<2xf32>) -> tensor<2xindex> {
  // expected-error@+1 {{op result #0 has element type 'index', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Shape"(%x) : (tensor<2xf32>) -> tensor<2xindex>
  return %0 : tensor<2xindex>
}

// -----

func.func @second_result_signed(%x: tensor<2xf32>) -> tensor<*xsi32> {
  // expected-error@+1 {{op result #1 has element type 'si32', which is not a TensorFlow dtype}}
  %0:2 = tfrt_fallback.kernel_call "Unique"(%x) : (tensor<2xf32>) -> (tensor<?xf32>, tensor<*xsi32>)
  return %0#1 : tensor<*xsi32>
}

// -----

func.func @complex_i32(%x: tensor<2xcomplex<i32>>) -> tensor<2xcomplex<i32>> {
  // expected-error@+1 {{op operand #0 has element type 'complex<i32>', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Neg"(%x) : (tensor<2xcomplex<i32>>) -> tensor<2xcomplex<i32>>
  return %0 : tensor<2xcomplex<i32>>
}

// -----

func.func @memref_operand(%x: memref<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op operand #0 must be variadic of tensor of any type values, but got 'memref<2xf32>'}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) : (memref<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @scalar_result(%x: tensor<2xf32>) -> f32 {
  // expected-error@+1 {{op result #0 must be variadic of tensor of any type values, but got 'f32'}}
  %0 = tfrt_fallback.kernel_call "Sum"(%x) : (tensor<2xf32>) -> f32
  return %0 : f32
}

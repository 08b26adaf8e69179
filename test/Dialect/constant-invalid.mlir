// RUN: fallback-opt %s --split-input-file --verify-diagnostics

// Verifier errors of tfrt_fallback.constant.

func.func @element_i7() -> tensor<2xi7> {
  // expected-error@+1 {{'tfrt_fallback.constant' op has element type 'i7', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.constant dense<1> : tensor<2xi7>
  return %0 : tensor<2xi7>
}

// -----

func.func @element_index() -> tensor<2xindex> {
  // expected-error@+1 {{op has element type 'index', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.constant dense<[1, 2]> : tensor<2xindex>
  return %0 : tensor<2xindex>
}

// -----

func.func @element_signed() -> tensor<2xsi8> {
  // expected-error@+1 {{op has element type 'si8', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.constant dense<1> : tensor<2xsi8>
  return %0 : tensor<2xsi8>
}

// -----

func.func @element_ui1() -> tensor<2xui1> {
  // expected-error@+1 {{op has element type 'ui1', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.constant dense<1> : tensor<2xui1>
  return %0 : tensor<2xui1>
}

// -----

func.func @element_complex_f16() -> tensor<complex<f16>> {
  // expected-error@+1 {{op has element type 'complex<f16>', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.constant dense<(1.0, 0.0)> : tensor<complex<f16>>
  return %0 : tensor<complex<f16>>
}

// -----

func.func @dense_resource_element_i7() -> tensor<2xi7> {
  // expected-error@+1 {{op has element type 'i7', which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.constant dense_resource<blob> : tensor<2xi7>
  return %0 : tensor<2xi7>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x010000000102"
    }
  }
#-}

// -----

func.func @dynamic_shape() -> tensor<?xf32> {
  // expected-error@+1 {{'tfrt_fallback.constant' op result #0 must be statically shaped tensor of any type values, but got 'tensor<?xf32>'}}
  %0 = "tfrt_fallback.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @unranked() -> tensor<*xf32> {
  // expected-error@+1 {{op result #0 must be statically shaped tensor of any type values, but got 'tensor<*xf32>'}}
  %0 = "tfrt_fallback.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// A dense literal needs a static shape in the first place.
func.func @dense_dynamic() -> tensor<?xf32> {
  // expected-error@+1 {{elements literal type must have static shape}}
  %0 = tfrt_fallback.constant dense<1.0> : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @type_mismatch() -> tensor<3xf32> {
  // expected-error@+1 {{'tfrt_fallback.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "tfrt_fallback.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @not_elements() -> tensor<2xf32> {
  // expected-error@+1 {{Invalid attribute `value` in property conversion: 1.000000e+00 : f32}}
  %0 = "tfrt_fallback.constant"() <{value = 1.0 : f32}> : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

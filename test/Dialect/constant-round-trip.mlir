// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | fallback-opt | FileCheck %s

// tfrt_fallback.constant with every TensorFlow dtype.

// CHECK-LABEL: func @floats
func.func @floats() -> (tensor<2xf16>, tensor<2xbf16>, tensor<2xf32>, tensor<2xf64>) {
  // CHECK: %[[F16:.*]] = tfrt_fallback.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xf16>
  // CHECK: %[[BF16:.*]] = tfrt_fallback.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xbf16>
  // CHECK: %[[F32:.*]] = tfrt_fallback.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xf32>
  // CHECK: %[[F64:.*]] = tfrt_fallback.constant dense<[1.000000e+00, -2.500000e+00]> : tensor<2xf64>
  // CHECK: return %[[F16]], %[[BF16]], %[[F32]], %[[F64]]
  %0 = tfrt_fallback.constant dense<[1.0, -2.5]> : tensor<2xf16>
  %1 = tfrt_fallback.constant dense<[1.0, -2.5]> : tensor<2xbf16>
  %2 = tfrt_fallback.constant dense<[1.0, -2.5]> : tensor<2xf32>
  %3 = tfrt_fallback.constant dense<[1.0, -2.5]> : tensor<2xf64>
  return %0, %1, %2, %3 : tensor<2xf16>, tensor<2xbf16>, tensor<2xf32>, tensor<2xf64>
}

// CHECK-LABEL: func @bool
func.func @bool() -> tensor<3xi1> {
  // CHECK: tfrt_fallback.constant dense<[true, false, true]> : tensor<3xi1>
  %0 = tfrt_fallback.constant dense<[true, false, true]> : tensor<3xi1>
  return %0 : tensor<3xi1>
}

// CHECK-LABEL: func @signed_ints
func.func @signed_ints() -> (tensor<2xi8>, tensor<2xi16>, tensor<2xi32>, tensor<2xi64>) {
  // CHECK: tfrt_fallback.constant dense<[-128, 127]> : tensor<2xi8>
  // CHECK: tfrt_fallback.constant dense<[-32768, 32767]> : tensor<2xi16>
  // CHECK: tfrt_fallback.constant dense<[-2147483648, 2147483647]> : tensor<2xi32>
  // CHECK: tfrt_fallback.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  %0 = tfrt_fallback.constant dense<[-128, 127]> : tensor<2xi8>
  %1 = tfrt_fallback.constant dense<[-32768, 32767]> : tensor<2xi16>
  %2 = tfrt_fallback.constant dense<[-2147483648, 2147483647]> : tensor<2xi32>
  %3 = tfrt_fallback.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  return %0, %1, %2, %3 : tensor<2xi8>, tensor<2xi16>, tensor<2xi32>, tensor<2xi64>
}

// CHECK-LABEL: func @unsigned_ints
func.func @unsigned_ints() -> (tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>) {
  // CHECK: tfrt_fallback.constant dense<[0, 255]> : tensor<2xui8>
  // CHECK: tfrt_fallback.constant dense<[0, 65535]> : tensor<2xui16>
  // CHECK: tfrt_fallback.constant dense<[0, 4294967295]> : tensor<2xui32>
  // CHECK: tfrt_fallback.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
  %0 = tfrt_fallback.constant dense<[0, 255]> : tensor<2xui8>
  %1 = tfrt_fallback.constant dense<[0, 65535]> : tensor<2xui16>
  %2 = tfrt_fallback.constant dense<[0, 4294967295]> : tensor<2xui32>
  %3 = tfrt_fallback.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
  return %0, %1, %2, %3 : tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>
}

// CHECK-LABEL: func @complex
func.func @complex() -> (tensor<2xcomplex<f32>>, tensor<complex<f64>>) {
  // CHECK: tfrt_fallback.constant dense<[(1.000000e+00,2.000000e+00), (-1.000000e+00,0.000000e+00)]> : tensor<2xcomplex<f32>>
  // CHECK: tfrt_fallback.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f64>>
  %0 = tfrt_fallback.constant dense<[(1.0, 2.0), (-1.0, 0.0)]> : tensor<2xcomplex<f32>>
  %1 = tfrt_fallback.constant dense<(0.0, 1.0)> : tensor<complex<f64>>
  return %0, %1 : tensor<2xcomplex<f32>>, tensor<complex<f64>>
}

// CHECK-LABEL: func @string
func.func @string() -> tensor<2x!tf_type.string> {
  // CHECK: tfrt_fallback.constant dense<["hello", "world"]> : tensor<2x!tf_type.string>
  %0 = tfrt_fallback.constant dense<["hello", "world"]> : tensor<2x!tf_type.string>
  return %0 : tensor<2x!tf_type.string>
}

// Scalars and zero-element tensors have static shapes too.
// CHECK-LABEL: func @shapes
func.func @shapes() -> (tensor<f32>, tensor<0xi32>, tensor<2x0x3xf32>) {
  // CHECK: tfrt_fallback.constant dense<4.200000e+01> : tensor<f32>
  // CHECK: tfrt_fallback.constant dense<> : tensor<0xi32>
  // CHECK: tfrt_fallback.constant dense<> : tensor<2x0x3xf32>
  %0 = tfrt_fallback.constant dense<42.0> : tensor<f32>
  %1 = tfrt_fallback.constant dense<> : tensor<0xi32>
  %2 = tfrt_fallback.constant dense<> : tensor<2x0x3xf32>
  return %0, %1, %2 : tensor<f32>, tensor<0xi32>, tensor<2x0x3xf32>
}

// CHECK-LABEL: func @asm_name
func.func @asm_name() -> tensor<f32> {
  // The result reads as a constant.
  // CHECK: %cst = tfrt_fallback.constant
  %0 = tfrt_fallback.constant dense<1.0> : tensor<f32>
  return %0 : tensor<f32>
}

// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Splat constants keep their splat form, whatever the size of the tensor.

// CHECK-LABEL: func @splat
func.func @splat() -> (tensor<1024x1024xf32>, tensor<8xi1>, tensor<3x!tf_type.string>, tensor<4xcomplex<f32>>, tensor<16xbf16>) {
  // CHECK: tfrt_fallback.constant dense<0.000000e+00> : tensor<1024x1024xf32>
  // CHECK: tfrt_fallback.constant dense<true> : tensor<8xi1>
  // CHECK: tfrt_fallback.constant dense<"pad"> : tensor<3x!tf_type.string>
  // CHECK: tfrt_fallback.constant dense<(1.000000e+00,0.000000e+00)> : tensor<4xcomplex<f32>>
  // CHECK: tfrt_fallback.constant dense<5.000000e-01> : tensor<16xbf16>
  // GENERIC: "tfrt_fallback.constant"() <{value = dense<0.000000e+00> : tensor<1024x1024xf32>}> : () -> tensor<1024x1024xf32>
  %0 = tfrt_fallback.constant dense<0.0> : tensor<1024x1024xf32>
  %1 = tfrt_fallback.constant dense<true> : tensor<8xi1>
  %2 = tfrt_fallback.constant dense<"pad"> : tensor<3x!tf_type.string>
  %3 = tfrt_fallback.constant dense<(1.0, 0.0)> : tensor<4xcomplex<f32>>
  %4 = tfrt_fallback.constant dense<0.5> : tensor<16xbf16>
  return %0, %1, %2, %3, %4 : tensor<1024x1024xf32>, tensor<8xi1>, tensor<3x!tf_type.string>, tensor<4xcomplex<f32>>, tensor<16xbf16>
}

// A dense literal whose elements are all equal is stored as a splat.
// CHECK-LABEL: func @equal_elements
func.func @equal_elements() -> tensor<4xi32> {
  // CHECK: tfrt_fallback.constant dense<7> : tensor<4xi32>
  %0 = tfrt_fallback.constant dense<[7, 7, 7, 7]> : tensor<4xi32>
  return %0 : tensor<4xi32>
}

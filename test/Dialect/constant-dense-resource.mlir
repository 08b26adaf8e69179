// RUN: fallback-opt %s | FileCheck %s
// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | fallback-opt | FileCheck %s

// Large constants are written as dense_resource blobs; the blobs survive a
// round trip byte for byte. A blob starts with its alignment (4 bytes,
// little endian) followed by the raw data.

// CHECK-LABEL: func @resources
func.func @resources() -> (tensor<2xf32>, tensor<3xi8>, tensor<2x2xi32>) {
  // CHECK: %[[W:.*]] = tfrt_fallback.constant dense_resource<weights> : tensor<2xf32>
  // CHECK: %[[B:.*]] = tfrt_fallback.constant dense_resource<bytes> : tensor<3xi8>
  // CHECK: %[[M:.*]] = tfrt_fallback.constant dense_resource<matrix> : tensor<2x2xi32>
  // CHECK: return %[[W]], %[[B]], %[[M]]
  %0 = tfrt_fallback.constant dense_resource<weights> : tensor<2xf32>
  %1 = tfrt_fallback.constant dense_resource<bytes> : tensor<3xi8>
  %2 = tfrt_fallback.constant dense_resource<matrix> : tensor<2x2xi32>
  return %0, %1, %2 : tensor<2xf32>, tensor<3xi8>, tensor<2x2xi32>
}

// CHECK: {-#
// CHECK-NEXT: dialect_resources: {
// CHECK-NEXT: builtin: {
// CHECK-DAG: weights: "0x040000000000803F00000040"
// CHECK-DAG: bytes: "0x01000000010203"
// CHECK-DAG: matrix: "0x0400000001000000020000000300000004000000"
// CHECK: #-}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040",
      bytes: "0x01000000010203",
      matrix: "0x0400000001000000020000000300000004000000"
    }
  }
#-}

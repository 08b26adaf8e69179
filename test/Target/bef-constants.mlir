// RUN: fallback-translate --mlir-to-bef %s | fallback-translate --bef-to-mlir | FileCheck %s
// Constants of every dtype the runtime holds, splats and resource blobs.

// CHECK-LABEL: func.func @main
func.func @main() -> (tensor<2xf16>, tensor<2xbf16>, tensor<2xf64>, tensor<3xi1>, tensor<2xi8>, tensor<2xi16>, tensor<2xi64>, tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>, tensor<2x2xf32>, tensor<4xf32>) {
  // CHECK-DAG: dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf16>
  // CHECK-DAG: dense<[1.500000e+00, -2.000000e+00]> : tensor<2xbf16>
  // CHECK-DAG: dense<[1.000000e-01, 2.000000e+00]> : tensor<2xf64>
  // CHECK-DAG: dense<[true, false, true]> : tensor<3xi1>
  // CHECK-DAG: dense<[-128, 127]> : tensor<2xi8>
  // CHECK-DAG: dense<[-32768, 32767]> : tensor<2xi16>
  // CHECK-DAG: dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  // CHECK-DAG: dense<[0, 255]> : tensor<2xui8>
  // CHECK-DAG: dense<[0, 65535]> : tensor<2xui16>
  // CHECK-DAG: dense<[0, 4294967295]> : tensor<2xui32>
  // CHECK-DAG: dense<[0, 18446744073709551615]> : tensor<2xui64>
  // CHECK-DAG: dense<7.000000e+00> : tensor<2x2xf32>
  // CHECK-DAG: dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
  %0 = tfrt_fallback.constant dense<[1.5, -2.0]> : tensor<2xf16>
  %1 = tfrt_fallback.constant dense<[1.5, -2.0]> : tensor<2xbf16>
  %2 = tfrt_fallback.constant dense<[0.1, 2.0]> : tensor<2xf64>
  %3 = tfrt_fallback.constant dense<[true, false, true]> : tensor<3xi1>
  %4 = tfrt_fallback.constant dense<[-128, 127]> : tensor<2xi8>
  %5 = tfrt_fallback.constant dense<[-32768, 32767]> : tensor<2xi16>
  %6 = tfrt_fallback.constant dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>
  %7 = tfrt_fallback.constant dense<[0, 255]> : tensor<2xui8>
  %8 = tfrt_fallback.constant dense<[0, 65535]> : tensor<2xui16>
  %9 = tfrt_fallback.constant dense<[0, 4294967295]> : tensor<2xui32>
  %10 = tfrt_fallback.constant dense<[0, 18446744073709551615]> : tensor<2xui64>
  %11 = tfrt_fallback.constant dense<7.0> : tensor<2x2xf32>
  %12 = tfrt_fallback.constant dense_resource<blob> : tensor<4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<2xf16>, tensor<2xbf16>, tensor<2xf64>, tensor<3xi1>, tensor<2xi8>, tensor<2xi16>, tensor<2xi64>, tensor<2xui8>, tensor<2xui16>, tensor<2xui32>, tensor<2xui64>, tensor<2x2xf32>, tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

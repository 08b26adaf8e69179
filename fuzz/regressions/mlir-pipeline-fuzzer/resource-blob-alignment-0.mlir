func.func @resources() -> (tensor<2xf32>, tensor<3xi8>, tensor<2x2xi32>) {
  %0 = tfrt_fallback.constant dense_resource<w_ights> : tensor<2xf32>
  %1 = tfrt_fallback.constant dense_resource<bytes> : tensor<3xi8>
  %2 = tfrt_fallback.constant dense_resource<matrix> : tensor<2x2xi32>
  return %0, %1, %2 : tensor<2xf32>, tensor<3xi8>, tensor<2x2xi32>
}


{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040",
      bytes: "0x01000000010203",
      matrix: "0x0000000000000000000005778133287379002496"
    }
  }
#-}

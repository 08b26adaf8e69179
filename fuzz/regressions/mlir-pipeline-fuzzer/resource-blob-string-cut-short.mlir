func.func @resource_const() -> tensor<2xf32> {
  %0 = "tf.Const"() {value = dense_resource<w> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00tfrt_fallback.constant
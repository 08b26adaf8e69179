// A program of kernels MobileNetV2's selective runtime has, in a while loop:
// scripts/size-report.sh --check runs it on the runners that leave control
// flow out, which must refuse it at load.
func.func private @cond(%x: tensor<2xf32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  return %c : tensor<i1>
}
func.func private @body(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu6"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @main() -> tensor<2xf32> {
  %x = "tf.Const"() {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.While"(%x) {cond = @cond, body = @body, is_stateless = true} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

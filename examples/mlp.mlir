// A small two-layer perceptron in TensorFlow's generic MLIR form, as
// `tf-mlir-translate` prints a frozen graph converted to functions.
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x3xf32> {
  %w0 = "tf.Const"() {value = dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.25, 1.0, 0.75], [0.0, -0.5, 1.0]]> : tensor<4x3xf32>, dtype = f32} : () -> tensor<4x3xf32>
  %b0 = "tf.Const"() {value = dense<[0.1, -0.2, 0.3]> : tensor<3xf32>, dtype = f32} : () -> tensor<3xf32>
  %w1 = "tf.Const"() {value = dense<[[1.0, 0.0, -1.0], [0.5, 0.5, 0.5], [-1.0, 2.0, 0.0]]> : tensor<3x3xf32>, dtype = f32} : () -> tensor<3x3xf32>
  %0 = "tf.MatMul"(%x, %w0) {transpose_a = false, transpose_b = false, T = f32, device = "/device:CPU:0", _output_shapes = [#tf_type.shape<1x3>]} : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  %1 = "tf.BiasAdd"(%0, %b0) {T = f32, data_format = "NHWC"} : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %2 = "tf.Relu"(%1) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %3 = "tf.MatMul"(%2, %w1) {transpose_a = false, transpose_b = false, T = f32} : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<1x3xf32>
  %4 = "tf.Softmax"(%3) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %5 = "tf.Identity"(%4) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  "tf.NoOp"() : () -> ()
  return %5 : tensor<1x3xf32>
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback --split-input-file --verify-diagnostics

// tf-to-tfrt-fallback lowers functions whose body is a single block, as
// TensorFlow's function exporter writes them.

// expected-error@+1 {{'func.func' op has more than one block; tf-to-tfrt-fallback lowers functions whose body is a single block}}
func.func @two_blocks(%x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.Br"()[^bb1] : () -> ()
^bb1:
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A private function with several blocks is an error too, next to a
// function that would lower.
func.func @fine(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// expected-error@+1 {{'func.func' op has more than one block}}
func.func private @branchy(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.CondBr"(%p)[^bb1, ^bb2] : (tensor<i1>) -> ()
^bb1:
  return %x : tensor<2xf32>
^bb2:
  return %x : tensor<2xf32>
}

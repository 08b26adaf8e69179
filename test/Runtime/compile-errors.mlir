// A program the compiler rejects gives its diagnostics and exit code 1.
// RUN: not fallback-run %s 2>&1 | FileCheck %s

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: compile-errors.mlir:[[@LINE+1]]:8: error: 'tf.Foo' op attribute 'bad' is a list of lists, which TensorFlow cannot express
  %0 = "tf.Foo"(%x) {bad = [[1]]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

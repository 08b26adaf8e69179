// Kernels flush denormal floats to zero, as TensorFlow's executor does
// (port::ScopedFlushDenormal), with one thread and with a pool.
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s

// 1e-30 * 1e-10 = 1e-40 is below FLT_MIN (1.17549e-38): a denormal,
// flushed to 0. sigmoid(-100) = 3.7e-44: also 0. 1e-30 * 1e-5 = 1e-35 is
// a normal float and stays.
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: [0., 0., 1e-35]
func.func @main() -> tensor<*xf32> {
  %a = "tf.Const"() {value = dense<[1.0e-30, 1.0, 1.0e-30]> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = "tf.Const"() {value = dense<[1.0e-10, -100.0, 1.0e-5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %m = "tf.Mul"(%a, %b) : (tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  %s = "tf.Sigmoid"(%m) : (tensor<*xf32>) -> tensor<*xf32>
  %one = "tf.Const"() {value = dense<[0, 1, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %mask = "tf.Cast"(%one) : (tensor<3xi32>) -> tensor<*xi1>
  %r = "tf.SelectV2"(%mask, %s, %m) : (tensor<*xi1>, tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

// RUN: not fallback-opt %s 2>&1 | FileCheck %s
// RUN: not fallback-opt %s --tf-to-tfrt-fallback 2>&1 | FileCheck %s
// RUN: not fallback-opt %s --tfrt-fallback-pipeline -o %t.mlir 2>&1 | FileCheck %s

// A file with a syntax error fails with a diagnostic at the error, whatever
// the passes requested, and prints no module.

// CHECK: syntax-error.mlir:[[# @LINE + 3]]:{{[0-9]+}}: error: expected ')' to end operand list
// CHECK-NOT: module
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu"(%x {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

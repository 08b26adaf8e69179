// fallback-opt registers what TensorFlow programs use besides our dialects
// (InitAllDialects.h): func and arith parse and print next to tf ops.
// RUN: fallback-opt %s | FileCheck %s

// CHECK-LABEL: func.func @mixed
func.func @mixed(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<2xf32>
  %c = arith.constant dense<2.0> : tensor<2xf32>
  // CHECK: "tf.Mul"(%{{.*}}, %[[C]])
  %y = "tf.Mul"(%x, %c) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback --split-input-file | FileCheck %s

// arith.constant tensors next to tf ops become tfrt_fallback.constant, as
// tf.Const does; other arith constants are no TF values and stay.

// CHECK-LABEL: func @tensor_constants
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[TWO:.*]] = tfrt_fallback.constant dense<2.000000e+00> : tensor<2xf32>
// CHECK-DAG: %[[AXIS:.*]] = tfrt_fallback.constant dense<0> : tensor<i32>
// CHECK-DAG: %[[STR:.*]] = tfrt_fallback.constant dense<"a"> : tensor<!tf_type.string>
// CHECK: %[[M:.*]] = tfrt_fallback.kernel_call "Mul"(%[[X]], %[[TWO]]) {T = f32}
// CHECK: tfrt_fallback.kernel_call "ConcatV2"(%[[X]], %[[M]], %[[AXIS]]) {N = 2 : i64, T = f32, Tidx = i32}
// CHECK-NOT: arith.constant
func.func @tensor_constants(%x: tensor<2xf32>) -> (tensor<4xf32>, tensor<!tf_type.string>) {
  %two = arith.constant dense<2.0> : tensor<2xf32>
  %axis = arith.constant dense<0> : tensor<i32>
  %s = arith.constant dense<"a"> : tensor<!tf_type.string>
  %0 = "tf.Mul"(%x, %two) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.ConcatV2"(%x, %0, %axis) : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  return %1, %s : tensor<4xf32>, tensor<!tf_type.string>
}

// -----

// CHECK-LABEL: func @other_constants
// CHECK: arith.constant 1 : i32
// CHECK: arith.constant dense<1> : tensor<2xindex>
func.func @other_constants() -> (i32, tensor<2xindex>) {
  %0 = arith.constant 1 : i32
  %1 = arith.constant dense<1> : tensor<2xindex>
  return %0, %1 : i32, tensor<2xindex>
}

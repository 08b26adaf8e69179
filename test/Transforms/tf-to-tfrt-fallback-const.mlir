// RUN: fallback-opt %s --tf-to-tfrt-fallback --split-input-file | FileCheck %s

// tf.Const becomes tfrt_fallback.constant; its dtype, device and
// bookkeeping attributes are dropped (the value carries the type).

// CHECK-LABEL: func @consts
// CHECK: %[[A:.*]] = tfrt_fallback.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: %[[B:.*]] = tfrt_fallback.constant dense<7> : tensor<2x3xi64>
// CHECK: %[[C:.*]] = tfrt_fallback.constant dense<true> : tensor<i1>
// CHECK: %[[D:.*]] = tfrt_fallback.constant dense<"hello"> : tensor<!tf_type.string>
// CHECK: %[[E:.*]] = tfrt_fallback.constant dense<(1.000000e+00,-1.000000e+00)> : tensor<complex<f32>>
// CHECK: %[[F:.*]] = tfrt_fallback.constant dense<[0, 255]> : tensor<2xui8>
// CHECK-NOT: tf.Const
// CHECK: return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]]
func.func @consts() -> (tensor<2xf32>, tensor<2x3xi64>, tensor<i1>, tensor<!tf_type.string>, tensor<complex<f32>>, tensor<2xui8>) {
  %0 = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %1 = "tf.Const"() {value = dense<7> : tensor<2x3xi64>, dtype = i64, device = "/device:CPU:0"} : () -> tensor<2x3xi64>
  %2 = "tf.Const"() {value = dense<true> : tensor<i1>, dtype = i1, _output_shapes = [#tf_type.shape<>]} : () -> tensor<i1>
  %3 = "tf.Const"() {value = dense<"hello"> : tensor<!tf_type.string>, dtype = !tf_type.string} : () -> tensor<!tf_type.string>
  %4 = "tf.Const"() {value = dense<(1.0, -1.0)> : tensor<complex<f32>>, dtype = complex<f32>} : () -> tensor<complex<f32>>
  %5 = "tf.Const"() {value = dense<[0, 255]> : tensor<2xui8>, dtype = ui8} : () -> tensor<2xui8>
  return %0, %1, %2, %3, %4, %5 : tensor<2xf32>, tensor<2x3xi64>, tensor<i1>, tensor<!tf_type.string>, tensor<complex<f32>>, tensor<2xui8>
}

// -----

// A constant used by a kernel call.
// CHECK-LABEL: func @const_operand
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK: %[[CST:.*]] = tfrt_fallback.constant dense<1.000000e+00> : tensor<2xf32>
// CHECK: tfrt_fallback.kernel_call "AddV2"(%[[X]], %[[CST]]) {T = f32}
func.func @const_operand(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = "tf.Const"() {value = dense<1.0> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %0 = "tf.AddV2"(%x, %c) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A dense_resource constant stays a dense_resource.
// CHECK-LABEL: func @resource_const
// CHECK: tfrt_fallback.constant dense_resource<w> : tensor<2xf32>
// CHECK: w: "0x040000000000803F00000040"
func.func @resource_const() -> tensor<2xf32> {
  %0 = "tf.Const"() {value = dense_resource<w> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// tf.Const is pure: it never starts a chain.
// CHECK-LABEL: func @const_no_chain
// CHECK-NOT: new_chain
// CHECK: tfrt_fallback.constant
func.func @const_no_chain() -> tensor<f32> {
  %0 = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  return %0 : tensor<f32>
}

// RUN: fallback-opt %s --tf-promote-to-f64 --split-input-file | FileCheck %s

// Every f32 tensor becomes f64: values, type attributes, constants (the
// values converted exactly); a public function keeps its f32 arguments and
// casts them first, and returns f64.
// CHECK-LABEL: func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[I:.*]]: tensor<2xi32>) -> (tensor<2xf64>, tensor<2xi32>)
// CHECK: %[[C:.*]] = "tf.Cast"(%[[X]]) {DstT = f64, SrcT = f32, Truncate = false} : (tensor<2xf32>) -> tensor<2xf64>
// CHECK: "tf.Const"() {value = dense<0.10000000149011612> : tensor<2xf64>}
// CHECK: "tf.AddV2"(%[[C]], %{{.*}}) {T = f64} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
// CHECK: "tf.Cast"(%[[I]]) {DstT = f64, SrcT = i32, Truncate = false} : (tensor<2xi32>) -> tensor<2xf64>
// CHECK: call @helper(%{{.*}}) : (tensor<2xf64>) -> tensor<2xf64>
// CHECK: return %{{.*}}, %[[I]] : tensor<2xf64>, tensor<2xi32>
func.func @main(%x: tensor<2xf32>, %i: tensor<2xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
  %c = "tf.Const"() {value = dense<0.1> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.AddV2"(%x, %c) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Cast"(%i) {SrcT = i32, DstT = f32, Truncate = false} : (tensor<2xi32>) -> tensor<2xf32>
  %2 = "tf.Mul"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = func.call @helper(%2) : (tensor<2xf32>) -> tensor<2xf32>
  return %3, %i : tensor<2xf32>, tensor<2xi32>
}
// A private function changes its signature.
// CHECK-LABEL: func private @helper
// CHECK-SAME: (%{{.*}}: tensor<2xf64>) -> tensor<2xf64>
// CHECK: "tf.Neg"(%{{.*}}) : (tensor<2xf64>) -> tensor<2xf64>
func.func private @helper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// An output the OpDef fixes as float32 (ResizeBilinear's) stays f32 and is
// cast for its users; lists of types, dense_resource weights and unranked
// tensors are promoted too.
// CHECK-LABEL: func @fixed_and_lists
// CHECK: %[[R:.*]] = "tf.ResizeBilinear"(%{{.*}}, %{{.*}}) {T = f64, half_pixel_centers = true} : (tensor<1x2x2x1xf64>, tensor<2xi32>) -> tensor<*xf32>
// CHECK: %[[RC:.*]] = "tf.Cast"(%[[R]]) {DstT = f64, SrcT = f32, Truncate = false} : (tensor<*xf32>) -> tensor<*xf64>
// CHECK: "tf.Const"() {value = dense<[1.500000e+00, -2.000000e+00]> : tensor<2xf64>}
// CHECK: "tf.IdentityN"(%[[RC]], %{{.*}}) {T = [f64, i32]}
func.func @fixed_and_lists(%x: tensor<1x2x2x1xf32>, %n: tensor<i32>) -> (tensor<*xf32>, tensor<i32>, tensor<2xf32>) {
  %size = "tf.Const"() {value = dense<[4, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.ResizeBilinear"(%x, %size) {T = f32, half_pixel_centers = true} : (tensor<1x2x2x1xf32>, tensor<2xi32>) -> tensor<*xf32>
  %w = "tf.Const"() {value = dense_resource<weights> : tensor<2xf32>} : () -> tensor<2xf32>
  %1:2 = "tf.IdentityN"(%0, %n) {T = [f32, i32]} : (tensor<*xf32>, tensor<i32>) -> (tensor<*xf32>, tensor<i32>)
  return %1#0, %1#1, %w : tensor<*xf32>, tensor<i32>, tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000C03F000000C0"
    }
  }
#-}

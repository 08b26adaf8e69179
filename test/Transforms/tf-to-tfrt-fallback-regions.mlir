// RUN: fallback-opt %s --tf-to-tfrt-fallback="native-ops=IfRegion,WhileRegion,Yield" --split-input-file | FileCheck %s

// Region-based control flow kept for a native kernel: the pure ops in its
// regions are lowered, without chains.

// CHECK-LABEL: func @if_region
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[X:.*]]: tensor<2xf32>)
// CHECK-NOT: new_chain
// CHECK: %[[IF:.*]] = "tf.IfRegion"(%[[P]]) ({
// CHECK:   %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]]) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK:   "tf.Yield"(%[[R]]) : (tensor<2xf32>) -> ()
// CHECK: }, {
// CHECK:   %[[CST:.*]] = tfrt_fallback.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK:   "tf.Yield"(%[[CST]]) : (tensor<2xf32>) -> ()
// CHECK: }) {is_stateless = true} : (tensor<i1>) -> tensor<2xf32>
// CHECK: return %[[IF]]
func.func @if_region(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.IfRegion"(%p) ({
    %1 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "tf.Identity"(%1) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    "tf.NoOp"() : () -> ()
    "tf.Yield"(%2) : (tensor<2xf32>) -> ()
  }, {
    %3 = "tf.Const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
    "tf.Yield"(%3) : (tensor<2xf32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Nested control flow, with a pure private function called in a region.
func.func private @step(%x: tensor<i32>) -> tensor<i32> {
  %c = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.AddV2"(%x, %c) {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func @while_region
// CHECK: "tf.WhileRegion"
// CHECK:   tfrt_fallback.constant dense<10> : tensor<i32>
// CHECK:   tfrt_fallback.kernel_call "Less"
// CHECK:   "tf.Yield"
// CHECK:   "tf.IfRegion"
// CHECK:     call @step(%{{.*}}) : (tensor<i32>) -> tensor<i32>
// CHECK:     "tf.Yield"
// CHECK:     tfrt_fallback.kernel_call "Neg"
// CHECK:     "tf.Yield"
// CHECK-NOT: "tf.Less"
// CHECK-NOT: "tf.Neg"
func.func @while_region(%x: tensor<i32>, %p: tensor<i1>) -> tensor<i32> {
  %0 = "tf.WhileRegion"(%x) ({
  ^bb0(%a: tensor<i32>):
    %lim = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
    %lt = "tf.Less"(%a, %lim) {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%lt) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<i32>):
    %n = "tf.IfRegion"(%p) ({
      %s = func.call @step(%a) : (tensor<i32>) -> tensor<i32>
      "tf.Yield"(%s) : (tensor<i32>) -> ()
    }, {
      %m = "tf.Neg"(%a) {T = i32} : (tensor<i32>) -> tensor<i32>
      "tf.Yield"(%m) : (tensor<i32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
    "tf.Yield"(%n) : (tensor<i32>) -> ()
  }) {is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>) -> tensor<i32>
  return %0 : tensor<i32>
}

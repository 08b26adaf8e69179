// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file | FileCheck %s

// tf.NoOp does nothing and is removed; it neither becomes a kernel call nor
// starts a chain.

// CHECK-LABEL: func @noops
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NOT: NoOp
// CHECK-NOT: new_chain
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]])
// CHECK-NOT: NoOp
// CHECK: return %[[R]]
func.func @noops(%x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.NoOp"() : () -> ()
  "tf.NoOp"() {device = "/device:CPU:0", _class = ["loc:@x"]} : () -> ()
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  "tf.NoOp"() : () -> ()
  return %0 : tensor<2xf32>
}

// -----

// A function holding only a NoOp becomes empty.
// CHECK-LABEL: func @only_noop
// CHECK-NEXT: return
func.func @only_noop() {
  "tf.NoOp"() : () -> ()
  return
}

// -----

// A NoOp between stateful ops does not break their chain.
// CHECK-LABEL: func @noop_between_stateful
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[C1:.*]] = tfrt_fallback.kernel_call "Print"({{.*}}) chain(%[[C0]])
// CHECK-NOT: NoOp
// CHECK: tfrt_fallback.kernel_call "Print"({{.*}}) chain(%[[C1]])
func.func @noop_between_stateful(%x: tensor<2xf32>) {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  "tf.NoOp"() : () -> ()
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return
}

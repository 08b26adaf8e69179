// RUN: fallback-opt %s --tf-to-tfrt-fallback="allow-unsupported native-ops=MatMul,Print" --split-input-file | FileCheck %s
// RUN: fallback-opt %s --tf-to-tfrt-fallback="allow-unsupported native-ops=MatMul native-ops=Print" --split-input-file | FileCheck %s

// Ops listed in native-ops stay tf ops, untouched (device and `_` attributes
// included), for a native lowering; the others are lowered as usual.

// CHECK-LABEL: func @native
// CHECK-SAME: (%[[X:.*]]: tensor<2x2xf32>)
// CHECK: %[[MM:.*]] = "tf.MatMul"(%[[X]], %[[X]]) {T = f32, _output_shapes = [#tf_type.shape<2x2>], device = "/device:CPU:0", transpose_a = false, transpose_b = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[MM]]) {T = f32}
// CHECK: return %[[R]]
func.func @native(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "tf.MatMul"(%x, %x) {T = f32, transpose_a = false, transpose_b = false, device = "/device:CPU:0", _output_shapes = [#tf_type.shape<2x2>]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = "tf.Relu"(%0) {T = f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}

// -----

// A native stateful op takes no chain; the other stateful ops still do.
// CHECK-LABEL: func @native_stateful
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[S:.*]]: tensor<2xi32>)
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: "tf.Print"(%[[X]]) {T = f32} : (tensor<2xf32>) -> ()
// CHECK: tfrt_fallback.kernel_call "RandomUniform"(%[[S]]) chain(%[[C0]])
func.func @native_stateful(%x: tensor<2xf32>, %s: tensor<2xi32>) -> tensor<2xf32> {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Only native ops: no chain is made.
// CHECK-LABEL: func @only_native
// CHECK-NOT: new_chain
// CHECK: "tf.Print"
func.func @only_native(%x: tensor<2xf32>) {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return
}

// -----

// A native op may have operands and attributes that a kernel call could not
// take.
// CHECK-LABEL: func @native_anything
// CHECK: "tf.MatMul"(%{{.*}}, %{{.*}}) {config = {a = 1 : i64}} : (tensor<2xindex>, i32) -> tensor<2xindex>
func.func @native_anything(%x: tensor<2xindex>, %y: i32) -> tensor<2xindex> {
  %0 = "tf.MatMul"(%x, %y) {config = {a = 1 : i64}} : (tensor<2xindex>, i32) -> tensor<2xindex>
  return %0 : tensor<2xindex>
}

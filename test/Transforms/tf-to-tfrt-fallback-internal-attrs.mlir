// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported | FileCheck %s

// TF's bookkeeping attributes, whose names start with `_`, are dropped: they
// are no op attributes and the kernel does not expect them.

// CHECK-LABEL: func @internal_attrs
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
func.func @internal_attrs(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfrt_fallback.kernel_call "Relu"(%[[X]]) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %0 = "tf.Relu"(%x) {T = f32, _output_shapes = [#tf_type.shape<2>], _class = ["loc:@x"], _xla_compile_device_type = "CPU", _user_specified_name = "x", __inference = true} : (tensor<2xf32>) -> tensor<2xf32>
  // Dropping happens even for attributes TF could not express.
  // CHECK: tfrt_fallback.kernel_call "Relu"(%{{.*}}) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Relu"(%0) {T = f32, _meta = {a = 1 : i64}, _flag} : (tensor<2xf32>) -> tensor<2xf32>
  // An op whose only attributes are internal gets no op_attrs.
  // CHECK: tfrt_fallback.kernel_call "MyCustomOp"(%{{.*}}) chain(%{{.*}}) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.MyCustomOp"(%1) {_output_shapes = [#tf_type.shape<*>]} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK-NOT: _output_shapes
  // CHECK-NOT: _class
  return %2 : tensor<2xf32>
}

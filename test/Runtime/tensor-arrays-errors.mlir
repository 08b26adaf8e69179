// TensorArray errors are values naming the op, its location and the array:
// a second read of an element cleared by the first, a write past the end
// inside a loop (the error ends the loop and becomes its results), an op on
// a closed array, and a read of an element never written whose shape is
// unknown. Messages are TensorFlow's.
// RUN: not fallback-run %s --entry=read_twice --threads=1 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: error: result #0: TensorArrayReadV3 '{{.*}}tensor-arrays-errors.mlir:{{[0-9]+}}:{{[0-9]+}}': TensorArray ta: Could not read index 0 twice because it was cleared after a previous read (perhaps try setting clear_after_read = false?).
// RUN: not fallback-run %s --entry=write_past_end --threads=1 2>&1 | FileCheck %s --check-prefix=END
// RUN: not fallback-run %s --entry=write_past_end --threads=2 2>&1 | FileCheck %s --check-prefix=END
// END: error: result #0: TensorArrayWriteV3 '{{.*}}tensor-arrays-errors.mlir:{{[0-9]+}}:{{[0-9]+}}': TensorArray out: Tried to write to index 2 but array is not resizeable and size is: 2
// RUN: not fallback-run %s --entry=closed --threads=1 2>&1 | FileCheck %s --check-prefix=CLOSED
// CLOSED: error: result #0: TensorArraySizeV3 '{{.*}}': TensorArray ta has already been closed.
// RUN: not fallback-run %s --entry=unwritten --threads=1 2>&1 | FileCheck %s --check-prefix=UNWRITTEN
// UNWRITTEN: error: result #0: TensorArrayReadV3 '{{.*}}': TensorArray ta: Could not read from TensorArray index 1.  Furthermore, the element shape is not fully defined: <unknown rank>.

func.func @read_twice() -> tensor<*xf32> {
  %n = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%n) {dtype = f32, tensor_array_name = "ta"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  %i = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %v = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %w = "tf.TensorArrayWriteV3"(%ta#0, %i, %v, %ta#1) {T = f32} : (tensor<!tf_type.resource>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %r0 = "tf.TensorArrayReadV3"(%ta#0, %i, %w) {dtype = f32} : (tensor<!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<*xf32>
  %r1 = "tf.TensorArrayReadV3"(%ta#0, %i, %w) {dtype = f32} : (tensor<!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<*xf32>
  return %r1 : tensor<*xf32>
}

func.func private @below_three(%i: tensor<i32>, %flow: tensor<f32>, %out: tensor<!tf_type.resource>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @write_i(%i: tensor<i32>, %flow: tensor<f32>, %out: tensor<!tf_type.resource>) -> (tensor<i32>, tensor<f32>, tensor<!tf_type.resource>) {
  %fi = "tf.Cast"(%i) {SrcT = i32, DstT = f32} : (tensor<i32>) -> tensor<f32>
  %next = "tf.TensorArrayWriteV3"(%out, %i, %fi, %flow) {T = f32} : (tensor<!tf_type.resource>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<f32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %next, %out : tensor<i32>, tensor<f32>, tensor<!tf_type.resource>
}
func.func @write_past_end() -> tensor<*xf32> {
  %n = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%n) {dtype = f32, tensor_array_name = "out"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %loop:3 = "tf.While"(%zero, %ta#1, %ta#0) {cond = @below_three, body = @write_i, is_stateless = false} : (tensor<i32>, tensor<f32>, tensor<!tf_type.resource>) -> (tensor<i32>, tensor<f32>, tensor<!tf_type.resource>)
  %all = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %g = "tf.TensorArrayGatherV3"(%ta#0, %all, %loop#1) {dtype = f32} : (tensor<!tf_type.resource>, tensor<2xi32>, tensor<f32>) -> tensor<*xf32>
  return %g : tensor<*xf32>
}

func.func @closed() -> tensor<i32> {
  %n = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%n) {dtype = f32, tensor_array_name = "ta"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  "tf.TensorArrayCloseV3"(%ta#0) : (tensor<!tf_type.resource>) -> ()
  %size = "tf.TensorArraySizeV3"(%ta#0, %ta#1) : (tensor<!tf_type.resource>, tensor<f32>) -> tensor<i32>
  return %size : tensor<i32>
}

func.func @unwritten() -> tensor<*xf32> {
  %n = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %ta:2 = "tf.TensorArrayV3"(%n) {dtype = f32, tensor_array_name = "ta"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  %i = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %r = "tf.TensorArrayReadV3"(%ta#0, %i, %ta#1) {dtype = f32} : (tensor<!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<*xf32>
  return %r : tensor<*xf32>
}

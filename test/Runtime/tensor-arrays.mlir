// TensorArrays as tf.map_fn writes them: the rows of x are scattered into
// one array, a tf.While reads row i, computes 2 * row + i and writes it to a
// second array, and the result is gathered back. The handles cross the loop
// as loop-invariant values, the flow of the written array as a loop
// variable and that of the read one as an invariant, as TF1 writes them; the
// stateful TensorArray ops put a chain through the loop. Then a split and a
// concat. Each run makes its own arrays (a second run would otherwise find
// the elements written): run several times. Hand-derived from
// x = [[1, 2, 3], [4, 5, 6]]: [[2, 4, 6], [9, 11, 13]], size 2; the split of
// x's six values into lengths [2, 4] concatenates back to them.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy --threads=1 --benchmark=2 | FileCheck %s
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy --threads=2 --benchmark=2 | FileCheck %s
// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}2., 4., 6.],
// CHECK-NEXT: [9., 11., 13.]]
// CHECK: result #1: tensor<i32>
// CHECK-NEXT: 2
// CHECK: result #2: tensor<6xf32>
// CHECK-NEXT: {{\[}}1., 2., 3., 4., 5., 6.]
// CHECK: result #3: tensor<2xi64>
// CHECK-NEXT: {{\[}}2, 4]

// The loop is ordered: its body takes and returns the chain.
// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=LOWERED
// LOWERED: func.func private @body(%{{.*}}: !tfrt_fallback.chain, {{.*}}!tfrt_fallback.chain)
// LOWERED: tfrt_fallback.while

func.func private @cond(%i: tensor<i32>, %flow: tensor<f32>, %in: tensor<!tf_type.resource>, %in_flow: tensor<f32>, %out: tensor<!tf_type.resource>, %n: tensor<i32>) -> tensor<i1> {
  %lt = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}

func.func private @body(%i: tensor<i32>, %flow: tensor<f32>, %in: tensor<!tf_type.resource>, %in_flow: tensor<f32>, %out: tensor<!tf_type.resource>, %n: tensor<i32>) -> (tensor<i32>, tensor<f32>, tensor<!tf_type.resource>, tensor<f32>, tensor<!tf_type.resource>, tensor<i32>) {
  %row = "tf.TensorArrayReadV3"(%in, %i, %in_flow) {dtype = f32} : (tensor<!tf_type.resource>, tensor<i32>, tensor<f32>) -> tensor<*xf32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %doubled = "tf.Mul"(%row, %two) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %fi = "tf.Cast"(%i) {SrcT = i32, DstT = f32} : (tensor<i32>) -> tensor<f32>
  %value = "tf.AddV2"(%doubled, %fi) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %next_flow = "tf.TensorArrayWriteV3"(%out, %i, %value, %flow) {T = f32} : (tensor<!tf_type.resource>, tensor<i32>, tensor<*xf32>, tensor<f32>) -> tensor<f32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %next_flow, %in, %in_flow, %out, %n : tensor<i32>, tensor<f32>, tensor<!tf_type.resource>, tensor<f32>, tensor<!tf_type.resource>, tensor<i32>
}

func.func @main(%x: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<i32>, tensor<*xf32>, tensor<*xi64>) {
  %n = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %in:2 = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<*>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = ""} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  %rows = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %scattered = "tf.TensorArrayScatterV3"(%in#0, %rows, %x, %in#1) {T = f32} : (tensor<!tf_type.resource>, tensor<2xi32>, tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  %out:2 = "tf.TensorArrayV3"(%n) {dtype = f32, element_shape = #tf_type.shape<3>, dynamic_size = false, clear_after_read = true, identical_element_shapes = true, tensor_array_name = "out"} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %loop:6 = "tf.While"(%zero, %out#1, %in#0, %scattered, %out#0, %n) {cond = @cond, body = @body, is_stateless = false} : (tensor<i32>, tensor<f32>, tensor<!tf_type.resource>, tensor<f32>, tensor<!tf_type.resource>, tensor<i32>) -> (tensor<i32>, tensor<f32>, tensor<!tf_type.resource>, tensor<f32>, tensor<!tf_type.resource>, tensor<i32>)
  %size = "tf.TensorArraySizeV3"(%out#0, %loop#1) : (tensor<!tf_type.resource>, tensor<f32>) -> tensor<i32>
  %start = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %step = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %indices = "tf.Range"(%start, %size, %step) {Tidx = i32} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  %stacked = "tf.TensorArrayGatherV3"(%out#0, %indices, %loop#1) {dtype = f32, element_shape = #tf_type.shape<3>} : (tensor<!tf_type.resource>, tensor<*xi32>, tensor<f32>) -> tensor<*xf32>

  %pieces:2 = "tf.TensorArrayV3"(%n) {dtype = f32} : (tensor<i32>) -> (tensor<!tf_type.resource>, tensor<f32>)
  %shape = "tf.Const"() {value = dense<[6]> : tensor<1xi32>} : () -> tensor<1xi32>
  %flat = "tf.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<6xf32>
  %lengths = "tf.Const"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %split = "tf.TensorArraySplitV3"(%pieces#0, %flat, %lengths, %pieces#1) {T = f32} : (tensor<!tf_type.resource>, tensor<6xf32>, tensor<2xi64>, tensor<f32>) -> tensor<f32>
  %joined:2 = "tf.TensorArrayConcatV3"(%pieces#0, %split) {dtype = f32} : (tensor<!tf_type.resource>, tensor<f32>) -> (tensor<*xf32>, tensor<*xi64>)
  "tf.TensorArrayCloseV3"(%pieces#0) : (tensor<!tf_type.resource>) -> ()
  return %stacked, %size, %joined#0, %joined#1 : tensor<*xf32>, tensor<i32>, tensor<*xf32>, tensor<*xi64>
}

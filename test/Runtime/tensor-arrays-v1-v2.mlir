// The deprecated TensorArray ops, whose handle is a string vector: V2 ops
// as tensor-arrays.mlir runs the V3 ones (x's rows unpacked into one array
// with V1's TensorArrayUnpack, a tf.While reads row i, computes 2 * row + i
// and writes it to a TensorArrayV2, gathered back), then a V1 array split
// and concatenated, and one written and packed. The string handles cross
// the loop as loop-invariant values; the stateful ops put a chain through
// it. From the .mlir and through a .bef, on one thread and two.
// Hand-derived from x = [[1, 2, 3], [4, 5, 6]]: [[2, 4, 6], [9, 11, 13]],
// size 2; x's six values split into lengths [2, 4] concatenate back to
// them; elements [7, 8] and [9, 10] written at 1 and 0 pack to
// [[9, 10], [7, 8]].
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
// CHECK: result #4: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}9., 10.],
// CHECK-NEXT: [7., 8.]]

func.func private @cond(%i: tensor<i32>, %flow: tensor<f32>, %in: tensor<2x!tf_type.string>, %in_flow: tensor<f32>, %out: tensor<2x!tf_type.string>, %n: tensor<i32>) -> tensor<i1> {
  %lt = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}

func.func private @body(%i: tensor<i32>, %flow: tensor<f32>, %in: tensor<2x!tf_type.string>, %in_flow: tensor<f32>, %out: tensor<2x!tf_type.string>, %n: tensor<i32>) -> (tensor<i32>, tensor<f32>, tensor<2x!tf_type.string>, tensor<f32>, tensor<2x!tf_type.string>, tensor<i32>) {
  %row = "tf.TensorArrayReadV2"(%in, %i, %in_flow) {dtype = f32} : (tensor<2x!tf_type.string>, tensor<i32>, tensor<f32>) -> tensor<*xf32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %doubled = "tf.Mul"(%row, %two) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %fi = "tf.Cast"(%i) {SrcT = i32, DstT = f32} : (tensor<i32>) -> tensor<f32>
  %value = "tf.AddV2"(%doubled, %fi) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %next_flow = "tf.TensorArrayWriteV2"(%out, %i, %value, %flow) {T = f32} : (tensor<2x!tf_type.string>, tensor<i32>, tensor<*xf32>, tensor<f32>) -> tensor<f32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %next_flow, %in, %in_flow, %out, %n : tensor<i32>, tensor<f32>, tensor<2x!tf_type.string>, tensor<f32>, tensor<2x!tf_type.string>, tensor<i32>
}

func.func @main(%x: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<i32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>) {
  %n = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %flow0 = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %in = "tf.TensorArray"(%n) {dtype = f32, dynamic_size = false, clear_after_read = true, tensor_array_name = "in", element_shape = #tf_type.shape<*>} : (tensor<i32>) -> tensor<2x!tf_type.stringref>
  %unpacked = "tf.TensorArrayUnpack"(%in, %x, %flow0) {T = f32} : (tensor<2x!tf_type.stringref>, tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  %in_value = "tf.Identity"(%in) : (tensor<2x!tf_type.stringref>) -> tensor<2x!tf_type.string>
  %out = "tf.TensorArrayV2"(%n) {dtype = f32, element_shape = #tf_type.shape<3>, dynamic_size = false, clear_after_read = true, tensor_array_name = "out"} : (tensor<i32>) -> tensor<2x!tf_type.string>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %loop:6 = "tf.While"(%zero, %flow0, %in_value, %unpacked, %out, %n) {cond = @cond, body = @body, is_stateless = false} : (tensor<i32>, tensor<f32>, tensor<2x!tf_type.string>, tensor<f32>, tensor<2x!tf_type.string>, tensor<i32>) -> (tensor<i32>, tensor<f32>, tensor<2x!tf_type.string>, tensor<f32>, tensor<2x!tf_type.string>, tensor<i32>)
  %size = "tf.TensorArraySizeV2"(%out, %loop#1) : (tensor<2x!tf_type.string>, tensor<f32>) -> tensor<i32>
  %start = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %step = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %indices = "tf.Range"(%start, %size, %step) {Tidx = i32} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  %stacked = "tf.TensorArrayGatherV2"(%out, %indices, %loop#1) {dtype = f32, element_shape = #tf_type.shape<3>} : (tensor<2x!tf_type.string>, tensor<*xi32>, tensor<f32>) -> tensor<*xf32>
  "tf.TensorArrayCloseV2"(%out) : (tensor<2x!tf_type.string>) -> ()

  %pieces = "tf.TensorArray"(%n) {dtype = f32} : (tensor<i32>) -> tensor<2x!tf_type.stringref>
  %shape = "tf.Const"() {value = dense<[6]> : tensor<1xi32>} : () -> tensor<1xi32>
  %flat = "tf.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<6xf32>
  %lengths = "tf.Const"() {value = dense<[2, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %split = "tf.TensorArraySplit"(%pieces, %flat, %lengths, %flow0) {T = f32} : (tensor<2x!tf_type.stringref>, tensor<6xf32>, tensor<2xi64>, tensor<f32>) -> tensor<f32>
  %joined:2 = "tf.TensorArrayConcat"(%pieces, %split) {dtype = f32} : (tensor<2x!tf_type.stringref>, tensor<f32>) -> (tensor<*xf32>, tensor<*xi64>)
  "tf.TensorArrayClose"(%pieces) : (tensor<2x!tf_type.stringref>) -> ()

  %pairs = "tf.TensorArrayV2"(%n) {dtype = f32} : (tensor<i32>) -> tensor<2x!tf_type.string>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %a = "tf.Const"() {value = dense<[7.0, 8.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "tf.Const"() {value = dense<[9.0, 10.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %w1 = "tf.TensorArrayWrite"(%pairs, %one, %a, %flow0) {T = f32} : (tensor<2x!tf_type.string>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %w0 = "tf.TensorArrayWrite"(%pairs, %zero, %b, %w1) {T = f32} : (tensor<2x!tf_type.string>, tensor<i32>, tensor<2xf32>, tensor<f32>) -> tensor<f32>
  %packed = "tf.TensorArrayPack"(%pairs, %w0) {dtype = f32} : (tensor<2x!tf_type.string>, tensor<f32>) -> tensor<*xf32>
  return %stacked, %size, %joined#0, %joined#1, %packed : tensor<*xf32>, tensor<i32>, tensor<*xf32>, tensor<*xi64>, tensor<*xf32>
}

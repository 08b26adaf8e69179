// String tensors end to end, in a program as TensorFlow prints it (a
// tf_executor graph, no derived attributes, arith.constant): string
// constants, string inputs from .npy (NumPy's '|S' bytes), and the kernels
// that move strings.
// RUN: fallback-run %s --input=%S/Inputs/str_2x2.npy --input=%S/Inputs/str_3.npy --threads=1 --output-dir=%t | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/str_2x2.npy --input=%S/Inputs/str_3.npy --threads=2 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/str_2x2.npy --input=%S/Inputs/str_3.npy --threads=1 | FileCheck %s
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/str_2x2.npy --input=%S/Inputs/str_3.npy --threads=1 | FileCheck %s
// String results are written as '|S' arrays as wide as their longest
// element, which read back as the same strings.
// RUN: head -c 128 %t/output_1.npy | FileCheck %s --check-prefix=NPY
// RUN: fallback-run %s --input=%t/output_9.npy --input=%S/Inputs/str_3.npy --threads=1 2>&1 | FileCheck %s --check-prefix=REREAD

// str_2x2.npy is [[b'hello', b'a'], [b'', b'tf']], str_3.npy [b'ab', b'cde', b'f'].
// CHECK: result #0: tensor<2xi32>
// CHECK-NEXT: [2, 2]
// CHECK: result #1: tensor<9x!tf_type.string>
// CHECK-NEXT: [b'hello', b'a', b'', b'tf', b'ab', b'cde', b'f', b'x', b'y"z']
// CHECK: result #2: tensor<3x!tf_type.string>
// CHECK-NEXT: [b'y"z', b'hello', b'tf']
// CHECK: result #3: tensor<3x!tf_type.string>
// CHECK-NEXT: [b'ab', b'cde', b'f']
// CHECK: result #4: tensor<1x2x!tf_type.string>
// CHECK-NEXT: {{\[\[}}b'x', b'y"z']]
// CHECK: result #5: tensor<2x2x!tf_type.string>
// CHECK-NEXT: {{\[\[}}b'x', b'x'],
// CHECK-NEXT: [b'y"z', b'y"z']]
// CHECK: result #6: tensor<3x!tf_type.string>
// CHECK-NEXT: [b'a', b'ab', b'x']
// CHECK: result #7: tensor<2x!tf_type.string>
// CHECK-NEXT: [b"it's", b"it's"]
// CHECK: result #8: tensor<2x!tf_type.string>
// CHECK-NEXT: [b'x', b'y"z']
// CHECK: result #9: tensor<2x2x!tf_type.string>
// CHECK-NEXT: {{\[\[}}b'tf', b''],
// CHECK-NEXT: [b'a', b'hello']]

// NPY: {'descr': '|S5', 'fortran_order': False, 'shape': (9,), }

// The reversed 2x2 slice written by the first run, read as input 0, is
// reversed back.
// REREAD: result #0: tensor<2xi32>
// REREAD-NEXT: [2, 2]
// REREAD: result #9: tensor<2x2x!tf_type.string>
// REREAD-NEXT: {{\[\[}}b'hello', b'a'],
// REREAD-NEXT: [b'', b'tf']]
func.func @main(%arg0: tensor<2x2x!tf_type.string>, %arg1: tensor<3x!tf_type.string>) -> (tensor<2xi32>, tensor<9x!tf_type.string>, tensor<3x!tf_type.string>, tensor<3x!tf_type.string>, tensor<1x2x!tf_type.string>, tensor<2x2x!tf_type.string>, tensor<3x!tf_type.string>, tensor<2x!tf_type.string>, tensor<2x!tf_type.string>, tensor<2x2x!tf_type.string>) {
  %0:10 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Const"() {device = "", value = dense<["x", "y\22z"]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<4> : tensor<1xi32>} : () -> tensor<1xi32>
    %outputs_2, %control_3 = tf_executor.island wraps "tf.Reshape"(%arg0, %outputs_0) {device = ""} : (tensor<2x2x!tf_type.string>, tensor<1xi32>) -> tensor<4x!tf_type.string>
    %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %outputs_6, %control_7 = tf_executor.island wraps "tf.ConcatV2"(%outputs_2, %arg1, %outputs, %outputs_4) {device = ""} : (tensor<4x!tf_type.string>, tensor<3x!tf_type.string>, tensor<2x!tf_type.string>, tensor<i32>) -> tensor<9x!tf_type.string>
    %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<[8, 0, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
    %outputs_10, %control_11 = tf_executor.island wraps "tf.GatherV2"(%outputs_6, %outputs_8, %outputs_4) {batch_dims = 0 : i64, device = ""} : (tensor<9x!tf_type.string>, tensor<3xi64>, tensor<i32>) -> tensor<3x!tf_type.string>
    %outputs_12, %control_13 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<2x2x!tf_type.string>) -> tensor<2xi32>
    %outputs_14, %control_15 = tf_executor.island wraps "tf.Identity"(%arg1) {device = ""} : (tensor<3x!tf_type.string>) -> tensor<3x!tf_type.string>
    %outputs_16, %control_17 = tf_executor.island wraps "tf.ExpandDims"(%outputs, %outputs_4) {device = ""} : (tensor<2x!tf_type.string>, tensor<i32>) -> tensor<1x2x!tf_type.string>
    %outputs_18, %control_19 = tf_executor.island wraps "tf.Pack"(%outputs, %outputs) {axis = 1 : i64, device = ""} : (tensor<2x!tf_type.string>, tensor<2x!tf_type.string>) -> tensor<2x2x!tf_type.string>
    %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
    %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<9> : tensor<1xi32>} : () -> tensor<1xi32>
    %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<3> : tensor<1xi32>} : () -> tensor<1xi32>
    %outputs_26, %control_27 = tf_executor.island wraps "tf.StridedSlice"(%outputs_6, %outputs_20, %outputs_22, %outputs_24) {begin_mask = 0 : i64, device = "", ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<9x!tf_type.string>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3x!tf_type.string>
    %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
    %outputs_30, %control_31 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<"it's"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
    %outputs_32, %control_33 = tf_executor.island wraps "tf.Fill"(%outputs_28, %outputs_30) {device = ""} : (tensor<1xi32>, tensor<!tf_type.string>) -> tensor<2x!tf_type.string>
    %outputs_34, %control_35 = tf_executor.island wraps "tf.Squeeze"(%outputs_16) {device = "", squeeze_dims = [0]} : (tensor<1x2x!tf_type.string>) -> tensor<2x!tf_type.string>
    %outputs_36, %control_37 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<-1> : tensor<2xi32>} : () -> tensor<2xi32>
    %outputs_38, %control_39 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<[-3, -3]> : tensor<2xi32>} : () -> tensor<2xi32>
    %outputs_40, %control_41 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_36, %outputs_38, %outputs_36) {begin_mask = 0 : i64, device = "", ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<2x2x!tf_type.string>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2x!tf_type.string>
    tf_executor.fetch %outputs_12, %outputs_6, %outputs_10, %outputs_14, %outputs_16, %outputs_18, %outputs_26, %outputs_32, %outputs_34, %outputs_40 : tensor<2xi32>, tensor<9x!tf_type.string>, tensor<3x!tf_type.string>, tensor<3x!tf_type.string>, tensor<1x2x!tf_type.string>, tensor<2x2x!tf_type.string>, tensor<3x!tf_type.string>, tensor<2x!tf_type.string>, tensor<2x!tf_type.string>, tensor<2x2x!tf_type.string>
  }
  func.return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8, %0#9 : tensor<2xi32>, tensor<9x!tf_type.string>, tensor<3x!tf_type.string>, tensor<3x!tf_type.string>, tensor<1x2x!tf_type.string>, tensor<2x2x!tf_type.string>, tensor<3x!tf_type.string>, tensor<2x!tf_type.string>, tensor<2x!tf_type.string>, tensor<2x2x!tf_type.string>
}

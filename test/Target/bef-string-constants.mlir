// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-translate --bef-to-mlir %t.bef | FileCheck %s
// The disassembled program is a program again, with the same constants.
// RUN: fallback-translate --bef-to-mlir %t.bef | fallback-translate --mlir-to-bef -o %t2.bef
// RUN: fallback-translate --bef-to-mlir %t2.bef | FileCheck %s

// A TensorFlow program (the tf_executor form TF prints, no derived
// attributes) whose function takes tensor<4x2x!tf_type.string> (the
// disassembler of such programs once crashed) and holds string constants:
// they travel in the binary program (format 1.2) and come back unchanged,
// bytes TensorFlow strings may hold included.

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<4x2x!tf_type.string>) -> (tensor<8x!tf_type.string>, tensor<3x!tf_type.string>, tensor<2x2x!tf_type.string>)
// The GatherV2 of constants is folded at compile time
// (tfrt-fallback-fold-constants): ["", "a", "tab\09", "nul\00", "\FF\FE"] at
// [4, 3, 0].
// CHECK-DAG: tfrt_fallback.constant dense<["\FF\FE", "nul\00", ""]> : tensor<3x!tf_type.string>
// CHECK-DAG: tfrt_fallback.constant dense<{{\[\[}}"same", "tab\09"], ["a", "same"]]> : tensor<2x2x!tf_type.string>
// CHECK-DAG: tfrt_fallback.constant dense<8> : tensor<1xi32>
// CHECK: tfrt_fallback.kernel_call "Reshape"(%[[X]], %{{.*}}) {T = !tf_type.string, Tshape = i32} : (tensor<4x2x!tf_type.string>, tensor<1xi32>) -> tensor<8x!tf_type.string>
// CHECK-NOT: tfrt_fallback.kernel_call "GatherV2"
func.func @main(%arg0: tensor<4x2x!tf_type.string>) -> (tensor<8x!tf_type.string>, tensor<3x!tf_type.string>, tensor<2x2x!tf_type.string>) {
  %0:3 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Const"() {device = "", value = dense<8> : tensor<1xi32>} : () -> tensor<1xi32>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.Reshape"(%arg0, %outputs) {device = ""} : (tensor<4x2x!tf_type.string>, tensor<1xi32>) -> tensor<8x!tf_type.string>
    %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<["", "a", "tab\09", "nul\00", "\FF\FE"]> : tensor<5x!tf_type.string>} : () -> tensor<5x!tf_type.string>
    %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<[4, 3, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
    %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<0> : tensor<i32>} : () -> tensor<i32>
    %outputs_8, %control_9 = tf_executor.island wraps "tf.GatherV2"(%outputs_2, %outputs_4, %outputs_6) {batch_dims = 0 : i64, device = ""} : (tensor<5x!tf_type.string>, tensor<3xi32>, tensor<i32>) -> tensor<3x!tf_type.string>
    %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() {device = "", value = dense<[["same", "tab\09"], ["a", "same"]]> : tensor<2x2x!tf_type.string>} : () -> tensor<2x2x!tf_type.string>
    tf_executor.fetch %outputs_0, %outputs_8, %outputs_10 : tensor<8x!tf_type.string>, tensor<3x!tf_type.string>, tensor<2x2x!tf_type.string>
  }
  func.return %0#0, %0#1, %0#2 : tensor<8x!tf_type.string>, tensor<3x!tf_type.string>, tensor<2x2x!tf_type.string>
}

// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-translate --bef-to-mlir %t.bef | FileCheck %s

// String tensor types travel through the binary program and back (the
// disassembler once crashed on a dtype without an MLIR element type; the
// loader now rejects such codes, ProgramTest.RejectsDTypeCodesDTypesDefDoesNotList).

// CHECK-LABEL: func.func @main
// CHECK-SAME: (%[[X:.*]]: tensor<4x2x!tf_type.string>, %[[S:.*]]: tensor<2xi32>) -> (tensor<2x4x!tf_type.string>, tensor<*x!tf_type.string>)
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Reshape"(%[[X]], %[[S]]) {T = !tf_type.string, Tshape = i32} : (tensor<4x2x!tf_type.string>, tensor<2xi32>) -> tensor<2x4x!tf_type.string>
// CHECK: return %[[R]], %{{.*}} : tensor<2x4x!tf_type.string>, tensor<*x!tf_type.string>
func.func @main(%x: tensor<4x2x!tf_type.string>, %s: tensor<2xi32>) -> (tensor<2x4x!tf_type.string>, tensor<*x!tf_type.string>) {
  %0 = tfrt_fallback.kernel_call "Reshape"(%x, %s) {T = !tf_type.string, Tshape = i32} : (tensor<4x2x!tf_type.string>, tensor<2xi32>) -> tensor<2x4x!tf_type.string>
  %1 = tfrt_fallback.kernel_call "Identity"(%x) {T = !tf_type.string} : (tensor<4x2x!tf_type.string>) -> tensor<*x!tf_type.string>
  return %0, %1 : tensor<2x4x!tf_type.string>, tensor<*x!tf_type.string>
}

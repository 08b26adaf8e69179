// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Discardable attributes that are not TF attributes are written after the
// `attributes` keyword and kept apart from op_attrs.

// CHECK-LABEL: func @discardable
// GENERIC-LABEL: sym_name = "discardable"
func.func @discardable(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfrt_fallback.kernel_call "Relu"(%{{.*}}) {T = f32} attributes {_xla_cost = 3 : i64, note = "kept"} : (tensor<2xf32>) -> tensor<2xf32>
  // GENERIC: <{op_attrs = {T = f32}, op_name = "Relu", operandSegmentSizes = array<i32: 1, 0>, resultSegmentSizes = array<i32: 1, 0>}> {_xla_cost = 3 : i64, note = "kept"}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32} attributes {note = "kept", _xla_cost = 3 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @discardable_without_op_attrs
func.func @discardable_without_op_attrs(%x: tensor<2xf32>, %c: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  // CHECK: tfrt_fallback.kernel_call "Print"(%{{.*}}) chain(%{{.*}}) device("/device:CPU:0") attributes {tag} : (tensor<2xf32>) -> ()
  %c1 = tfrt_fallback.kernel_call "Print"(%x) chain(%c) device("/device:CPU:0") attributes {tag} : (tensor<2xf32>) -> ()
  return %c1 : !tfrt_fallback.chain
}

// Discardable attributes need not be TF-expressible: they are not passed to
// the kernel.
// CHECK-LABEL: func @discardable_any_kind
func.func @discardable_any_kind(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: attributes {meta = {nested = {{\[\[}}1]]}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32} attributes {meta = {nested = [[1]]}} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: fallback-translate --mlir-to-bef %s | fallback-translate --bef-to-mlir | FileCheck %s
// A function's memory plan survives the binary program (its memory-plan
// section, format 1.3) and comes back the same.

// CHECK-LABEL: func.func @main
// CHECK-SAME: attributes {tfrt_fallback.memory_plan = {arena_bytes = 192 : i64, offsets = array<i64: 0, 64>, sizes = array<i64: 32, 128>}}
// CHECK: "Exp"{{.*}} attributes {tfrt_fallback.buffers = array<i32: 0>}
// CHECK: "Unpack"{{.*}} attributes {tfrt_fallback.buffers = array<i32: -1, 1>}
// CHECK: "AddV2"
// CHECK-NOT: attributes
// CHECK: return
func.func @main(%x: tensor<8xf32>, %y: tensor<2x32xf32>) -> (tensor<8xf32>, tensor<32xf32>)
    attributes {tfrt_fallback.memory_plan = {arena_bytes = 192 : i64, offsets = array<i64: 0, 64>, sizes = array<i64: 32, 128>}} {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32} attributes {tfrt_fallback.buffers = array<i32: 0>} : (tensor<8xf32>) -> tensor<8xf32>
  %u:2 = tfrt_fallback.kernel_call "Unpack"(%y) {T = f32, axis = 0 : i64, num = 2 : i64} attributes {tfrt_fallback.buffers = array<i32: -1, 1>} : (tensor<2x32xf32>) -> (tensor<32xf32>, tensor<32xf32>)
  %b = tfrt_fallback.kernel_call "AddV2"(%a, %a) {T = f32} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %b, %u#0 : tensor<8xf32>, tensor<32xf32>
}

// CHECK-LABEL: func.func private @unplanned
// CHECK-NOT: tfrt_fallback.memory_plan
func.func private @unplanned(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32} : (tensor<8xf32>) -> tensor<8xf32>
  return %a : tensor<8xf32>
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported > %t.once.mlir
// RUN: fallback-opt %t.once.mlir --tf-to-tfrt-fallback=allow-unsupported > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s --input-file=%t.twice.mlir

// Lowering a lowered program changes nothing: kernel calls with chains are
// not tf ops, so no function gets a second chain and no new_chain is added.

// CHECK-LABEL: func private @effect
// CHECK-SAME: (%{{.*}}: !tfrt_fallback.chain, %{{.*}}: tensor<2xf32> {tf._user_specified_name = "x"}) -> (tensor<2xf32> {tf._result = 0 : i64}, !tfrt_fallback.chain)
func.func private @effect(%x: tensor<2xf32> {tf._user_specified_name = "x"}) -> (tensor<2xf32> {tf._result = 0 : i64}) {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return %x : tensor<2xf32>
}

// CHECK-LABEL: func @main
// CHECK-COUNT-1: tfrt_fallback.new_chain
// CHECK-NOT: tfrt_fallback.new_chain
// CHECK: call @effect
func.func @main(%x: tensor<2xf32>, %s: tensor<2xi32>) -> tensor<2xf32> {
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %1 = func.call @effect(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.Relu"(%1) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

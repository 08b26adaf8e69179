// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported | FileCheck %s

// Ops with several results become one kernel call with as many results.

// CHECK-LABEL: func @unpack
// CHECK-SAME: (%[[X:.*]]: tensor<3x2xf32>)
// CHECK: %[[R:.*]]:3 = tfrt_fallback.kernel_call "Unpack"(%[[X]]) {T = f32, axis = 0 : i64, num = 3 : i64} : (tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
// CHECK: return %[[R]]#2, %[[R]]#0
func.func @unpack(%x: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0:3 = "tf.Unpack"(%x) {T = f32, axis = 0 : i64, num = 3 : i64} : (tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %0#2, %0#0 : tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func @split
// CHECK-SAME: (%[[X:.*]]: tensor<4x6xf32>)
// CHECK: %[[DIM:.*]] = tfrt_fallback.constant dense<1> : tensor<i32>
// CHECK: %[[R:.*]]:4 = tfrt_fallback.kernel_call "Split"(%[[DIM]], %[[X]]) {T = f32, num_split = 4 : i64} : (tensor<i32>, tensor<4x6xf32>) -> (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x?xf32>, tensor<*xf32>)
// CHECK: %[[SUM:.*]] = tfrt_fallback.kernel_call "AddN"(%[[R]]#0, %[[R]]#1, %[[R]]#2) {N = 3 : i64, T = f32}
// CHECK: return %[[SUM]], %[[R]]#3
func.func @split(%x: tensor<4x6xf32>) -> (tensor<4x?xf32>, tensor<*xf32>) {
  %dim = "tf.Const"() {value = dense<1> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %0:4 = "tf.Split"(%dim, %x) {T = f32, num_split = 4 : i64} : (tensor<i32>, tensor<4x6xf32>) -> (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x?xf32>, tensor<*xf32>)
  %1 = "tf.AddN"(%0#0, %0#1, %0#2) {N = 3 : i64, T = f32} : (tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x?xf32>) -> tensor<4x?xf32>
  return %1, %0#3 : tensor<4x?xf32>, tensor<*xf32>
}

// Results of different dtypes.
// CHECK-LABEL: func @top_k
// CHECK-SAME: (%[[X:.*]]: tensor<5xf32>, %[[K:.*]]: tensor<i32>)
// CHECK: %[[R:.*]]:2 = tfrt_fallback.kernel_call "TopKV2"(%[[X]], %[[K]]) {T = f32, Tk = i32, index_type = i32, sorted = true} : (tensor<5xf32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @top_k(%x: tensor<5xf32>, %k: tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>) {
  %0:2 = "tf.TopKV2"(%x, %k) {T = f32, sorted = true} : (tensor<5xf32>, tensor<i32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xi32>
}

// A stateful op with several results: the chain comes after them.
// CHECK-LABEL: func @stateful_multi_result
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[R:.*]]:2, %[[C1:.*]] = tfrt_fallback.kernel_call "MyMultiOutputOp"(%{{.*}}) chain(%[[C0]]) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)
// CHECK: tfrt_fallback.kernel_call "Print"(%[[R]]#0) chain(%[[C1]])
// CHECK: return %[[R]]#1
func.func @stateful_multi_result(%x: tensor<2xf32>) -> tensor<i64> {
  %0:2 = "tf.MyMultiOutputOp"(%x) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<i64>)
  "tf.Print"(%0#0) {T = f32} : (tensor<2xf32>) -> ()
  return %0#1 : tensor<i64>
}

// Ops without results.
// CHECK-LABEL: func @no_results
// CHECK: tfrt_fallback.kernel_call "Sink"(%{{.*}}) chain(%{{.*}}) : (tensor<2xf32>) -> ()
func.func @no_results(%x: tensor<2xf32>) {
  "tf.Sink"(%x) : (tensor<2xf32>) -> ()
  return
}

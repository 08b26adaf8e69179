// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | fallback-opt | FileCheck %s

// Round trip of tfrt_fallback.kernel_call with 0, 1 and many operands and
// results, with and without a chain and a device.

// CHECK-LABEL: func @no_operands_no_results
func.func @no_operands_no_results() {
  // CHECK: tfrt_fallback.kernel_call "NoOp"() : () -> ()
  tfrt_fallback.kernel_call "NoOp"() : () -> ()
  return
}

// CHECK-LABEL: func @no_operands_one_result
func.func @no_operands_one_result() -> tensor<f32> {
  // CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Placeholder"() {dtype = f32} : () -> tensor<f32>
  // CHECK: return %[[R]] : tensor<f32>
  %0 = tfrt_fallback.kernel_call "Placeholder"() {dtype = f32} : () -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @one_operand_one_result
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
func.func @one_operand_one_result(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]]) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: return %[[R]]
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @one_operand_no_results
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
func.func @one_operand_no_results(%x: tensor<2xf32>) {
  // CHECK: tfrt_fallback.kernel_call "Consume"(%[[X]]) {T = f32} : (tensor<2xf32>) -> ()
  tfrt_fallback.kernel_call "Consume"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return
}

// CHECK-LABEL: func @many_operands_one_result
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<2xf32>, %[[C:.*]]: tensor<2xf32>)
func.func @many_operands_one_result(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "AddN"(%[[A]], %[[B]], %[[C]]) {N = 3 : i64, T = f32}
  // CHECK-SAME: : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %0 = tfrt_fallback.kernel_call "AddN"(%a, %b, %c) {N = 3 : i64, T = f32} : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @one_operand_many_results
// CHECK-SAME: (%[[X:.*]]: tensor<3x2xf32>)
func.func @one_operand_many_results(%x: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  // CHECK: %[[R:.*]]:3 = tfrt_fallback.kernel_call "Unpack"(%[[X]]) {T = f32, axis = 0 : i64, num = 3 : i64}
  // CHECK-SAME: : (tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  // CHECK: return %[[R]]#0, %[[R]]#1, %[[R]]#2
  %0:3 = tfrt_fallback.kernel_call "Unpack"(%x) {T = f32, axis = 0 : i64, num = 3 : i64} : (tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1, %0#2 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func @many_operands_many_results
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<3xi32>)
func.func @many_operands_many_results(%a: tensor<2xf32>, %b: tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>) {
  // CHECK: %[[R:.*]]:2 = tfrt_fallback.kernel_call "IdentityN"(%[[A]], %[[B]]) {T = [f32, i32]}
  // CHECK-SAME: : (tensor<2xf32>, tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>)
  %0:2 = tfrt_fallback.kernel_call "IdentityN"(%a, %b) {T = [f32, i32]} : (tensor<2xf32>, tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<3xi32>
}

// CHECK-LABEL: func @unranked_and_dynamic
func.func @unranked_and_dynamic(%x: tensor<*xf32>, %y: tensor<?x3xf32>) -> tensor<?x?xf32> {
  // CHECK: tfrt_fallback.kernel_call "MatMul"(%{{.*}}, %{{.*}}) {T = f32} : (tensor<*xf32>, tensor<?x3xf32>) -> tensor<?x?xf32>
  %0 = tfrt_fallback.kernel_call "MatMul"(%x, %y) {T = f32} : (tensor<*xf32>, tensor<?x3xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK-LABEL: func @device
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
func.func @device(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfrt_fallback.kernel_call "Relu"(%[[X]]) device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %0 = tfrt_fallback.kernel_call "Relu"(%x) device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[S:.*]]: tensor<2xi32>, %[[C0:.*]]: !tfrt_fallback.chain)
func.func @chain(%shape: tensor<2xi32>, %c0: !tfrt_fallback.chain) -> (tensor<2x3xf32>, !tfrt_fallback.chain) {
  // CHECK: %[[R:.*]], %[[C1:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%[[S]]) chain(%[[C0]])
  // CHECK-SAME: {T = i32, dtype = f32, seed = 1 : i64, seed2 = 2 : i64} : (tensor<2xi32>) -> tensor<2x3xf32>
  // CHECK: return %[[R]], %[[C1]] : tensor<2x3xf32>, !tfrt_fallback.chain
  %0, %c1 = tfrt_fallback.kernel_call "RandomUniform"(%shape) chain(%c0) {T = i32, dtype = f32, seed = 1 : i64, seed2 = 2 : i64} : (tensor<2xi32>) -> tensor<2x3xf32>
  return %0, %c1 : tensor<2x3xf32>, !tfrt_fallback.chain
}

// CHECK-LABEL: func @chain_no_results
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[C0:.*]]: !tfrt_fallback.chain)
func.func @chain_no_results(%x: tensor<2xf32>, %c0: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  // CHECK: %[[C1:.*]] = tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C0]]) {T = f32} : (tensor<2xf32>) -> ()
  // CHECK: return %[[C1]] : !tfrt_fallback.chain
  %c1 = tfrt_fallback.kernel_call "Print"(%x) chain(%c0) {T = f32} : (tensor<2xf32>) -> ()
  return %c1 : !tfrt_fallback.chain
}

// CHECK-LABEL: func @chain_no_operands
// CHECK-SAME: (%[[C0:.*]]: !tfrt_fallback.chain)
func.func @chain_no_operands(%c0: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  // CHECK: %[[C1:.*]] = tfrt_fallback.kernel_call "Barrier"() chain(%[[C0]]) : () -> ()
  %c1 = tfrt_fallback.kernel_call "Barrier"() chain(%c0) : () -> ()
  return %c1 : !tfrt_fallback.chain
}

// CHECK-LABEL: func @chain_and_device_many_results
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[C0:.*]]: !tfrt_fallback.chain)
func.func @chain_and_device_many_results(%x: tensor<4xf32>, %c0: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  // CHECK: %[[R:.*]]:2, %[[C1:.*]] = tfrt_fallback.kernel_call "MyCustomOp"(%[[X]]) chain(%[[C0]]) device("/device:GPU:1") {T = f32}
  // CHECK-SAME: : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  %0:2, %c1 = tfrt_fallback.kernel_call "MyCustomOp"(%x) chain(%c0) device("/device:GPU:1") {T = f32} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %c1 : !tfrt_fallback.chain
}

// TF's op-name grammar admits underscores and '>'.
// CHECK-LABEL: func @internal_op_name
func.func @internal_op_name(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfrt_fallback.kernel_call "_FusedMatMul"
  %0 = tfrt_fallback.kernel_call "_FusedMatMul"(%x, %x) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  // CHECK: tfrt_fallback.kernel_call "Op>Name"
  %1 = tfrt_fallback.kernel_call "Op>Name"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

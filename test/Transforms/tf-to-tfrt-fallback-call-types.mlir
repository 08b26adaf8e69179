// RUN: fallback-opt %s --tfrt-fallback-pipeline=allow-unsupported --split-input-file | FileCheck %s

// TensorFlow lets a PartitionedCall's operand and result types be more or
// less refined than its callee's signature. func.call needs them equal: a
// value whose type differs goes through an Identity of the type expected
// (the callee's for an operand, the call's for a result), which shares its
// buffer; the executor checks its shape as it checks any result.

// CHECK-LABEL: func @main
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[A:.*]] = tfrt_fallback.kernel_call "Identity"(%[[X]]) {T = f32} : (tensor<3xf32>) -> tensor<*xf32>
// CHECK: %[[D:.*]] = call @__inference_double_10(%[[A]]) : (tensor<*xf32>) -> tensor<*xf32>
// CHECK: %[[B:.*]] = tfrt_fallback.kernel_call "Identity"(%[[D]]) {T = f32} : (tensor<*xf32>) -> tensor<3xf32>
// CHECK: %[[C:.*]] = tfrt_fallback.kernel_call "Identity"(%[[B]]) {T = f32} : (tensor<3xf32>) -> tensor<?xf32>
// CHECK: %[[R:.*]] = call @refine(%[[C]]) : (tensor<?xf32>) -> tensor<3xf32>
// The call's result, tensor<*xf32> in the graph, is refined to the callee's
// tensor<3xf32> by --tfrt-fallback-infer-shapes: no Identity pair there.
// CHECK: return %[[R]] : tensor<3xf32>
func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.StatefulPartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @__inference_double_10} : (tensor<3xf32>) -> tensor<3xf32>
    %outputs_0, %control_1 = tf_executor.island wraps "tf.PartitionedCall"(%outputs) {config = "", config_proto = "", executor_type = "", f = @refine} : (tensor<3xf32>) -> tensor<*xf32>
    %outputs_2, %control_3 = tf_executor.island wraps "tf.Identity"(%outputs_0) {device = ""} : (tensor<*xf32>) -> tensor<3xf32>
    tf_executor.fetch %outputs_2 : tensor<3xf32>
  }
  func.return %0 : tensor<3xf32>
}
func.func private @__inference_double_10(%arg0: tensor<*xf32>) -> tensor<*xf32> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.AddV2"(%arg0, %arg0) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    tf_executor.fetch %outputs : tensor<*xf32>
  }
  func.return %0 : tensor<*xf32>
}
func.func private @refine(%arg0: tensor<?xf32>) -> tensor<3xf32> {
  %cst = arith.constant dense<1.0> : tensor<f32>
  %0 = "tf.Sub"(%arg0, %cst) : (tensor<?xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// Resources of different subtypes are the same dtype; an effectful callee
// still takes and returns the chain, around the casts.
// CHECK-LABEL: func @resource_call
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[H:.*]] = tfrt_fallback.kernel_call "Identity"(%{{.*}}) {T = !tf_type.resource} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<*x!tf_type.resource>
// CHECK: %[[R:.*]]:2 = call @read(%[[C0]], %[[H]]) : (!tfrt_fallback.chain, tensor<*x!tf_type.resource>) -> (tensor<*xf32>, !tfrt_fallback.chain)
// CHECK: %[[V:.*]] = tfrt_fallback.kernel_call "Identity"(%[[R]]#0) {T = f32} : (tensor<*xf32>) -> tensor<2xf32>
// CHECK: return %[[V]]
func.func @resource_call(%arg0: tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32> {
  %0 = "tf.StatefulPartitionedCall"(%arg0) {config = "", config_proto = "", executor_type = "", f = @read} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @read(%arg0: tensor<*x!tf_type.resource>) -> tensor<*xf32> {
  %0 = "tf.ReadVariableOp"(%arg0) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

// RUN: fallback-opt %s --tfrt-fallback-fuse --split-input-file | FileCheck %s

// Where rewrites compete or one depends on another, the result is that of
// folding first, then fusing in program order.

// Two convolutions with a bias meet in a residual Add: the first one written
// takes the Add and the Relu (whatever the Add's operand order), the second
// one is its residual operand.
// CHECK-LABEL: func @residual_add_of_two_chains
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x2xf32>, %[[W1:.*]]: tensor<1x1x2x2xf32>, %[[W2:.*]]: tensor<1x1x2x2xf32>, %[[B:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[SECOND:.*]] = "tf._FusedConv2D"(%[[X]], %[[W2]], %[[B]])
// CHECK-SAME: fused_ops = ["BiasAdd"]
// CHECK-NEXT: %[[FIRST:.*]] = "tf._FusedConv2D"(%[[X]], %[[W1]], %[[B]], %[[SECOND]])
// CHECK-SAME: fused_ops = ["BiasAdd", "Add", "Relu"]
// CHECK-NEXT: return %[[FIRST]]
func.func @residual_add_of_two_chains(%x: tensor<1x4x4x2xf32>, %w1: tensor<1x1x2x2xf32>, %w2: tensor<1x1x2x2xf32>, %b: tensor<2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = "tf.Conv2D"(%x, %w1) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %2 = "tf.Conv2D"(%x, %w2) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %3 = "tf.BiasAdd"(%2, %b) : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %4 = "tf.AddV2"(%3, %1) : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %5 = "tf.Relu"(%4) : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %5 : tensor<1x4x4x2xf32>
}

// -----

// A residual block whose two branches end in batch norms: both fold into
// their convolutions first, then the first convolution takes the Add.
// CHECK-LABEL: func @residual_add_of_two_batch_norms
// CHECK-DAG: %[[W1:.*]] = "tf.Const"() {dtype = f32, value = dense<1.000000e+00> : tensor<1x1x2x2xf32>}
// CHECK-DAG: %[[W2:.*]] = "tf.Const"() {dtype = f32, value = dense<2.000000e+00> : tensor<1x1x2x2xf32>}
// CHECK: %[[SECOND:.*]] = "tf._FusedConv2D"(%arg0, %[[W2]], %{{[0-9]+}})
// CHECK-SAME: fused_ops = ["BiasAdd"]
// CHECK: %[[FIRST:.*]] = "tf._FusedConv2D"(%arg0, %[[W1]], %{{[0-9]+}}, %[[SECOND]])
// CHECK-SAME: fused_ops = ["BiasAdd", "Add", "Relu"]
// CHECK-NOT: FusedBatchNorm
// CHECK: return %[[FIRST]]
func.func @residual_add_of_two_batch_norms(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w1 = "tf.Const"() {value = dense<1.0> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %w2 = "tf.Const"() {value = dense<2.0> : tensor<1x1x2x2xf32>} : () -> tensor<1x1x2x2xf32>
  %one = "tf.Const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.Conv2D"(%x, %w1) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %1:6 = "tf.FusedBatchNormV3"(%0, %one, %zero, %zero, %one) {epsilon = 0.0 : f32, is_training = false} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %2 = "tf.Conv2D"(%x, %w2) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %3:6 = "tf.FusedBatchNormV3"(%2, %one, %zero, %zero, %one) {epsilon = 0.0 : f32, is_training = false} : (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<1x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %4 = "tf.AddV2"(%3#0, %1#0) : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %5 = "tf.Relu"(%4) : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %5 : tensor<1x4x4x2xf32>
}

// -----

// A clip to [0, 6] after the residual Add becomes a Relu6 before the
// convolution takes the Add: one fused op.
// CHECK-LABEL: func @clip_after_residual_add
// CHECK-NEXT: %[[F:.*]] = "tf._FusedConv2D"(%arg0, %arg1, %arg2, %arg3)
// CHECK-SAME: fused_ops = ["BiasAdd", "Add", "Relu6"]
// CHECK-NEXT: return %[[F]]
func.func @clip_after_residual_add(%x: tensor<1x4x4x2xf32>, %w: tensor<1x1x2x2xf32>, %b: tensor<2xf32>, %r: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %six = "tf.Const"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<1x4x4x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %2 = "tf.AddV2"(%1, %r) : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %3 = "tf.Minimum"(%2, %six) : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  %4 = "tf.Maximum"(%3, %zero) : (tensor<1x4x4x2xf32>, tensor<f32>) -> tensor<1x4x4x2xf32>
  return %4 : tensor<1x4x4x2xf32>
}

// -----

// Clips that share an op: the first one written becomes the Relu6, and the
// Minimum after it stays.
// CHECK-LABEL: func @overlapping_clips
// CHECK: %[[R:.*]] = "tf.Relu6"(%arg0)
// CHECK-NEXT: %[[M:.*]] = "tf.Minimum"(%[[R]], %{{[0-9]+}})
// CHECK-NEXT: return %[[M]]
func.func @overlapping_clips(%x: tensor<4xf32>) -> tensor<4xf32> {
  %six = "tf.Const"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Minimum"(%x, %six) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "tf.Maximum"(%0, %zero) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = "tf.Minimum"(%1, %six) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

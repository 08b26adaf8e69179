// RUN: fallback-opt %s --tfrt-fallback-fuse --split-input-file | FileCheck %s

// The fusions are rewrite patterns applied until none applies, in whatever
// order the driver visits ops; where rewrites compete the result is still
// that of folding first, then fusing in program order.

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

// -----

// A zero padding of a zero padding: both fold into the convolution.
// CHECK-LABEL: func @pad_of_pad
// CHECK-NEXT: %[[C:.*]] = "tf.Conv2D"(%arg0, %arg1)
// CHECK-SAME: explicit_paddings = [0, 0, 3, 1, 1, 2, 0, 0]
// CHECK-SAME: padding = "EXPLICIT"
// CHECK-NEXT: return %[[C]]
func.func @pad_of_pad(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>) -> tensor<*xf32> {
  %p = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %q = "tf.Const"() {value = dense<[[0, 0], [2, 0], [0, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %0 = "tf.Pad"(%x, %p) : (tensor<1x4x4x3xf32>, tensor<4x2xi32>) -> tensor<1x6x6x3xf32>
  %1 = "tf.Pad"(%0, %q) : (tensor<1x6x6x3xf32>, tensor<4x2xi32>) -> tensor<1x8x7x3xf32>
  %2 = "tf.Conv2D"(%1, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x8x7x3xf32>, tensor<1x1x3x2xf32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

// A fused Relu becomes a Relu6 when a Relu6 follows it, and the spelled-out
// PReLU after that Relu6 (x - |x| is 0 there) then goes too, although the
// result's shape is unknown: the channels come from the filter.
// CHECK-LABEL: func @prelu_after_merged_relu6
// CHECK-NEXT: %[[F:.*]] = "tf._FusedConv2D"
// CHECK-SAME: fused_ops = ["BiasAdd", "Relu6"]
// CHECK-NEXT: return %[[F]]
func.func @prelu_after_merged_relu6(%x: tensor<1x4x4x2xf32>, %w: tensor<1x1x2x2xf32>, %b: tensor<2xf32>) -> tensor<*xf32> {
  %c = "tf.Const"() {value = dense<[0.25, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf._FusedConv2D"(%x, %w, %b) {T = f32, fused_ops = ["BiasAdd", "Relu"], num_args = 1 : i64, padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x2xf32>, tensor<2xf32>) -> tensor<*xf32>
  %1 = "tf.Relu6"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.Abs"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.Sub"(%1, %2) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %4 = "tf.Mul"(%3, %c) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %5 = "tf.AddV2"(%1, %4) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %5 : tensor<*xf32>
}

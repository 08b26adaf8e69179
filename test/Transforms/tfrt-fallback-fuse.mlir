// RUN: fallback-opt %s --tfrt-fallback-fuse --split-input-file | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline --split-input-file | FileCheck %s --check-prefix=PIPELINE
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fuse=false --split-input-file | FileCheck %s --check-prefix=NOFUSE

// Conv2D + BiasAdd + Relu: one _FusedConv2D carrying the conv's attributes.
// CHECK-LABEL: func @conv_bias_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x3xf32>, %[[W:.*]]: tensor<3x3x3x8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[F:.*]] = "tf._FusedConv2D"(%[[X]], %[[W]], %[[B]])
// CHECK-SAME: T = f32
// CHECK-SAME: device = "/device:CPU:0"
// CHECK-SAME: epsilon = 0.000000e+00 : f32
// CHECK-SAME: fused_ops = ["BiasAdd", "Relu"]
// CHECK-SAME: num_args = 1 : i64
// CHECK-SAME: padding = "SAME"
// CHECK-SAME: strides = [1, 2, 2, 1]
// CHECK-SAME: -> tensor<1x2x2x8xf32>
// CHECK-NEXT: return %[[F]]
// PIPELINE-LABEL: func @conv_bias_relu
// PIPELINE: tfrt_fallback.kernel_call "_FusedConv2D"
// PIPELINE-NEXT: return
// NOFUSE-LABEL: func @conv_bias_relu
// NOFUSE: kernel_call "Conv2D"
// NOFUSE: kernel_call "BiasAdd"
// NOFUSE: kernel_call "Relu"
func.func @conv_bias_relu(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x8xf32>, %b: tensor<8xf32>) -> tensor<1x2x2x8xf32> {
  %0 = "tf.Conv2D"(%x, %w) {T = f32, device = "/device:CPU:0", padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x4x4x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x2x2x8xf32>
  %1 = "tf.BiasAdd"(%0, %b) {T = f32} : (tensor<1x2x2x8xf32>, tensor<8xf32>) -> tensor<1x2x2x8xf32>
  %2 = "tf.Relu"(%1) {T = f32} : (tensor<1x2x2x8xf32>) -> tensor<1x2x2x8xf32>
  return %2 : tensor<1x2x2x8xf32>
}

// -----

// f16 and bf16 fuse as f32 does: the runtime's fused kernels take them
// (ComputeInF16.h: in f16 arithmetic where the CPU has it). A residual Add
// and Relu6 join an f16 depthwise convolution; a bf16 MatMul takes its bias.
// CHECK-LABEL: func @half_types
// CHECK: "tf._FusedConv2D"
// CHECK-SAME: T = f16
// CHECK-SAME: fused_ops = ["BiasAdd", "Relu6"]
// CHECK: "tf._FusedDepthwiseConv2dNative"
// CHECK-SAME: fused_ops = ["BiasAdd", "Add", "Relu6"]
// CHECK: "tf._FusedMatMul"
// CHECK-SAME: T = bf16
// CHECK-SAME: fused_ops = ["BiasAdd"]
// CHECK-NOT: "tf.Relu6"
// CHECK-NOT: "tf.BiasAdd"
// PIPELINE-LABEL: func @half_types
// PIPELINE: kernel_call "_FusedConv2D"
// PIPELINE: kernel_call "_FusedDepthwiseConv2dNative"
// PIPELINE: kernel_call "_FusedMatMul"
func.func @half_types(%x: tensor<1x4x4x8xf16>, %w: tensor<1x1x8x8xf16>, %b: tensor<8xf16>, %wd: tensor<3x3x8x1xf16>, %r: tensor<1x4x4x8xf16>, %m: tensor<2x3xbf16>, %wm: tensor<3x4xbf16>, %bm: tensor<4xbf16>) -> (tensor<1x4x4x8xf16>, tensor<2x4xbf16>) {
  %0 = "tf.Conv2D"(%x, %w) {T = f16, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x8xf16>, tensor<1x1x8x8xf16>) -> tensor<1x4x4x8xf16>
  %1 = "tf.BiasAdd"(%0, %b) {T = f16} : (tensor<1x4x4x8xf16>, tensor<8xf16>) -> tensor<1x4x4x8xf16>
  %2 = "tf.Relu6"(%1) {T = f16} : (tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
  %3 = "tf.DepthwiseConv2dNative"(%2, %wd) {T = f16, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x8xf16>, tensor<3x3x8x1xf16>) -> tensor<1x4x4x8xf16>
  %4 = "tf.BiasAdd"(%3, %b) {T = f16} : (tensor<1x4x4x8xf16>, tensor<8xf16>) -> tensor<1x4x4x8xf16>
  %5 = "tf.AddV2"(%4, %r) {T = f16} : (tensor<1x4x4x8xf16>, tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
  %6 = "tf.Relu6"(%5) {T = f16} : (tensor<1x4x4x8xf16>) -> tensor<1x4x4x8xf16>
  %7 = "tf.MatMul"(%m, %wm) {T = bf16} : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xbf16>
  %8 = "tf.BiasAdd"(%7, %bm) {T = bf16} : (tensor<2x4xbf16>, tensor<4xbf16>) -> tensor<2x4xbf16>
  return %6, %8 : tensor<1x4x4x8xf16>, tensor<2x4xbf16>
}

// -----

// The bias as tf.Add of a constant, on either side, unranked results and no
// T (TensorFlow derives it): the element type gives T.
// CHECK-LABEL: func @conv_add_const
// CHECK: %[[B:.*]] = "tf.Const"
// CHECK-NEXT: %[[F:.*]] = "tf._FusedConv2D"(%arg0, %arg1, %[[B]])
// CHECK-SAME: T = f32
// CHECK-SAME: fused_ops = ["BiasAdd", "Relu6"]
// CHECK-SAME: -> tensor<*xf32>
// CHECK-NEXT: return %[[F]]
func.func @conv_add_const(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>) -> tensor<*xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<*xf32>
  %b = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "tf.AddV2"(%b, %0) : (tensor<2xf32>, tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.Relu6"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

// Depthwise: channels = in * multiplier; no activation after the bias.
// CHECK-LABEL: func @depthwise_bias
// CHECK-NEXT: %[[F:.*]] = "tf._FusedDepthwiseConv2dNative"(%arg0, %arg1, %arg2)
// CHECK-SAME: fused_ops = ["BiasAdd"]
// CHECK-NEXT: %[[S:.*]] = "tf.Sub"(%[[F]], %[[F]])
func.func @depthwise_bias(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %b: tensor<6xf32>) -> tensor<*xf32> {
  %0 = "tf.DepthwiseConv2dNative"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>) -> tensor<*xf32>
  %1 = "tf.Add"(%0, %b) : (tensor<*xf32>, tensor<6xf32>) -> tensor<*xf32>
  %2 = "tf.Sub"(%1, %1) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

// MatMul: the channels are b's columns, or its rows with transpose_b.
// LeakyRelu's alpha becomes leakyrelu_alpha; f64 has fused kernels too.
// CHECK-LABEL: func @matmul_transpose_b_leaky
// CHECK-NEXT: %[[F:.*]] = "tf._FusedMatMul"(%arg0, %arg1, %arg2)
// CHECK-SAME: T = f64
// CHECK-SAME: fused_ops = ["BiasAdd", "LeakyRelu"]
// CHECK-SAME: leakyrelu_alpha = 1.000000e-01 : f32
// CHECK-SAME: transpose_b = true
// CHECK-NEXT: return %[[F]]
func.func @matmul_transpose_b_leaky(%a: tensor<2x3xf64>, %b: tensor<5x3xf64>, %bias: tensor<5xf64>) -> tensor<2x5xf64> {
  %0 = "tf.MatMul"(%a, %b) {transpose_a = false, transpose_b = true} : (tensor<2x3xf64>, tensor<5x3xf64>) -> tensor<2x5xf64>
  %1 = "tf.BiasAdd"(%0, %bias) : (tensor<2x5xf64>, tensor<5xf64>) -> tensor<2x5xf64>
  %2 = "tf.LeakyRelu"(%1) {alpha = 0.1 : f32} : (tensor<2x5xf64>) -> tensor<2x5xf64>
  return %2 : tensor<2x5xf64>
}

// -----

// A fused op with only a bias (as TF.js's converter writes them) takes the
// activation after it.
// CHECK-LABEL: func @fused_then_activation
// CHECK-NEXT: %[[F:.*]] = "tf.FusedDepthwiseConv2dNative"(%arg0, %arg1, %arg2)
// CHECK-SAME: fused_ops = ["BiasAdd", "Sigmoid"]
// CHECK-SAME: num_args = 1 : i64
// CHECK-NEXT: return %[[F]]
func.func @fused_then_activation(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x1xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  %0 = "tf.FusedDepthwiseConv2dNative"(%x, %w, %b) {T = f32, fused_ops = ["BiasAdd"], num_args = 1 : i64, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<3x3x3x1xf32>, tensor<3xf32>) -> tensor<*xf32>
  %1 = "tf.Sigmoid"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// Left alone: the conv's result has another user; a bias of the wrong
// size; NCHW; a 2-D bias; a dynamic filter; i32 (no fused kernel); an
// activation that is not the bias's only user stays separate.
// CHECK-LABEL: func @not_fused
// CHECK: "tf.Conv2D"
// CHECK: "tf.BiasAdd"
// CHECK: "tf.Conv2D"
// CHECK: "tf.Add"
// CHECK: "tf.Conv2D"
// CHECK: "tf.BiasAdd"
// CHECK: "tf.Conv2D"
// CHECK: "tf.Add"
// CHECK: "tf.Conv2D"
// CHECK: "tf.Add"
// CHECK: "tf.MatMul"
// CHECK: "tf.BiasAdd"
// CHECK: %[[F:.*]] = "tf._FusedConv2D"
// CHECK-SAME: fused_ops = ["BiasAdd"]
// CHECK-NEXT: "tf.Relu"(%[[F]])
// CHECK-NOT: _Fused
func.func @not_fused(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>, %b: tensor<2xf32>, %b3: tensor<3xf32>, %b12: tensor<1x2xf32>, %wd: tensor<?x?x?x?xf32>, %xi: tensor<2x2xi32>, %wi: tensor<2x2xi32>, %bi: tensor<2xi32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<*xf32>
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %2 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<*xf32>
  %3 = "tf.Add"(%2, %b3) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  %4 = "tf.Conv2D"(%x, %w) {data_format = "NCHW", padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<*xf32>
  %5 = "tf.BiasAdd"(%4, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %6 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<*xf32>
  %7 = "tf.Add"(%6, %b12) : (tensor<*xf32>, tensor<1x2xf32>) -> tensor<*xf32>
  %8 = "tf.Conv2D"(%x, %wd) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<?x?x?x?xf32>) -> tensor<*xf32>
  %9 = "tf.Add"(%8, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %10 = "tf.MatMul"(%xi, %wi) : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<*xi32>
  %11 = "tf.BiasAdd"(%10, %bi) : (tensor<*xi32>, tensor<2xi32>) -> tensor<*xi32>
  %12 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<*xf32>
  %13 = "tf.BiasAdd"(%12, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %14 = "tf.Relu"(%13) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %1, %3, %5, %7, %9, %11, %13, %14 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// A residual Add after the bias joins as "Add" (TF's oneDNN form), its
// other operand the fourth argument, then the activation.
// CHECK-LABEL: func @conv_bias_residual_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x3xf32>, %[[W:.*]]: tensor<1x1x3x3xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK-NEXT: %[[F:.*]] = "tf._FusedConv2D"(%[[X]], %[[W]], %[[B]], %[[X]])
// CHECK-SAME: fused_ops = ["BiasAdd", "Add", "Relu"]
// CHECK-SAME: num_args = 2 : i64
// CHECK-NEXT: return %[[F]]
func.func @conv_bias_residual_relu(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x3xf32>, %b: tensor<3xf32>) -> tensor<*xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x3xf32>) -> tensor<*xf32>
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  %2 = "tf.AddV2"(%x, %1) : (tensor<1x4x4x3xf32>, tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.Relu"(%2) : (tensor<*xf32>) -> tensor<*xf32>
  return %3 : tensor<*xf32>
}

// -----

// TF.js's fused ops with only a bias take the residual Add and the
// activation after them; _FusedMatMul takes no Add (TF's CPU kernel has
// none), so the Add and the Relu after it stay.
// CHECK-LABEL: func @fused_then_residual
// CHECK-NEXT: %[[F:.*]] = "tf._FusedConv2D"(%arg0, %arg1, %arg2, %arg3)
// CHECK-SAME: fused_ops = ["BiasAdd", "Add", "Relu6"]
// CHECK-SAME: num_args = 2 : i64
// CHECK-NEXT: %[[M:.*]] = "tf._FusedMatMul"(%arg4, %arg5, %arg6)
// CHECK-SAME: fused_ops = ["BiasAdd"]
// CHECK-NEXT: %[[A:.*]] = "tf.Add"(%[[M]], %arg4)
// CHECK-NEXT: "tf.Relu"(%[[A]])
func.func @fused_then_residual(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x3xf32>, %b: tensor<3xf32>, %r: tensor<1x4x4x3xf32>, %a: tensor<3x3xf32>, %m: tensor<3x3xf32>, %c: tensor<3xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf._FusedConv2D"(%x, %w, %b) {T = f32, fused_ops = ["BiasAdd"], num_args = 1 : i64, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  %1 = "tf.AddV2"(%0, %r) : (tensor<*xf32>, tensor<1x4x4x3xf32>) -> tensor<*xf32>
  %2 = "tf.Relu6"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf._FusedMatMul"(%a, %m, %c) {T = f32, fused_ops = ["BiasAdd"], num_args = 1 : i64} : (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3xf32>) -> tensor<*xf32>
  %4 = "tf.Add"(%3, %a) : (tensor<*xf32>, tensor<3x3xf32>) -> tensor<*xf32>
  %5 = "tf.Relu"(%4) : (tensor<*xf32>) -> tensor<*xf32>
  return %2, %5 : tensor<*xf32>, tensor<*xf32>
}

// -----

// An Add of a lower-rank value (hard-swish's x + 3) is no residual: the
// conv takes its bias only.
// CHECK-LABEL: func @hard_swish_add_stays
// CHECK-NEXT: %[[F:.*]] = "tf._FusedConv2D"(%arg0, %arg1, %arg2)
// CHECK-SAME: fused_ops = ["BiasAdd"]
// CHECK-NEXT: "tf.AddV2"(%[[F]], %arg3)
func.func @hard_swish_add_stays(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x3xf32>, %b: tensor<3xf32>, %three: tensor<f32>) -> tensor<*xf32> {
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x3xf32>) -> tensor<*xf32>
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  %2 = "tf.AddV2"(%1, %three) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

// A PReLU spelled out after the bias, Relu(x) + c (x - |x|), becomes the
// fused "Prelu" with alpha 2c, a new constant.
// CHECK-LABEL: func @conv_bias_prelu
// CHECK: %[[A:.*]] = "tf.Const"() {dtype = f32, value = dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf32>}
// CHECK-NEXT: %[[F:.*]] = "tf._FusedConv2D"(%arg0, %arg1, %arg2, %[[A]])
// CHECK-SAME: fused_ops = ["BiasAdd", "Prelu"]
// CHECK-SAME: num_args = 2 : i64
// CHECK-NEXT: return %[[F]]
func.func @conv_bias_prelu(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>, %b: tensor<2xf32>) -> tensor<*xf32> {
  %c = "tf.Const"() {value = dense<[[[0.25, -0.5]]]> : tensor<1x1x2xf32>} : () -> tensor<1x1x2xf32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>) -> tensor<*xf32>
  %1 = "tf.BiasAdd"(%0, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %2 = "tf.Relu"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.Abs"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  %4 = "tf.Sub"(%1, %3) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %5 = "tf.Mul"(%c, %4) : (tensor<1x1x2xf32>, tensor<*xf32>) -> tensor<*xf32>
  %6 = "tf.Add"(%5, %2) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %6 : tensor<*xf32>
}

// -----

// Left alone: a scale that is no constant; a scale of other than C
// elements; the Sub's operands swapped (that is no PReLU).
// CHECK-LABEL: func @prelu_not_fused
// CHECK-COUNT-3: "tf.Abs"
// CHECK-NOT: "Prelu"
func.func @prelu_not_fused(%x: tensor<1x4x4x3xf32>, %w: tensor<1x1x3x2xf32>, %b: tensor<2xf32>, %s: tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf._FusedConv2D"(%x, %w, %b) {T = f32, fused_ops = ["BiasAdd"], num_args = 1 : i64, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>, tensor<2xf32>) -> tensor<*xf32>
  %1 = "tf.Relu"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.Abs"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.Sub"(%0, %2) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %4 = "tf.Mul"(%3, %s) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %5 = "tf.Add"(%1, %4) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %c3 = "tf.Const"() {value = dense<[0.25, -0.5, 1.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %10 = "tf._FusedConv2D"(%x, %w, %b) {T = f32, fused_ops = ["BiasAdd"], num_args = 1 : i64, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>, tensor<2xf32>) -> tensor<*xf32>
  %11 = "tf.Relu"(%10) : (tensor<*xf32>) -> tensor<*xf32>
  %12 = "tf.Abs"(%10) : (tensor<*xf32>) -> tensor<*xf32>
  %13 = "tf.Sub"(%10, %12) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %14 = "tf.Mul"(%13, %c3) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  %15 = "tf.Add"(%11, %14) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %c = "tf.Const"() {value = dense<[0.25, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %20 = "tf._FusedConv2D"(%x, %w, %b) {T = f32, fused_ops = ["BiasAdd"], num_args = 1 : i64, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x2xf32>, tensor<2xf32>) -> tensor<*xf32>
  %21 = "tf.Relu"(%20) : (tensor<*xf32>) -> tensor<*xf32>
  %22 = "tf.Abs"(%20) : (tensor<*xf32>) -> tensor<*xf32>
  %23 = "tf.Sub"(%22, %20) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %24 = "tf.Mul"(%23, %c) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %25 = "tf.Add"(%21, %24) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %5, %15, %25 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// After a Relu (fused or not) x - |x| is 0: the spelled-out PReLU goes, its
// scale with it when nothing else uses it. Not after an op that can be
// negative.
// CHECK-LABEL: func @prelu_after_relu
// CHECK-NEXT: "tf.Const"
// CHECK-NEXT: %[[F:.*]] = "tf.FusedDepthwiseConv2dNative"
// CHECK-NEXT: %[[R:.*]] = "tf.Relu6"(%arg3)
// CHECK-NEXT: %[[T:.*]] = "tf.Tanh"(%arg3)
// CHECK-NEXT: "tf.Abs"(%[[T]])
// CHECK: return %[[F]], %[[R]]
func.func @prelu_after_relu(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x1xf32>, %b: tensor<3xf32>, %y: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %c = "tf.Const"() {value = dense<[0.25, -0.5, 1.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %0 = "tf.FusedDepthwiseConv2dNative"(%x, %w, %b) {T = f32, fused_ops = ["BiasAdd", "Relu"], num_args = 1 : i64, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<3x3x3x1xf32>, tensor<3xf32>) -> tensor<*xf32>
  %1 = "tf.Abs"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.Sub"(%0, %1) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.Mul"(%2, %c) : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  %4 = "tf.AddV2"(%0, %3) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  %r = "tf.Relu6"(%y) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = "tf.Abs"(%r) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = "tf.Sub"(%r, %5) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = "tf.Mul"(%6, %c) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %8 = "tf.Add"(%7, %r) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = "tf.Tanh"(%y) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = "tf.Abs"(%t) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = "tf.Sub"(%t, %9) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = "tf.Mul"(%10, %c) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %12 = "tf.Add"(%11, %t) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4, %8, %12 : tensor<*xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// Zero padding of the rows and columns becomes the convolution's EXPLICIT
// padding (added to what it had); PadV2 of zero too.
// CHECK-LABEL: func @pad_into_conv
// CHECK-NOT: "tf.Const"
// CHECK: %[[C:.*]] = "tf.Conv2D"(%arg0, %arg1)
// CHECK-SAME: explicit_paddings = [0, 0, 1, 2, 3, 4, 0, 0]
// CHECK-SAME: padding = "EXPLICIT"
// CHECK: %[[D:.*]] = "tf.DepthwiseConv2dNative"(%arg0, %arg2)
// CHECK-SAME: explicit_paddings = [0, 0, 2, 2, 1, 1, 0, 0]
// CHECK-SAME: padding = "EXPLICIT"
// CHECK-NOT: "tf.Pad
// CHECK: return %[[C]], %[[D]]
func.func @pad_into_conv(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %dw: tensor<3x3x3x1xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %p = "tf.Const"() {value = dense<[[0, 0], [1, 2], [3, 4], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %0 = "tf.Pad"(%x, %p) : (tensor<1x4x4x3xf32>, tensor<4x2xi32>) -> tensor<1x7x11x3xf32>
  %1 = "tf.Conv2D"(%0, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x7x11x3xf32>, tensor<3x3x3x2xf32>) -> tensor<*xf32>
  %q = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "tf.PadV2"(%x, %q, %zero) : (tensor<1x4x4x3xf32>, tensor<4x2xi64>, tensor<f32>) -> tensor<1x6x6x3xf32>
  %3 = "tf.DepthwiseConv2dNative"(%2, %dw) {padding = "EXPLICIT", explicit_paddings = [0, 0, 1, 1, 0, 0, 0, 0], strides = [1, 1, 1, 1]} : (tensor<1x6x6x3xf32>, tensor<3x3x3x1xf32>) -> tensor<*xf32>
  return %1, %3 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Left alone: padding the channels, a PadV2 of one, a Pad with another
// user, a SAME convolution.
// CHECK-LABEL: func @pad_not_folded
// CHECK-COUNT-4: "tf.Pad
// CHECK-NOT: EXPLICIT
func.func @pad_not_folded(%x: tensor<1x4x4x3xf32>, %w: tensor<3x3x3x2xf32>, %w4: tensor<3x3x4x2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<1x6x6x3xf32>, tensor<*xf32>) {
  %c = "tf.Const"() {value = dense<[[0, 0], [0, 0], [0, 0], [0, 1]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %0 = "tf.Pad"(%x, %c) : (tensor<1x4x4x3xf32>, tensor<4x2xi32>) -> tensor<1x4x4x4xf32>
  %1 = "tf.Conv2D"(%0, %w4) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x4xf32>, tensor<3x3x4x2xf32>) -> tensor<*xf32>
  %p = "tf.Const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "tf.PadV2"(%x, %p, %one) : (tensor<1x4x4x3xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<1x6x6x3xf32>
  %3 = "tf.Conv2D"(%2, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x6x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<*xf32>
  %4 = "tf.Pad"(%x, %p) : (tensor<1x4x4x3xf32>, tensor<4x2xi32>) -> tensor<1x6x6x3xf32>
  %5 = "tf.Conv2D"(%4, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x6x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<*xf32>
  %6 = "tf.Pad"(%x, %p) : (tensor<1x4x4x3xf32>, tensor<4x2xi32>) -> tensor<1x6x6x3xf32>
  %7 = "tf.Conv2D"(%6, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x6x6x3xf32>, tensor<3x3x3x2xf32>) -> tensor<*xf32>
  return %1, %3, %5, %4, %7 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<1x6x6x3xf32>, tensor<*xf32>
}

// -----

// An inference batch norm after a convolution with a constant filter
// folds into the filter (times scale / sqrt(variance + epsilon): 2 and 1)
// and a bias ((0 - mean) * factor + offset), which then fuses; the old
// constants go.
// CHECK-LABEL: func @batch_norm_into_conv
// CHECK-NOT: 1.000000e+00
// CHECK-DAG: %[[W:.*]] = "tf.Const"() {dtype = f32, value = dense<{{\[\[\[\[}}2.000000e+00, 4.000000e+00]]]]> : tensor<1x1x1x2xf32>}
// CHECK-DAG: %[[B:.*]] = "tf.Const"() {dtype = f32, value = dense<[-1.500000e+00, -3.000000e+00]> : tensor<2xf32>}
// CHECK: %[[F:.*]] = "tf._FusedConv2D"(%arg0, %[[W]], %[[B]])
// CHECK-SAME: fused_ops = ["BiasAdd", "Relu6"]
// CHECK-NOT: FusedBatchNorm
// CHECK: return %[[F]]
func.func @batch_norm_into_conv(%x: tensor<1x4x4x1xf32>) -> tensor<*xf32> {
  %w = "tf.Const"() {value = dense<[[[[1.0, 4.0]]]]> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %scale = "tf.Const"() {value = dense<[2.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %offset = "tf.Const"() {value = dense<[0.5, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %mean = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %var = "tf.Const"() {value = dense<[0.75, 8.75]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<*xf32>
  %1:6 = "tf.FusedBatchNormV3"(%0, %scale, %offset, %mean, %var) {epsilon = 0.25 : f32, is_training = false} : (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<*xf32>)
  %2 = "tf.Relu6"(%1#0) : (tensor<*xf32>) -> tensor<*xf32>
  return %2 : tensor<*xf32>
}

// -----

// Left alone: training mode; a mean that is no constant; a batch-norm
// statistic in use; a filter that is no constant.
// CHECK-LABEL: func @batch_norm_not_folded
// CHECK-COUNT-4: "tf.FusedBatchNormV3"
func.func @batch_norm_not_folded(%x: tensor<1x4x4x1xf32>, %m: tensor<2xf32>, %wv: tensor<1x1x1x2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<2xf32>, tensor<*xf32>) {
  %w = "tf.Const"() {value = dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %s = "tf.Const"() {value = dense<[2.0, 3.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<*xf32>
  %1:6 = "tf.FusedBatchNormV3"(%0, %s, %s, %s, %s) {epsilon = 0.25 : f32, is_training = true} : (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<*xf32>)
  %2 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<*xf32>
  %3:6 = "tf.FusedBatchNormV3"(%2, %s, %s, %m, %s) {epsilon = 0.25 : f32, is_training = false} : (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<*xf32>)
  %4 = "tf.Conv2D"(%x, %w) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<*xf32>
  %5:6 = "tf.FusedBatchNormV3"(%4, %s, %s, %s, %s) {epsilon = 0.25 : f32, is_training = false} : (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<*xf32>)
  %6 = "tf.Conv2D"(%x, %wv) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x4x1xf32>, tensor<1x1x1x2xf32>) -> tensor<*xf32>
  %7:6 = "tf.FusedBatchNormV3"(%6, %s, %s, %s, %s) {epsilon = 0.25 : f32, is_training = false} : (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<*xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<*xf32>)
  return %1#0, %3#0, %5#0, %5#1, %7#0 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<2xf32>, tensor<*xf32>
}

// -----

// The hard swish spelled out after a fused convolution's bias,
// (c * x) * Relu6(x + 3), becomes its fused "HardSwish" of scale c; the
// scalar constants go.
// CHECK-LABEL: func @hard_swish
// CHECK: %[[F:.*]] = "tf._FusedConv2D"
// CHECK-SAME: fused_ops = ["BiasAdd", "HardSwish"]
// CHECK-SAME: hard_swish_scale = 0.166625977 : f32
// CHECK-NOT: "tf.Mul"
// CHECK-NOT: "tf.Relu6"
// CHECK: return %[[F]]
func.func @hard_swish(%x: tensor<1x4x4x3xf32>) -> tensor<*xf32> {
  %w = "tf.Const"() {value = dense<1.0> : tensor<1x1x3x8xf32>} : () -> tensor<1x1x3x8xf32>
  %b = "tf.Const"() {value = dense<0.5> : tensor<8xf32>} : () -> tensor<8xf32>
  %c = "tf.Const"() {value = dense<0.166625977> : tensor<f32>} : () -> tensor<f32>
  %three = "tf.Const"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x8xf32>) -> tensor<*xf32>
  %1 = "tf.Add"(%0, %b) : (tensor<*xf32>, tensor<8xf32>) -> tensor<*xf32>
  %2 = "tf.Mul"(%c, %1) : (tensor<f32>, tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.AddV2"(%1, %three) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %4 = "tf.Relu6"(%3) : (tensor<*xf32>) -> tensor<*xf32>
  %5 = "tf.Mul"(%2, %4) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %5 : tensor<*xf32>
}

// -----

// Not a hard swish: the shift is not 3, so the ops stay (the bias fuses).
// CHECK-LABEL: func @not_hard_swish
// CHECK: fused_ops = ["BiasAdd"]
// CHECK: "tf.Relu6"
func.func @not_hard_swish(%x: tensor<1x4x4x3xf32>) -> tensor<*xf32> {
  %w = "tf.Const"() {value = dense<1.0> : tensor<1x1x3x8xf32>} : () -> tensor<1x1x3x8xf32>
  %b = "tf.Const"() {value = dense<0.5> : tensor<8xf32>} : () -> tensor<8xf32>
  %c = "tf.Const"() {value = dense<0.166625977> : tensor<f32>} : () -> tensor<f32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x3xf32>, tensor<1x1x3x8xf32>) -> tensor<*xf32>
  %1 = "tf.Add"(%0, %b) : (tensor<*xf32>, tensor<8xf32>) -> tensor<*xf32>
  %2 = "tf.Mul"(%c, %1) : (tensor<f32>, tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.AddV2"(%1, %two) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %4 = "tf.Relu6"(%3) : (tensor<*xf32>) -> tensor<*xf32>
  %5 = "tf.Mul"(%2, %4) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %5 : tensor<*xf32>
}

// -----

// Grappler's order, the residual before the bias (AddOpsRewrite): a
// convolution whose only user is an AddN of it and a feature map, followed
// by the bias and an activation, becomes one fused convolution with
// fused_ops ["BiasAdd", "Add", "Relu6"].
// CHECK-LABEL: func @residual_then_bias
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x8xf32>, %[[R:.*]]: tensor<1x4x4x8xf32>)
// CHECK: %[[F:.*]] = "tf._FusedConv2D"(%[[X]], %{{.*}}, %{{.*}}, %[[R]])
// CHECK-SAME: fused_ops = ["BiasAdd", "Add", "Relu6"]
// CHECK-SAME: num_args = 2
// CHECK-NOT: "tf.AddN"
// CHECK: return %[[F]]
func.func @residual_then_bias(%x: tensor<1x4x4x8xf32>, %r: tensor<1x4x4x8xf32>) -> tensor<*xf32> {
  %w = "tf.Const"() {value = dense<1.0> : tensor<1x1x8x8xf32>} : () -> tensor<1x1x8x8xf32>
  %b = "tf.Const"() {value = dense<0.5> : tensor<8xf32>} : () -> tensor<8xf32>
  %0 = "tf.Conv2D"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x8xf32>, tensor<1x1x8x8xf32>) -> tensor<*xf32>
  %1 = "tf.AddN"(%0, %r) {N = 2 : i64} : (tensor<*xf32>, tensor<1x4x4x8xf32>) -> tensor<*xf32>
  %2 = "tf.AddV2"(%b, %1) : (tensor<8xf32>, tensor<*xf32>) -> tensor<*xf32>
  %3 = "tf.Relu6"(%2) : (tensor<*xf32>) -> tensor<*xf32>
  return %3 : tensor<*xf32>
}

// -----

// TF.js's tf.Prelu after a fused convolution with a residual Add becomes
// its fused "Prelu" (alpha one more argument, after the addend).
// CHECK-LABEL: func @prelu_op
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x8xf32>, %[[R:.*]]: tensor<1x4x4x8xf32>, %[[A:.*]]: tensor<1x1x8xf32>)
// CHECK: %[[F:.*]] = "tf._FusedConv2D"(%[[X]], %{{.*}}, %{{.*}}, %[[R]], %[[A]])
// CHECK-SAME: fused_ops = ["BiasAdd", "Add", "Prelu"]
// CHECK-SAME: num_args = 3
// CHECK-NOT: "tf.Prelu"
// CHECK: return %[[F]]
func.func @prelu_op(%x: tensor<1x4x4x8xf32>, %r: tensor<1x4x4x8xf32>, %alpha: tensor<1x1x8xf32>) -> tensor<*xf32> {
  %w = "tf.Const"() {value = dense<1.0> : tensor<1x1x8x8xf32>} : () -> tensor<1x1x8x8xf32>
  %b = "tf.Const"() {value = dense<0.5> : tensor<8xf32>} : () -> tensor<8xf32>
  %0 = "tf._FusedConv2D"(%x, %w, %b, %r) {T = f32, fused_ops = ["BiasAdd", "Add"], num_args = 2 : i64, padding = "SAME", strides = [1, 1, 1, 1], epsilon = 0.0 : f32} : (tensor<1x4x4x8xf32>, tensor<1x1x8x8xf32>, tensor<8xf32>, tensor<1x4x4x8xf32>) -> tensor<*xf32>
  %1 = "tf.Prelu"(%0, %alpha) : (tensor<*xf32>, tensor<1x1x8xf32>) -> tensor<*xf32>
  return %1 : tensor<*xf32>
}

// -----

// A depthwise convolution whose output is scaled per channel (a batch
// norm a converter left as Mul and Add), then shifted, Relu'd and clipped
// to [0, 6] with Minimum and Maximum: the scale goes into the filter
// (2 * (1, 3) = (2, 6)), the shift becomes the bias, the clip a Relu6
// that takes the Relu's place.
// CHECK-LABEL: func @scale_shift_clip
// CHECK: %[[W:.*]] = "tf.Const"() {dtype = f32, value = dense<{{\[\[\[\[}}2.000000e+00], [6.000000e+00]]]]> : tensor<1x1x2x1xf32>}
// CHECK: %[[F:.*]] = "tf._FusedDepthwiseConv2dNative"(%arg0, %[[W]], %{{[0-9]+}})
// CHECK-SAME: fused_ops = ["BiasAdd", "Relu6"]
// CHECK-NOT: "tf.Mul"
// CHECK-NOT: "tf.Minimum"
// CHECK-NOT: "tf.Maximum"
// CHECK: return %[[F]]
func.func @scale_shift_clip(%x: tensor<1x4x4x2xf32>) -> tensor<*xf32> {
  %w = "tf.Const"() {value = dense<[[[[1.0], [3.0]]]]> : tensor<1x1x2x1xf32>} : () -> tensor<1x1x2x1xf32>
  %s = "tf.Const"() {value = dense<2.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "tf.Const"() {value = dense<0.5> : tensor<2xf32>} : () -> tensor<2xf32>
  %six = "tf.Const"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.DepthwiseConv2dNative"(%x, %w) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<1x4x4x2xf32>, tensor<1x1x2x1xf32>) -> tensor<*xf32>
  %1 = "tf.Mul"(%0, %s) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %2 = "tf.Add"(%1, %b) : (tensor<*xf32>, tensor<2xf32>) -> tensor<*xf32>
  %3 = "tf.Relu"(%2) : (tensor<*xf32>) -> tensor<*xf32>
  %4 = "tf.Minimum"(%3, %six) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  %5 = "tf.Maximum"(%4, %zero) : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
  return %5 : tensor<*xf32>
}

// -----

// A clip to other bounds is no Relu6.
// CHECK-LABEL: func @other_clip
// CHECK: "tf.Minimum"
// CHECK: "tf.Maximum"
func.func @other_clip(%x: tensor<4xf32>) -> tensor<4xf32> {
  %five = "tf.Const"() {value = dense<5.0> : tensor<f32>} : () -> tensor<f32>
  %zero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Minimum"(%x, %five) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "tf.Maximum"(%0, %zero) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

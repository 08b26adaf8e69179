// RUN: fallback-opt %s --tfrt-fallback-infer-shapes --split-input-file | FileCheck %s

// Expected shapes are worked out by hand from TensorFlow's shape functions.

// Element-wise: one operand keeps its shape, two broadcast (3x1x5 with 4x1
// is 3x4x5; an unknown dim broadcast with 7 is 7, with 1 stays unknown).
// CHECK-LABEL: func @elementwise
// CHECK-SAME: -> (tensor<3x4x5xf32>, tensor<7x?xf32>)
// CHECK: "tf.Relu"{{.*}} -> tensor<3x1x5xf32>
// CHECK: "tf.AddV2"{{.*}} -> tensor<3x4x5xf32>
// CHECK: "tf.Mul"{{.*}} -> tensor<7x?xf32>
// CHECK: "tf.Less"{{.*}} -> tensor<3x4x5xi1>
// CHECK: "tf.Cast"{{.*}} -> tensor<3x4x5xf32>
// CHECK: return {{.*}} : tensor<3x4x5xf32>, tensor<7x?xf32>
func.func @elementwise(%a: tensor<3x1x5xf32>, %b: tensor<4x1xf32>, %c: tensor<?x1xf32>, %d: tensor<7x?xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.Relu"(%a) : (tensor<3x1x5xf32>) -> tensor<*xf32>
  %1 = "tf.AddV2"(%0, %b) : (tensor<*xf32>, tensor<4x1xf32>) -> tensor<*xf32>
  %2 = "tf.Mul"(%c, %d) : (tensor<?x1xf32>, tensor<7x?xf32>) -> tensor<*xf32>
  %3 = "tf.Less"(%1, %b) : (tensor<*xf32>, tensor<4x1xf32>) -> tensor<*xi1>
  %4 = "tf.Cast"(%3) {DstT = f32, SrcT = i1} : (tensor<*xi1>) -> tensor<*xf32>
  return %4, %2 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Shapes that do not broadcast (3 and 4) are the kernel's error to report:
// the result keeps its type; so does an op without a rule.
// CHECK-LABEL: func @unrefined
// CHECK: "tf.AddV2"{{.*}} -> tensor<*xf32>
// CHECK: "tf.SomeUnknownOp"{{.*}} -> tensor<*xf32>
// CHECK: "tf.Relu"{{.*}} -> tensor<*xf32>
func.func @unrefined(%a: tensor<3xf32>, %b: tensor<4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.AddV2"(%a, %b) : (tensor<3xf32>, tensor<4xf32>) -> tensor<*xf32>
  %1 = "tf.SomeUnknownOp"(%a) : (tensor<3xf32>) -> tensor<*xf32>
  %2 = "tf.Relu"(%1) : (tensor<*xf32>) -> tensor<*xf32>
  return %0, %2 : tensor<*xf32>, tensor<*xf32>
}

// -----

// A declared static dim is kept; a declared type the rule contradicts too.
// CHECK-LABEL: func @declared
// CHECK: "tf.Relu"{{.*}} -> tensor<2x3xf32>
// CHECK: "tf.Tanh"{{.*}} -> tensor<5x3xf32>
func.func @declared(%a: tensor<?x3xf32>, %b: tensor<2x?xf32>) -> (tensor<2x3xf32>, tensor<5x3xf32>) {
  %0 = "tf.Relu"(%b) : (tensor<2x?xf32>) -> tensor<?x3xf32>
  %1 = "tf.Tanh"(%0) : (tensor<?x3xf32>) -> tensor<5x3xf32>
  %2 = "tf.Identity"(%0) : (tensor<?x3xf32>) -> tensor<2x3xf32>
  return %2, %1 : tensor<2x3xf32>, tensor<5x3xf32>
}

// -----

// Convolutions, NHWC. SAME, stride 2: ceil(256 / 2) = 128. VALID 3x3,
// stride 1: 16 - 3 + 1 = 14. VALID 3x3 dilated 2 (an effective 5x5),
// stride 2: (16 - 5) / 2 + 1 = 6. EXPLICIT (1, 2) rows, (0, 0) columns, 3x3,
// stride 1: 16 + 3 - 3 + 1 = 17 rows, 14 columns. Depthwise: 24 channels
// times a multiplier of 2 = 48.
// CHECK-LABEL: func @convolutions
// CHECK: "tf.Conv2D"{{.*}} -> tensor<1x128x128x24xf32>
// CHECK: "tf._FusedConv2D"{{.*}} -> tensor<1x128x128x24xf32>
// CHECK: "tf.Conv2D"{{.*}} -> tensor<2x14x14x8xf32>
// CHECK: "tf.Conv2D"{{.*}} -> tensor<2x6x6x8xf32>
// CHECK: "tf.Conv2D"{{.*}} -> tensor<2x17x14x8xf32>
// CHECK: "tf.DepthwiseConv2dNative"{{.*}} -> tensor<1x64x64x48xf32>
// CHECK: "tf.FusedDepthwiseConv2dNative"{{.*}} -> tensor<1x128x128x48xf32>
// CHECK: "tf.Conv2D"{{.*}} -> tensor<?x?x?x8xf32>
func.func @convolutions(%x: tensor<1x256x256x3xf32>, %w: tensor<5x5x3x24xf32>, %b: tensor<24xf32>,
                        %y: tensor<2x16x16x4xf32>, %v: tensor<3x3x4x8xf32>,
                        %d: tensor<3x3x24x2xf32>, %b48: tensor<48xf32>, %u: tensor<*xf32>) {
  %0 = "tf.Conv2D"(%x, %w) {data_format = "NHWC", padding = "SAME", strides = [1, 2, 2, 1], dilations = [1, 1, 1, 1]} : (tensor<1x256x256x3xf32>, tensor<5x5x3x24xf32>) -> tensor<*xf32>
  %1 = "tf._FusedConv2D"(%x, %w, %b) {fused_ops = ["BiasAdd", "Relu"], num_args = 1 : i64, padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x256x256x3xf32>, tensor<5x5x3x24xf32>, tensor<24xf32>) -> tensor<*xf32>
  %2 = "tf.Conv2D"(%y, %v) {padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<*xf32>
  %3 = "tf.Conv2D"(%y, %v) {padding = "VALID", strides = [1, 2, 2, 1], dilations = [1, 2, 2, 1]} : (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<*xf32>
  %4 = "tf.Conv2D"(%y, %v) {padding = "EXPLICIT", explicit_paddings = [0, 0, 1, 2, 0, 0, 0, 0], strides = [1, 1, 1, 1]} : (tensor<2x16x16x4xf32>, tensor<3x3x4x8xf32>) -> tensor<*xf32>
  %5 = "tf.DepthwiseConv2dNative"(%1, %d) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<*xf32>, tensor<3x3x24x2xf32>) -> tensor<*xf32>
  %6 = "tf.FusedDepthwiseConv2dNative"(%1, %d, %b48) {fused_ops = ["BiasAdd"], num_args = 1 : i64, padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<*xf32>, tensor<3x3x24x2xf32>, tensor<48xf32>) -> tensor<*xf32>
  %7 = "tf.Conv2D"(%u, %v) {padding = "SAME", strides = [1, 1, 1, 1]} : (tensor<*xf32>, tensor<3x3x4x8xf32>) -> tensor<*xf32>
  return
}

// -----

// NCHW: channels in dim 1. VALID 3x3, stride 1 on 10x12: 8x10.
// CHECK-LABEL: func @conv_nchw
// CHECK: "tf.Conv2D"{{.*}} -> tensor<1x8x8x10xf32>
func.func @conv_nchw(%x: tensor<1x4x10x12xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<*xf32> {
  %0 = "tf.Conv2D"(%x, %w) {data_format = "NCHW", padding = "VALID", strides = [1, 1, 1, 1]} : (tensor<1x4x10x12xf32>, tensor<3x3x4x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Pooling: 2x2 stride 2 SAME on 7x7 = ceil(7 / 2) = 4; 3x3 stride 2
// VALID on 7x7 = (7 - 3) / 2 + 1 = 3.
// CHECK-LABEL: func @pooling
// CHECK: "tf.MaxPool"{{.*}} -> tensor<1x4x4x5xf32>
// CHECK: "tf.AvgPool"{{.*}} -> tensor<1x3x3x5xf32>
func.func @pooling(%x: tensor<1x7x7x5xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %0 = "tf.MaxPool"(%x) {ksize = [1, 2, 2, 1], padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x7x7x5xf32>) -> tensor<*xf32>
  %1 = "tf.AvgPool"(%x) {ksize = [1, 3, 3, 1], padding = "VALID", strides = [1, 2, 2, 1]} : (tensor<1x7x7x5xf32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Matrix products: [3, 4] x [4, 5] = [3, 5]; transposed [4, 3]^T x
// [5, 4]^T = [3, 5]; batched [2, 1, 3, 4] x [6, 4, 5] = [2, 6, 3, 5].
// CHECK-LABEL: func @matmul
// CHECK: "tf.MatMul"{{.*}} -> tensor<3x5xf32>
// CHECK: "tf._FusedMatMul"{{.*}} -> tensor<3x5xf32>
// CHECK: "tf.BatchMatMulV2"{{.*}} -> tensor<2x6x3x5xf32>
func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %at: tensor<4x3xf32>, %bt: tensor<5x4xf32>, %bias: tensor<5xf32>,
                  %c: tensor<2x1x3x4xf32>, %d: tensor<6x4x5xf32>) {
  %0 = "tf.MatMul"(%a, %b) {transpose_a = false, transpose_b = false} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<*xf32>
  %1 = "tf._FusedMatMul"(%at, %bt, %bias) {fused_ops = ["BiasAdd"], num_args = 1 : i64, transpose_a = true, transpose_b = true} : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<*xf32>
  %2 = "tf.BatchMatMulV2"(%c, %d) : (tensor<2x1x3x4xf32>, tensor<6x4x5xf32>) -> tensor<*xf32>
  return
}

// -----

// Reshape: [2, 3, 4] (24 elements) to [-1, 4] is [6, 4]; to a shape
// packed from constants and an unknown scalar, [?, 8, 3]; of an unknown
// input to [-1, 4], [?, 4].
// CHECK-LABEL: func @reshape
// CHECK: "tf.Reshape"{{.*}} -> tensor<6x4xf32>
// CHECK: "tf.Pack"{{.*}} -> tensor<3xi32>
// CHECK: "tf.Reshape"{{.*}} -> tensor<?x8x3xf32>
// CHECK: "tf.Reshape"{{.*}} -> tensor<?x4xf32>
func.func @reshape(%x: tensor<2x3x4xf32>, %n: tensor<i32>, %u: tensor<*xf32>) {
  %s = "tf.Const"() {dtype = i32, value = dense<[-1, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<*xf32>
  %c8 = "tf.Const"() {dtype = i32, value = dense<8> : tensor<i32>} : () -> tensor<i32>
  %c3 = "tf.Const"() {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %p = "tf.Pack"(%n, %c8, %c3) {axis = 0 : i64} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  %1 = "tf.Reshape"(%x, %p) : (tensor<2x3x4xf32>, tensor<*xi32>) -> tensor<*xf32>
  %2 = "tf.Reshape"(%u, %s) : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
  return
}

// -----

// A reshape of 24 elements to [5, 5] or to [-1, 5] cannot match: the
// kernel reports it at run time, the result keeps its type.
// CHECK-LABEL: func @reshape_invalid
// CHECK: "tf.Reshape"{{.*}} -> tensor<*xf32>
// CHECK: "tf.Reshape"{{.*}} -> tensor<*xf32>
func.func @reshape_invalid(%x: tensor<2x3x4xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %s = "tf.Const"() {dtype = i32, value = dense<[5, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<*xf32>
  %t = "tf.Const"() {dtype = i32, value = dense<[-1, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.Reshape"(%x, %t) : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// Reshape of empty tensors, as TF's kernel does it: next to a 0 in the
// request, zero dims of the input are left out of the -1's inference
// ([0, 3] to [0, -1] is [0, 3]; [3, 0, 2] to [-1, 0] is [6, 0]); without
// one, an empty input makes the -1 zero, even beside an unknown dim.
// CHECK-LABEL: func @reshape_empty
// CHECK: "tf.Reshape"{{.*}} -> tensor<0x3xf32>
// CHECK: "tf.Reshape"{{.*}} -> tensor<6x0xf32>
// CHECK: "tf.Reshape"{{.*}} -> tensor<0x5xf32>
func.func @reshape_empty(%x: tensor<0x3xf32>, %y: tensor<3x0x2xf32>, %z: tensor<0x?xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) {
  %s = "tf.Const"() {dtype = i32, value = dense<[0, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Reshape"(%x, %s) : (tensor<0x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  %t = "tf.Const"() {dtype = i32, value = dense<[-1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.Reshape"(%y, %t) : (tensor<3x0x2xf32>, tensor<2xi32>) -> tensor<*xf32>
  %u = "tf.Const"() {dtype = i32, value = dense<[-1, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %2 = "tf.Reshape"(%z, %u) : (tensor<0x?xf32>, tensor<2xi32>) -> tensor<*xf32>
  return %0, %1, %2 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
}

// -----

// tf.Shape, tf.Size and tf.Rank of a static shape become constants; of a
// partly known shape, tf.Shape has a known size and tf.Rank is a constant.
// CHECK-LABEL: func @shape_ops
// CHECK-DAG: "tf.Const"() {dtype = i32, value = dense<[2, 3, 4]> : tensor<3xi32>} : () -> tensor<3xi32>
// CHECK-DAG: "tf.Const"() {dtype = i64, value = dense<[2, 3, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
// CHECK-DAG: "tf.Const"() {dtype = i32, value = dense<24> : tensor<i32>} : () -> tensor<i32>
// CHECK-DAG: "tf.Const"() {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
// CHECK-DAG: "tf.Shape"(%{{.*}}) : (tensor<?x5xf32>) -> tensor<2xi32>
// CHECK-DAG: "tf.Size"(%{{.*}}) : (tensor<?x5xf32>) -> tensor<i32>
// CHECK-NOT: "tf.Rank"
// CHECK: return
func.func @shape_ops(%x: tensor<2x3x4xf32>, %y: tensor<?x5xf32>) -> (tensor<*xi32>, tensor<*xi64>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>) {
  %0 = "tf.Shape"(%x) {out_type = i32} : (tensor<2x3x4xf32>) -> tensor<*xi32>
  %1 = "tf.Shape"(%x) {out_type = i64} : (tensor<2x3x4xf32>) -> tensor<*xi64>
  %2 = "tf.Size"(%x) : (tensor<2x3x4xf32>) -> tensor<*xi32>
  %3 = "tf.Shape"(%y) : (tensor<?x5xf32>) -> tensor<*xi32>
  %4 = "tf.Size"(%y) : (tensor<?x5xf32>) -> tensor<*xi32>
  %5 = "tf.Rank"(%y) : (tensor<?x5xf32>) -> tensor<*xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<*xi32>, tensor<*xi64>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>
}

// -----

// Transpose by [0, 3, 1, 2]: [1, 8, 6, 3] becomes [1, 3, 8, 6]. ConcatV2
// on axis -1 (3) of [1, 8, 6, 3] and [1, 8, 6, 5]: [1, 8, 6, 8]; with an
// unknown operand the axis size is unknown, the rest merged.
// CHECK-LABEL: func @transpose_concat
// CHECK: "tf.Transpose"{{.*}} -> tensor<1x3x8x6xf32>
// CHECK: "tf.ConcatV2"{{.*}} -> tensor<1x8x6x8xf32>
// CHECK: "tf.ConcatV2"{{.*}} -> tensor<1x8x6x?xf32>
func.func @transpose_concat(%x: tensor<1x8x6x3xf32>, %y: tensor<1x8x6x5xf32>, %u: tensor<?x?x?x?xf32>) {
  %perm = "tf.Const"() {dtype = i32, value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "tf.Transpose"(%x, %perm) : (tensor<1x8x6x3xf32>, tensor<4xi32>) -> tensor<*xf32>
  %axis = "tf.Const"() {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.ConcatV2"(%x, %y, %axis) {N = 2 : i64} : (tensor<1x8x6x3xf32>, tensor<1x8x6x5xf32>, tensor<i32>) -> tensor<*xf32>
  %2 = "tf.ConcatV2"(%x, %u, %axis) {N = 2 : i64} : (tensor<1x8x6x3xf32>, tensor<?x?x?x?xf32>, tensor<i32>) -> tensor<*xf32>
  return
}

// -----

// Pad [[0, 0], [1, 2], [3, 4], [0, 0]] on [1, 5, 5, 2]: [1, 8, 12, 2].
// CHECK-LABEL: func @pad
// CHECK: "tf.Pad"{{.*}} -> tensor<1x8x12x2xf32>
// CHECK: "tf.MirrorPad"{{.*}} -> tensor<1x8x12x2xf32>
// CHECK: "tf.PadV2"{{.*}} -> tensor<?x?x?x?xf32>
func.func @pad(%x: tensor<1x5x5x2xf32>, %p: tensor<4x2xi32>, %c: tensor<f32>) {
  %paddings = "tf.Const"() {dtype = i32, value = dense<[[0, 0], [1, 2], [3, 4], [0, 0]]> : tensor<4x2xi32>} : () -> tensor<4x2xi32>
  %0 = "tf.Pad"(%x, %paddings) : (tensor<1x5x5x2xf32>, tensor<4x2xi32>) -> tensor<*xf32>
  %1 = "tf.MirrorPad"(%x, %paddings) {mode = "REFLECT"} : (tensor<1x5x5x2xf32>, tensor<4x2xi32>) -> tensor<*xf32>
  %2 = "tf.PadV2"(%x, %p, %c) : (tensor<1x5x5x2xf32>, tensor<4x2xi32>, tensor<f32>) -> tensor<*xf32>
  return
}

// -----

// Reductions of [2, 3, 4, 5] over axes [1, -1]: [2, 4], or [2, 1, 4, 1]
// with keep_dims; ArgMax over axis 2: [2, 3, 5].
// CHECK-LABEL: func @reductions
// CHECK: "tf.Mean"{{.*}} -> tensor<2x4xf32>
// CHECK: "tf.Sum"{{.*}} -> tensor<2x1x4x1xf32>
// CHECK: "tf.ArgMax"{{.*}} -> tensor<2x3x5xi64>
func.func @reductions(%x: tensor<2x3x4x5xf32>) {
  %axes = "tf.Const"() {dtype = i32, value = dense<[1, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Mean"(%x, %axes) {keep_dims = false} : (tensor<2x3x4x5xf32>, tensor<2xi32>) -> tensor<*xf32>
  %1 = "tf.Sum"(%x, %axes) {keep_dims = true} : (tensor<2x3x4x5xf32>, tensor<2xi32>) -> tensor<*xf32>
  %two = "tf.Const"() {dtype = i32, value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %2 = "tf.ArgMax"(%x, %two) : (tensor<2x3x4x5xf32>, tensor<i32>) -> tensor<*xi64>
  return
}

// -----

// Squeeze dims [1] of [2, 1, 3, 1]: [2, 3, 1]; all dims of size 1: [2, 3].
// ExpandDims at -1: [2, 1, 3, 1, 1]; at 0: [1, 2, 1, 3, 1].
// CHECK-LABEL: func @squeeze_expand
// CHECK: "tf.Squeeze"{{.*}} -> tensor<2x3x1xf32>
// CHECK: "tf.Squeeze"{{.*}} -> tensor<2x3xf32>
// CHECK: "tf.ExpandDims"{{.*}} -> tensor<2x1x3x1x1xf32>
// CHECK: "tf.ExpandDims"{{.*}} -> tensor<1x2x1x3x1xf32>
func.func @squeeze_expand(%x: tensor<2x1x3x1xf32>) {
  %0 = "tf.Squeeze"(%x) {squeeze_dims = [1]} : (tensor<2x1x3x1xf32>) -> tensor<*xf32>
  %1 = "tf.Squeeze"(%x) {squeeze_dims = []} : (tensor<2x1x3x1xf32>) -> tensor<*xf32>
  %m1 = "tf.Const"() {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %2 = "tf.ExpandDims"(%x, %m1) : (tensor<2x1x3x1xf32>, tensor<i32>) -> tensor<*xf32>
  %z = "tf.Const"() {dtype = i32, value = dense<[0]> : tensor<1xi32>} : () -> tensor<1xi32>
  %3 = "tf.ExpandDims"(%x, %z) : (tensor<2x1x3x1xf32>, tensor<1xi32>) -> tensor<*xf32>
  return
}

// -----

// StridedSlice of [10, 20, 30]:
// - [1:7:2, :, -1] (shrink axis 2, end_mask on dim 1): 1, 3, 5 -> [3, 20];
// - [..., tf.newaxis, 2:] (ellipsis first): [10, 20, 1, 28];
// - [::-1, 5:2:-1] (begin and end masks on dim 0): [10, 3, 30];
// - [0] (shrink) on an input of unknown dims [?, ?]: [?].
// CHECK-LABEL: func @strided_slice
// CHECK: "tf.StridedSlice"{{.*}} -> tensor<3x20xf32>
// CHECK: "tf.StridedSlice"{{.*}} -> tensor<10x20x1x28xf32>
// CHECK: "tf.StridedSlice"{{.*}} -> tensor<10x3x30xf32>
// CHECK: "tf.StridedSlice"{{.*}} -> tensor<?xf32>
func.func @strided_slice(%x: tensor<10x20x30xf32>, %u: tensor<?x?xf32>) {
  %b0 = "tf.Const"() {dtype = i32, value = dense<[1, 0, -1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %e0 = "tf.Const"() {dtype = i32, value = dense<[7, 0, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s0 = "tf.Const"() {dtype = i32, value = dense<[2, 1, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.StridedSlice"(%x, %b0, %e0, %s0) {begin_mask = 2 : i64, end_mask = 2 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 4 : i64} : (tensor<10x20x30xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
  %b1 = "tf.Const"() {dtype = i32, value = dense<[0, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %e1 = "tf.Const"() {dtype = i32, value = dense<[0, 0, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %s1 = "tf.Const"() {dtype = i32, value = dense<[1, 1, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %1 = "tf.StridedSlice"(%x, %b1, %e1, %s1) {begin_mask = 0 : i64, end_mask = 4 : i64, ellipsis_mask = 1 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 0 : i64} : (tensor<10x20x30xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
  %b2 = "tf.Const"() {dtype = i32, value = dense<[0, 5]> : tensor<2xi32>} : () -> tensor<2xi32>
  %e2 = "tf.Const"() {dtype = i32, value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s2 = "tf.Const"() {dtype = i32, value = dense<[-1, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %2 = "tf.StridedSlice"(%x, %b2, %e2, %s2) {begin_mask = 1 : i64, end_mask = 1 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<10x20x30xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
  %b3 = "tf.Const"() {dtype = i32, value = dense<[0]> : tensor<1xi32>} : () -> tensor<1xi32>
  %e3 = "tf.Const"() {dtype = i32, value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %s3 = "tf.Const"() {dtype = i32, value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %3 = "tf.StridedSlice"(%u, %b3, %e3, %s3) {begin_mask = 0 : i64, end_mask = 0 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64} : (tensor<?x?xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
  return
}

// -----

// An index out of range for a shrunk axis (5 of 4) is the kernel's error.
// CHECK-LABEL: func @strided_slice_invalid
// CHECK: "tf.StridedSlice"{{.*}} -> tensor<*xf32>
func.func @strided_slice_invalid(%x: tensor<4xf32>) -> tensor<*xf32> {
  %b = "tf.Const"() {dtype = i32, value = dense<[5]> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {dtype = i32, value = dense<[6]> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tf.Const"() {dtype = i32, value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = "tf.StridedSlice"(%x, %b, %e, %s) {shrink_axis_mask = 1 : i64} : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// TF.js's shape arithmetic: Reshape(x, Pack(Shape(x)[0], 8)) of a [4, 2, 4]
// tensor: the shape refiner reads Shape(x)[0] = 4 through the slice, so the
// result is [4, 8]; Shape(x) itself becomes a constant.
// CHECK-LABEL: func @shape_arithmetic
// CHECK: %[[SHAPE:.*]] = "tf.Const"() {dtype = i32, value = dense<[4, 2, 4]> : tensor<3xi32>}
// CHECK: "tf.StridedSlice"(%[[SHAPE]], {{.*}} -> tensor<i32>
// CHECK: "tf.Pack"{{.*}} -> tensor<2xi32>
// CHECK: "tf.Reshape"{{.*}} -> tensor<4x8xf32>
func.func @shape_arithmetic(%x: tensor<4x2x4xf32>) -> tensor<*xf32> {
  %0 = "tf.Shape"(%x) : (tensor<4x2x4xf32>) -> tensor<*xi32>
  %b = "tf.Const"() {dtype = i32, value = dense<[0]> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "tf.Const"() {dtype = i32, value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tf.Const"() {dtype = i32, value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %1 = "tf.StridedSlice"(%0, %b, %e, %s) {shrink_axis_mask = 1 : i64} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
  %c8 = "tf.Const"() {dtype = i32, value = dense<8> : tensor<i32>} : () -> tensor<i32>
  %2 = "tf.Pack"(%1, %c8) {axis = 0 : i64} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %3 = "tf.Reshape"(%x, %2) : (tensor<4x2x4xf32>, tensor<*xi32>) -> tensor<*xf32>
  return %3 : tensor<*xf32>
}

// -----

// Slice of [5, 6, 7] at [1, 2, 3] of sizes [2, -1, 4]: [2, 4, 4].
// Pack of three [2, 3] on axis 1: [2, 3, 3]; Unpack of [4, 5] on axis 0:
// four [5]. Split of [6, 9] in 3 on axis 1: [6, 3] each; SplitV [2, -1]
// on axis 0: [2, 9] and [4, 9].
// CHECK-LABEL: func @slice_pack_split
// CHECK: "tf.Slice"{{.*}} -> tensor<2x4x4xf32>
// CHECK: "tf.Pack"{{.*}} -> tensor<2x3x3xf32>
// CHECK: "tf.Unpack"{{.*}} -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>)
// CHECK: "tf.Split"{{.*}} -> (tensor<6x3xf32>, tensor<6x3xf32>, tensor<6x3xf32>)
// CHECK: "tf.SplitV"{{.*}} -> (tensor<2x9xf32>, tensor<4x9xf32>)
func.func @slice_pack_split(%x: tensor<5x6x7xf32>, %a: tensor<2x3xf32>, %u: tensor<4x5xf32>, %v: tensor<6x9xf32>) {
  %begin = "tf.Const"() {dtype = i32, value = dense<[1, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %size = "tf.Const"() {dtype = i32, value = dense<[2, -1, 4]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "tf.Slice"(%x, %begin, %size) : (tensor<5x6x7xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
  %1 = "tf.Pack"(%a, %a, %a) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<*xf32>
  %2:4 = "tf.Unpack"(%u) {axis = 0 : i64, num = 4 : i64} : (tensor<4x5xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  %one = "tf.Const"() {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %3:3 = "tf.Split"(%one, %v) {num_split = 3 : i64} : (tensor<i32>, tensor<6x9xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
  %sizes = "tf.Const"() {dtype = i32, value = dense<[2, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %zero = "tf.Const"() {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %4:2 = "tf.SplitV"(%v, %sizes, %zero) {num_split = 2 : i64} : (tensor<6x9xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
  return
}

// -----

// Fill [2, 3]; Tile [2, 3] by [2, 1]: [4, 3]; Range(0, 10, 3): 0, 3, 6, 9
// -> [4]; Range(10, 0, -4): 10, 6, 2 -> [3]; BroadcastTo [3] to [2, 3];
// GatherV2 of [5, 6, 7] by [2, 4] indices on axis 1: [5, 2, 4, 7].
// CHECK-LABEL: func @fill_tile_range_gather
// CHECK: "tf.Fill"{{.*}} -> tensor<2x3xf32>
// CHECK: "tf.Tile"{{.*}} -> tensor<4x3xf32>
// CHECK: "tf.Range"{{.*}} -> tensor<4xi32>
// CHECK: "tf.Range"{{.*}} -> tensor<3xi32>
// CHECK: "tf.BroadcastTo"{{.*}} -> tensor<2x3xf32>
// CHECK: "tf.GatherV2"{{.*}} -> tensor<5x2x4x7xf32>
func.func @fill_tile_range_gather(%v: tensor<f32>, %t: tensor<3xf32>, %p: tensor<5x6x7xf32>, %i: tensor<2x4xi32>) {
  %dims = "tf.Const"() {dtype = i32, value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Fill"(%dims, %v) : (tensor<2xi32>, tensor<f32>) -> tensor<*xf32>
  %mult = "tf.Const"() {dtype = i32, value = dense<[2, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = "tf.Tile"(%0, %mult) : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
  %c0 = "tf.Const"() {dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %c10 = "tf.Const"() {dtype = i32, value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %c3 = "tf.Const"() {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %cm4 = "tf.Const"() {dtype = i32, value = dense<-4> : tensor<i32>} : () -> tensor<i32>
  %2 = "tf.Range"(%c0, %c10, %c3) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  %3 = "tf.Range"(%c10, %c0, %cm4) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
  %4 = "tf.BroadcastTo"(%t, %dims) : (tensor<3xf32>, tensor<2xi32>) -> tensor<*xf32>
  %one = "tf.Const"() {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %5 = "tf.GatherV2"(%p, %i, %one) {batch_dims = 0 : i64} : (tensor<5x6x7xf32>, tensor<2x4xi32>, tensor<i32>) -> tensor<*xf32>
  return
}

// -----

// ResizeBilinear of [1, 10, 10, 3] to [20, 30]: [1, 20, 30, 3]. Select of
// [4, 5] values; SelectV2 broadcasts [4, 1] with [5]: [4, 5]. AddN of
// [?, 5] and [4, ?]: [4, 5].
// CHECK-LABEL: func @resize_select
// CHECK: "tf.ResizeBilinear"{{.*}} -> tensor<1x20x30x3xf32>
// CHECK: "tf.Select"{{.*}} -> tensor<4x5xf32>
// CHECK: "tf.SelectV2"{{.*}} -> tensor<4x5xf32>
// CHECK: "tf.AddN"{{.*}} -> tensor<4x5xf32>
func.func @resize_select(%x: tensor<1x10x10x3xf32>, %c: tensor<4x5xi1>, %a: tensor<4x5xf32>, %b: tensor<*xf32>,
                         %c1: tensor<4x1xi1>, %d: tensor<5xf32>, %e: tensor<?x5xf32>, %f: tensor<4x?xf32>) {
  %size = "tf.Const"() {dtype = i32, value = dense<[20, 30]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.ResizeBilinear"(%x, %size) {align_corners = false, half_pixel_centers = true} : (tensor<1x10x10x3xf32>, tensor<2xi32>) -> tensor<*xf32>
  %1 = "tf.Select"(%c, %a, %b) : (tensor<4x5xi1>, tensor<4x5xf32>, tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.SelectV2"(%c1, %d, %d) : (tensor<4x1xi1>, tensor<5xf32>, tensor<5xf32>) -> tensor<*xf32>
  %3 = "tf.AddN"(%e, %f) : (tensor<?x5xf32>, tensor<4x?xf32>) -> tensor<*xf32>
  return
}

// -----

// SpaceToBatchND of [1, 6, 7, 2] by block [2, 2] with paddings [[0, 0],
// [0, 1]]: [4, 3, 4, 2]; BatchToSpaceND back with crops [[0, 0], [0, 1]]:
// [1, 6, 7, 2]. TopKV2 with k = 3 of [2, 10]: [2, 3] twice.
// Conv2DBackpropInput with input_sizes [1, 8, 8, 3].
// CHECK-LABEL: func @space_batch_topk
// CHECK: "tf.SpaceToBatchND"{{.*}} -> tensor<4x3x4x2xf32>
// CHECK: "tf.BatchToSpaceND"{{.*}} -> tensor<1x6x7x2xf32>
// CHECK: "tf.TopKV2"{{.*}} -> (tensor<2x3xf32>, tensor<2x3xi32>)
// CHECK: "tf.Conv2DBackpropInput"{{.*}} -> tensor<1x8x8x3xf32>
func.func @space_batch_topk(%x: tensor<1x6x7x2xf32>, %t: tensor<2x10xf32>, %w: tensor<3x3x3x4xf32>, %g: tensor<1x4x4x4xf32>) {
  %block = "tf.Const"() {dtype = i32, value = dense<[2, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %pads = "tf.Const"() {dtype = i32, value = dense<[[0, 0], [0, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %0 = "tf.SpaceToBatchND"(%x, %block, %pads) : (tensor<1x6x7x2xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<*xf32>
  %1 = "tf.BatchToSpaceND"(%0, %block, %pads) : (tensor<*xf32>, tensor<2xi32>, tensor<2x2xi32>) -> tensor<*xf32>
  %k = "tf.Const"() {dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %2:2 = "tf.TopKV2"(%t, %k) {sorted = true} : (tensor<2x10xf32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xi32>)
  %sizes = "tf.Const"() {dtype = i32, value = dense<[1, 8, 8, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %3 = "tf.Conv2DBackpropInput"(%sizes, %w, %g) {padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<4xi32>, tensor<3x3x3x4xf32>, tensor<1x4x4x4xf32>) -> tensor<*xf32>
  return
}

// -----

// BatchMatMul with adjoints, batch dims equal: [2, 4, 3]^H x [2, 5, 4]^H =
// [2, 3, 5]; unequal batch dims (2 vs 3) are the kernel's error, the type
// stays; BatchMatMulV3 broadcasts [1, 3, 4] x [7, 4, 2] to [7, 3, 2].
// CHECK-LABEL: func @batch_matmul_adjoint
// CHECK: "tf.BatchMatMul"{{.*}} -> tensor<2x3x5xf32>
// CHECK: "tf.BatchMatMul"{{.*}} -> tensor<*xf32>
// CHECK: "tf.BatchMatMulV3"{{.*}} -> tensor<7x3x2xf32>
func.func @batch_matmul_adjoint(%a: tensor<2x4x3xf32>, %b: tensor<2x5x4xf32>, %c: tensor<3x3x4xf32>,
                                %d: tensor<1x3x4xf32>, %e: tensor<7x4x2xf32>) {
  %0 = "tf.BatchMatMul"(%a, %b) {adj_x = true, adj_y = true} : (tensor<2x4x3xf32>, tensor<2x5x4xf32>) -> tensor<*xf32>
  %1 = "tf.BatchMatMul"(%b, %c) : (tensor<2x5x4xf32>, tensor<3x3x4xf32>) -> tensor<*xf32>
  %2 = "tf.BatchMatMulV3"(%d, %e) {Ta = f32, Tb = f32, Tout = f32} : (tensor<1x3x4xf32>, tensor<7x4x2xf32>) -> tensor<*xf32>
  return
}

// -----

// IdentityN passes each operand's shape to its result; Concat takes its
// axis first: [2, 3] and [2, 5] on axis 1 is [2, 8], on an unknown axis
// [?, ?] (the rank is certain).
// CHECK-LABEL: func @identity_n_concat
// CHECK: "tf.IdentityN"{{.*}} -> (tensor<3x4xf32>, tensor<?x2xi32>)
// CHECK: "tf.Concat"{{.*}} -> tensor<2x8xf32>
// CHECK: "tf.Concat"{{.*}} -> tensor<?x?xf32>
func.func @identity_n_concat(%a: tensor<3x4xf32>, %b: tensor<?x2xi32>, %c: tensor<2x3xf32>, %d: tensor<2x5xf32>, %axis: tensor<i32>) {
  %0:2 = "tf.IdentityN"(%a, %b) {T = [f32, i32]} : (tensor<3x4xf32>, tensor<?x2xi32>) -> (tensor<*xf32>, tensor<*xi32>)
  %one = "tf.Const"() {dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.Concat"(%one, %c, %d) {N = 2 : i64} : (tensor<i32>, tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<*xf32>
  %2 = "tf.Concat"(%axis, %c, %d) {N = 2 : i64} : (tensor<i32>, tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<*xf32>
  return
}

// -----

// Data-dependent sizes: ArgMin of [3, 4, 5] over axis -1 is [3, 4]; Where
// of a [3, 4] condition gives one row of 2 coordinates per true element,
// [?, 2]; NonMaxSuppressionV5 selects at most max_output_size boxes: [?]
// indices, [?] scores and a scalar count; V4: [?] and a scalar.
// CHECK-LABEL: func @data_dependent
// CHECK: "tf.ArgMin"{{.*}} -> tensor<3x4xi64>
// CHECK: "tf.Where"{{.*}} -> tensor<?x2xi64>
// CHECK: "tf.NonMaxSuppressionV5"{{.*}} -> (tensor<?xi32>, tensor<?xf32>, tensor<i32>)
// CHECK: "tf.NonMaxSuppressionV4"{{.*}} -> (tensor<?xi32>, tensor<i32>)
func.func @data_dependent(%x: tensor<3x4x5xf32>, %cond: tensor<3x4xi1>, %boxes: tensor<10x4xf32>, %scores: tensor<10xf32>) {
  %minus1 = "tf.Const"() {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.ArgMin"(%x, %minus1) : (tensor<3x4x5xf32>, tensor<i32>) -> tensor<*xi64>
  %1 = "tf.Where"(%cond) : (tensor<3x4xi1>) -> tensor<*xi64>
  %max = "tf.Const"() {dtype = i32, value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %iou = "tf.Const"() {dtype = f32, value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %sigma = "tf.Const"() {dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2:3 = "tf.NonMaxSuppressionV5"(%boxes, %scores, %max, %iou, %iou, %sigma) {pad_to_max_output_size = false} : (tensor<10x4xf32>, tensor<10xf32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<*xi32>, tensor<*xf32>, tensor<*xi32>)
  %3:2 = "tf.NonMaxSuppressionV4"(%boxes, %scores, %max, %iou, %iou) {pad_to_max_output_size = false} : (tensor<10x4xf32>, tensor<10xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<*xi32>, tensor<*xi32>)
  return
}

// -----

// Reductions: Prod of [2, 3, 4] over [0, 2] with keep_dims is [1, 3, 1];
// Max over a scalar axis -1 is [2, 3]; All over axes only known at run
// time keeps the rank with keep_dims ([?, ?, ?]) and nothing without.
// CHECK-LABEL: func @reductions_more
// CHECK: "tf.Prod"{{.*}} -> tensor<1x3x1xf32>
// CHECK: "tf.Max"{{.*}} -> tensor<2x3xf32>
// CHECK: "tf.All"{{.*}} -> tensor<?x?x?xi1>
// CHECK: "tf.All"{{.*}} -> tensor<*xi1>
func.func @reductions_more(%x: tensor<2x3x4xf32>, %b: tensor<2x3x4xi1>, %axes: tensor<1xi32>) {
  %a02 = "tf.Const"() {dtype = i32, value = dense<[0, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = "tf.Prod"(%x, %a02) {keep_dims = true} : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<*xf32>
  %last = "tf.Const"() {dtype = i32, value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.Max"(%x, %last) {keep_dims = false} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<*xf32>
  %2 = "tf.All"(%b, %axes) {keep_dims = true} : (tensor<2x3x4xi1>, tensor<1xi32>) -> tensor<*xi1>
  %3 = "tf.All"(%b, %axes) {keep_dims = false} : (tensor<2x3x4xi1>, tensor<1xi32>) -> tensor<*xi1>
  return
}

// -----

// Same-shape ops keep their first operand's shape: BiasAdd [2, 3, 4, 5] +
// [5], Softmax, ClipByValue with scalar bounds; the TF.js fused depthwise
// convolution, [1, 9, 9, 4] with a [3, 3, 4, 2] filter, stride 2, SAME:
// ceil(9 / 2) = 5 rows and columns, 4 * 2 = 8 channels.
// CHECK-LABEL: func @same_shape_fused_depthwise
// CHECK: "tf.BiasAdd"{{.*}} -> tensor<2x3x4x5xf32>
// CHECK: "tf.Softmax"{{.*}} -> tensor<2x3x4x5xf32>
// CHECK: "tf.ClipByValue"{{.*}} -> tensor<2x3x4x5xf32>
// CHECK: "tf._FusedDepthwiseConv2dNative"{{.*}} -> tensor<1x5x5x8xf32>
func.func @same_shape_fused_depthwise(%x: tensor<2x3x4x5xf32>, %bias: tensor<5xf32>, %lo: tensor<f32>, %hi: tensor<f32>,
                                      %img: tensor<1x9x9x4xf32>, %f: tensor<3x3x4x2xf32>, %fb: tensor<8xf32>) {
  %0 = "tf.BiasAdd"(%x, %bias) {data_format = "NHWC"} : (tensor<2x3x4x5xf32>, tensor<5xf32>) -> tensor<*xf32>
  %1 = "tf.Softmax"(%0) : (tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.ClipByValue"(%1, %lo, %hi) : (tensor<*xf32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  %3 = "tf._FusedDepthwiseConv2dNative"(%img, %f, %fb) {data_format = "NHWC", dilations = [1, 1, 1, 1], fused_ops = ["BiasAdd"], num_args = 1 : i64, padding = "SAME", strides = [1, 2, 2, 1]} : (tensor<1x9x9x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>) -> tensor<*xf32>
  return
}

// -----

// Ops whose only rule is their op table row's Shape column (SameAsInput),
// with no code of their own in the pass: TF's shape functions for Cumsum,
// FakeQuantWithMinMaxArgs and Bucketize are UnchangedShape (Bucketize's
// result is int32).
// CHECK-LABEL: func @same_as_input_rows
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<2x3xi32>)
// CHECK: "tf.Cumsum"{{.*}} -> tensor<2x3xf32>
// CHECK: "tf.FakeQuantWithMinMaxArgs"{{.*}} -> tensor<2x3xf32>
// CHECK: "tf.Bucketize"{{.*}} -> tensor<2x3xi32>
func.func @same_as_input_rows(%x: tensor<2x3xf32>, %axis: tensor<i32>) -> (tensor<*xf32>, tensor<*xi32>) {
  %0 = "tf.Cumsum"(%x, %axis) {exclusive = false, reverse = false} : (tensor<2x3xf32>, tensor<i32>) -> tensor<*xf32>
  %1 = "tf.FakeQuantWithMinMaxArgs"(%0) {max = 6.0 : f32, min = -6.0 : f32, narrow_range = false, num_bits = 8 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  %2 = "tf.Bucketize"(%1) {boundaries = [0.0 : f32]} : (tensor<*xf32>) -> tensor<*xi32>
  return %1, %2 : tensor<*xf32>, tensor<*xi32>
}

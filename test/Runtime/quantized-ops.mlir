// The quantized ops chained on quint8/qint32 tensors: QuantizeV2 of a float
// input and of float constants, QuantizedMatMul, Requantize, Dequantize,
// QuantizedReshape and QuantizedConv2D. From the .mlir and through a .bef.
// Quantized tensors print as their integer codes.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy | FileCheck %s

// Hand-derived from x = [[1, 2, 3], [4, 5, 6]].
// #0: x in [0, 255] (MIN_COMBINED, quint8): x + 0.5 truncated, the codes
// are the values.
// CHECK: result #0: tensor<2x3x!tf_type.quint8>
// CHECK-NEXT: {{\[\[}}1, 2, 3],
// CHECK-NEXT: [4, 5, 6]]
// #1: b = [[1, 0], [0, 1], [2, -1]] in [-128, 127] (MIN_FIRST): codes b +
// 128, zero at 128; x * b = [[7, -1], [16, -1]] in int32.
// CHECK: result #1: tensor<2x2x!tf_type.qint32>
// CHECK-NEXT: {{\[\[}}7, -1],
// CHECK-NEXT: [16, -1]]
// #2: one level of each operand is 1.0, so the product's range is
// [-2^31, 2^31].
// CHECK: result #2: tensor<f32>
// CHECK-NEXT: 2.14748{{[0-9]*}}e+09
// #3: Requantize to quint8 [-16, 16] (TF's fixed point, centred on the
// input range): floor(q * 255 / 32 + 128 + 1/2^17) = 183, 120, 255 (255.5,
// clamped), 120.
// CHECK: result #3: tensor<2x2x!tf_type.quint8>
// CHECK-NEXT: {{\[\[}}183, 120],
// CHECK-NEXT: [255, 120]]
// #4: Dequantize: code * 32 / 255 - 16, the products within one step
// (0.125) of 7, -1, 16, -1.
// CHECK: result #4: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}6.96{{[0-9]*}}, -0.94{{[0-9]*}}],
// CHECK-NEXT: [16., -0.94{{[0-9]*}}]]
// #5: x reshaped to an image [1, 2, 3, 1], convolved (VALID) with the
// filter [2, -1] across columns: 2 * 1 - 2, 2 * 2 - 3, 2 * 4 - 5, 2 * 5 - 6.
// CHECK: result #5: tensor<1x2x2x1x!tf_type.qint32>
// CHECK-NEXT: {{\[\[\[\[}}0],
// CHECK-NEXT: [1]],
// CHECK-EMPTY:
// CHECK-NEXT: {{\[\[}}3],
// CHECK-NEXT: [4]]]]

func.func @main(%x: tensor<2x3xf32>) -> (tensor<2x3x!tf_type.quint8>, tensor<2x2x!tf_type.qint32>, tensor<f32>, tensor<2x2x!tf_type.quint8>, tensor<2x2xf32>, tensor<1x2x2x1x!tf_type.qint32>) {
  %lo = "tf.Const"() {value = dense<0.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %hi = "tf.Const"() {value = dense<255.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %qx:3 = "tf.QuantizeV2"(%x, %lo, %hi) {T = !tf_type.quint8, mode = "MIN_COMBINED", round_mode = "HALF_AWAY_FROM_ZERO", narrow_range = false, axis = -1 : i64, ensure_minimum_range = 0.01 : f32} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>) -> (tensor<2x3x!tf_type.quint8>, tensor<f32>, tensor<f32>)

  %b = "tf.Const"() {value = dense<[[1.0, 0.0], [0.0, 1.0], [2.0, -1.0]]> : tensor<3x2xf32>, dtype = f32} : () -> tensor<3x2xf32>
  %blo = "tf.Const"() {value = dense<-128.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %bhi = "tf.Const"() {value = dense<127.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %qb:3 = "tf.QuantizeV2"(%b, %blo, %bhi) {T = !tf_type.quint8, mode = "MIN_FIRST", round_mode = "HALF_AWAY_FROM_ZERO", narrow_range = false, axis = -1 : i64, ensure_minimum_range = 0.01 : f32} : (tensor<3x2xf32>, tensor<f32>, tensor<f32>) -> (tensor<3x2x!tf_type.quint8>, tensor<f32>, tensor<f32>)
  %mm:3 = "tf.QuantizedMatMul"(%qx#0, %qb#0, %qx#1, %qx#2, %qb#1, %qb#2) {T1 = !tf_type.quint8, T2 = !tf_type.quint8, Toutput = !tf_type.qint32, Tactivation = !tf_type.quint8, transpose_a = false, transpose_b = false} : (tensor<2x3x!tf_type.quint8>, tensor<3x2x!tf_type.quint8>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<2x2x!tf_type.qint32>, tensor<f32>, tensor<f32>)

  %rlo = "tf.Const"() {value = dense<-16.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %rhi = "tf.Const"() {value = dense<16.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %rq:3 = "tf.Requantize"(%mm#0, %mm#1, %mm#2, %rlo, %rhi) {Tinput = !tf_type.qint32, out_type = !tf_type.quint8} : (tensor<2x2x!tf_type.qint32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<2x2x!tf_type.quint8>, tensor<f32>, tensor<f32>)
  %deq = "tf.Dequantize"(%rq#0, %rq#1, %rq#2) {T = !tf_type.quint8, mode = "MIN_COMBINED", narrow_range = false, axis = -1 : i64, dtype = f32} : (tensor<2x2x!tf_type.quint8>, tensor<f32>, tensor<f32>) -> tensor<2x2xf32>

  %shape = "tf.Const"() {value = dense<[1, 2, 3, 1]> : tensor<4xi32>, dtype = i32} : () -> tensor<4xi32>
  %img:3 = "tf.QuantizedReshape"(%qx#0, %shape, %qx#1, %qx#2) {T = !tf_type.quint8, Tshape = i32} : (tensor<2x3x!tf_type.quint8>, tensor<4xi32>, tensor<f32>, tensor<f32>) -> (tensor<1x2x3x1x!tf_type.quint8>, tensor<f32>, tensor<f32>)
  %f = "tf.Const"() {value = dense<[[[[2.0]], [[-1.0]]]]> : tensor<1x2x1x1xf32>, dtype = f32} : () -> tensor<1x2x1x1xf32>
  %qf:3 = "tf.QuantizeV2"(%f, %blo, %bhi) {T = !tf_type.quint8, mode = "MIN_FIRST", round_mode = "HALF_AWAY_FROM_ZERO", narrow_range = false, axis = -1 : i64, ensure_minimum_range = 0.01 : f32} : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<f32>) -> (tensor<1x2x1x1x!tf_type.quint8>, tensor<f32>, tensor<f32>)
  %conv:3 = "tf.QuantizedConv2D"(%img#0, %qf#0, %img#1, %img#2, %qf#1, %qf#2) {Tinput = !tf_type.quint8, Tfilter = !tf_type.quint8, out_type = !tf_type.qint32, strides = [1, 1, 1, 1], padding = "VALID", dilations = [1, 1, 1, 1]} : (tensor<1x2x3x1x!tf_type.quint8>, tensor<1x2x1x1x!tf_type.quint8>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<1x2x2x1x!tf_type.qint32>, tensor<f32>, tensor<f32>)

  return %qx#0, %mm#0, %mm#2, %rq#0, %deq, %conv#0 : tensor<2x3x!tf_type.quint8>, tensor<2x2x!tf_type.qint32>, tensor<f32>, tensor<2x2x!tf_type.quint8>, tensor<2x2xf32>, tensor<1x2x2x1x!tf_type.qint32>
}

// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 | FileCheck %s
// StringFormat, SerializeTensor, DecodeRaw and DecodePaddedRaw end to end.
//  #0 StringFormat "x={} s={}" of [[1, 2], [3, 4]] and "hi": tf.print's
//     layout, a newline and a space between rows, strings quoted.
//  #1 SerializeTensor of the float scalar 1.0, a TensorProto: 08 01 (dtype
//     1), 12 00 (an empty shape), 22 04 00 00 80 3f (tensor_content).
//  #2 DecodeRaw of "\x01\x02\x03\x04" as int16: 0x0201, 0x0403.
//  #3 DecodePaddedRaw of "\x01\x02\x03" to 4 bytes as uint16: 0x0201,
//     0x0003.

func.func @main() -> (tensor<!tf_type.string>, tensor<!tf_type.string>, tensor<1x2xi16>, tensor<1x2xui16>) {
  %m = "tf.Const"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, dtype = i32} : () -> tensor<2x2xi32>
  %s = "tf.Const"() {value = dense<"hi"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %0 = "tf.StringFormat"(%m, %s) {T = [i32, !tf_type.string], template = "x={} s={}", placeholder = "{}", summarize = 3 : i64} : (tensor<2x2xi32>, tensor<!tf_type.string>) -> tensor<!tf_type.string>
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %1 = "tf.SerializeTensor"(%one) {T = f32} : (tensor<f32>) -> tensor<!tf_type.string>
  %raw = "tf.Const"() {value = dense<["\01\02\03\04"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %2 = "tf.DecodeRaw"(%raw) {out_type = i16, little_endian = true} : (tensor<1x!tf_type.string>) -> tensor<1x2xi16>
  %short = "tf.Const"() {value = dense<["\01\02\03"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %len = "tf.Const"() {value = dense<4> : tensor<i32>, dtype = i32} : () -> tensor<i32>
  %3 = "tf.DecodePaddedRaw"(%short, %len) {out_type = ui16, little_endian = true} : (tensor<1x!tf_type.string>, tensor<i32>) -> tensor<1x2xui16>
  return %0, %1, %2, %3 : tensor<!tf_type.string>, tensor<!tf_type.string>, tensor<1x2xi16>, tensor<1x2xui16>
}

// CHECK: result #0: tensor<!tf_type.string>
// CHECK-NEXT: b'x={{\[\[}}1 2]\n [3 4]] s="hi"'
// CHECK: result #1: tensor<!tf_type.string>
// CHECK-NEXT: b'\x08\x01\x12\x00"\x04\x00\x00\x80?'
// CHECK: result #2: tensor<1x2xi16>
// CHECK-NEXT: {{\[\[}}513, 1027]]
// CHECK: result #3: tensor<1x2xui16>
// CHECK-NEXT: {{\[\[}}513, 3]]

// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 | FileCheck %s
// The Unicode ops end to end on the example of TF's API docs:
// "G\xc3\xb6\xc3\xb6dnight" (U+00F6 twice) and "\xf0\x9f\x98\x8a"
// (U+1F60A) decode to [71, 246, 246, 100, 110, 105, 103, 104, 116] and
// [128522], their characters starting at bytes 0, 1, 3, 5, ... 10 and 0;
// encoding them again gives the strings back; "Hello" in UTF-16-BE is
// 00 48 00 65 00 6c 00 6c 00 6f; U+1F60A in UTF-16-BE is D8 3D DE 0A. A
// stray \xff is replaced by U+FFFD (EF BF BD in UTF-8).

func.func @main() -> (tensor<3xi64>, tensor<10xi32>, tensor<10xi64>, tensor<2x!tf_type.string>, tensor<3x!tf_type.string>) {
  %in = "tf.Const"() {value = dense<["G\C3\B6\C3\B6dnight", "\F0\9F\98\8A"]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  %d:3 = "tf.UnicodeDecodeWithOffsets"(%in) {input_encoding = "UTF-8", errors = "replace", replacement_char = 65533 : i64, replace_control_characters = false, Tsplits = i64} : (tensor<2x!tf_type.string>) -> (tensor<3xi64>, tensor<10xi32>, tensor<10xi64>)
  %e = "tf.UnicodeEncode"(%d#1, %d#0) {output_encoding = "UTF-8", errors = "replace", replacement_char = 65533 : i64, Tsplits = i64} : (tensor<10xi32>, tensor<3xi64>) -> tensor<2x!tf_type.string>
  %words = "tf.Const"() {value = dense<["Hello", "\F0\9F\98\8A", "a\FFb"]> : tensor<3x!tf_type.string>} : () -> tensor<3x!tf_type.string>
  %t = "tf.UnicodeTranscode"(%words) {input_encoding = "UTF-8", output_encoding = "UTF-16-BE", errors = "replace", replacement_char = 65533 : i64, replace_control_characters = false} : (tensor<3x!tf_type.string>) -> tensor<3x!tf_type.string>
  return %d#0, %d#1, %d#2, %e, %t : tensor<3xi64>, tensor<10xi32>, tensor<10xi64>, tensor<2x!tf_type.string>, tensor<3x!tf_type.string>
}

// CHECK: result #0: tensor<3xi64>
// CHECK-NEXT: [0, 9, 10]
// CHECK: result #1: tensor<10xi32>
// CHECK-NEXT: [71, 246, 246, 100, 110, 105, 103, 104, 116, 128522]
// CHECK: result #2: tensor<10xi64>
// CHECK-NEXT: [0, 1, 3, 5, 6, 7, 8, 9, 10, 0]
// CHECK: result #3: tensor<2x!tf_type.string>
// CHECK-NEXT: [b'G\xc3\xb6\xc3\xb6dnight', b'\xf0\x9f\x98\x8a']
// CHECK: result #4: tensor<3x!tf_type.string>
// CHECK-NEXT: [b'\x00H\x00e\x00l\x00l\x00o', b'\xd8=\xde\n', b'\x00a\xff\xfd\x00b']

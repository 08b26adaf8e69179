// ParseSingleExample and ParseExampleV2 on a tf.Example serialized by hand
// from the protobuf wire format, from the .mlir and through a .bef.
// RUN: fallback-run %s | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef | FileCheck %s

// The Example { features { feature { key: "a" value { float_list { value:
// [1.5, 2] } } } } }: 0A 13 (features, 19 bytes) 0A 11 (map entry, 17) 0A
// 01 'a' (key) 12 0C (value, 12) 12 0A (float_list, 10) 0A 08 (packed, 8)
// 00 00 C0 3F (1.5) 00 00 00 40 (2.0).
// Dense "a" [2] of ParseSingleExample; sparse int64 "s" is missing: no
// indices, dense shape [0].
// CHECK: result #0: tensor<0x1xi64>
// CHECK: result #2: tensor<1xi64>
// CHECK-NEXT: {{\[}}0]
// CHECK: result #3: tensor<2xf32>
// CHECK-NEXT: {{\[}}1.5, 2.]
// ParseExampleV2 of a batch of that example and an empty one: "a" with
// its default [7, 8] for the second.
// CHECK: result #4: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}1.5, 2.],
// CHECK-NEXT: [7., 8.]]

func.func @main() -> (tensor<0x1xi64>, tensor<0xi64>, tensor<1xi64>, tensor<2xf32>, tensor<2x2xf32>) {
  %ex = "tf.Const"() {value = dense<"\0A\13\0A\11\0A\01a\12\0C\12\0A\0A\08\00\00\C0?\00\00\00@"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %none = "tf.Const"() {value = dense<> : tensor<0xf32>} : () -> tensor<0xf32>
  %r:4 = "tf.ParseSingleExample"(%ex, %none) {num_sparse = 1 : i64, sparse_keys = ["s"], dense_keys = ["a"], sparse_types = [i64], Tdense = [f32], dense_shapes = [#tf_type.shape<2>]} : (tensor<!tf_type.string>, tensor<0xf32>) -> (tensor<0x1xi64>, tensor<0xi64>, tensor<1xi64>, tensor<2xf32>)
  %batch = "tf.Const"() {value = dense<["\0A\13\0A\11\0A\01a\12\0C\12\0A\0A\08\00\00\C0?\00\00\00@", ""]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  %names = "tf.Const"() {value = dense<[]> : tensor<0x!tf_type.string>} : () -> tensor<0x!tf_type.string>
  %dkeys = "tf.Const"() {value = dense<["a"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %def = "tf.Const"() {value = dense<[7.0, 8.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %v = "tf.ParseExampleV2"(%batch, %names, %names, %dkeys, %names, %def) {num_sparse = 0 : i64, sparse_types = [], Tdense = [f32], dense_shapes = [#tf_type.shape<2>], ragged_value_types = [], ragged_split_types = []} : (tensor<2x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>, tensor<1x!tf_type.string>, tensor<0x!tf_type.string>, tensor<2xf32>) -> tensor<2x2xf32>
  return %r#0, %r#1, %r#2, %r#3, %v : tensor<0x1xi64>, tensor<0xi64>, tensor<1xi64>, tensor<2xf32>, tensor<2x2xf32>
}

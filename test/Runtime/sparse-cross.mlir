// SparseCrossV2, SparseCross (hashed) and SparseCrossHashed: crosses of
// sparse and dense string and int64 columns. The fingerprints are the ones
// TensorFlow's sparse_cross_op_test.py pins. From the .mlir and through a
// .bef. N, sparse_types and dense_types are written out: TF's MLIR derives
// them, but three N-sized groups and two type lists cannot be split from
// the operands alone.
// RUN: fallback-run %s --input=%S/Inputs/str_3.npy | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/str_3.npy | FileCheck %s

// #0 - #2: the sparse int64 column [[7], [], [8, 9]] crossed with the dense
// column [b'ab', b'cde', b'f'] (one feature per row), joined with "-": row 1
// has no features in the sparse column, so no cross.
// CHECK: result #0: tensor<3x2xi64>
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [2, 0],
// CHECK-NEXT: [2, 1]]
// CHECK: result #1: tensor<3x!tf_type.string>
// CHECK-NEXT: {{\[}}b'7-ab', b'8-f', b'9-f']
// CHECK: result #2: tensor<2xi64>
// CHECK-NEXT: {{\[}}3, 2]
// #3: test_hashed_zero_bucket_no_hash_key (SparseCross, hash_key
// 0xDECAFCAFFE); #4: SparseCrossHashed's test_hashed_zero_bucket_no_hash_key.
// CHECK: result #3: tensor<1xi64>
// CHECK-NEXT: {{\[}}1971693436396284976]
// CHECK: result #4: tensor<1xi64>
// CHECK-NEXT: {{\[}}9186962005966787372]
func.func @main(%s: tensor<3x!tf_type.string>) -> (tensor<3x2xi64>, tensor<3x!tf_type.string>, tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) {
  %shape31 = "tf.Const"() {value = dense<[3, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %dense = "tf.Reshape"(%s, %shape31) : (tensor<3x!tf_type.string>, tensor<2xi32>) -> tensor<3x1x!tf_type.string>
  %ix = "tf.Const"() {value = dense<[[0, 0], [2, 0], [2, 1]]> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
  %val = "tf.Const"() {value = dense<[7, 8, 9]> : tensor<3xi64>} : () -> tensor<3xi64>
  %shape = "tf.Const"() {value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sep = "tf.Const"() {value = dense<"-"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %v2:3 = "tf.SparseCrossV2"(%ix, %val, %shape, %dense, %sep) {N = 1 : i64, sparse_types = [i64], dense_types = [!tf_type.string]} : (tensor<3x2xi64>, tensor<3xi64>, tensor<2xi64>, tensor<3x1x!tf_type.string>, tensor<!tf_type.string>) -> (tensor<3x2xi64>, tensor<3x!tf_type.string>, tensor<2xi64>)

  %one_ix = "tf.Const"() {value = dense<[[0, 0]]> : tensor<1x2xi64>} : () -> tensor<1x2xi64>
  %one_shape = "tf.Const"() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %f1 = "tf.Const"() {value = dense<["batch1-FC1-F1"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %f2 = "tf.Const"() {value = dense<["batch1-FC2-F1"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %f3 = "tf.Const"() {value = dense<["batch1-FC3-F1"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %h1:3 = "tf.SparseCross"(%one_ix, %one_ix, %one_ix, %f1, %f2, %f3, %one_shape, %one_shape, %one_shape) {N = 3 : i64, sparse_types = [!tf_type.string, !tf_type.string, !tf_type.string], dense_types = [], hashed_output = true, num_buckets = 0 : i64, hash_key = 956888297470 : i64, out_type = i64, internal_type = !tf_type.string} : (tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x!tf_type.string>, tensor<1x!tf_type.string>, tensor<1x!tf_type.string>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> (tensor<1x2xi64>, tensor<1xi64>, tensor<2xi64>)

  %buckets = "tf.Const"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %strong = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %salt = "tf.Const"() {value = dense<[137, 173]> : tensor<2xi64>} : () -> tensor<2xi64>
  %h2:3 = "tf.SparseCrossHashed"(%one_ix, %one_ix, %one_ix, %f1, %f2, %f3, %one_shape, %one_shape, %one_shape, %buckets, %strong, %salt) {N = 3 : i64, sparse_types = [!tf_type.string, !tf_type.string, !tf_type.string], dense_types = []} : (tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x2xi64>, tensor<1x!tf_type.string>, tensor<1x!tf_type.string>, tensor<1x!tf_type.string>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<i64>, tensor<i1>, tensor<2xi64>) -> (tensor<1x2xi64>, tensor<1xi64>, tensor<2xi64>)

  return %v2#0, %v2#1, %v2#2, %h1#1, %h2#1 : tensor<3x2xi64>, tensor<3x!tf_type.string>, tensor<2xi64>, tensor<1xi64>, tensor<1xi64>
}

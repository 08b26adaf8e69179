// RUN: rm -rf %t && mkdir -p %t && cd %t && fallback-run %s --threads=1 | FileCheck %s
// RUN: ls %t/merged | FileCheck %s --check-prefix=FILES
// RUN: cd %t && not fallback-run %s --entry=wrong_dtype --threads=1 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: cd %t && not fallback-run %s --entry=missing --threads=1 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: cd %t && not fallback-run %s --entry=sliced --threads=1 2>&1 | FileCheck %s --check-prefix=SLICED
// SaveV2 writes two one-shard checkpoints (their folders made on the way),
// MergeV2Checkpoints makes them one checkpoint of two shards and removes
// the emptied folders, RestoreV2 reads tensors of both shards back, in the
// order asked. The values are the ones saved (hand-written here).

func.func @main() -> (tensor<2x2xf32>, tensor<3x!tf_type.string>, tensor<i64>) {
  %prefixA = "tf.Const"() {value = dense<"tmp/a/ckpt"> : tensor<!tf_type.string>, dtype = !tf_type.string} : () -> tensor<!tf_type.string>
  %prefixB = "tf.Const"() {value = dense<"tmp/b/ckpt"> : tensor<!tf_type.string>, dtype = !tf_type.string} : () -> tensor<!tf_type.string>
  %merged = "tf.Const"() {value = dense<"merged/model"> : tensor<!tf_type.string>, dtype = !tf_type.string} : () -> tensor<!tf_type.string>
  %namesA = "tf.Const"() {value = dense<["w", "words"]> : tensor<2x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<2x!tf_type.string>
  %slicesA = "tf.Const"() {value = dense<["", ""]> : tensor<2x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<2x!tf_type.string>
  %namesB = "tf.Const"() {value = dense<["step"]> : tensor<1x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<1x!tf_type.string>
  %slicesB = "tf.Const"() {value = dense<[""]> : tensor<1x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<1x!tf_type.string>
  %w = "tf.Const"() {value = dense<[[1.5, -2.0], [0.25, 8.0]]> : tensor<2x2xf32>, dtype = f32} : () -> tensor<2x2xf32>
  %words = "tf.Const"() {value = dense<["alpha", "", "gamma"]> : tensor<3x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<3x!tf_type.string>
  %step = "tf.Const"() {value = dense<1234567890123> : tensor<i64>, dtype = i64} : () -> tensor<i64>
  "tf.SaveV2"(%prefixA, %namesA, %slicesA, %w, %words) {dtypes = [f32, !tf_type.string]} : (tensor<!tf_type.string>, tensor<2x!tf_type.string>, tensor<2x!tf_type.string>, tensor<2x2xf32>, tensor<3x!tf_type.string>) -> ()
  "tf.SaveV2"(%prefixB, %namesB, %slicesB, %step) {dtypes = [i64]} : (tensor<!tf_type.string>, tensor<1x!tf_type.string>, tensor<1x!tf_type.string>, tensor<i64>) -> ()
  %sources = "tf.Const"() {value = dense<["tmp/a/ckpt", "tmp/b/ckpt"]> : tensor<2x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<2x!tf_type.string>
  "tf.MergeV2Checkpoints"(%sources, %merged) {delete_old_dirs = true} : (tensor<2x!tf_type.string>, tensor<!tf_type.string>) -> ()
  %names = "tf.Const"() {value = dense<["w", "words", "step"]> : tensor<3x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<3x!tf_type.string>
  %slices = "tf.Const"() {value = dense<["", "", ""]> : tensor<3x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<3x!tf_type.string>
  %r:3 = "tf.RestoreV2"(%merged, %names, %slices) {dtypes = [f32, !tf_type.string, i64]} : (tensor<!tf_type.string>, tensor<3x!tf_type.string>, tensor<3x!tf_type.string>) -> (tensor<2x2xf32>, tensor<3x!tf_type.string>, tensor<i64>)
  return %r#0, %r#1, %r#2 : tensor<2x2xf32>, tensor<3x!tf_type.string>, tensor<i64>
}

// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}1.5, -2.],
// CHECK-NEXT: [0.25, 8.]]
// CHECK: result #1: tensor<3x!tf_type.string>
// CHECK-NEXT: [b'alpha', b'', b'gamma']
// CHECK: result #2: tensor<i64>
// CHECK-NEXT: 1234567890123

// FILES: model.data-00000-of-00002
// FILES-NEXT: model.data-00001-of-00002
// FILES-NEXT: model.index

// A wrong dtype, a missing tensor and a slice are errors of their op.
func.func @wrong_dtype() -> tensor<i32> {
  %merged = "tf.Const"() {value = dense<"merged/model"> : tensor<!tf_type.string>, dtype = !tf_type.string} : () -> tensor<!tf_type.string>
  %step = "tf.Const"() {value = dense<["step"]> : tensor<1x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<1x!tf_type.string>
  %empty = "tf.Const"() {value = dense<[""]> : tensor<1x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<1x!tf_type.string>
  %0 = "tf.RestoreV2"(%merged, %step, %empty) {dtypes = [i32]} : (tensor<!tf_type.string>, tensor<1x!tf_type.string>, tensor<1x!tf_type.string>) -> tensor<i32>
  return %0 : tensor<i32>
}

func.func @missing() -> tensor<f32> {
  %merged = "tf.Const"() {value = dense<"merged/model"> : tensor<!tf_type.string>, dtype = !tf_type.string} : () -> tensor<!tf_type.string>
  %none = "tf.Const"() {value = dense<["nope"]> : tensor<1x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<1x!tf_type.string>
  %empty = "tf.Const"() {value = dense<[""]> : tensor<1x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<1x!tf_type.string>
  %0 = "tf.RestoreV2"(%merged, %none, %empty) {dtypes = [f32]} : (tensor<!tf_type.string>, tensor<1x!tf_type.string>, tensor<1x!tf_type.string>) -> tensor<f32>
  return %0 : tensor<f32>
}

func.func @sliced() -> tensor<f32> {
  %merged = "tf.Const"() {value = dense<"merged/model"> : tensor<!tf_type.string>, dtype = !tf_type.string} : () -> tensor<!tf_type.string>
  %step = "tf.Const"() {value = dense<["step"]> : tensor<1x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<1x!tf_type.string>
  %slice = "tf.Const"() {value = dense<["2 0,1"]> : tensor<1x!tf_type.string>, dtype = !tf_type.string} : () -> tensor<1x!tf_type.string>
  %0 = "tf.RestoreV2"(%merged, %step, %slice) {dtypes = [f32]} : (tensor<!tf_type.string>, tensor<1x!tf_type.string>, tensor<1x!tf_type.string>) -> tensor<f32>
  return %0 : tensor<f32>
}

// DTYPE: error: result #0: RestoreV2 {{.*}}tensor_name = step; expected dtype int32 does not equal restored dtype int64
// MISSING: error: result #0: RestoreV2 {{.*}}the checkpoint 'merged/model' has no tensor 'nope'
// SLICED: error: result #0: RestoreV2 {{.*}}the slice '2 0,1' of a partitioned variable: slices are not supported

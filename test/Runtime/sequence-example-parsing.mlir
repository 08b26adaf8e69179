// ParseSingleSequenceExample, ParseSequenceExample and
// ParseSequenceExampleV2 on a tf.SequenceExample serialized by hand from
// the protobuf wire format; one function per behaviour.
// RUN: fallback-run %s --entry=single | FileCheck %s --check-prefix=SINGLE
// RUN: fallback-run %s --entry=v1 | FileCheck %s --check-prefix=V1
// RUN: fallback-run %s --entry=v2_sparse | FileCheck %s --check-prefix=SPARSE
// RUN: fallback-run %s --entry=v2_ragged | FileCheck %s --check-prefix=RAGGED
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --entry=v2_ragged | FileCheck %s --check-prefix=RAGGED
// RUN: not fallback-run %s --entry=errors 2>&1 | FileCheck %s --check-prefix=ERR

// The SequenceExample (43 bytes)
//   context { feature { key: "c" value { int64_list { value: 7 } } } }
//   feature_lists { feature_list { key: "f" value {
//     feature { float_list { value: 1.5 } }
//     feature { float_list { value: 2 } } } } }
// is
//   0A 0C                context (Features), 12 bytes
//     0A 0A              map entry, 10 bytes
//       0A 01 'c'        key
//       12 05            value (Feature), 5 bytes
//         1A 03 0A 01 07 int64_list { packed [7] }
//   12 1B                feature_lists (FeatureLists), 27 bytes
//     0A 19              map entry, 25 bytes
//       0A 01 'f'        key
//       12 14            value (FeatureList), 20 bytes
//         0A 08 12 06 0A 04 00 00 C0 3F   feature { float_list { packed [1.5] } }
//         0A 08 12 06 0A 04 00 00 00 40   feature { float_list { packed [2.0] } }

// One example: required context dense "c" [1] is [7]; feature-list dense
// "f" of scalars has its two rows [1.5, 2]; context sparse "s" and
// feature-list sparse "g" are missing: no values, dense shapes [0] and
// [0, 0].
// SINGLE: result #0: tensor<0x1xi64>
// SINGLE: result #2: tensor<1xi64>
// SINGLE-NEXT: {{\[}}0]
// SINGLE: result #3: tensor<1xi64>
// SINGLE-NEXT: {{\[}}7]
// SINGLE: result #4: tensor<0x2xi64>
// SINGLE: result #6: tensor<2xi64>
// SINGLE-NEXT: {{\[}}0, 0]
// SINGLE: result #7: tensor<2xf32>
// SINGLE-NEXT: {{\[}}1.5, 2.]
func.func @single() -> (tensor<0x1xi64>, tensor<0x!tf_type.string>, tensor<1xi64>, tensor<1xi64>, tensor<0x2xi64>, tensor<0xi64>, tensor<2xi64>, tensor<2xf32>) {
  %ex = "tf.Const"() {value = dense<"\0A\0C\0A\0A\0A\01c\12\05\1A\03\0A\01\07\12\1B\0A\19\0A\01f\12\14\0A\08\12\06\0A\04\00\00\C0?\0A\08\12\06\0A\04\00\00\00@"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %none = "tf.Const"() {value = dense<[]> : tensor<0x!tf_type.string>} : () -> tensor<0x!tf_type.string>
  %s = "tf.Const"() {value = dense<"s"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %c = "tf.Const"() {value = dense<"c"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %g = "tf.Const"() {value = dense<"g"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %f = "tf.Const"() {value = dense<"f"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %required = "tf.Const"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %name = "tf.Const"() {value = dense<"n"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %r:8 = "tf.ParseSingleSequenceExample"(%ex, %none, %s, %c, %g, %f, %required, %name) {Ncontext_sparse = 1 : i64, Ncontext_dense = 1 : i64, Nfeature_list_sparse = 1 : i64, Nfeature_list_dense = 1 : i64, context_sparse_types = [!tf_type.string], Tcontext_dense = [i64], context_dense_shapes = [#tf_type.shape<1>], feature_list_sparse_types = [i64], feature_list_dense_types = [f32], feature_list_dense_shapes = [#tf_type.shape<>]} : (tensor<!tf_type.string>, tensor<0x!tf_type.string>, tensor<!tf_type.string>, tensor<!tf_type.string>, tensor<!tf_type.string>, tensor<!tf_type.string>, tensor<0xi64>, tensor<!tf_type.string>) -> (tensor<0x1xi64>, tensor<0x!tf_type.string>, tensor<1xi64>, tensor<1xi64>, tensor<0x2xi64>, tensor<0xi64>, tensor<2xi64>, tensor<2xf32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7 : tensor<0x1xi64>, tensor<0x!tf_type.string>, tensor<1xi64>, tensor<1xi64>, tensor<0x2xi64>, tensor<0xi64>, tensor<2xi64>, tensor<2xf32>
}

// V1 on [example, empty example]: "c" takes its default [5] in the second;
// "f" may be missing (feature_list_dense_missing_assumed_empty): the
// second example has no rows, padded with zeros; lengths [2, 0].
// V1: result #0: tensor<2x1xi64>
// V1-NEXT: {{\[\[}}7],
// V1-NEXT: [5]]
// V1: result #1: tensor<2x2xf32>
// V1-NEXT: {{\[\[}}1.5, 2.],
// V1-NEXT: [0., 0.]]
// V1: result #2: tensor<2xi64>
// V1-NEXT: {{\[}}2, 0]
func.func @v1() -> (tensor<2x1xi64>, tensor<2x2xf32>, tensor<2xi64>) {
  %batch = "tf.Const"() {value = dense<["\0A\0C\0A\0A\0A\01c\12\05\1A\03\0A\01\07\12\1B\0A\19\0A\01f\12\14\0A\08\12\06\0A\04\00\00\C0?\0A\08\12\06\0A\04\00\00\00@", ""]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  %names = "tf.Const"() {value = dense<[]> : tensor<0x!tf_type.string>} : () -> tensor<0x!tf_type.string>
  %def = "tf.Const"() {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
  %r:3 = "tf.ParseSequenceExample"(%batch, %names, %def) {feature_list_dense_missing_assumed_empty = ["f"], context_sparse_keys = [], context_dense_keys = ["c"], feature_list_sparse_keys = [], feature_list_dense_keys = ["f"], Ncontext_sparse = 0 : i64, Ncontext_dense = 1 : i64, Nfeature_list_sparse = 0 : i64, Nfeature_list_dense = 1 : i64, context_sparse_types = [], Tcontext_dense = [i64], context_dense_shapes = [#tf_type.shape<1>], feature_list_sparse_types = [], feature_list_dense_types = [f32], feature_list_dense_shapes = [#tf_type.shape<>]} : (tensor<2x!tf_type.string>, tensor<0x!tf_type.string>, tensor<1xi64>) -> (tensor<2x1xi64>, tensor<2x2xf32>, tensor<2xi64>)
  return %r#0, %r#1, %r#2 : tensor<2x1xi64>, tensor<2x2xf32>, tensor<2xi64>
}

// V2, feature-list sparse "f" on [example, empty example]: indices
// (example, row, value) (0, 0, 0) and (0, 1, 0), values [1.5, 2], dense
// shape [2 examples, 2 rows, 1 value].
// SPARSE: result #0: tensor<2x3xi64>
// SPARSE-NEXT: {{\[\[}}0, 0, 0],
// SPARSE-NEXT: [0, 1, 0]]
// SPARSE: result #1: tensor<2xf32>
// SPARSE-NEXT: {{\[}}1.5, 2.]
// SPARSE: result #2: tensor<3xi64>
// SPARSE-NEXT: {{\[}}2, 2, 1]
func.func @v2_sparse() -> (tensor<2x3xi64>, tensor<2xf32>, tensor<3xi64>) {
  %batch = "tf.Const"() {value = dense<["\0A\0C\0A\0A\0A\01c\12\05\1A\03\0A\01\07\12\1B\0A\19\0A\01f\12\14\0A\08\12\06\0A\04\00\00\C0?\0A\08\12\06\0A\04\00\00\00@", ""]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  %none = "tf.Const"() {value = dense<[]> : tensor<0x!tf_type.string>} : () -> tensor<0x!tf_type.string>
  %f = "tf.Const"() {value = dense<["f"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %nob = "tf.Const"() {value = dense<[]> : tensor<0xi1>} : () -> tensor<0xi1>
  %r:3 = "tf.ParseSequenceExampleV2"(%batch, %none, %none, %none, %none, %f, %none, %none, %nob) {Ncontext_sparse = 0 : i64, Tcontext_dense = [], context_sparse_types = [], context_ragged_value_types = [], context_ragged_split_types = [], context_dense_shapes = [], Nfeature_list_sparse = 1 : i64, Nfeature_list_dense = 0 : i64, feature_list_dense_types = [], feature_list_sparse_types = [f32], feature_list_ragged_value_types = [], feature_list_ragged_split_types = [], feature_list_dense_shapes = []} : (tensor<2x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>, tensor<1x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0xi1>) -> (tensor<2x3xi64>, tensor<2xf32>, tensor<3xi64>)
  return %r#0, %r#1, %r#2 : tensor<2x3xi64>, tensor<2xf32>, tensor<3xi64>
}

// V2, ragged on [example, empty example, example]: context "c" (int32
// splits) has values [7, 7], row splits [0, 1, 1, 2]; feature list "f"
// (int64 splits) values [1.5, 2, 1.5, 2], outer splits by example
// [0, 2, 2, 4], inner splits by row [0, 1, 2, 3, 4].
// RAGGED: result #0: tensor<2xi64>
// RAGGED-NEXT: {{\[}}7, 7]
// RAGGED: result #1: tensor<4xi32>
// RAGGED-NEXT: {{\[}}0, 1, 1, 2]
// RAGGED: result #2: tensor<4xf32>
// RAGGED-NEXT: {{\[}}1.5, 2., 1.5, 2.]
// RAGGED: result #3: tensor<4xi64>
// RAGGED-NEXT: {{\[}}0, 2, 2, 4]
// RAGGED: result #4: tensor<5xi64>
// RAGGED-NEXT: {{\[}}0, 1, 2, 3, 4]
func.func @v2_ragged() -> (tensor<2xi64>, tensor<4xi32>, tensor<4xf32>, tensor<4xi64>, tensor<5xi64>) {
  %batch = "tf.Const"() {value = dense<["\0A\0C\0A\0A\0A\01c\12\05\1A\03\0A\01\07\12\1B\0A\19\0A\01f\12\14\0A\08\12\06\0A\04\00\00\C0?\0A\08\12\06\0A\04\00\00\00@", "", "\0A\0C\0A\0A\0A\01c\12\05\1A\03\0A\01\07\12\1B\0A\19\0A\01f\12\14\0A\08\12\06\0A\04\00\00\C0?\0A\08\12\06\0A\04\00\00\00@"]> : tensor<3x!tf_type.string>} : () -> tensor<3x!tf_type.string>
  %none = "tf.Const"() {value = dense<[]> : tensor<0x!tf_type.string>} : () -> tensor<0x!tf_type.string>
  %c = "tf.Const"() {value = dense<["c"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %f = "tf.Const"() {value = dense<["f"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %nob = "tf.Const"() {value = dense<[]> : tensor<0xi1>} : () -> tensor<0xi1>
  %r:5 = "tf.ParseSequenceExampleV2"(%batch, %none, %none, %none, %c, %none, %none, %f, %nob) {Ncontext_sparse = 0 : i64, Tcontext_dense = [], context_sparse_types = [], context_ragged_value_types = [i64], context_ragged_split_types = [i32], context_dense_shapes = [], Nfeature_list_sparse = 0 : i64, Nfeature_list_dense = 0 : i64, feature_list_dense_types = [], feature_list_sparse_types = [], feature_list_ragged_value_types = [f32], feature_list_ragged_split_types = [i64], feature_list_dense_shapes = []} : (tensor<3x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>, tensor<1x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0x!tf_type.string>, tensor<1x!tf_type.string>, tensor<0xi1>) -> (tensor<2xi64>, tensor<4xi32>, tensor<4xf32>, tensor<4xi64>, tensor<5xi64>)
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<2xi64>, tensor<4xi32>, tensor<4xf32>, tensor<4xi64>, tensor<5xi64>
}

// Errors, one per result, as TF's fast parser words them: a feature list
// that is neither present nor assumed empty; a row of another type; a
// malformed example (a context field whose length is cut off); a row of
// the wrong size; a total that is no multiple of the row's size; a context
// feature of the wrong size; a required context feature missing from the
// second example. (A required context feature that no example has fails
// as the wrong size, expected 1 but found 0, as in TF.)
// ERR-DAG: error: result #0: {{.*}}: Name: <unknown>, Feature list 'f' is required but could not be found.  Did you mean to include it in feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?
// ERR-DAG: error: result #1: {{.*}}: Name: x, Feature list: f, Index: 0.  Data types don't match. Expected type: int64
// ERR-DAG: error: result #2: {{.*}}: Invalid protocol message input, example id: x
// ERR-DAG: error: result #3: {{.*}}: Name: <unknown>, Key: f, Index: 0.  Number of values != expected.  values size: 1 but output shape: [2]
// ERR-DAG: error: result #4: {{.*}}: Feature list 'f' has an unexpected number of values.  Total values size: 2 is not consistent with output shape: [?,3]
// ERR-DAG: error: result #5: {{.*}}: Inconsistent max number of elements for feature c: expected 2, but found 1
// ERR-DAG: error: result #6: {{.*}}: Feature: c (data type: int64) is required but could not be found.
func.func @errors() -> (tensor<2x2xf32>, tensor<1x2xi64>, tensor<1x2xf32>, tensor<1x1x2xf32>, tensor<1x1x3xf32>, tensor<1x2xi64>, tensor<2x1xi64>) {
  %two = "tf.Const"() {value = dense<["\0A\0C\0A\0A\0A\01c\12\05\1A\03\0A\01\07\12\1B\0A\19\0A\01f\12\14\0A\08\12\06\0A\04\00\00\C0?\0A\08\12\06\0A\04\00\00\00@", ""]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  %one = "tf.Const"() {value = dense<["\0A\0C\0A\0A\0A\01c\12\05\1A\03\0A\01\07\12\1B\0A\19\0A\01f\12\14\0A\08\12\06\0A\04\00\00\C0?\0A\08\12\06\0A\04\00\00\00@"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %bad = "tf.Const"() {value = dense<["\0A"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %x = "tf.Const"() {value = dense<["x"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %none = "tf.Const"() {value = dense<[]> : tensor<0x!tf_type.string>} : () -> tensor<0x!tf_type.string>
  %required = "tf.Const"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %e0:2 = "tf.ParseSequenceExample"(%two, %none) {feature_list_dense_missing_assumed_empty = [], context_sparse_keys = [], context_dense_keys = [], feature_list_sparse_keys = [], feature_list_dense_keys = ["f"], Ncontext_dense = 0 : i64, Nfeature_list_dense = 1 : i64, Tcontext_dense = [], context_dense_shapes = [], feature_list_dense_types = [f32], feature_list_dense_shapes = [#tf_type.shape<>]} : (tensor<2x!tf_type.string>, tensor<0x!tf_type.string>) -> (tensor<2x2xf32>, tensor<2xi64>)
  %e1:2 = "tf.ParseSequenceExample"(%one, %x) {feature_list_dense_missing_assumed_empty = [], context_sparse_keys = [], context_dense_keys = [], feature_list_sparse_keys = [], feature_list_dense_keys = ["f"], Ncontext_dense = 0 : i64, Nfeature_list_dense = 1 : i64, Tcontext_dense = [], context_dense_shapes = [], feature_list_dense_types = [i64], feature_list_dense_shapes = [#tf_type.shape<>]} : (tensor<1x!tf_type.string>, tensor<1x!tf_type.string>) -> (tensor<1x2xi64>, tensor<1xi64>)
  %e2:2 = "tf.ParseSequenceExample"(%bad, %x) {feature_list_dense_missing_assumed_empty = [], context_sparse_keys = [], context_dense_keys = [], feature_list_sparse_keys = [], feature_list_dense_keys = ["f"], Ncontext_dense = 0 : i64, Nfeature_list_dense = 1 : i64, Tcontext_dense = [], context_dense_shapes = [], feature_list_dense_types = [f32], feature_list_dense_shapes = [#tf_type.shape<>]} : (tensor<1x!tf_type.string>, tensor<1x!tf_type.string>) -> (tensor<1x2xf32>, tensor<1xi64>)
  %e3:2 = "tf.ParseSequenceExample"(%one, %none) {feature_list_dense_missing_assumed_empty = [], context_sparse_keys = [], context_dense_keys = [], feature_list_sparse_keys = [], feature_list_dense_keys = ["f"], Ncontext_dense = 0 : i64, Nfeature_list_dense = 1 : i64, Tcontext_dense = [], context_dense_shapes = [], feature_list_dense_types = [f32], feature_list_dense_shapes = [#tf_type.shape<2>]} : (tensor<1x!tf_type.string>, tensor<0x!tf_type.string>) -> (tensor<1x1x2xf32>, tensor<1xi64>)
  %e4:2 = "tf.ParseSequenceExample"(%one, %none) {feature_list_dense_missing_assumed_empty = [], context_sparse_keys = [], context_dense_keys = [], feature_list_sparse_keys = [], feature_list_dense_keys = ["f"], Ncontext_dense = 0 : i64, Nfeature_list_dense = 1 : i64, Tcontext_dense = [], context_dense_shapes = [], feature_list_dense_types = [f32], feature_list_dense_shapes = [#tf_type.shape<3>]} : (tensor<1x!tf_type.string>, tensor<0x!tf_type.string>) -> (tensor<1x1x3xf32>, tensor<1xi64>)
  %e5 = "tf.ParseSequenceExample"(%one, %none, %required) {feature_list_dense_missing_assumed_empty = [], context_sparse_keys = [], context_dense_keys = ["c"], feature_list_sparse_keys = [], feature_list_dense_keys = [], Ncontext_dense = 1 : i64, Tcontext_dense = [i64], context_dense_shapes = [#tf_type.shape<2>], feature_list_dense_types = [], feature_list_dense_shapes = []} : (tensor<1x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0xi64>) -> tensor<1x2xi64>
  %e6 = "tf.ParseSequenceExample"(%two, %none, %required) {feature_list_dense_missing_assumed_empty = [], context_sparse_keys = [], context_dense_keys = ["c"], feature_list_sparse_keys = [], feature_list_dense_keys = [], Ncontext_dense = 1 : i64, Tcontext_dense = [i64], context_dense_shapes = [#tf_type.shape<1>], feature_list_dense_types = [], feature_list_dense_shapes = []} : (tensor<2x!tf_type.string>, tensor<0x!tf_type.string>, tensor<0xi64>) -> tensor<2x1xi64>
  return %e0#0, %e1#0, %e2#0, %e3#0, %e4#0, %e5, %e6 : tensor<2x2xf32>, tensor<1x2xi64>, tensor<1x2xf32>, tensor<1x1x2xf32>, tensor<1x1x3xf32>, tensor<1x2xi64>, tensor<2x1xi64>
}

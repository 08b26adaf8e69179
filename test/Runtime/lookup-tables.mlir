// Lookup tables, resources of the executor as variables are: --init runs
// @init once, which initializes the HashTable "vocab" from constants and
// the HashTable "words" from a text file (word -> line number, TF's
// index_table_from_file); each run of @main looks its string input up in
// both, and inserts into, removes from and exports the MutableHashTable
// "counts". Without --init the lookup finds the table not initialized.
// RUN: printf 'cde\nab\n' > %t.vocab
// RUN: sed 's|@VOCAB@|%t.vocab|' %s > %t.mlir
// RUN: fallback-run %t.mlir --init=init --input=%S/Inputs/str_3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %t.mlir --init=init --input=%S/Inputs/str_3.npy --threads=2 --benchmark=2 | FileCheck %s
// RUN: fallback-opt %t.mlir --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --init=init --input=%S/Inputs/str_3.npy --threads=1 --benchmark=2 | FileCheck %s
// RUN: not fallback-run-lite %t.bef --input=%S/Inputs/str_3.npy 2>&1 | FileCheck %s --check-prefix=NOINIT

// Hand-derived from the input ["ab", "cde", "f"]: vocab = {ab: 1, f: 2,
// zz: 3} gives [1, -1, 2]; words = {cde: 0, ab: 1} gives [1, 0, -1];
// counts gets ab: 10, cde: 20, f: 30, loses cde, and exports ab and f (in
// the order of insertion), size 2. The same in every run.
// CHECK: result #0: tensor<3xi64>
// CHECK-NEXT: {{\[}}1, -1, 2]
// CHECK: result #1: tensor<3xi64>
// CHECK-NEXT: {{\[}}1, 0, -1]
// CHECK: result #2: tensor<2x!tf_type.string>
// CHECK-NEXT: {{\[}}b'ab', b'f']
// CHECK: result #3: tensor<2xi64>
// CHECK-NEXT: {{\[}}10, 30]
// CHECK: result #4: tensor<i64>
// CHECK-NEXT: 2
// NOINIT: error: result #0: LookupTableFindV2 '{{.*}}': Table not initialized.

func.func @init() {
  %vocab = "tf.HashTableV2"() {container = "", shared_name = "vocab", use_node_name_sharing = false, key_dtype = !tf_type.string, value_dtype = i64} : () -> tensor<!tf_type.resource>
  %keys = "tf.Const"() {value = dense<["ab", "f", "zz"]> : tensor<3x!tf_type.string>} : () -> tensor<3x!tf_type.string>
  %values = "tf.Const"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  "tf.InitializeTableV2"(%vocab, %keys, %values) : (tensor<!tf_type.resource>, tensor<3x!tf_type.string>, tensor<3xi64>) -> ()
  %words = "tf.HashTableV2"() {container = "", shared_name = "words", use_node_name_sharing = false, key_dtype = !tf_type.string, value_dtype = i64} : () -> tensor<!tf_type.resource>
  %file = "tf.Const"() {value = dense<"@VOCAB@"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  "tf.InitializeTableFromTextFileV2"(%words, %file) {key_index = -2 : i64, value_index = -1 : i64, vocab_size = -1 : i64, delimiter = "\t", offset = 0 : i64} : (tensor<!tf_type.resource>, tensor<!tf_type.string>) -> ()
  return
}

func.func @main(%input: tensor<3x!tf_type.string>) -> (tensor<*xi64>, tensor<*xi64>, tensor<*x!tf_type.string>, tensor<*xi64>, tensor<i64>) {
  %vocab = "tf.HashTableV2"() {container = "", shared_name = "vocab", use_node_name_sharing = false, key_dtype = !tf_type.string, value_dtype = i64} : () -> tensor<!tf_type.resource>
  %words = "tf.HashTableV2"() {container = "", shared_name = "words", use_node_name_sharing = false, key_dtype = !tf_type.string, value_dtype = i64} : () -> tensor<!tf_type.resource>
  %default = "tf.Const"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  %ids = "tf.LookupTableFindV2"(%vocab, %input, %default) : (tensor<!tf_type.resource>, tensor<3x!tf_type.string>, tensor<i64>) -> tensor<*xi64>
  %lines = "tf.LookupTableFindV2"(%words, %input, %default) : (tensor<!tf_type.resource>, tensor<3x!tf_type.string>, tensor<i64>) -> tensor<*xi64>

  %counts = "tf.MutableHashTableV2"() {container = "", shared_name = "counts", use_node_name_sharing = false, key_dtype = !tf_type.string, value_dtype = i64} : () -> tensor<!tf_type.resource>
  %tens = "tf.Const"() {value = dense<[10, 20, 30]> : tensor<3xi64>} : () -> tensor<3xi64>
  "tf.LookupTableInsertV2"(%counts, %input, %tens) : (tensor<!tf_type.resource>, tensor<3x!tf_type.string>, tensor<3xi64>) -> ()
  %cde = "tf.Const"() {value = dense<["cde"]> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  "tf.LookupTableRemoveV2"(%counts, %cde) : (tensor<!tf_type.resource>, tensor<1x!tf_type.string>) -> ()
  %keys, %values = "tf.LookupTableExportV2"(%counts) {Tkeys = !tf_type.string, Tvalues = i64} : (tensor<!tf_type.resource>) -> (tensor<*x!tf_type.string>, tensor<*xi64>)
  %size = "tf.LookupTableSizeV2"(%counts) : (tensor<!tf_type.resource>) -> tensor<i64>
  return %ids, %lines, %keys, %values, %size : tensor<*xi64>, tensor<*xi64>, tensor<*x!tf_type.string>, tensor<*xi64>, tensor<i64>
}

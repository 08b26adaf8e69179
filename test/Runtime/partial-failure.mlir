// Kernels failing mid-graph on what the inputs hold (an integer division by
// zero, a shape mismatch, a gather index out of range): each failing result
// is an error naming the op, its node and its location; what depends on it
// is skipped with that error; the independent result is still computed and
// written; fallback-run exits 1 naming the failed results. Inputs:
// a = i32_shape_2.npy = [3, 2], b = i32_4.npy = [1, -2, 3, -4],
// x = f32_3.npy = [10, 20, 30].
// RUN: rm -rf %t.out
// RUN: not fallback-run %s --input=%S/Inputs/i32_shape_2.npy --input=%S/Inputs/i32_4.npy --input=%S/Inputs/f32_3.npy --threads=1 --output-dir=%t.out > %t.stdout 2> %t.stderr
// RUN: FileCheck %s --check-prefix=ERR < %t.stderr
// RUN: FileCheck %s --check-prefix=OUT < %t.stdout
// RUN: ls %t.out | FileCheck %s --check-prefix=FILES
// The same on the dataflow executor, and from a binary program run by the
// runtime-only runner.
// RUN: not fallback-run %s --input=%S/Inputs/i32_shape_2.npy --input=%S/Inputs/i32_4.npy --input=%S/Inputs/f32_3.npy --threads=2 > %t.par.stdout 2> %t.par.stderr
// RUN: FileCheck %s --check-prefix=ERR < %t.par.stderr
// RUN: FileCheck %s --check-prefix=OUT < %t.par.stdout
// RUN: fallback-opt %s --tfrt-fallback-pipeline --mlir-print-debuginfo | fallback-translate --mlir-to-bef -o %t.bef
// RUN: not fallback-run-lite %t.bef --input=%S/Inputs/i32_shape_2.npy --input=%S/Inputs/i32_4.npy --input=%S/Inputs/f32_3.npy --threads=2 > %t.lite.stdout 2> %t.lite.stderr
// RUN: FileCheck %s --check-prefix=ERR < %t.lite.stderr
// RUN: FileCheck %s --check-prefix=OUT < %t.lite.stdout

// Ops located by a TF node name (as TensorFlow's exporter writes them) are
// named by it; the others by their position in this file.
// ERR: error: result #0: Div 'model/quotient': Integer division by zero
// ERR-NEXT: error: result #1: AddV2 '{{.*}}partial-failure.mlir:[[#@LINE+19]]:8': Incompatible shapes: [2] vs. [4]
// ERR-NEXT: error: result #2: GatherV2 'model/picked': indices[0] = 3 is not in [0, 3)
// The dependant of the division carries its error.
// ERR-NEXT: error: result #3: Div 'model/quotient': Integer division by zero
// ERR-NOT: result #4
// OUT-NOT: result #{{[0-3]}}
// OUT: result #4: tensor<3xf32>
// OUT-NEXT: [-10., -20., -30.]
// FILES-NOT: output_{{[0-3]}}.npy
// FILES: output_4.npy
// FILES-NOT: output_{{[0-3]}}.npy

// unittests/Executor/ExecutorTest.cpp (PartialFailureThenAGoodRun) runs
// one loaded program on bad and then good inputs.

func.func @main(%a: tensor<?xi32>, %b: tensor<?xi32>, %x: tensor<?xf32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<?xi32>, tensor<?xf32>) {
  %zero = "tf.Sub"(%a, %a) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %q = "tf.Div"(%a, %zero) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32> loc("model/quotient")
  %s = "tf.AddV2"(%a, %b) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
  %g = "tf.GatherV2"(%x, %a, %axis) {batch_dims = 0 : i64} : (tensor<?xf32>, tensor<?xi32>, tensor<i32>) -> tensor<?xf32> loc("model/picked")
  %dependant = "tf.Abs"(%q) : (tensor<?xi32>) -> tensor<?xi32>
  %good = "tf.Neg"(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %q, %s, %g, %dependant, %good : tensor<?xi32>, tensor<?xi32>, tensor<?xf32>, tensor<?xi32>, tensor<?xf32>
}

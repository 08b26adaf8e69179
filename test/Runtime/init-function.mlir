// Variables initialized by an init function: --init runs @init once, before
// the entry's runs, which share the variables it set up (the executor's
// resources). @init assigns v = [1, 2] from constants and counts its own
// runs in `inits`; each run of @main adds x to v and reads it. Without
// --init the first read finds no variable.
// RUN: fallback-run %s --init=init --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --init=init --input=%S/Inputs/f32_3.npy --threads=2 | FileCheck %s
// Three runs of @main after one of @init (--benchmark=2: a warm-up and two
// timed runs before the printed one, four in all): v = [1, 2, 3] + 4 x.
// RUN: fallback-run-lite %t.bef --init=init --input=%S/Inputs/f32_3.npy --threads=1 --benchmark=2 | FileCheck %s --check-prefix=AGAIN
// RUN: not fallback-run-lite %t.bef --input=%S/Inputs/f32_3.npy 2>&1 | FileCheck %s --check-prefix=NOINIT
// RUN: not fallback-run-lite %t.bef --init=nothing --input=%S/Inputs/f32_3.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fallback-run-lite %t.bef --init=main --input=%S/Inputs/f32_3.npy 2>&1 | FileCheck %s --check-prefix=ARGS
// RUN: not fallback-run-lite %t.bef --init=failing_init --input=%S/Inputs/f32_3.npy 2>&1 | FileCheck %s --check-prefix=FAILS

// Hand-derived from x = [10, 20, 30] and v = [1, 2, 3] after @init: one run
// of @main gives [11, 22, 33]; four give [41, 82, 123]; @init ran once.
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: {{\[}}11., 22., 33.]
// CHECK: result #1: tensor<i32>
// CHECK-NEXT: 1
// AGAIN: result #0: tensor<3xf32>
// AGAIN-NEXT: {{\[}}41., 82., 123.]
// AGAIN: result #1: tensor<i32>
// AGAIN-NEXT: 1
// NOINIT: error: result #0: AssignAddVariableOp '{{.*}}': Could not find variable v.
// MISSING: error: the program has no init function 'nothing'
// ARGS: error: init function 'main':
// FAILS: error: init function 'failing_init': ReadVariableOp '{{.*}}': Could not find variable never_set.

!v = tensor<!tf_type.resource<tensor<3xf32>>>
!n = tensor<!tf_type.resource<tensor<i32>>>

func.func @init() {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<3>} : () -> !v
  %init = "tf.Const"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  "tf.AssignVariableOp"(%h, %init) {dtype = f32} : (!v, tensor<3xf32>) -> ()
  %c = "tf.VarHandleOp"() {container = "", shared_name = "inits", dtype = i32, shape = #tf_type.shape<>} : () -> !n
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  "tf.AssignVariableOp"(%c, %one) {dtype = i32} : (!n, tensor<i32>) -> ()
  return
}

func.func @failing_init() {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "never_set", dtype = f32, shape = #tf_type.shape<3>} : () -> !v
  %r = "tf.ReadVariableOp"(%h) {dtype = f32} : (!v) -> tensor<3xf32>
  %v = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<3>} : () -> !v
  "tf.AssignVariableOp"(%v, %r) {dtype = f32} : (!v, tensor<3xf32>) -> ()
  return
}

func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<i32>) {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<3>} : () -> !v
  "tf.AssignAddVariableOp"(%h, %x) {dtype = f32} : (!v, tensor<3xf32>) -> ()
  %r = "tf.ReadVariableOp"(%h) {dtype = f32} : (!v) -> tensor<3xf32>
  %c = "tf.VarHandleOp"() {container = "", shared_name = "inits", dtype = i32, shape = #tf_type.shape<>} : () -> !n
  %inits = "tf.ReadVariableOp"(%c) {dtype = i32} : (!n) -> tensor<i32>
  return %r, %inits : tensor<3xf32>, tensor<i32>
}

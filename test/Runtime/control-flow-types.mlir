// Values that control flow passes to and from functions are checked where
// the program knows their types less precisely than the callee or the
// instruction declares them: the kernel of the If names the mismatch, and
// work that does not depend on it completes. The input is f32_3.npy =
// [10, 20, 30], a tensor<3xf32>.
// RUN: not fallback-run %s --entry=argument --input=%S/Inputs/f32_3.npy --threads=1 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not fallback-run %s --entry=argument --input=%S/Inputs/f32_3.npy --threads=2 2>&1 | FileCheck %s --check-prefix=ARG
// RUN: not fallback-run %s --entry=result --input=%S/Inputs/f32_3.npy --threads=1 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not fallback-run %s --entry=loop --input=%S/Inputs/f32_3.npy --threads=2 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not fallback-run %s --entry=case_index --input=%S/Inputs/i32_shape_2.npy --threads=1 2>&1 | FileCheck %s --check-prefix=CASE
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: not fallback-run-lite %t.bef --entry=argument --input=%S/Inputs/f32_3.npy --threads=1 2>&1 | FileCheck %s --check-prefix=ARG

func.func private @takes_two(%v: tensor<2xf32>) -> tensor<2xf32> {
  return %v : tensor<2xf32>
}
func.func private @passes(%v: tensor<?xf32>) -> tensor<?xf32> {
  return %v : tensor<?xf32>
}
func.func private @has_elements(%v: tensor<?xf32>) -> tensor<i1> {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.Size"(%v) : (tensor<?xf32>) -> tensor<i32>
  %p = "tf.Greater"(%n, %zero) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %p : tensor<i1>
}
func.func private @three_values(%v: tensor<3xf32>) -> tensor<i1> {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  return %t : tensor<i1>
}
func.func private @drop_first(%v: tensor<?xf32>) -> tensor<?xf32> {
  %begin = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %size = "tf.Const"() {value = dense<-1> : tensor<1xi32>} : () -> tensor<1xi32>
  %r = "tf.Slice"(%v, %begin, %size) : (tensor<?xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// The predicate holds (x has 3 elements), so @takes_two gets the 3 values.
// ARG: error: result #0: If '{{.*}}control-flow-types.mlir:[[#@LINE+5]]:{{[0-9]+}}': argument #0 is tensor<3xf32> but 'takes_two' declares tensor<2xf32>
// ARG: result #1: tensor<3xf32>
// ARG-NEXT: [-10., -20., -30.]
func.func @argument(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>) {
  %p = func.call @has_elements(%x) : (tensor<?xf32>) -> tensor<i1>
  %r = "tf.If"(%p, %x) {then_branch = @takes_two, else_branch = @passes, is_stateless = true} : (tensor<i1>, tensor<?xf32>) -> tensor<?xf32>
  %n = "tf.Neg"(%x) : (tensor<?xf32>) -> tensor<?xf32>
  return %r, %n : tensor<?xf32>, tensor<?xf32>
}

// @passes returns the 3 values where the If declares 2.
// RESULT: error: result #0: If '{{.*}}control-flow-types.mlir:[[#@LINE+3]]:{{[0-9]+}}': output #0 is tensor<3xf32> but the program declares tensor<2xf32>
func.func @result(%x: tensor<?xf32>) -> tensor<2xf32> {
  %p = func.call @has_elements(%x) : (tensor<?xf32>) -> tensor<i1>
  %r = "tf.If"(%p, %x) {then_branch = @passes, else_branch = @passes, is_stateless = true} : (tensor<i1>, tensor<?xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// The body drops an element, so the condition, which declares 3 values,
// gets 2 in the second iteration.
// LOOP: error: result #0: While '{{.*}}control-flow-types.mlir:[[#@LINE+2]]:{{[0-9]+}}': argument #0 is tensor<2xf32> but 'three_values' declares tensor<3xf32>
func.func @loop(%x: tensor<?xf32>) -> tensor<?xf32> {
  %r = "tf.While"(%x) {cond = @three_values, body = @drop_first, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant} : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// A Case's branch index must be a scalar; i32_shape_2.npy is a [2] vector.
// CASE: error: result #0: Case '{{.*}}control-flow-types.mlir:[[#@LINE+3]]:{{[0-9]+}}': the branch index must be a scalar, got tensor<2xi32>
func.func @case_index(%i: tensor<?xi32>) -> tensor<?xf32> {
  %v = "tf.Const"() {value = dense<7.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %r = "tf.Case"(%i, %v) {branches = [@passes, @passes], is_stateless = true} : (tensor<?xi32>, tensor<1xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

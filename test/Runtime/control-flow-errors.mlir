// Errors inside control flow are values: a kernel failing in the fourth
// iteration of a loop ends the loop, every result of the loop is that error
// (naming the kernel and its location), work that does not depend on the
// loop is still done, and fallback-run exits 1. A loop that would not end
// stops at the run's deadline.
// RUN: not fallback-run %s --threads=1 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: not fallback-run %s --threads=2 > %t.par.out 2> %t.par.err
// RUN: FileCheck %s --check-prefix=OUT < %t.par.out
// RUN: FileCheck %s --check-prefix=ERR < %t.par.err

// i < 10: x is reshaped to [6 - i / 3], which fails once i reaches 3
// ("6 values, but the requested shape has 5").
func.func private @cond(%i: tensor<i32>, %x: tensor<?xf32>) -> tensor<i1> {
  %ten = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %ten) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %x: tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %six = "tf.Const"() {value = dense<6> : tensor<i32>} : () -> tensor<i32>
  %q = "tf.FloorDiv"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %k = "tf.Sub"(%six, %q) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %shape = "tf.Pack"(%k) {axis = 0 : i64} : (tensor<i32>) -> tensor<1xi32>
  %y = "tf.Reshape"(%x, %shape) : (tensor<?xf32>, tensor<1xi32>) -> tensor<?xf32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %y : tensor<i32>, tensor<?xf32>
}

// An error in the predicate of an If reaches its results too.
func.func private @id(%v: tensor<f32>) -> tensor<f32> {
  return %v : tensor<f32>
}

func.func @main() -> (tensor<i32>, tensor<?xf32>, tensor<f32>, tensor<f32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %x = "tf.Const"() {value = dense<1.0> : tensor<6xf32>} : () -> tensor<6xf32>
  %r:2 = "tf.While"(%zero, %x) {cond = @cond, body = @body, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<6xf32>) -> (tensor<i32>, tensor<?xf32>)
  %bad = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %p = "tf.Reshape"(%x, %bad) : (tensor<6xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %v = "tf.Const"() {value = dense<7.0> : tensor<f32>} : () -> tensor<f32>
  %if = "tf.If"(%p, %v) {then_branch = @id, else_branch = @id, is_stateless = true} : (tensor<?x?xf32>, tensor<f32>) -> tensor<f32>
  %fine = "tf.Neg"(%v) : (tensor<f32>) -> tensor<f32>
  return %r#0, %r#1, %if, %fine : tensor<i32>, tensor<?xf32>, tensor<f32>, tensor<f32>
}

// ERR: error: result #0: Reshape '{{.*}}control-flow-errors.mlir:27:8': Input to reshape is a tensor with 6 values, but the requested shape has 5
// ERR: error: result #1: Reshape '{{.*}}control-flow-errors.mlir:27:8': Input to reshape is a tensor with 6 values, but the requested shape has 5
// ERR: error: result #2: Reshape '{{.*}}control-flow-errors.mlir:42:8'
// OUT-NOT: result #0
// OUT-NOT: result #1
// OUT-NOT: result #2
// OUT: result #3: tensor<f32>
// OUT-NEXT: -7.

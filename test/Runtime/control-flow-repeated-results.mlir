// A loop body and a branch that return one value twice (`return %s, %s`):
// every result gets the value. The executor moves a callee's result out of
// its register only at the register's last return (found by the program
// loader's fuzzer: the second result was an empty tensor).
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 | FileCheck %s
//
// Hand-derived: (i, a, b) = (0, 1, 1) -> (1, 2, 2) -> (2, 4, 4) -> (3, 8, 8),
// the loop ends at i = 3; the branch (true) returns 8 * 10 twice.
// CHECK: result #0: tensor<i32>
// CHECK-NEXT: 3
// CHECK: result #1: tensor<i32>
// CHECK-NEXT: 8
// CHECK: result #2: tensor<i32>
// CHECK-NEXT: 8
// CHECK: result #3: tensor<i32>
// CHECK-NEXT: 80
// CHECK: result #4: tensor<i32>
// CHECK-NEXT: 80

func.func private @cond(%i: tensor<i32>, %a: tensor<i32>, %b: tensor<i32>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %a: tensor<i32>, %b: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %next = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %sum = "tf.AddV2"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %next, %sum, %sum : tensor<i32>, tensor<i32>, tensor<i32>
}
func.func private @tens(%x: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %ten = "tf.Const"() {value = dense<10> : tensor<i32>} : () -> tensor<i32>
  %y = "tf.Mul"(%x, %ten) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %y, %y : tensor<i32>, tensor<i32>
}
func.func private @same(%x: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  return %x, %x : tensor<i32>, tensor<i32>
}

func.func @main() -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %r:3 = "tf.While"(%zero, %one, %one) {cond = @cond, body = @body, is_stateless = true} : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
  %p = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %b:2 = "tf.If"(%p, %r#2) {then_branch = @tens, else_branch = @same, is_stateless = true} : (tensor<i1>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
  return %r#0, %r#1, %r#2, %b#0, %b#1 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>
}

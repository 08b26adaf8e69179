// A loop that would not end stops at the run's deadline: the executor checks
// it before each iteration (and its callees before each kernel), so the
// results become DEADLINE_EXCEEDED errors and fallback-run exits 1 soon
// after the deadline. The same through a .bef.
// RUN: not fallback-run %s --threads=1 --deadline-ms=200 2>&1 | FileCheck %s
// RUN: not fallback-run %s --threads=2 --deadline-ms=200 2>&1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: not fallback-run-lite %t.bef --threads=1 --deadline-ms=200 2>&1 | FileCheck %s
// CHECK: error: result #0: the run's deadline passed before

// The condition is always true; the body counts.
func.func private @forever(%i: tensor<i32>) -> tensor<i1> {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  return %t : tensor<i1>
}
func.func private @count(%i: tensor<i32>) -> tensor<i32> {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j : tensor<i32>
}

// An endless loop with an empty body too: only the per-iteration check can
// stop it.
func.func private @same(%i: tensor<i32>) -> tensor<i32> {
  return %i : tensor<i32>
}

func.func @main() -> (tensor<i32>, tensor<i32>) {
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %r = "tf.While"(%zero) {cond = @forever, body = @count, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>) -> tensor<i32>
  %s = "tf.While"(%zero) {cond = @forever, body = @same, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>) -> tensor<i32>
  return %r, %s : tensor<i32>, tensor<i32>
}
// CHECK: error: result #1: the run's deadline passed before {{.*}}in '{{main|count|same|forever}}'

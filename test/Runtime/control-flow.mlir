// Functional and region control flow run end to end: tf.If, tf.Case,
// tf.While (and their region forms, outlined by the pipeline) lowered to
// tfrt_fallback.if / case / while, from the .mlir and through a .bef, on one
// thread and on the dataflow executor. Expected values are derived by hand
// in the comments; the input is f32_2x3.npy = [[1, 2, 3], [4, 5, 6]].
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s

// The lowering: no TF control flow is left, and pure loops carry no chain.
// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=LOWERED
// LOWERED-NOT: "tf.
// LOWERED-NOT: chain
// LOWERED: tfrt_fallback.while

//===--- If ---------------------------------------------------------------===//

func.func private @plus_one(%v: tensor<f32>) -> tensor<f32> {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %r = "tf.AddV2"(%v, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @times_two(%v: tensor<f32>) -> tensor<f32> {
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %r = "tf.Mul"(%v, %two) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @negate(%v: tensor<f32>) -> tensor<f32> {
  %r = "tf.Neg"(%v) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

//===--- While: i = 0; acc = 0; while i < n: acc += i; i += 1 ---------------===//

func.func private @below_n(%i: tensor<i32>, %acc: tensor<i32>, %n: tensor<i32>) -> tensor<i1> {
  %lt = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @accumulate(%i: tensor<i32>, %acc: tensor<i32>, %n: tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %a = "tf.AddV2"(%acc, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %a, %n : tensor<i32>, tensor<i32>, tensor<i32>
}

//===--- While whose value grows: v = concat(v, [i]) (shape_invariant) ------===//

func.func private @grow_cond(%i: tensor<i32>, %v: tensor<?xf32>) -> tensor<i1> {
  %four = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %four) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @grow_body(%i: tensor<i32>, %v: tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>) {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %shape = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %f = "tf.Cast"(%i) {Truncate = false} : (tensor<i32>) -> tensor<f32>
  %e = "tf.Reshape"(%f, %shape) : (tensor<f32>, tensor<1xi32>) -> tensor<1xf32>
  %w = "tf.ConcatV2"(%v, %e, %axis) : (tensor<?xf32>, tensor<1xf32>, tensor<i32>) -> tensor<?xf32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %w : tensor<i32>, tensor<?xf32>
}

func.func @main(%x: tensor<2x3xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
                                         tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
                                         tensor<i32>, tensor<i32>, tensor<i32>, tensor<?xf32>,
                                         tensor<i32>, tensor<i32>, tensor<f32>) {
  %three = "tf.Const"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %true = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %false = "tf.Const"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %fzero = "tf.Const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>

  // If on a bool: 3 + 1 = 4; else: 3 * 2 = 6.
  %if_true = "tf.If"(%true, %three) {then_branch = @plus_one, else_branch = @times_two, is_stateless = true} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  %if_false = "tf.StatelessIf"(%false, %three) {then_branch = @plus_one, else_branch = @times_two} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  // TensorFlow's truth values: a zero f32 scalar is false (6); a non-scalar
  // with elements, the input, is true (4).
  %if_zero = "tf.If"(%fzero, %three) {then_branch = @plus_one, else_branch = @times_two, is_stateless = true} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %if_tensor = "tf.If"(%x, %three) {then_branch = @plus_one, else_branch = @times_two, is_stateless = true} : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
  // IfRegion using values from above: the sum of the input is 21 > 20, so
  // 21 - 3 = 18.
  %axes = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %sum = "tf.Sum"(%x, %axes) {keep_dims = false} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<f32>
  %twenty = "tf.Const"() {value = dense<20.0> : tensor<f32>} : () -> tensor<f32>
  %big = "tf.Greater"(%sum, %twenty) : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %if_region = "tf.IfRegion"(%big) ({
    %d = "tf.Sub"(%sum, %three) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%d) : (tensor<f32>) -> ()
  }, {
    "tf.Yield"(%three) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>

  // Case: branch 0 adds one (4), branch 1 doubles (6); an index out of
  // range, 7 or -1, runs the last branch (-3).
  %i0 = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %i1 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %i7 = "tf.Const"() {value = dense<7> : tensor<i32>} : () -> tensor<i32>
  %im1 = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %case0 = "tf.Case"(%i0, %three) {branches = [@plus_one, @times_two, @negate], is_stateless = true} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  %case1 = "tf.StatelessCase"(%i1, %three) {branches = [@plus_one, @times_two, @negate]} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  %case7 = "tf.Case"(%i7, %three) {branches = [@plus_one, @times_two, @negate], is_stateless = true} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  // CaseRegion: index -1 runs the last region: 3 * 3 = 9.
  %case_region = "tf.CaseRegion"(%im1) ({
    "tf.Yield"(%three) : (tensor<f32>) -> ()
  }, {
    %m = "tf.Mul"(%three, %three) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%m) : (tensor<f32>) -> ()
  }) {is_stateless = true} : (tensor<i32>) -> tensor<f32>

  // While with a trip count from the input: n = Size(x) = 6, so the sum of
  // 0..5 = 15 and i ends at 6.
  %n = "tf.Size"(%x) : (tensor<2x3xf32>) -> tensor<i32>
  %loop:3 = "tf.While"(%i0, %i0, %n) {cond = @below_n, body = @accumulate, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
  // No iteration at all when the condition is false at once (n = 0): the
  // values come back as they went in, acc = 1.
  %none:3 = "tf.StatelessWhile"(%i0, %i1, %i0) {cond = @below_n, body = @accumulate, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
  // A value whose shape changes: [10] grows by 0, 1, 2, 3.
  %ten = "tf.Const"() {value = dense<10.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %grown:2 = "tf.While"(%i0, %ten) {cond = @grow_cond, body = @grow_body, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant} : (tensor<i32>, tensor<1xf32>) -> (tensor<i32>, tensor<?xf32>)

  // Nested loops (region form): for i < 3: for j < 4: acc += i * j, so
  // acc = (0 + 1 + 2) * (0 + 1 + 2 + 3) = 18. The inner loop uses i and the
  // bounds from above.
  %lim3 = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lim4 = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %nested:2 = "tf.WhileRegion"(%i0, %i0) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %c = "tf.Less"(%i, %lim3) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %inner:2 = "tf.WhileRegion"(%i0, %acc) ({
    ^bb0(%j: tensor<i32>, %a: tensor<i32>):
      %c = "tf.Less"(%j, %lim4) : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "tf.Yield"(%c) : (tensor<i1>) -> ()
    }, {
    ^bb0(%j: tensor<i32>, %a: tensor<i32>):
      %p = "tf.Mul"(%i, %j) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %a2 = "tf.AddV2"(%a, %p) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %j2 = "tf.AddV2"(%j, %i1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "tf.Yield"(%j2, %a2) : (tensor<i32>, tensor<i32>) -> ()
    }) {is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %i2 = "tf.AddV2"(%i, %i1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%i2, %inner#1) : (tensor<i32>, tensor<i32>) -> ()
  }) {is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)

  // A branch inside a loop: for i < 5: acc += i if i is even, else acc -= 1,
  // so acc = 0 + 2 + 4 - 1 - 1 = 4.
  %lim5 = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %branchy:2 = "tf.WhileRegion"(%i0, %i0) ({
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %c = "tf.Less"(%i, %lim5) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>, %acc: tensor<i32>):
    %r = "tf.FloorMod"(%i, %two) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %even = "tf.Equal"(%r, %i0) {incompatible_shape_error = true} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %next = "tf.IfRegion"(%even) ({
      %s = "tf.AddV2"(%acc, %i) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "tf.Yield"(%s) : (tensor<i32>) -> ()
    }, {
      %s = "tf.Sub"(%acc, %i1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "tf.Yield"(%s) : (tensor<i32>) -> ()
    }) {is_stateless = true} : (tensor<i1>) -> tensor<i32>
    %i2 = "tf.AddV2"(%i, %i1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%i2, %next) : (tensor<i32>, tensor<i32>) -> ()
  }) {is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)

  // A loop over a float value whose trip count depends on data: double v
  // from 1 until it reaches the input's sum, 21: 1, 2, 4, 8, 16, 32.
  %fone = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %fftwo = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %doubled = "tf.WhileRegion"(%fone) ({
  ^bb0(%v: tensor<f32>):
    %c = "tf.Less"(%v, %sum) : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%v: tensor<f32>):
    %w = "tf.Mul"(%v, %fftwo) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "tf.Yield"(%w) : (tensor<f32>) -> ()
  }) {is_stateless = true, parallel_iterations = 10 : i64} : (tensor<f32>) -> tensor<f32>

  return %if_true, %if_false, %if_zero, %if_tensor, %if_region,
         %case0, %case1, %case7, %case_region,
         %loop#1, %loop#0, %none#1, %grown#1,
         %nested#1, %branchy#1, %doubled
      : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
        tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>,
        tensor<i32>, tensor<i32>, tensor<i32>, tensor<?xf32>,
        tensor<i32>, tensor<i32>, tensor<f32>
}

// CHECK: result #0: tensor<f32>
// CHECK-NEXT: 4.
// CHECK: result #1: tensor<f32>
// CHECK-NEXT: 6.
// CHECK: result #2: tensor<f32>
// CHECK-NEXT: 6.
// CHECK: result #3: tensor<f32>
// CHECK-NEXT: 4.
// CHECK: result #4: tensor<f32>
// CHECK-NEXT: 18.
// CHECK: result #5: tensor<f32>
// CHECK-NEXT: 4.
// CHECK: result #6: tensor<f32>
// CHECK-NEXT: 6.
// CHECK: result #7: tensor<f32>
// CHECK-NEXT: -3.
// CHECK: result #8: tensor<f32>
// CHECK-NEXT: 9.
// CHECK: result #9: tensor<i32>
// CHECK-NEXT: 15
// CHECK: result #10: tensor<i32>
// CHECK-NEXT: 6
// CHECK: result #11: tensor<i32>
// CHECK-NEXT: 1
// CHECK: result #12: tensor<5xf32>
// CHECK-NEXT: [10., 0., 1., 2., 3.]
// CHECK: result #13: tensor<i32>
// CHECK-NEXT: 18
// CHECK: result #14: tensor<i32>
// CHECK-NEXT: 4
// CHECK: result #15: tensor<f32>
// CHECK-NEXT: 32.

// Stateful ops inside the region forms (tf.WhileRegion, tf.IfRegion,
// tf.CaseRegion), as TensorFlow's own MLIR writes them: the pipeline
// outlines the regions into functions, which take and return the chain, so
// the variable updates inside run in order with the reads outside, on one
// thread and on the dataflow executor, from the .mlir and through a .bef.
//
// Hand-derived: v = 1; for i < 4: v += i if i is odd, else v -= 1, i.e.
// i = 0: v = 0, i = 1: v = 1, i = 2: v = 0, i = 3: v = 3. Then a CaseRegion on branch 1
// adds 10: v = 13; branch 0 would add 100. The reads: before the case 3,
// after it 13.
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 | FileCheck %s
// RUN: fallback-run-lite %t.bef --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=LOWERED
// CHECK: result #0: tensor<f32>
// CHECK-NEXT: 3.
// CHECK: result #1: tensor<f32>
// CHECK-NEXT: 13.
// CHECK: result #2: tensor<i32>
// CHECK-NEXT: 4

// The outlined loop body and branches take the chain.
// LOWERED-NOT: "tf.
// LOWERED: tfrt_fallback.while {{.*}} chain(
// LOWERED: tfrt_fallback.case {{.*}} chain(
// LOWERED: func private @main_while_body(%{{.*}}: !tfrt_fallback.chain
// LOWERED: tfrt_fallback.if {{.*}} chain(

func.func @main() -> (tensor<f32>, tensor<f32>, tensor<i32>) {
  %h = "tf.VarHandleOp"() {container = "", dtype = f32, shape = #tf_type.shape<>, shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %f1 = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %f10 = "tf.Const"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
  %f100 = "tf.Const"() {value = dense<100.0> : tensor<f32>} : () -> tensor<f32>
  "tf.AssignVariableOp"(%h, %f1) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  %i0 = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %i1 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %i2 = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %i4 = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %loop = "tf.WhileRegion"(%i0) ({
  ^bb0(%i: tensor<i32>):
    %c = "tf.Less"(%i, %i4) : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%i: tensor<i32>):
    %r = "tf.FloorMod"(%i, %i2) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %odd = "tf.Equal"(%r, %i1) {incompatible_shape_error = true} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    "tf.IfRegion"(%odd) ({
      %fi = "tf.Cast"(%i) {Truncate = false} : (tensor<i32>) -> tensor<f32>
      "tf.AssignAddVariableOp"(%h, %fi) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
      "tf.Yield"() : () -> ()
    }, {
      "tf.AssignSubVariableOp"(%h, %f1) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
      "tf.Yield"() : () -> ()
    }) {is_stateless = false} : (tensor<i1>) -> ()
    %next = "tf.AddV2"(%i, %i1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "tf.Yield"(%next) : (tensor<i32>) -> ()
  }) {is_stateless = false, parallel_iterations = 1 : i64} : (tensor<i32>) -> tensor<i32>
  %before = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  "tf.CaseRegion"(%i1) ({
    "tf.AssignAddVariableOp"(%h, %f100) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.Yield"() : () -> ()
  }, {
    "tf.AssignAddVariableOp"(%h, %f10) : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
    "tf.Yield"() : () -> ()
  }) {is_stateless = false} : (tensor<i32>) -> ()
  %after = "tf.ReadVariableOp"(%h) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  return %before, %after, %loop : tensor<f32>, tensor<f32>, tensor<i32>
}

// Resource variables: VarHandleOp names a variable, AssignVariableOp creates
// and sets it, AssignAddVariableOp updates it inside a tf.While body (chains
// order the updates through the loop), ReadVariableOp reads it; the variable
// outlives a run (the executor's ResourceManager). Hand-derived: v starts
// at [1, 2]; the loop adds [10, 20] three times: [31, 62]; then
// AssignSubVariableOp subtracts [1, 2]: [30, 60].
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 | FileCheck %s
// The second and later runs start from the first run's value: run 3 times
// (--benchmark=2 is a warm-up and two timed runs before the printed one).
// RUN: fallback-run-lite %t.bef --threads=1 --benchmark=2 | FileCheck %s --check-prefix=AGAIN
// CHECK: result #0: tensor<2xf32>
// CHECK-NEXT: {{\[}}31., 62.]
// CHECK: result #1: tensor<2xf32>
// CHECK-NEXT: {{\[}}30., 60.]
// CHECK: result #2: tensor<i1>
// CHECK-NEXT: True
// AGAIN: result #1: tensor<2xf32>
// AGAIN-NEXT: {{\[}}30., 60.]

func.func private @cond(%i: tensor<i32>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @body(%i: tensor<i32>) -> tensor<i32> {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %step = "tf.Const"() {value = dense<[10.0, 20.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2>} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  "tf.AssignAddVariableOp"(%h, %step) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j : tensor<i32>
}

func.func @main() -> (tensor<2xf32>, tensor<2xf32>, tensor<i1>) {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2>} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %init = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %init) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.While"(%zero) {cond = @cond, body = @body, is_stateless = false} : (tensor<i32>) -> tensor<i32>
  %after_loop = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %sub = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignSubVariableOp"(%h, %sub) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %final = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  %ok = "tf.VarIsInitializedOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<i1>
  return %after_loop, %final, %ok : tensor<2xf32>, tensor<2xf32>, tensor<i1>
}

// A public function that reads a variable (an entry of the program too),
// called by another entry after it assigns the variable: the call is
// ordered after the assignment (through a private copy of the callee that
// takes the chain), on one thread and on two, where it would otherwise race
// the assignment and find no variable. Hand-derived: [1, 2].
// RUN: fallback-run %s --entry=init --threads=1 | FileCheck %s
// RUN: fallback-run %s --entry=init --threads=2 | FileCheck %s
// RUN: fallback-run %s --entry=init --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --entry=init --threads=2 | FileCheck %s
// CHECK: result #0: tensor<2xf32>
// CHECK-NEXT: {{\[}}1., 2.]

func.func @main(%r: tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32> {
  %0 = "tf.ReadVariableOp"(%r) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

func.func @init() -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", dtype = f32, shape = #tf_type.shape<2>, shared_name = "v"} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %c = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %c) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %r = "tf.StatefulPartitionedCall"(%h) {config = "", config_proto = "", executor_type = "", f = @main} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

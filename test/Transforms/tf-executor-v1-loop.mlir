// A TensorFlow v1 while loop in tf_executor form, as tf-mlir-translate
// writes a tf.while_loop of TF1 (Enter, Merge, Switch, LoopCond,
// NextIteration.Source/Sink, Exit; constants placed in the frame by control
// edges): --tf-executor-to-functional turns it into a tf.While with cond and
// body functions, and the program runs, through a .bef too.
// RUN: fallback-opt %s --tf-executor-to-functional | FileCheck %s --check-prefix=IR
// RUN: fallback-run %s --input=%src_root/test/Runtime/Inputs/f32_scalar.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%src_root/test/Runtime/Inputs/f32_scalar.npy --threads=2 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%src_root/test/Runtime/Inputs/f32_scalar.npy | FileCheck %s

// i = 0, acc = x; while acc < limit (100, a loop invariant): acc = acc * 3,
// i = i + 1. The trip count depends on the input. As in TF1 graphs with
// gradients, a ControlTrigger (`b_sync`) of a node before the loop, a body
// node and the loop's Exit orders a NextIteration: the edges from outside
// the frame order nothing in the loop's functions.

// IR-LABEL: func.func @main
// IR: "tf.While"({{.*}}) {T = [i32, f32, f32], body = @while_while_context_body, cond = @while_while_context_cond, parallel_iterations = 10 : i64}
// IR-NOT: tf_executor
// IR: return
// IR-LABEL: func.func private @while_while_context_cond(
// IR-SAME: %{{.*}}: tensor<*xi32>, %[[ACC:[^:]*]]: tensor<*xf32>, %[[LIMIT:[^:]*]]: tensor<*xf32>) -> tensor<*xi1>
// IR: "tf.Less"(%[[ACC]], %[[LIMIT]])
// IR-LABEL: func.func private @while_while_context_body(
// IR-SAME: %{{.*}}: tensor<*xi32>, %{{.*}}: tensor<*xf32>, %[[LIMIT:[^:]*]]: tensor<*xf32>) -> (tensor<*xi32>, tensor<*xf32>, tensor<*xf32>)
// IR-DAG: "tf.AddV2"
// IR-DAG: "tf.Mul"
// IR-NOT: tf.NoOp
// IR: return %{{.*}}, %{{.*}}, %[[LIMIT]]

// Hand-derived from x = 2.5: 7.5, 22.5, 67.5, 202.5 (not < 100): 4
// iterations.
// CHECK: result #0: tensor<i32>
// CHECK-NEXT: 4
// CHECK: result #1: tensor<f32>
// CHECK-NEXT: 202.5

func.func @main(%arg0: tensor<f32>) -> (tensor<*xi32>, tensor<*xf32>) attributes {tf.entry_function = {control_outputs = "", inputs = "x", outputs = "while/Exit,while/Exit_1"}} {
  %0:2 = tf_executor.graph {
    %zero, %zero_ctl = tf_executor.island wraps "tf.Const"() {device = "", dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32> loc("Const")
    %limit, %limit_ctl = tf_executor.island wraps "tf.Const"() {device = "", dtype = f32, value = dense<100.0> : tensor<f32>} : () -> tensor<f32> loc("limit")
    %pivot = tf_executor.island wraps "tf.NoOp"() {device = ""} : () -> () loc("cluster/pivot")
    %e0, %e0_ctl = tf_executor.Enter %zero frame "while/while_context" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""} loc("while/Enter")
    %e1, %e1_ctl = tf_executor.Enter %arg0 frame "while/while_context" : (tensor<f32>) -> (tensor<*xf32>, !tf_executor.control) {T = f32, device = ""} loc("while/Enter_1")
    %e2, %e2_ctl = tf_executor.Enter %limit frame "while/while_context" constant : (tensor<f32>) -> (tensor<*xf32>, !tf_executor.control) {T = f32, device = ""} loc("while/Less/Enter")
    %n0, %t0, %n0_ctl = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""} loc("while/NextIteration")
    %n1, %t1, %n1_ctl = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32, device = ""} loc("while/NextIteration_1")
    %m0, %i0, %m0_ctl = tf_executor.Merge %e0, %n0 : tensor<*xi32> {N = 2 : i64, T = i32, device = ""} loc("while/Merge")
    %m1, %i1, %m1_ctl = tf_executor.Merge %e1, %n1 : tensor<*xf32> {N = 2 : i64, T = f32, device = ""} loc("while/Merge_1")
    %less, %less_ctl = tf_executor.island wraps "tf.Less"(%m1, %e2) {T = f32, device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xi1> loc("while/Less")
    %lc, %lc_ctl = tf_executor.LoopCond %less : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {device = ""} loc("while/LoopCond")
    %s0f, %s0t, %s0_ctl = tf_executor.Switch %m0, %lc : (tensor<*xi32>, tensor<i1>) -> (tensor<*xi32>, tensor<*xi32>, !tf_executor.control) {T = i32, _class = ["loc:@while/Merge"], device = ""} loc("while/Switch")
    %s1f, %s1t, %s1_ctl = tf_executor.Switch %m1, %lc : (tensor<*xf32>, tensor<i1>) -> (tensor<*xf32>, tensor<*xf32>, !tf_executor.control) {T = f32, _class = ["loc:@while/Merge_1"], device = ""} loc("while/Switch_1")
    %id0, %id0_ctl = tf_executor.island wraps "tf.Identity"(%s0t) {T = i32, device = ""} : (tensor<*xi32>) -> tensor<*xi32> loc("while/Identity")
    %id1, %id1_ctl = tf_executor.island wraps "tf.Identity"(%s1t) {T = f32, device = ""} : (tensor<*xf32>) -> tensor<*xf32> loc("while/Identity_1")
    %one, %one_ctl = tf_executor.island(%id0_ctl) wraps "tf.Const"() {device = "", dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32> loc("while/add/y")
    %add, %add_ctl = tf_executor.island wraps "tf.AddV2"(%id0, %one) {T = i32, device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32> loc("while/add")
    %three, %three_ctl = tf_executor.island(%id0_ctl) wraps "tf.Const"() {device = "", dtype = f32, value = dense<3.0> : tensor<f32>} : () -> tensor<f32> loc("while/mul/y")
    %mul, %mul_ctl = tf_executor.island wraps "tf.Mul"(%id1, %three) {T = f32, device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32> loc("while/mul")
    %x0, %x0_ctl = tf_executor.Exit %s0f : tensor<*xi32> {T = i32, device = ""} loc("while/Exit")
    %x1, %x1_ctl = tf_executor.Exit %s1f : tensor<*xf32> {T = f32, device = ""} loc("while/Exit_1")
    %sync = tf_executor.ControlTrigger %pivot, %mul_ctl, %x1_ctl {device = ""} loc("gradients/b_sync")
    tf_executor.NextIteration.Sink [%t0] %add : tensor<*xi32> {T = i32, device = ""} loc("while/NextIteration")
    tf_executor.NextIteration.Sink [%t1] %mul, %sync : tensor<*xf32> {T = f32, device = ""} loc("while/NextIteration_1")
    tf_executor.fetch %x0, %x1 : tensor<*xi32>, tensor<*xf32>
  }
  return %0#0, %0#1 : tensor<*xi32>, tensor<*xf32>
}

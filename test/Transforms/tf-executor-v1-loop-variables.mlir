// Resource variables updated inside a TensorFlow v1 while loop in
// tf_executor form. Control edges order the stateful ops: they become chain
// dependencies (the Enters' control inputs the tf.While's, those between
// body ops kept in the body function), and an update nothing in the loop
// reads (no data path to a NextIteration) still runs every iteration: it
// joins the body.
// RUN: fallback-opt %s --tf-executor-to-functional | FileCheck %s --check-prefix=IR
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef | FileCheck %s

// a = 0, b = 0 (the loop's first Enter waits for both assignments);
// for i in 0..2: a += 2 (the body's i + 1 waits for it), b += 1 (nothing
// waits for it); then read a and b (after the loop's Exit).

// IR-LABEL: func.func @main
// IR: "tf.AssignVariableOp"
// IR: "tf.AssignVariableOp"
// IR: "tf.While"
// IR: "tf.ReadVariableOp"
// IR: "tf.ReadVariableOp"
// IR-LABEL: func.func private @while_while_context_body(
// IR-DAG: "tf.AssignAddVariableOp"({{.*}}) {_tfrt_fallback_ordered
// IR-DAG: "tf.AssignAddVariableOp"
// IR-DAG: "tf.AddV2"({{.*}}) {T = i32, _tfrt_fallback_ordered

// Hand-derived: three iterations: a = 3 * 2 = 6, b = 3 * 1 = 3.
// CHECK: result #0: tensor<f32>
// CHECK-NEXT: 6.
// CHECK: result #1: tensor<f32>
// CHECK-NEXT: 3.

func.func @main() -> (tensor<f32>, tensor<f32>) {
  %0:2 = tf_executor.graph {
    %a, %a_ctl = tf_executor.island wraps "tf.VarHandleOp"() {container = "", shared_name = "a", dtype = f32, shape = #tf_type.shape<>, device = ""} : () -> tensor<!tf_type.resource<tensor<f32>>> loc("a")
    %b, %b_ctl = tf_executor.island wraps "tf.VarHandleOp"() {container = "", shared_name = "b", dtype = f32, shape = #tf_type.shape<>, device = ""} : () -> tensor<!tf_type.resource<tensor<f32>>> loc("b")
    %zf, %zf_ctl = tf_executor.island wraps "tf.Const"() {device = "", dtype = f32, value = dense<0.0> : tensor<f32>} : () -> tensor<f32> loc("zeros")
    %init_a = tf_executor.island wraps "tf.AssignVariableOp"(%a, %zf) {device = "", dtype = f32} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> () loc("a/Assign")
    %init_b = tf_executor.island wraps "tf.AssignVariableOp"(%b, %zf) {device = "", dtype = f32} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> () loc("b/Assign")
    %zero, %zero_ctl = tf_executor.island wraps "tf.Const"() {device = "", dtype = i32, value = dense<0> : tensor<i32>} : () -> tensor<i32> loc("Const")
    %e0, %e0_ctl = tf_executor.Enter %zero, %init_a, %init_b frame "while/while_context" : (tensor<i32>, !tf_executor.control, !tf_executor.control) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""} loc("while/Enter")
    %ea, %ea_ctl = tf_executor.Enter %a frame "while/while_context" constant : (tensor<!tf_type.resource<tensor<f32>>>) -> (tensor<!tf_type.resource<tensor<f32>>>, !tf_executor.control) {T = !tf_type.resource, device = ""} loc("while/Enter_a")
    %eb, %eb_ctl = tf_executor.Enter %b frame "while/while_context" constant : (tensor<!tf_type.resource<tensor<f32>>>) -> (tensor<!tf_type.resource<tensor<f32>>>, !tf_executor.control) {T = !tf_type.resource, device = ""} loc("while/Enter_b")
    %n0, %t0, %n0_ctl = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""} loc("while/NextIteration")
    %m0, %i0, %m0_ctl = tf_executor.Merge %e0, %n0 : tensor<*xi32> {N = 2 : i64, T = i32, device = ""} loc("while/Merge")
    %three, %three_ctl = tf_executor.island(%m0_ctl) wraps "tf.Const"() {device = "", dtype = i32, value = dense<3> : tensor<i32>} : () -> tensor<i32> loc("while/Less/y")
    %less, %less_ctl = tf_executor.island wraps "tf.Less"(%m0, %three) {T = i32, device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1> loc("while/Less")
    %lc, %lc_ctl = tf_executor.LoopCond %less : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {device = ""} loc("while/LoopCond")
    %s0f, %s0t, %s0_ctl = tf_executor.Switch %m0, %lc : (tensor<*xi32>, tensor<i1>) -> (tensor<*xi32>, tensor<*xi32>, !tf_executor.control) {T = i32, device = ""} loc("while/Switch")
    %id0, %id0_ctl = tf_executor.island wraps "tf.Identity"(%s0t) {T = i32, device = ""} : (tensor<*xi32>) -> tensor<*xi32> loc("while/Identity")
    %two, %two_ctl = tf_executor.island(%id0_ctl) wraps "tf.Const"() {device = "", dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32> loc("while/two")
    %add_a = tf_executor.island wraps "tf.AssignAddVariableOp"(%ea, %two) {device = "", dtype = f32} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> () loc("while/AssignAdd_a")
    %onef, %onef_ctl = tf_executor.island(%id0_ctl) wraps "tf.Const"() {device = "", dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32> loc("while/one_f")
    %add_b = tf_executor.island wraps "tf.AssignAddVariableOp"(%eb, %onef) {device = "", dtype = f32} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> () loc("while/AssignAdd_b")
    %one, %one_ctl = tf_executor.island(%id0_ctl) wraps "tf.Const"() {device = "", dtype = i32, value = dense<1> : tensor<i32>} : () -> tensor<i32> loc("while/add/y")
    %add, %add_ctl = tf_executor.island(%add_a) wraps "tf.AddV2"(%id0, %one) {T = i32, device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32> loc("while/add")
    tf_executor.NextIteration.Sink [%t0] %add : tensor<*xi32> {T = i32, device = ""} loc("while/NextIteration")
    %x0, %x0_ctl = tf_executor.Exit %s0f : tensor<*xi32> {T = i32, device = ""} loc("while/Exit")
    %ra, %ra_ctl = tf_executor.island(%x0_ctl) wraps "tf.ReadVariableOp"(%a) {device = "", dtype = f32} : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> loc("read_a")
    %rb, %rb_ctl = tf_executor.island(%x0_ctl) wraps "tf.ReadVariableOp"(%b) {device = "", dtype = f32} : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> loc("read_b")
    tf_executor.fetch %ra, %rb : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

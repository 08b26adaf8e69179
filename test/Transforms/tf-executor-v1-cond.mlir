// TensorFlow v1 conditionals in tf_executor form, as tf-mlir-translate
// writes a tf.cond of TF1: the pivot Switch(pred, pred) whose switch_t /
// switch_f identities place the branch constants by control edges, the
// data Switches on the predicate's Identity (pred_id) and the Merge.
// --tf-executor-to-functional turns each into a tf.If with two branch
// functions; the program runs, through a .bef too.
// RUN: fallback-opt %s --tf-executor-to-functional | FileCheck %s --check-prefix=IR
// RUN: fallback-run %s --input=%src_root/test/Runtime/Inputs/f32_scalar.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%src_root/test/Runtime/Inputs/f32_scalar.npy --threads=2 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%src_root/test/Runtime/Inputs/f32_scalar.npy | FileCheck %s

// r0 = x > 2 ? x * 10 : x - 1 and r1 = x > 5 ? x * 10 : x - 1.

// IR-LABEL: func.func @main
// IR: %[[P:.*]] = "tf.Greater"
// IR: "tf.If"(%[[P]], %[[P]], %arg0, %arg0) {else_branch = @[[ELSE:[^,]*]], then_branch = @[[THEN:[^ ,}]*]]}
// IR-NOT: tf.Merge
// IR: %[[Q:.*]] = "tf.Greater"
// IR: "tf.If"(%[[Q]], %[[Q]], %arg0, %arg0)
// IR-NOT: tf_executor
// IR-NOT: tf.Switch
// IR: func.func private @[[THEN]](
// IR: "tf.Mul"
// IR: func.func private @[[ELSE]](
// IR: "tf.Sub"

// Hand-derived from x = 2.5: 2.5 > 2, so 2.5 * 10 = 25; 2.5 <= 5, so
// 2.5 - 1 = 1.5.
// CHECK: result #0: tensor<f32>
// CHECK-NEXT: 25.
// CHECK: result #1: tensor<f32>
// CHECK-NEXT: 1.5

func.func @main(%arg0: tensor<f32>) -> (tensor<f32>, tensor<f32>) attributes {tf.entry_function = {control_outputs = "", inputs = "x", outputs = "cond/Merge,cond_1/Merge"}} {
  %0:2 = tf_executor.graph {
    %two, %two_ctl = tf_executor.island wraps "tf.Const"() {device = "", dtype = f32, value = dense<2.0> : tensor<f32>} : () -> tensor<f32> loc("Greater/y")
    %gt, %gt_ctl = tf_executor.island wraps "tf.Greater"(%arg0, %two) {T = f32, device = ""} : (tensor<f32>, tensor<f32>) -> tensor<i1> loc("Greater")
    %p_f, %p_t, %p_ctl = tf_executor.Switch %gt, %gt : tensor<i1> {T = i1, device = ""} loc("cond/Switch")
    %st, %st_ctl = tf_executor.island wraps "tf.Identity"(%p_t) {T = i1, device = ""} : (tensor<i1>) -> tensor<i1> loc("cond/switch_t")
    %sf, %sf_ctl = tf_executor.island wraps "tf.Identity"(%p_f) {T = i1, device = ""} : (tensor<i1>) -> tensor<i1> loc("cond/switch_f")
    %pid, %pid_ctl = tf_executor.island wraps "tf.Identity"(%gt) {T = i1, device = ""} : (tensor<i1>) -> tensor<i1> loc("cond/pred_id")
    %mf, %mt, %m_ctl = tf_executor.Switch %arg0, %pid : tensor<f32> {T = f32, _class = ["loc:@x"], device = ""} loc("cond/mul/Switch")
    %ten, %ten_ctl = tf_executor.island(%st_ctl) wraps "tf.Const"() {device = "", dtype = f32, value = dense<10.0> : tensor<f32>} : () -> tensor<f32> loc("cond/mul/y")
    %mul, %mul_ctl = tf_executor.island wraps "tf.Mul"(%mt, %ten) {T = f32, device = ""} : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("cond/mul")
    %bf, %bt, %b_ctl = tf_executor.Switch %arg0, %pid : tensor<f32> {T = f32, _class = ["loc:@x"], device = ""} loc("cond/sub/Switch")
    %one, %one_ctl = tf_executor.island(%sf_ctl) wraps "tf.Const"() {device = "", dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32> loc("cond/sub/y")
    %sub, %sub_ctl = tf_executor.island wraps "tf.Sub"(%bf, %one) {T = f32, device = ""} : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("cond/sub")
    %r0, %r0_index, %r0_ctl = tf_executor.Merge %sub, %mul : tensor<f32> {N = 2 : i64, T = f32, device = ""} loc("cond/Merge")

    %five, %five_ctl = tf_executor.island wraps "tf.Const"() {device = "", dtype = f32, value = dense<5.0> : tensor<f32>} : () -> tensor<f32> loc("Greater_1/y")
    %gt1, %gt1_ctl = tf_executor.island wraps "tf.Greater"(%arg0, %five) {T = f32, device = ""} : (tensor<f32>, tensor<f32>) -> tensor<i1> loc("Greater_1")
    %q_f, %q_t, %q_ctl = tf_executor.Switch %gt1, %gt1 : tensor<i1> {T = i1, device = ""} loc("cond_1/Switch")
    %qt, %qt_ctl = tf_executor.island wraps "tf.Identity"(%q_t) {T = i1, device = ""} : (tensor<i1>) -> tensor<i1> loc("cond_1/switch_t")
    %qf, %qf_ctl = tf_executor.island wraps "tf.Identity"(%q_f) {T = i1, device = ""} : (tensor<i1>) -> tensor<i1> loc("cond_1/switch_f")
    %qid, %qid_ctl = tf_executor.island wraps "tf.Identity"(%gt1) {T = i1, device = ""} : (tensor<i1>) -> tensor<i1> loc("cond_1/pred_id")
    %m1f, %m1t, %m1_ctl = tf_executor.Switch %arg0, %qid : tensor<f32> {T = f32, _class = ["loc:@x"], device = ""} loc("cond_1/mul/Switch")
    %ten1, %ten1_ctl = tf_executor.island(%qt_ctl) wraps "tf.Const"() {device = "", dtype = f32, value = dense<10.0> : tensor<f32>} : () -> tensor<f32> loc("cond_1/mul/y")
    %mul1, %mul1_ctl = tf_executor.island wraps "tf.Mul"(%m1t, %ten1) {T = f32, device = ""} : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("cond_1/mul")
    %b1f, %b1t, %b1_ctl = tf_executor.Switch %arg0, %qid : tensor<f32> {T = f32, _class = ["loc:@x"], device = ""} loc("cond_1/sub/Switch")
    %one1, %one1_ctl = tf_executor.island(%qf_ctl) wraps "tf.Const"() {device = "", dtype = f32, value = dense<1.0> : tensor<f32>} : () -> tensor<f32> loc("cond_1/sub/y")
    %sub1, %sub1_ctl = tf_executor.island wraps "tf.Sub"(%b1f, %one1) {T = f32, device = ""} : (tensor<f32>, tensor<f32>) -> tensor<f32> loc("cond_1/sub")
    %r1, %r1_index, %r1_ctl = tf_executor.Merge %sub1, %mul1 : tensor<f32> {N = 2 : i64, T = f32, device = ""} loc("cond_1/Merge")
    tf_executor.fetch %r0, %r1 : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

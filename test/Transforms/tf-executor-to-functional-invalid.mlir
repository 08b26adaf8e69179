// RUN: fallback-opt %s --tf-executor-to-functional -split-input-file -verify-diagnostics

// TensorFlow v1 control flow that is no loop or conditional
// functionalizeControlFlow recognises is an error at the op it is about.

// A Merge that joins one branch of a Switch with a value from outside.
func.func @merge_outside(%x: tensor<f32>, %y: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %f, %t, %ctl = tf_executor.Switch %x, %p : tensor<f32>
    %n, %n_ctl = tf_executor.island wraps "tf.Neg"(%t) {T = f32} : (tensor<f32>) -> tensor<f32>
    // expected-error@+1 {{'tf_executor.Merge' op cannot be turned into functional control flow: conditional on 'input_1': Merge 'Merge' does not join the two branches}}
    %m, %i, %ctl2 = tf_executor.Merge %n, %y : tensor<f32>
    tf_executor.fetch %m : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// A branch value fetched directly, not through a Merge.
func.func @read_outside_branch(%x: tensor<f32>, %p: tensor<i1>) -> (tensor<f32>, tensor<f32>) {
  %0:2 = tf_executor.graph {
    %f, %t, %ctl = tf_executor.Switch %x, %p : tensor<f32>
    %n, %n_ctl = tf_executor.island wraps "tf.Neg"(%t) {T = f32} : (tensor<f32>) -> tensor<f32>
    %m, %i, %ctl2 = tf_executor.Merge %f, %n : tensor<f32>
    // expected-error@+1 {{'tf.Abs' op cannot be turned into functional control flow: conditional on 'input_1': 'Abs' is fetched, but it is inside a branch (a value leaves a conditional through a Merge)}}
    %a, %a_ctl = tf_executor.island wraps "tf.Abs"(%n) {T = f32} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %m, %a : tensor<f32>, tensor<f32>
  }
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// -----

// A Switch output fetched directly: dead on the other branch.
func.func @switch_fetched(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Switch' op cannot be turned into functional control flow: conditional on 'input_1': the output of Switch 'Switch' is fetched, but it is alive on one branch only (a value leaves a conditional through a Merge)}}
    %f, %t, %ctl = tf_executor.Switch %x, %p : tensor<f32>
    tf_executor.fetch %t : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// A loop whose Merge joins two Enters: no back edge.
func.func @merge_without_next_iteration(%x: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    %e, %e_ctl = tf_executor.Enter %x frame "while/while_context" : tensor<i32>
    %e2, %e2_ctl = tf_executor.Enter %x frame "while/while_context" : tensor<i32>
    // expected-error@+1 {{'tf_executor.Merge' op cannot be turned into functional control flow: loop of 'LoopCond': Merge 'Merge' does not join an Enter and a NextIteration}}
    %m, %i, %m_ctl = tf_executor.Merge %e, %e2 : tensor<i32>
    %c, %c_ctl = tf_executor.island wraps "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    %cond, %cond_ctl = tf_executor.LoopCond %c : tensor<i1>
    %f, %t, %s_ctl = tf_executor.Switch %m, %cond : tensor<i32>
    %out, %x_ctl = tf_executor.Exit %f : tensor<i32>
    tf_executor.fetch %out : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

// A back edge without a LoopCond, and an Exit of no loop.
func.func @no_loop_cond(%x: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %0:2 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Enter' op is TensorFlow v1 control flow outside any loop}}
    %e, %e_ctl = tf_executor.Enter %x frame "f" : tensor<i32>
    // expected-error@+1 {{'tf_executor.NextIteration.Source' op is TensorFlow v1 control flow outside any loop}}
    %next, %token, %n_ctl = tf_executor.NextIteration.Source : tensor<i32>
    // expected-error@+1 {{'tf_executor.Merge' op is TensorFlow v1 control flow outside any loop (a frame of a LoopCond) or conditional (Switches on one predicate joined by Merges), so it cannot be turned into functional control flow}}
    %m, %i, %m_ctl = tf_executor.Merge %e, %next : tensor<i32>
    tf_executor.NextIteration.Sink [%token] %m : tensor<i32>
    // expected-error@+1 {{'tf_executor.Exit' op is TensorFlow v1 control flow outside any loop}}
    %out, %x_ctl = tf_executor.Exit %x : tensor<i32>
    tf_executor.fetch %m, %out : tensor<i32>, tensor<i32>
  }
  return %0#0, %0#1 : tensor<i32>, tensor<i32>
}

// -----

// _SwitchN (a lowered tf.Case) has no functional form here.
func.func @switch_n(%x: tensor<f32>, %i: tensor<i32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op is TensorFlow v1 control flow that --tf-executor-to-functional cannot turn into functional control flow: only loops (Enter, Merge, Switch, LoopCond, NextIteration, Exit) and conditionals (Switch, Merge) can}}
    %o:2, %ctl = tf_executor._SwitchN %x, %i of 2 : tensor<f32>
    tf_executor.fetch %o#0 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

// A graph with v1 control flow becomes graph nodes, which hold no regions.
func.func @region_op(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %f, %t, %ctl = tf_executor.Switch %x, %p : tensor<f32>
    %m, %i, %ctl2 = tf_executor.Merge %f, %t : tensor<f32>
    %r, %r_ctl = tf_executor.island {
      // expected-error@+1 {{'tf.IfRegion' op cannot be part of a tf_executor graph with TensorFlow v1 control flow: only TF ops without regions can be turned into graph nodes}}
      %v = "tf.IfRegion"(%p) ({
        "tf.Yield"(%m) : (tensor<f32>) -> ()
      }, {
        "tf.Yield"(%x) : (tensor<f32>) -> ()
      }) {is_stateless = true} : (tensor<i1>) -> tensor<f32>
      tf_executor.yield %v : tensor<f32>
    }
    tf_executor.fetch %r : tensor<f32>
  }
  return %0 : tensor<f32>
}


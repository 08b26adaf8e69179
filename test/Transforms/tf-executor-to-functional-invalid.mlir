// RUN: fallback-opt %s --tf-executor-to-functional -split-input-file -verify-diagnostics

// TensorFlow v1 control flow parses and verifies; the pass names each op it
// cannot turn into functional control flow yet.
func.func @switch_merge(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Switch' op is TensorFlow v1 control flow, which --tf-executor-to-functional does not turn into functional control flow yet: only tf_executor.island, fetch and ControlTrigger can be inlined}}
    %f, %t, %ctl = tf_executor.Switch %x, %p : tensor<f32>
    // expected-error@+1 {{'tf_executor.Merge' op is TensorFlow v1 control flow}}
    %m, %i, %ctl2 = tf_executor.Merge %f, %t : tensor<f32>
    tf_executor.fetch %m : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @loop(%x: tensor<i32>) -> tensor<i32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Enter' op is TensorFlow v1 control flow}}
    %e, %e_ctl = tf_executor.Enter %x frame "while/while_context" : tensor<i32>
    // expected-error@+1 {{'tf_executor.NextIteration.Source' op is TensorFlow v1 control flow}}
    %next, %token, %n_ctl = tf_executor.NextIteration.Source : tensor<i32>
    // expected-error@+1 {{'tf_executor.Merge' op is TensorFlow v1 control flow}}
    %m, %i, %m_ctl = tf_executor.Merge %e, %next : tensor<i32>
    %c, %c_ctl = tf_executor.island wraps "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    // expected-error@+1 {{'tf_executor.LoopCond' op is TensorFlow v1 control flow}}
    %cond, %cond_ctl = tf_executor.LoopCond %c : tensor<i1>
    // expected-error@+1 {{'tf_executor.Switch' op is TensorFlow v1 control flow}}
    %f, %t, %s_ctl = tf_executor.Switch %m, %cond : tensor<i32>
    // expected-error@+1 {{'tf_executor.NextIteration.Sink' op is TensorFlow v1 control flow}}
    tf_executor.NextIteration.Sink [%token] %t : tensor<i32>
    // expected-error@+1 {{'tf_executor.Exit' op is TensorFlow v1 control flow}}
    %out, %x_ctl = tf_executor.Exit %f : tensor<i32>
    tf_executor.fetch %out : tensor<i32>
  }
  return %0 : tensor<i32>
}

// -----

func.func @switch_n(%x: tensor<f32>, %i: tensor<i32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op is TensorFlow v1 control flow}}
    %o:2, %ctl = tf_executor._SwitchN %x, %i of 2 : tensor<f32>
    tf_executor.fetch %o#0 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// RUN: fallback-opt %s -split-input-file -verify-diagnostics

func.func @not_an_island(%x: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf.Neg' op is in a tf_executor.graph, which holds only tf_executor ops}}
    %1 = "tf.Neg"(%x) {T = f32} : (tensor<f32>) -> tensor<f32>
    tf_executor.fetch %1 : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @control_first(%x: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    %1:2 = tf_executor.island {
      tf_executor.yield %x : tensor<f32>
    }
    // expected-error@+1 {{fetches data value #1 after a control token}}
    tf_executor.fetch %1#1, %1#0 : !tf_executor.control, tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @island_outside_graph(%x: tensor<f32>) {
  // expected-error@+1 {{'tf_executor.island' op expects parent op 'tf_executor.graph'}}
  %0:2 = tf_executor.island {
    tf_executor.yield %x : tensor<f32>
  }
  return
}

// -----

func.func @yield_outside_island(%x: tensor<f32>) {
  // expected-error@+1 {{'tf_executor.yield' op expects parent op 'tf_executor.island'}}
  tf_executor.yield %x : tensor<f32>
}

// -----

func.func @no_fetch(%x: tensor<f32>) {
  // expected-error@+1 {{custom op 'tf_executor.graph' expects a tf_executor.fetch terminator}}
  tf_executor.graph {
    %0:2 = tf_executor.island {
      tf_executor.yield %x : tensor<f32>
    }
    tf_executor.yield %x : tensor<f32>
  }
  return
}

// -----

// expected-note@+1 {{prior use here}}
func.func @control_operand_type(%x: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{use of value '%x' expects different type than prior uses: '!tf_executor.control' vs 'tensor<f32>'}}
    %ctl = tf_executor.island(%x) {
      tf_executor.yield
    }
    tf_executor.fetch
  }
  return
}

// -----

// A graph directly inside a graph: TensorFlow wraps it in an island.
func.func @graph_in_graph() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.graph' op is directly inside another tf_executor.graph (wrap it in a tf_executor.island)}}
    tf_executor.graph {
      tf_executor.fetch
    }
    tf_executor.fetch
  }
  return
}

// -----

func.func @island_block_arguments(%x: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.island' op has a body with 1 block arguments; an island's body takes none}}
    %0:2 = tf_executor.island {
    ^bb0(%a: tensor<f32>):
      tf_executor.yield %a : tensor<f32>
    }
    tf_executor.fetch
  }
  return
}

// -----

func.func @yield_control() {
  tf_executor.graph {
    %ctl = tf_executor.island {
      tf_executor.yield
    }
    %0:2 = tf_executor.island {
      // expected-error@+1 {{'tf_executor.yield' op yields a control token as operand #0; an island's control token is its own last result}}
      tf_executor.yield %ctl : !tf_executor.control
    }
    tf_executor.fetch
  }
  return
}

// -----

func.func @data_after_control(%x: tensor<f32>, %p: tensor<i1>) {
  tf_executor.graph {
    %ctl = tf_executor.island {
      tf_executor.yield
    }
    // expected-error@+1 {{'tf_executor.Merge' op has data operand #2 after control operand #1; control operands come last}}
    %m, %i, %c = "tf_executor.Merge"(%x, %ctl, %x) : (tensor<f32>, !tf_executor.control, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_outside_graph(%x: tensor<f32>, %p: tensor<i1>) {
  // expected-error@+1 {{'tf_executor.Switch' op expects parent op 'tf_executor.graph'}}
  %f, %t, %c = tf_executor.Switch %x, %p : tensor<f32>
  return
}

// -----

func.func @switch_predicate(%x: tensor<f32>, %p: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Switch' op operand #1 must be tensor of 1-bit signless integer values}}
    %f, %t, %c = tf_executor.Switch %x, %p : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_short_form(%x: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects 2 data operands before the control operands}}
    %f, %t, %c = tf_executor.Switch %x : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_n_count(%x: tensor<f32>, %i: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor._SwitchN' op has 2 outputs but num_outs is 3}}
    %o:2, %c = "tf_executor._SwitchN"(%x, %i) {num_outs = 3 : i64} : (tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @switch_n_zero(%x: tensor<f32>, %i: tensor<i32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects at least one output, not 0}}
    %c = tf_executor._SwitchN %x, %i of 0 : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_no_data() {
  tf_executor.graph {
    %ctl = tf_executor.ControlTrigger {}
    // expected-error@+1 {{'tf_executor.Merge' op expects at least one data operand}}
    %m, %i, %c = "tf_executor.Merge"(%ctl) : (!tf_executor.control) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

func.func @merge_short_form(%x: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{expects 2 data operands before the control operands}}
    %m, %i, %c = tf_executor.Merge %x : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @enter_frame(%x: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{expected 'frame'}}
    %e, %c = tf_executor.Enter %x : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @source_without_sink() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.NextIteration.Source' op expects its token to be used by exactly one tf_executor.NextIteration.Sink}}
    %v, %token, %c = tf_executor.NextIteration.Source : tensor<f32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @sink_type() {
  tf_executor.graph {
    %v, %token, %c = tf_executor.NextIteration.Source : tensor<f32>
    %i, %ic = tf_executor.island wraps "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    // expected-error@+1 {{'tf_executor.NextIteration.Sink' op has input type 'tensor<i32>' but its tf_executor.NextIteration.Source produces 'tensor<f32>'}}
    tf_executor.NextIteration.Sink [%token] %i : tensor<i32>
    tf_executor.fetch
  }
  return
}

// -----

func.func @loop_cond_type(%x: tensor<f32>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.LoopCond' op operand #0 must be tensor of 1-bit signless integer values}}
    %c, %ctl = tf_executor.LoopCond %x : tensor<f32>
    tf_executor.fetch
  }
  return
}

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

func.func @switch(%x: tensor<f32>, %p: tensor<i1>) {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Switch' is not supported yet: of tf_executor, only graph, island, yield and fetch are}}
    %t, %f, %ctl = tf_executor.Switch %x, %p : tensor<f32>
    tf_executor.fetch
  }
  return
}

// RUN: fallback-opt %s --tf-executor-to-functional -split-input-file -verify-diagnostics

// TensorFlow v1 control flow in generic form parses, and the pass names it.
func.func @switch(%x: tensor<f32>, %p: tensor<i1>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Switch' op is not supported yet by --tf-executor-to-functional: only tf_executor.island and tf_executor.fetch can be inlined}}
    %t, %f, %ctl = "tf_executor.Switch"(%x, %p) : (tensor<f32>, tensor<i1>) -> (tensor<f32>, tensor<f32>, !tf_executor.control)
    // expected-error@+1 {{'tf_executor.Merge' op is not supported yet}}
    %m, %i, %ctl2 = "tf_executor.Merge"(%t, %f) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    tf_executor.fetch %m : tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @next_iteration() {
  tf_executor.graph {
    // expected-error@+1 {{'tf_executor.NextIteration.Source' op is not supported yet}}
    %out, %token, %ctl = "tf_executor.NextIteration.Source"() : () -> (tensor<f32>, !tf_executor.control, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

// Outside a graph.
func.func @stray(%x: tensor<f32>) {
  // expected-error@+1 {{'tf_executor.Exit' op is not supported yet by --tf-executor-to-functional outside a tf_executor.graph}}
  %0 = "tf_executor.Exit"(%x) : (tensor<f32>) -> tensor<f32>
  return
}

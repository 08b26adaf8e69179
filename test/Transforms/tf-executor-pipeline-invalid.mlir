// RUN: not fallback-run %s 2>&1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline -verify-diagnostics

// The pipeline (and so fallback-run and --mlir-to-bef) reports TensorFlow
// v1 control flow in tf_executor form.
// CHECK: error: 'tf_executor.Merge' op is TensorFlow v1 control flow, which --tf-executor-to-functional does not turn into functional control flow yet
func.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Merge' op is TensorFlow v1 control flow, which --tf-executor-to-functional does not turn into functional control flow yet}}
    %m, %i, %ctl = tf_executor.Merge %x, %y : tensor<f32>
    tf_executor.fetch %m : tensor<f32>
  }
  return %0 : tensor<f32>
}

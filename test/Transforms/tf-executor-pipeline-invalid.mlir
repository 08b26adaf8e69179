// RUN: not fallback-run %s 2>&1 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline -verify-diagnostics

// The pipeline (and so fallback-run and --mlir-to-bef) reports TensorFlow
// v1 control flow in tf_executor form that is no loop or conditional.
// CHECK: error: 'tf_executor.Merge' op is TensorFlow v1 control flow outside any loop (a frame of a LoopCond) or conditional (Switches on one predicate joined by Merges), so it cannot be turned into functional control flow
func.func @main(%x: tensor<f32>, %y: tensor<f32>) -> tensor<f32> {
  %0 = tf_executor.graph {
    // expected-error@+1 {{'tf_executor.Merge' op is TensorFlow v1 control flow outside any loop}}
    %m, %i, %ctl = tf_executor.Merge %x, %y : tensor<f32>
    tf_executor.fetch %m : tensor<f32>
  }
  return %0 : tensor<f32>
}

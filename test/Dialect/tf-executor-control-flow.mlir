// RUN: fallback-opt %s -split-input-file | FileCheck %s
// RUN: fallback-opt %s -split-input-file | fallback-opt -split-input-file | FileCheck %s
// RUN: fallback-opt %s -split-input-file --mlir-print-op-generic --mlir-print-debuginfo | fallback-opt -split-input-file | FileCheck %s

// TensorFlow's v1 control-flow ops in the syntax TensorFlow prints them:
// the short form with one type, and the function-type form when the types
// differ.

// CHECK-LABEL: func @while_loop
// CHECK-SAME: (%[[X:.*]]: tensor<i32>, %[[P:.*]]: tensor<i1>)
func.func @while_loop(%x: tensor<i32>, %p: tensor<i1>) -> tensor<*xi32> {
  %0 = tf_executor.graph {
    // CHECK: %[[E:.*]], %[[EC:.*]] = tf_executor.Enter %[[X]] frame "while/while_context" parallel_iterations 32 constant : tensor<i32>
    %e:2 = tf_executor.Enter %x frame "while/while_context" parallel_iterations 32 constant : tensor<i32>
    // CHECK: %[[E2:.*]], %{{.*}} = tf_executor.Enter %[[X]], %[[EC]] frame "while/while_context" : (tensor<i32>, !tf_executor.control) -> (tensor<*xi32>, !tf_executor.control)
    %e2:2 = tf_executor.Enter %x, %e#1 frame "while/while_context" : (tensor<i32>, !tf_executor.control) -> (tensor<*xi32>, !tf_executor.control)
    // CHECK: %[[NEXT:.*]], %[[TOKEN:.*]], %{{.*}} = tf_executor.NextIteration.Source : tensor<*xi32>
    %next:3 = tf_executor.NextIteration.Source : tensor<*xi32>
    // CHECK: %[[M:.*]], %{{.*}}, %{{.*}} = tf_executor.Merge %[[E2]], %[[NEXT]] : tensor<*xi32>
    %m:3 = tf_executor.Merge %e2#0, %next#0 : tensor<*xi32>
    // CHECK: %[[C:.*]], %[[CC:.*]] = tf_executor.LoopCond %[[P]] : tensor<i1>
    %c:2 = tf_executor.LoopCond %p : tensor<i1>
    // CHECK: %[[F:.*]], %[[T:.*]], %{{.*}} = tf_executor.Switch %[[M]], %[[C]] : tensor<*xi32>
    %s:3 = tf_executor.Switch %m#0, %c#0 : tensor<*xi32>
    // CHECK: tf_executor.NextIteration.Sink[%[[TOKEN]]] %[[T]], %[[CC]] : tensor<*xi32>
    tf_executor.NextIteration.Sink [%next#1] %s#1, %c#1 : tensor<*xi32>
    // CHECK: %[[OUT:.*]], %[[OC:.*]] = tf_executor.Exit %[[F]] : tensor<*xi32>
    %out:2 = tf_executor.Exit %s#0 : tensor<*xi32>
    // CHECK: %[[TRIGGER:.*]] = tf_executor.ControlTrigger %[[OC]], %[[CC]]
    %trigger = tf_executor.ControlTrigger %out#1, %c#1
    // CHECK: = tf_executor.ControlTrigger{{ *$}}
    %none = tf_executor.ControlTrigger {}
    // CHECK: tf_executor.fetch %[[OUT]], %[[TRIGGER]] : tensor<*xi32>, !tf_executor.control
    tf_executor.fetch %out#0, %trigger : tensor<*xi32>, !tf_executor.control
  }
  return %0 : tensor<*xi32>
}

// -----

// CHECK-LABEL: func @long_forms
// CHECK-SAME: (%[[X:.*]]: tensor<f32>, %[[P:.*]]: tensor<*xi1>, %[[I:.*]]: tensor<i32>)
func.func @long_forms(%x: tensor<f32>, %p: tensor<*xi1>, %i: tensor<i32>) {
  tf_executor.graph {
    // CHECK: %[[F:.*]], %{{.*}}, %[[SC:.*]] = tf_executor.Switch %[[X]], %[[P]] : (tensor<f32>, tensor<*xi1>) -> (tensor<*xf32>, tensor<f32>, !tf_executor.control)
    %s:3 = tf_executor.Switch %x, %p : (tensor<f32>, tensor<*xi1>) -> (tensor<*xf32>, tensor<f32>, !tf_executor.control)
    // CHECK: tf_executor.Merge %[[X]], %[[X]], %[[X]], %[[SC]] : (tensor<f32>, tensor<f32>, tensor<f32>, !tf_executor.control) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    %m:3 = tf_executor.Merge %x, %x, %x, %s#2 : (tensor<f32>, tensor<f32>, tensor<f32>, !tf_executor.control) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    // CHECK: tf_executor.Merge %[[F]], %[[X]] : (tensor<*xf32>, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    %m2:3 = tf_executor.Merge %s#0, %x : (tensor<*xf32>, tensor<f32>) -> (tensor<f32>, tensor<i32>, !tf_executor.control)
    // CHECK: %{{.*}}:3, %[[NC:.*]] = tf_executor._SwitchN %[[X]], %[[I]] of 3 : tensor<f32>
    %n:4 = tf_executor._SwitchN %x, %i of 3 : tensor<f32>
    // CHECK: tf_executor._SwitchN %[[X]], %[[I]] of 1 (%[[NC]]) : tensor<f32> {_note = "ctl"}
    %n2:2 = tf_executor._SwitchN %x, %i of 1 (%n#3) : tensor<f32> {_note = "ctl"}
    // CHECK: tf_executor.Exit %[[X]], %[[NC]] : (tensor<f32>, !tf_executor.control) -> (tensor<*xf32>, !tf_executor.control)
    %x2:2 = tf_executor.Exit %x, %n#3 : (tensor<f32>, !tf_executor.control) -> (tensor<*xf32>, !tf_executor.control)
    // CHECK: tf_executor.LoopCond %[[P]] : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control)
    %c:2 = tf_executor.LoopCond %p : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control)
    tf_executor.fetch
  }
  return
}

// -----

// The `wraps` form holds one location: an island whose op has a location of
// its own keeps the region form, so no location is lost.
// CHECK-LABEL: func @wraps_locations
func.func @wraps_locations() {
  tf_executor.graph {
    // CHECK: tf_executor.island {
    // CHECK-NEXT: "tf.NoOp"() : () -> ()
    // CHECK-NEXT: tf_executor.yield
    %0 = tf_executor.island {
      "tf.NoOp"() : () -> () loc("op")
      tf_executor.yield loc("island")
    } loc("island")
    // CHECK: tf_executor.island wraps "tf.NoOp"() : () -> ()
    %1 = tf_executor.island {
      "tf.NoOp"() : () -> () loc("same")
      tf_executor.yield loc("same")
    } loc("same")
    // An island with attributes of its own keeps the region form too.
    // CHECK: tf_executor.island {
    // CHECK: } {_note = "mine"}
    %2 = tf_executor.island wraps "tf.NoOp"() : () -> () {_note = "mine"}
    tf_executor.fetch
  }
  return
}

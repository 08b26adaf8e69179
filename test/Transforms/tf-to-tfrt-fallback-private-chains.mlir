// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file | FileCheck %s

// A private function with side effects takes a chain as its first argument
// and returns its last chain as its last result; its call sites pass their
// current chain and continue from the returned one.

// CHECK-LABEL: func private @effect
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK-NOT: new_chain
// CHECK: %[[C1:.*]] = tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C]]) {T = f32, U = []}
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]]) {T = f32}
// CHECK: return %[[R]], %[[C1]] : tensor<2xf32>, !tfrt_fallback.chain
func.func private @effect(%x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[S:.*]]: tensor<2xi32>) -> tensor<2xf32>
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[R:.*]], %[[C1:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%[[S]]) chain(%[[C0]])
// CHECK: %[[CALL:.*]]:2 = call @effect(%[[C1]], %[[R]]) {note = "kept"} : (!tfrt_fallback.chain, tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: %[[C3:.*]] = tfrt_fallback.kernel_call "Print"(%[[CALL]]#0) chain(%[[CALL]]#1)
// CHECK: return %[[CALL]]#0 : tensor<2xf32>
func.func @main(%x: tensor<2xf32>, %s: tensor<2xi32>) -> tensor<2xf32> {
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %1 = func.call @effect(%0) {note = "kept"} : (tensor<2xf32>) -> tensor<2xf32>
  "tf.Print"(%1) {T = f32} : (tensor<2xf32>) -> ()
  return %1 : tensor<2xf32>
}

// -----

// A private function without results returns just the chain; one without
// arguments takes just the chain.
// CHECK-LABEL: func private @sink
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<2xf32>) -> !tfrt_fallback.chain
// CHECK: %[[C1:.*]] = tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C]])
// CHECK: return %[[C1]] : !tfrt_fallback.chain
func.func private @sink(%x: tensor<2xf32>) {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return
}

// CHECK-LABEL: func private @source
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain) -> (tensor<2xf32>, !tfrt_fallback.chain)
func.func private @source() -> tensor<2xf32> {
  %s = "tf.Const"() {value = dense<2> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<1xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @main
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[SRC:.*]]:2 = call @source(%[[C0]]) : (!tfrt_fallback.chain) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: %[[C2:.*]] = call @sink(%[[SRC]]#1, %[[SRC]]#0) : (!tfrt_fallback.chain, tensor<2xf32>) -> !tfrt_fallback.chain
// CHECK: %{{.*}} = call @sink(%[[C2]], %[[SRC]]#0)
func.func @main() {
  %0 = func.call @source() : () -> tensor<2xf32>
  func.call @sink(%0) : (tensor<2xf32>) -> ()
  func.call @sink(%0) : (tensor<2xf32>) -> ()
  return
}

// -----

// Effects propagate through a pure-looking private function that calls an
// effectful one: @wrapper gets a chain too, and so does its caller's call.
// CHECK-LABEL: func private @leaf
// CHECK-SAME: (%{{.*}}: !tfrt_fallback.chain, %{{.*}}: tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
func.func private @leaf(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.MyCustomOp"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func private @wrapper
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]]) {T = f32}
// CHECK: %[[L:.*]]:2 = call @leaf(%[[C]], %[[R]]) : (!tfrt_fallback.chain, tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: return %[[L]]#0, %[[L]]#1 : tensor<2xf32>, !tfrt_fallback.chain
func.func private @wrapper(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = func.call @leaf(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// CHECK-LABEL: func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[O:.*]]:2 = call @outer(%[[C0]], %[[X]]) : (!tfrt_fallback.chain, tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: return %[[O]]#0 : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @outer(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Declared after its caller: the order of functions does not matter.
// CHECK-LABEL: func private @outer
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: call @wrapper(%[[C]], %[[X]])

func.func private @outer(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @wrapper(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A pure private function stays unchanged next to effectful ones.
// CHECK-LABEL: func private @pure
// CHECK-SAME: (%{{.*}}: tensor<2xf32>) -> tensor<2xf32>
func.func private @pure(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @main
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[P:.*]] = call @pure(%{{.*}}) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: tfrt_fallback.kernel_call "Print"(%[[P]]) chain(%[[C0]])
func.func @main(%x: tensor<2xf32>) {
  %0 = func.call @pure(%x) : (tensor<2xf32>) -> tensor<2xf32>
  "tf.Print"(%0) {T = f32} : (tensor<2xf32>) -> ()
  return
}

// -----

// A private function that an op left as a kernel call names in a function
// attribute (here the `f` of an op the lowering does not know) is called by
// the runtime with its TensorFlow signature: it keeps that signature and
// starts its own chain.
// CHECK-LABEL: func private @body
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C0]])
// CHECK: return %[[X]] : tensor<2xf32>
func.func private @body(%x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return %x : tensor<2xf32>
}

// CHECK-LABEL: func @main
// CHECK: tfrt_fallback.kernel_call "MyFunctionalOp"(%{{.*}}) chain(%{{.*}}) {Tin = [f32], Tout = [f32], f = @body} : (tensor<2xf32>) -> tensor<2xf32>
// Direct calls of such a function call a private copy that takes the
// caller's chain (a call has no chain of its own).
// CHECK: call @body_ordered(%{{.*}}, %{{.*}}) : (!tfrt_fallback.chain, tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.MyFunctionalOp"(%x) {f = @body, Tin = [f32], Tout = [f32]} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = func.call @body(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// tf.StatefulPartitionedCall and tf.PartitionedCall are calls: func.call of
// their `f` (also written as #tf_type.func), which takes and returns the
// chain when it has side effects, like any private function.
// CHECK-LABEL: func private @effect
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
func.func private @effect(%x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return %x : tensor<2xf32>
}

// CHECK-LABEL: func private @pure
// CHECK-SAME: (%{{.*}}: tensor<2xf32>) -> tensor<2xf32>
func.func private @pure(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Neg"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @main
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[A:.*]]:2 = call @effect(%[[C0]], %[[X]]) : (!tfrt_fallback.chain, tensor<2xf32>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: %[[B:.*]] = call @pure(%[[A]]#0) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[D:.*]]:2 = call @effect(%[[A]]#1, %[[B]])
// CHECK: return %[[D]]#0
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.StatefulPartitionedCall"(%x) {f = @effect, config = "", config_proto = "", executor_type = "", Tin = [f32], Tout = [f32]} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.PartitionedCall"(%0) {f = #tf_type.func<@pure, {}>, config = "", config_proto = "", executor_type = ""} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.StatefulPartitionedCall"(%1) {f = @effect, config = "", config_proto = "", executor_type = ""} : (tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}

// -----

// A public effectful function (an entry of the program) cannot take a
// chain; the calls this pass lowers get a private copy that does, so the
// call is ordered after the caller's earlier effects. The function itself
// keeps its signature.
// CHECK-LABEL: func @read
// CHECK-SAME: (%{{.*}}: tensor<!tf_type.resource>) -> tensor<2xf32>
// CHECK: tfrt_fallback.new_chain
// CHECK: kernel_call "ReadVariableOp"
// CHECK-LABEL: func private @read_ordered
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %{{.*}}: tensor<!tf_type.resource>) -> (tensor<2xf32>, !tfrt_fallback.chain)
// CHECK: kernel_call "ReadVariableOp"(%{{.*}}) chain(%[[C]])
func.func @read(%r: tensor<!tf_type.resource>) -> tensor<2xf32> {
  %0 = "tf.ReadVariableOp"(%r) {dtype = f32} : (tensor<!tf_type.resource>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @init
// CHECK: %[[C0:.*]] = tfrt_fallback.kernel_call "AssignVariableOp"
// CHECK: call @read_ordered(%[[C0]], %{{.*}})
func.func @init() -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", dtype = f32, shape = #tf_type.shape<2>, shared_name = "v"} : () -> tensor<!tf_type.resource>
  %c = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %c) : (tensor<!tf_type.resource>, tensor<2xf32>) -> ()
  %r = "tf.StatefulPartitionedCall"(%h) {config = "", config_proto = "", executor_type = "", f = @read} : (tensor<!tf_type.resource>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

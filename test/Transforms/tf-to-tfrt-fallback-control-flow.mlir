// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file | FileCheck %s

// Functional control flow becomes tfrt_fallback.if / case / while. Pure
// callees keep their signature and the ops get no chain; TF's bookkeeping
// attributes (Tin, Tout, is_stateless, parallel_iterations,
// shape_invariant, ...) are dropped.

func.func private @then(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @else(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @cond(%i: tensor<i32>, %x: tensor<?xf32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Less"(%i, %c) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %x: tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>) {
  return %i, %x : tensor<i32>, tensor<?xf32>
}

// CHECK-LABEL: func @pure
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[I:.*]]: tensor<i32>, %[[X:.*]]: tensor<2xf32>)
// CHECK-NOT: chain
// CHECK: %[[A:.*]] = tfrt_fallback.if %[[P]] then @then else @else (%[[X]]) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[B:.*]] = tfrt_fallback.if %[[P]] then @else else @then (%[[A]]) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[C:.*]] = tfrt_fallback.case %[[I]] [@then, @else, @then] (%[[B]]) : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK: %[[D:.*]] = tfrt_fallback.case %[[I]] [@else] (%[[C]])
// CHECK: %[[W:.*]]:2 = tfrt_fallback.while @cond @body (%[[I]], %[[D]]) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<?xf32>)
// CHECK: %[[V:.*]]:2 = tfrt_fallback.while @cond @body (%[[I]], %[[W]]#1) : (tensor<i32>, tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>)
// CHECK: return %[[V]]#1
func.func @pure(%p: tensor<i1>, %i: tensor<i32>, %x: tensor<2xf32>) -> tensor<?xf32> {
  %0 = "tf.If"(%p, %x) {then_branch = @then, else_branch = @else, is_stateless = true, Tcond = i1, Tin = [f32], Tout = [f32], _lower_using_switch_merge = true} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.StatelessIf"(%p, %0) {then_branch = #tf_type.func<@else, {}>, else_branch = #tf_type.func<@then, {}>} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.Case"(%i, %1) {branches = [@then, @else, @then], is_stateless = true} : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = "tf.StatelessCase"(%i, %2) {branches = [#tf_type.func<@else, {}>]} : (tensor<i32>, tensor<2xf32>) -> tensor<2xf32>
  %4:2 = "tf.While"(%i, %3) {cond = @cond, body = @body, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant} : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<?xf32>)
  %5:2 = "tf.StatelessWhile"(%i, %4#1) {cond = @cond, body = @body, parallel_iterations = 1 : i64} : (tensor<i32>, tensor<?xf32>) -> (tensor<i32>, tensor<?xf32>)
  return %5#1 : tensor<?xf32>
}

// -----

// Chains thread through branches and loop bodies: a private callee with side
// effects takes the chain first and returns it last; the op passes the
// current chain and continues from its output chain. A pure callee of the
// same op takes none (the chain passes it by).

// CHECK-LABEL: func private @print_then
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<f32>) -> (tensor<f32>, !tfrt_fallback.chain)
// CHECK: %[[C1:.*]] = tfrt_fallback.kernel_call "Print"(%[[X]]) chain(%[[C]])
// CHECK: return %[[X]], %[[C1]]
func.func private @print_then(%x: tensor<f32>) -> tensor<f32> {
  "tf.Print"(%x) {T = f32} : (tensor<f32>) -> ()
  return %x : tensor<f32>
}
// CHECK-LABEL: func private @pure_else
// CHECK-SAME: (%{{.*}}: tensor<f32>) -> tensor<f32>
func.func private @pure_else(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// CHECK-LABEL: func private @loop_cond
// CHECK-SAME: (%{{.*}}: tensor<f32>) -> tensor<i1>
func.func private @loop_cond(%x: tensor<f32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Less"(%x, %c) : (tensor<f32>, tensor<f32>) -> tensor<i1>
  return %0 : tensor<i1>
}
// The body prints through a branch: it is effectful by what it calls.
// CHECK-LABEL: func private @loop_body
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<f32>) -> (tensor<f32>, !tfrt_fallback.chain)
// CHECK: %[[R:.*]], %[[C1:.*]] = tfrt_fallback.if %{{.*}} then @print_then else @pure_else (%[[X]]) chain(%[[C]])
// CHECK: return %{{.*}}, %[[C1]]
func.func private @loop_body(%x: tensor<f32>) -> tensor<f32> {
  %t = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %0 = "tf.If"(%t, %x) {then_branch = @print_then, else_branch = @pure_else, is_stateless = false} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %1 = "tf.AddV2"(%0, %one) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// CHECK-LABEL: func @stateful
// CHECK-SAME: (%[[P:.*]]: tensor<i1>, %[[X:.*]]: tensor<f32>)
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[A:.*]], %[[C1:.*]] = tfrt_fallback.if %[[P]] then @print_then else @pure_else (%[[X]]) chain(%[[C0]]) : (tensor<i1>, tensor<f32>) -> tensor<f32>
// CHECK: %[[C2:.*]] = tfrt_fallback.kernel_call "Print"(%[[A]]) chain(%[[C1]])
// CHECK: %[[W:.*]], %[[C3:.*]] = tfrt_fallback.while @loop_cond @loop_body (%[[A]]) chain(%[[C2]]) : (tensor<f32>) -> tensor<f32>
// CHECK: %{{.*}} = tfrt_fallback.kernel_call "Print"(%[[W]]) chain(%[[C3]])
func.func @stateful(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.If"(%p, %x) {then_branch = @print_then, else_branch = @pure_else, is_stateless = false} : (tensor<i1>, tensor<f32>) -> tensor<f32>
  "tf.Print"(%0) {T = f32} : (tensor<f32>) -> ()
  %1 = "tf.While"(%0) {cond = @loop_cond, body = @loop_body, is_stateless = false, parallel_iterations = 10 : i64} : (tensor<f32>) -> tensor<f32>
  "tf.Print"(%1) {T = f32} : (tensor<f32>) -> ()
  return %1 : tensor<f32>
}

// -----

// A stateful loop condition returns the chain after its predicate.
// CHECK-LABEL: func private @checked_cond
// CHECK-SAME: (%[[C:.*]]: !tfrt_fallback.chain, %[[X:.*]]: tensor<f32>) -> (tensor<i1>, !tfrt_fallback.chain)
func.func private @checked_cond(%x: tensor<f32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "tf.Less"(%x, %c) : (tensor<f32>, tensor<f32>) -> tensor<i1>
  "tf.Assert"(%0, %x) {summarize = 3 : i64} : (tensor<i1>, tensor<f32>) -> ()
  return %0 : tensor<i1>
}
func.func private @step(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Sqrt"(%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
// CHECK-LABEL: func @stateful_cond
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: tfrt_fallback.while @checked_cond @step (%{{.*}}) chain(%[[C0]])
func.func @stateful_cond(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.While"(%x) {cond = @checked_cond, body = @step, is_stateless = false} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A public callee with side effects keeps its signature and orders its own
// effects; the op calling it is still ordered in its caller.
// CHECK-LABEL: func @public_branch
// CHECK-SAME: (%{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK: tfrt_fallback.new_chain
func.func @public_branch(%x: tensor<f32>) -> tensor<f32> {
  "tf.Print"(%x) {T = f32} : (tensor<f32>) -> ()
  return %x : tensor<f32>
}
// CHECK-LABEL: func @calls_public
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: tfrt_fallback.case %{{.*}} [@public_branch] (%{{.*}}) chain(%[[C0]])
func.func @calls_public(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.Case"(%i, %x) {branches = [@public_branch], is_stateless = false} : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Declared callees (as TensorFlow's tests write them) lower too; the binary
// writer asks for their bodies. A resource with a subtype passes where a
// plain resource is declared.
func.func private @then_decl(tensor<f32>, tensor<!tf_type.resource>) -> tensor<f32>
func.func private @else_decl(tensor<f32>, tensor<!tf_type.resource>) -> tensor<f32>
// CHECK-LABEL: func @declared
// CHECK: tfrt_fallback.if %{{.*}} then @then_decl else @else_decl (%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<f32>, tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
func.func @declared(%p: tensor<i1>, %x: tensor<f32>, %r: tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32> {
  %0 = "tf.If"(%p, %x, %r) {then_branch = @then_decl, else_branch = @else_decl, is_stateless = true} : (tensor<i1>, tensor<f32>, tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  return %0 : tensor<f32>
}

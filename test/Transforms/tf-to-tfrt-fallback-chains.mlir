// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file | FileCheck %s

// Ops with side effects (random numbers, printing, assertions, and ops the
// tf dialect does not know) are threaded on one chain in program order,
// starting from a tfrt_fallback.new_chain in a public function. Pure ops in
// between take no chain.

// CHECK-LABEL: func @program_order
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>, %[[S:.*]]: tensor<2xi32>, %[[P:.*]]: tensor<i1>)
// CHECK-NEXT: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK-NEXT: %[[R:.*]], %[[C1:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%[[S]]) chain(%[[C0]]) {T = i32, dtype = f32, seed = 1 : i64, seed2 = 2 : i64} : (tensor<2xi32>) -> tensor<2xf32>
// CHECK-NEXT: %[[SUM:.*]] = tfrt_fallback.kernel_call "AddV2"(%[[R]], %[[X]]) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[C2:.*]] = tfrt_fallback.kernel_call "Print"(%[[SUM]]) chain(%[[C1]]) {T = f32, U = []} : (tensor<2xf32>) -> ()
// CHECK-NEXT: %[[RELU:.*]] = tfrt_fallback.kernel_call "Relu"(%[[SUM]]) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[C3:.*]] = tfrt_fallback.kernel_call "Assert"(%[[P]], %[[RELU]]) chain(%[[C2]]) {T = [f32], summarize = 3 : i64} : (tensor<i1>, tensor<2xf32>) -> ()
// CHECK-NEXT: %[[CUSTOM:.*]], %[[C4:.*]] = tfrt_fallback.kernel_call "MyCustomOp"(%[[RELU]]) chain(%[[C3]]) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[NEG:.*]] = tfrt_fallback.kernel_call "Neg"(%[[CUSTOM]]) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: return %[[NEG]]
func.func @program_order(%x: tensor<2xf32>, %s: tensor<2xi32>, %p: tensor<i1>) -> tensor<2xf32> {
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f32, seed = 1 : i64, seed2 = 2 : i64} : (tensor<2xi32>) -> tensor<2xf32>
  %1 = "tf.AddV2"(%0, %x) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  "tf.Print"(%1) {T = f32} : (tensor<2xf32>) -> ()
  %2 = "tf.Relu"(%1) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  "tf.Assert"(%p, %2) {T = [f32], summarize = 3 : i64} : (tensor<i1>, tensor<2xf32>) -> ()
  %3 = "tf.MyCustomOp"(%2) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %4 = "tf.Neg"(%3) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %4 : tensor<2xf32>
}

// -----

// A function without side effects gets no chain at all.
// CHECK-LABEL: func @pure_function
// CHECK-NOT: chain
// CHECK: return
func.func @pure_function(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Sigmoid"(%0) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// Gather and Inv are pure, as TensorFlow says (the op table lists them; they
// were once missing from the list of pure ops and got chained): between two
// stateful ops they take no chain.
// CHECK-LABEL: func @gather_and_inv_are_pure
// CHECK-SAME: (%[[S:.*]]: tensor<2xi32>, %[[I:.*]]: tensor<3xi32>)
// CHECK-NEXT: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK-NEXT: %[[R:.*]], %[[C1:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%[[S]]) chain(%[[C0]])
// CHECK-NEXT: %[[G:.*]] = tfrt_fallback.kernel_call "Gather"(%[[R]], %[[I]]) {Tindices = i32, Tparams = f32, validate_indices = true} : (tensor<2xf32>, tensor<3xi32>) -> tensor<3xf32>
// CHECK-NEXT: %[[V:.*]] = tfrt_fallback.kernel_call "Inv"(%[[G]]) {T = f32} : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %{{.*}} = tfrt_fallback.kernel_call "Print"(%[[V]]) chain(%[[C1]])
func.func @gather_and_inv_are_pure(%s: tensor<2xi32>, %i: tensor<3xi32>) -> tensor<3xf32> {
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %1 = "tf.Gather"(%0, %i) {Tindices = i32, Tparams = f32, validate_indices = true} : (tensor<2xf32>, tensor<3xi32>) -> tensor<3xf32>
  %2 = "tf.Inv"(%1) {T = f32} : (tensor<3xf32>) -> tensor<3xf32>
  "tf.Print"(%2) {T = f32} : (tensor<3xf32>) -> ()
  return %2 : tensor<3xf32>
}

// -----

// Independent stateful ops are still ordered: two random draws and the
// prints stay in the order of the source, even though no data flows
// between them. A public function does not return its chain.
// CHECK-LABEL: func @independent_effects
// CHECK-SAME: -> (tensor<2xf32>, tensor<2xf32>)
// CHECK: %[[C0:.*]] = tfrt_fallback.new_chain
// CHECK: %[[A:.*]], %[[C1:.*]] = tfrt_fallback.kernel_call "RandomUniform"(%{{.*}}) chain(%[[C0]])
// CHECK: %[[B:.*]], %[[C2:.*]] = tfrt_fallback.kernel_call "RandomStandardNormal"(%{{.*}}) chain(%[[C1]])
// CHECK: %[[C3:.*]] = tfrt_fallback.kernel_call "PrintV2"(%{{.*}}) chain(%[[C2]])
// CHECK: %[[C4:.*]] = tfrt_fallback.kernel_call "PrintV2"(%{{.*}}) chain(%[[C3]])
// CHECK: return %[[A]], %[[B]] : tensor<2xf32>, tensor<2xf32>
func.func @independent_effects(%s: tensor<2xi32>, %msg: tensor<!tf_type.string>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  %1 = "tf.RandomStandardNormal"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  "tf.PrintV2"(%msg) {end = "\0A", output_stream = "stderr"} : (tensor<!tf_type.string>) -> ()
  "tf.PrintV2"(%msg) {end = "\0A", output_stream = "stderr"} : (tensor<!tf_type.string>) -> ()
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// Only one new_chain is made per function, at its start.
// CHECK-LABEL: func @one_new_chain
// CHECK-COUNT-1: tfrt_fallback.new_chain
// CHECK-NOT: tfrt_fallback.new_chain
func.func @one_new_chain(%x: tensor<2xf32>) {
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  "tf.Print"(%0) {T = f32} : (tensor<2xf32>) -> ()
  "tf.Print"(%0) {T = f32} : (tensor<2xf32>) -> ()
  "tf.Print"(%0) {T = f32} : (tensor<2xf32>) -> ()
  return
}

// -----

// Stateless random ops are pure.
// CHECK-LABEL: func @stateless_random
// CHECK-NOT: chain
// CHECK: tfrt_fallback.kernel_call "StatelessRandomUniform"(%{{.*}}, %{{.*}}) {T = i32, Tseed = i64, dtype = f32} : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xf32>
func.func @stateless_random(%s: tensor<2xi32>, %seed: tensor<2xi64>) -> tensor<2xf32> {
  %0 = "tf.StatelessRandomUniform"(%s, %seed) {T = i32, Tseed = i64, dtype = f32} : (tensor<2xi32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Unused results of stateful ops are kept: their effects matter.
// CHECK-LABEL: func @unused_stateful
// CHECK: tfrt_fallback.kernel_call "RandomUniform"
func.func @unused_stateful(%s: tensor<2xi32>) {
  %0 = "tf.RandomUniform"(%s) {T = i32, dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  return
}

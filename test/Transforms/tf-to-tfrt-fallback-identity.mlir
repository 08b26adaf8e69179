// RUN: fallback-opt %s --tf-to-tfrt-fallback --split-input-file | FileCheck %s

// tf.Identity and tf.IdentityN are forwarded to their operands when the
// types agree; when a result type differs (a cast of the static type), the
// op runs as a kernel so the result has the declared type.

// CHECK-LABEL: func @identity_forwarded
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NOT: Identity
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Relu"(%[[X]])
// CHECK-NEXT: return %[[R]], %[[X]]
func.func @identity_forwarded(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = "tf.Identity"(%x) {T = f32, device = "/device:CPU:0"} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Relu"(%0) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.Identity"(%1) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %2, %0 : tensor<2xf32>, tensor<2xf32>
}

// -----

// A chain of identities collapses.
// CHECK-LABEL: func @identity_chain
// CHECK-SAME: (%[[X:.*]]: tensor<?xi32>)
// CHECK-NEXT: return %[[X]]
func.func @identity_chain(%x: tensor<?xi32>) -> tensor<?xi32> {
  %0 = "tf.Identity"(%x) {T = i32} : (tensor<?xi32>) -> tensor<?xi32>
  %1 = "tf.Identity"(%0) {T = i32} : (tensor<?xi32>) -> tensor<?xi32>
  %2 = "tf.Identity"(%1) {T = i32} : (tensor<?xi32>) -> tensor<?xi32>
  return %2 : tensor<?xi32>
}

// -----

// CHECK-LABEL: func @identity_type_changes
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Identity"(%[[X]]) {T = f32} : (tensor<2xf32>) -> tensor<?xf32>
// CHECK: return %[[R]] : tensor<?xf32>
func.func @identity_type_changes(%x: tensor<2xf32>) -> tensor<?xf32> {
  %0 = "tf.Identity"(%x) {T = f32} : (tensor<2xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// CHECK-LABEL: func @identity_to_unranked
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Identity"(%[[X]]) device("/device:CPU:0") {T = f32} : (tensor<2xf32>) -> tensor<*xf32>
func.func @identity_to_unranked(%x: tensor<2xf32>) -> tensor<*xf32> {
  %0 = "tf.Identity"(%x) {T = f32, device = "/device:CPU:0"} : (tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// CHECK-LABEL: func @identity_n_forwarded
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<3xi32>)
// CHECK-NOT: IdentityN
// CHECK: return %[[B]], %[[A]]
func.func @identity_n_forwarded(%a: tensor<2xf32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<2xf32>) {
  %0:2 = "tf.IdentityN"(%a, %b) {T = [f32, i32]} : (tensor<2xf32>, tensor<3xi32>) -> (tensor<2xf32>, tensor<3xi32>)
  return %0#1, %0#0 : tensor<3xi32>, tensor<2xf32>
}

// -----

// One differing result type is enough to keep the whole IdentityN.
// CHECK-LABEL: func @identity_n_type_changes
// CHECK-SAME: (%[[A:.*]]: tensor<2xf32>, %[[B:.*]]: tensor<3xi32>)
// CHECK: %[[R:.*]]:2 = tfrt_fallback.kernel_call "IdentityN"(%[[A]], %[[B]]) {T = [f32, i32]} : (tensor<2xf32>, tensor<3xi32>) -> (tensor<2xf32>, tensor<?xi32>)
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @identity_n_type_changes(%a: tensor<2xf32>, %b: tensor<3xi32>) -> (tensor<2xf32>, tensor<?xi32>) {
  %0:2 = "tf.IdentityN"(%a, %b) {T = [f32, i32]} : (tensor<2xf32>, tensor<3xi32>) -> (tensor<2xf32>, tensor<?xi32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<?xi32>
}

// -----

// Identity is pure: forwarding or not, it never takes a chain.
// CHECK-LABEL: func @identity_no_chain
// CHECK-NOT: chain
// CHECK: return
func.func @identity_no_chain(%x: tensor<2xf32>) -> tensor<*xf32> {
  %0 = "tf.Identity"(%x) {T = f32} : (tensor<2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

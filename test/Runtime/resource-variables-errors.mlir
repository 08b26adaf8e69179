// Resource variable errors are values naming the op and its location:
// reading a variable never assigned, reading with the wrong dtype, an update
// of another shape. A failed stateful op fails the ops ordered after it by
// the chain; results that depend on neither are computed.
// RUN: not fallback-run %s --entry=missing --threads=1 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=MISSING < %t.err
// RUN: FileCheck %s --check-prefix=MISSING-OUT < %t.out
// MISSING: error: result #0: ReadVariableOp '{{.*}}resource-variables-errors.mlir:{{[0-9]+}}:{{[0-9]+}}': Could not find variable never_set. This could mean that the variable has been deleted. In TF1, it can also mean the variable is uninitialized.
// MISSING-OUT: result #1: tensor<2xf32>
// MISSING-OUT-NEXT: {{\[}}1., 2.]
// RUN: not fallback-run %s --entry=wrong_dtype --threads=1 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: error: result #0: ReadVariableOp '{{.*}}': Trying to read variable v with wrong dtype. Expected f32 got i32
// RUN: not fallback-run %s --entry=wrong_shape --threads=1 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: error: result #0: AssignAddVariableOp '{{.*}}': Cannot update variable with shape [2] using a Tensor with shape [3], shapes must be equal.
// RUN: fallback-run %s --entry=uninitialized --threads=1 | FileCheck %s --check-prefix=INIT
// INIT: result #0: tensor<i1>
// INIT-NEXT: False
// validate_shape keeps the variable's shape.
// RUN: not fallback-run %s --entry=validate_shape --threads=1 2>&1 | FileCheck %s --check-prefix=VALIDATE
// VALIDATE: error: result #0: AssignVariableOp '{{.*}}': Trying to assign to variable with tensor with wrong shape. Expected [2] got [3]
// DestroyResourceOp deletes a variable (it is then uninitialized); deleting
// one that does not exist is an error unless ignore_lookup_error.
// RUN: fallback-run %s --entry=destroy --threads=1 | FileCheck %s --check-prefix=DESTROY
// DESTROY: result #0: tensor<i1>
// DESTROY-NEXT: False
// RUN: not fallback-run %s --entry=destroy_missing --threads=1 2>&1 | FileCheck %s --check-prefix=DESTROY-MISSING
// DESTROY-MISSING: error: result #0: DestroyResourceOp '{{.*}}': Resource nope does not exist.

func.func @missing() -> (tensor<f32>, tensor<2xf32>) {
  %missing = "tf.VarHandleOp"() {container = "", shared_name = "never_set", dtype = f32, shape = #tf_type.shape<>} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %r = "tf.ReadVariableOp"(%missing) {dtype = f32} : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<f32>
  %c = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %i = "tf.Identity"(%c) : (tensor<2xf32>) -> tensor<2xf32>
  return %r, %i : tensor<f32>, tensor<2xf32>
}

func.func @wrong_dtype() -> tensor<2xi32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2>} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %init = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %init) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %hi = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = i32, shape = #tf_type.shape<2>} : () -> tensor<!tf_type.resource<tensor<2xi32>>>
  %r = "tf.ReadVariableOp"(%hi) {dtype = i32} : (tensor<!tf_type.resource<tensor<2xi32>>>) -> tensor<2xi32>
  return %r : tensor<2xi32>
}

func.func @wrong_shape() -> tensor<2xf32> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2>} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %init = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %init) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %three = "tf.Const"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  "tf.AssignAddVariableOp"(%h, %three) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<3xf32>) -> ()
  %r = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @uninitialized() -> tensor<i1> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "never_set", dtype = f32, shape = #tf_type.shape<>} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %r = "tf.VarIsInitializedOp"(%h) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<i1>
  return %r : tensor<i1>
}

func.func @validate_shape() -> tensor<i1> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<2>} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
  %init = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  "tf.AssignVariableOp"(%h, %init) {dtype = f32} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %three = "tf.Const"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  "tf.AssignVariableOp"(%h, %three) {dtype = f32, validate_shape = true} : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<3xf32>) -> ()
  %r = "tf.VarIsInitializedOp"(%h) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<i1>
  return %r : tensor<i1>
}

func.func @destroy() -> tensor<i1> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "w", dtype = f32, shape = #tf_type.shape<>} : () -> tensor<!tf_type.resource<tensor<f32>>>
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  "tf.AssignVariableOp"(%h, %one) {dtype = f32} : (tensor<!tf_type.resource<tensor<f32>>>, tensor<f32>) -> ()
  "tf.DestroyResourceOp"(%h) {ignore_lookup_error = false} : (tensor<!tf_type.resource<tensor<f32>>>) -> ()
  %r = "tf.VarIsInitializedOp"(%h) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<i1>
  return %r : tensor<i1>
}

func.func @destroy_missing() -> tensor<i1> {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "nope", dtype = f32, shape = #tf_type.shape<>} : () -> tensor<!tf_type.resource<tensor<f32>>>
  "tf.DestroyResourceOp"(%h) {ignore_lookup_error = false} : (tensor<!tf_type.resource<tensor<f32>>>) -> ()
  %r = "tf.VarIsInitializedOp"(%h) : (tensor<!tf_type.resource<tensor<f32>>>) -> tensor<i1>
  return %r : tensor<i1>
}

// RUN: not fallback-run %s --threads=1 > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: not fallback-run %s --entry=wrong_dtype --threads=1 2>&1 | FileCheck %s --check-prefix=DTYPE
// The errors of the ops TensorFlow's runtime inserts into graphs, with TF's
// messages (inplace_ops.cc, resource_variable_ops.cc): each fails its own
// result, the others complete.

func.func @main() -> (tensor<2x2xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>) {
  %x = "tf.Const"() {value = dense<[[1.0, 2.0]]> : tensor<1x2xf32>, dtype = f32} : () -> tensor<1x2xf32>
  %start = "tf._ParallelConcatStart"() {dtype = f32, shape = #tf_type.shape<2x2>} : () -> tensor<2x2xf32>
  // Row 1 of a 2x2 zero tensor: [[0, 0], [1, 2]].
  %ok = "tf._ParallelConcatUpdate"(%start, %x) {T = f32, loc = 1 : i64} : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %bad_loc = "tf._ParallelConcatUpdate"(%start, %x) {T = f32, loc = 2 : i64} : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<*xf32>
  %wide = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0]]> : tensor<1x3xf32>, dtype = f32} : () -> tensor<1x3xf32>
  %bad_shape = "tf._ParallelConcatUpdate"(%start, %wide) {T = f32, loc = 0 : i64} : (tensor<2x2xf32>, tensor<1x3xf32>) -> tensor<*xf32>
  %hs:2 = "tf._VarHandlesOp"() {N = 2 : i64, containers = ["", ""], shared_names = ["u0", "u1"], dtypes = [f32, i32], shapes = [#tf_type.shape<*>, #tf_type.shape<*>]} : () -> (tensor<!tf_type.resource>, tensor<!tf_type.resource>)
  "tf.AssignVariableOp"(%hs#0, %x) {dtype = f32} : (tensor<!tf_type.resource>, tensor<1x2xf32>) -> ()
  // u1 was never assigned.
  %r:2 = "tf._ReadVariablesOp"(%hs#0, %hs#1) {N = 2 : i64, dtypes = [f32, i32]} : (tensor<!tf_type.resource>, tensor<!tf_type.resource>) -> (tensor<*xf32>, tensor<*xi32>)
  return %ok, %bad_loc, %bad_shape, %r#0, %r#1 : tensor<2x2xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>
}

func.func @wrong_dtype() -> tensor<*xi32> {
  %x = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  %hs:1 = "tf._VarHandlesOp"() {N = 1 : i64, containers = [""], shared_names = ["u0"], dtypes = [f32], shapes = [#tf_type.shape<*>]} : () -> (tensor<!tf_type.resource>)
  "tf.AssignVariableOp"(%hs#0, %x) {dtype = f32} : (tensor<!tf_type.resource>, tensor<2xf32>) -> ()
  // u0 holds a float, read as int32.
  %w:1 = "tf._ReadVariablesOp"(%hs#0) {N = 1 : i64, dtypes = [i32]} : (tensor<!tf_type.resource>) -> (tensor<*xi32>)
  return %w#0 : tensor<*xi32>
}

// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}0., 0.],
// CHECK-NEXT: [1., 2.]]
// CHECK-NOT: result #
// ERR-DAG: error: result #1: _ParallelConcatUpdate '{{.*}}': 0th dimension of value = 2 must be greater than loc_ = 2
// ERR-DAG: error: result #2: _ParallelConcatUpdate '{{.*}}': value and update shape doesn't match [2,2] vs. [1,3]
// ERR-DAG: error: result #3: _ReadVariablesOp '{{.*}}': In ReadVariablesOp the following variables were found uninitialized: u1
// ERR-DAG: error: result #4: _ReadVariablesOp '{{.*}}': In ReadVariablesOp the following variables were found uninitialized: u1
// DTYPE: error: result #0: _ReadVariablesOp '{{.*}}': Trying to read variable u0 from Container:  with wrong dtype. Expected i32 got f32

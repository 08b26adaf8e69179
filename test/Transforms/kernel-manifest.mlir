// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/kernels.manifest" --split-input-file | FileCheck %s

// With a kernel manifest, ops whose kernel the runtime has for their dtypes
// lower as usual.

// CHECK-LABEL: func @supported
// CHECK: tfrt_fallback.kernel_call "MatMul"({{.*}}) {T = f32, transpose_a = false, transpose_b = false}
// CHECK: tfrt_fallback.kernel_call "BiasAdd"({{.*}}) {T = f32, data_format = "NHWC"}
// CHECK: tfrt_fallback.kernel_call "Relu"({{.*}}) {T = f32}
// CHECK: tfrt_fallback.kernel_call "Softmax"({{.*}}) {T = f32}
func.func @supported(%x: tensor<1x4xf32>, %w: tensor<4x3xf32>, %b: tensor<3xf32>) -> tensor<1x3xf32> {
  %0 = "tf.MatMul"(%x, %w) {T = f32, transpose_a = false, transpose_b = false} : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
  %1 = "tf.BiasAdd"(%0, %b) {T = f32, data_format = "NHWC"} : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  %2 = "tf.Relu"(%1) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %3 = "tf.Softmax"(%2) {T = f32} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  return %3 : tensor<1x3xf32>
}

// -----

// Any of an op's kernels may match: AddV2 has one for f32/i32/i64 and one
// for f16.
// CHECK-LABEL: func @second_kernel_matches
// CHECK: tfrt_fallback.kernel_call "AddV2"({{.*}}) {T = f16}
// CHECK: tfrt_fallback.kernel_call "AddV2"({{.*}}) {T = i64}
func.func @second_kernel_matches(%x: tensor<2xf16>, %y: tensor<2xi64>) -> (tensor<2xf16>, tensor<2xi64>) {
  %0 = "tf.AddV2"(%x, %x) {T = f16} : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
  %1 = "tf.AddV2"(%y, %y) {T = i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0, %1 : tensor<2xf16>, tensor<2xi64>
}

// -----

// Every constrained attribute must be allowed.
// CHECK-LABEL: func @several_constraints
// CHECK: tfrt_fallback.kernel_call "Cast"({{.*}}) {DstT = i64, SrcT = i32, Truncate = false}
// CHECK: tfrt_fallback.kernel_call "RandomUniform"({{.*}}) chain({{.*}}) {T = i64, dtype = f64, seed = 0 : i64, seed2 = 0 : i64}
func.func @several_constraints(%x: tensor<2xi32>, %s: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xf64>) {
  %0 = "tf.Cast"(%x) {SrcT = i32, DstT = i64, Truncate = false} : (tensor<2xi32>) -> tensor<2xi64>
  %1 = "tf.RandomUniform"(%s) {T = i64, dtype = f64, seed = 0 : i64, seed2 = 0 : i64} : (tensor<2xi64>) -> tensor<2xf64>
  return %0, %1 : tensor<2xi64>, tensor<2xf64>
}

// -----

// A list-of-types attribute matches when each of its elements is allowed.
// CHECK-LABEL: func @type_list
// CHECK: tfrt_fallback.kernel_call "IdentityN"({{.*}}) {T = [f32, i32, i64]}
func.func @type_list(%a: tensor<2xf32>, %b: tensor<i32>, %c: tensor<i64>) -> (tensor<*xf32>, tensor<*xi32>, tensor<*xi64>) {
  %0:3 = "tf.IdentityN"(%a, %b, %c) {T = [f32, i32, i64]} : (tensor<2xf32>, tensor<i32>, tensor<i64>) -> (tensor<*xf32>, tensor<*xi32>, tensor<*xi64>)
  return %0#0, %0#1, %0#2 : tensor<*xf32>, tensor<*xi32>, tensor<*xi64>
}

// -----

// A kernel without constraints accepts any dtypes, and unconstrained
// attributes do not matter.
// CHECK-LABEL: func @unconstrained
// CHECK: tfrt_fallback.kernel_call "Assert"({{.*}}) chain({{.*}}) {T = [!tf_type.string, f64], summarize = 3 : i64}
// CHECK: tfrt_fallback.kernel_call "NoArgs"() chain({{.*}}) : () -> ()
// CHECK: tfrt_fallback.kernel_call "Print"({{.*}}) chain({{.*}}) {T = i32, U = [f64], message = "x"}
func.func @unconstrained(%p: tensor<i1>, %s: tensor<!tf_type.string>, %d: tensor<f64>, %i: tensor<i32>) {
  "tf.Assert"(%p, %s, %d) {T = [!tf_type.string, f64], summarize = 3 : i64} : (tensor<i1>, tensor<!tf_type.string>, tensor<f64>) -> ()
  "tf.NoArgs"() : () -> ()
  "tf.Print"(%i, %d) {T = i32, U = [f64], message = "x"} : (tensor<i32>, tensor<f64>) -> ()
  return
}

// -----

// tf.Const, tf.Identity and tf.NoOp are no kernels and need no entry; native
// ops need none either.
// CHECK-LABEL: func @no_kernels_needed
// CHECK: tfrt_fallback.constant
// CHECK-NOT: kernel_call
// CHECK: return
func.func @no_kernels_needed() -> tensor<2xf64> {
  %0 = "tf.Const"() {value = dense<1.0> : tensor<2xf64>} : () -> tensor<2xf64>
  %1 = "tf.Identity"(%0) {T = f64} : (tensor<2xf64>) -> tensor<2xf64>
  "tf.NoOp"() : () -> ()
  return %1 : tensor<2xf64>
}

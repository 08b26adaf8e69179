// RUN: printf '# tfrt-fallback kernel manifest v1\nkernel AddV2 T=f32\nkernel Relu T=f32\nkernel Less T=i32\n' > %t.none.manifest
// RUN: cp %t.none.manifest %t.all.manifest && printf 'feature control-flow\nfeature strings\n' >> %t.all.manifest
// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%t.none.manifest" --split-input-file --verify-diagnostics
// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%t.all.manifest" --split-input-file | FileCheck %s
// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%t.none.manifest allow-unsupported" --split-input-file | FileCheck %s
// RUN: fallback-opt %s --tf-to-tfrt-fallback --split-input-file | FileCheck %s
// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/manifest-unknown-feature.manifest" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// Besides kernels, a program may need two optional parts of the runtime's
// framework, which a selective runtime build leaves out unless its kernel
// manifest has their `feature` line: control flow (calls, if, case, while)
// and string tensors. Against a runtime without them, each op that needs
// one is an error at its location; this build's own runtime has both.

// UNKNOWN: manifest-unknown-feature.manifest:4: unknown feature 'threads' (known: control-flow, strings, memory-plan, signatures, memmapped-package)

func.func private @cond(%i: tensor<i32>) -> tensor<i1> {
  %c = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %0 = "tf.Less"(%i, %c) {T = i32} : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %0 : tensor<i1>
}
func.func private @body(%i: tensor<i32>) -> tensor<i32> {
  return %i : tensor<i32>
}
func.func private @relu(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @control_flow
// CHECK: tfrt_fallback.while @cond @body
// CHECK: tfrt_fallback.if
// CHECK: call @relu
func.func @control_flow(%i: tensor<i32>, %p: tensor<i1>, %x: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>, tensor<2xf32>) {
  // expected-error @+1 {{'tfrt_fallback.while' op needs control flow, which the kernel manifest '}}
  %0 = "tf.While"(%i) {cond = @cond, body = @body, is_stateless = true} : (tensor<i32>) -> tensor<i32>
  // expected-error @+1 {{'tfrt_fallback.if' op needs control flow}}
  %1 = "tf.If"(%p, %x) {then_branch = @relu, else_branch = @relu, is_stateless = true} : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  // expected-error @+1 {{'func.call' op needs control flow}}
  %2 = "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @relu} : (tensor<2xf32>) -> tensor<2xf32>
  return %0, %1, %2 : tensor<i32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// CHECK-LABEL: func @strings
// CHECK: tfrt_fallback.constant dense<"ab">
// CHECK: tfrt_fallback.kernel_call "Relu"
// expected-error @+1 {{'func.func' op needs string tensors}}
func.func @strings(%x: tensor<2xf32>) -> (tensor<2x!tf_type.string>, tensor<2xf32>) {
  // expected-error @+1 {{'tfrt_fallback.constant' op needs string tensors, which the kernel manifest '}}
  %0 = "tf.Const"() {value = dense<"ab"> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  %1 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  // expected-error @+1 {{'func.return' op needs string tensors}}
  return %0, %1 : tensor<2x!tf_type.string>, tensor<2xf32>
}

// -----

// A string argument needs string tensors even when nothing uses it: the
// runtime's loader refuses any string-typed value.
// CHECK-LABEL: func @unused_string_argument
// expected-error @+1 {{'func.func' op needs string tensors}}
func.func @unused_string_argument(%s: tensor<!tf_type.string>, %x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

// A program of kernels alone needs neither.
// CHECK-LABEL: func @kernels_only
func.func @kernels_only(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.AddV2"(%x, %x) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/kernels.manifest" --split-input-file --verify-diagnostics

// Ops the manifest has no kernel for are errors at the op, naming the op and
// its dtypes and what the manifest has.

func.func @op_missing(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error-re@+1 {{'tf.Sigmoid' op has no fallback kernel: the kernel manifest '{{.*}}kernels.manifest' has no kernel for op 'Sigmoid' (pass native-ops=Sigmoid if the runtime has a native kernel, kernel-manifest=FILE to target another runtime, or allow-unsupported)}}
  %0 = "tf.Sigmoid"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dtype_not_allowed(%x: tensor<2xf64>) -> tensor<2xf64> {
  // expected-error-re@+1 {{'tf.AddV2' op has no fallback kernel for T=f64: the kernel manifest '{{.*}}kernels.manifest' has 'AddV2' for T in {f32, i32, i64}; T in {f16}}}
  %0 = "tf.AddV2"(%x, %x) {T = f64} : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

// One attribute out of two is not allowed.
func.func @one_of_two_not_allowed(%x: tensor<2xf32>) -> tensor<2xf16> {
  // expected-error-re@+1 {{'tf.Cast' op has no fallback kernel for DstT=f16, SrcT=f32: the kernel manifest '{{.*}}' has 'Cast' for SrcT in {f32, i32}, DstT in {f32, i32, i64}}}
  %0 = "tf.Cast"(%x) {SrcT = f32, DstT = f16, Truncate = false} : (tensor<2xf32>) -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

// A list of types matches only if every element is allowed.
func.func @type_list_element_not_allowed(%a: tensor<2xf32>, %b: tensor<f64>) -> (tensor<*xf32>, tensor<*xf64>) {
  // expected-error-re@+1 {{'tf.IdentityN' op has no fallback kernel for T=[f32, f64]: the kernel manifest '{{.*}}' has 'IdentityN' for T in {f32, i32, i64}}}
  %0:2 = "tf.IdentityN"(%a, %b) {T = [f32, f64]} : (tensor<2xf32>, tensor<f64>) -> (tensor<*xf32>, tensor<*xf64>)
  return %0#0, %0#1 : tensor<*xf32>, tensor<*xf64>
}

// -----

// A constrained attribute the op lacks fails the constraint: here an op the
// op table does not know, so nothing derives its attributes.
func.func @constrained_attr_missing(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error-re@+1 {{'tf.CustomMatMul' op has no fallback kernel for its dtypes: the kernel manifest '{{.*}}' has 'CustomMatMul' for T in {f32, f64}}}
  %0 = "tf.CustomMatMul"(%x, %x) {transpose_a = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @one_constraint_missing(%s: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error-re@+1 {{'tf.CustomRandom' op has no fallback kernel for dtype=f32: the kernel manifest '{{.*}}' has 'CustomRandom' for T in {i32, i64}, dtype in {f32, f64}}}
  %0 = "tf.CustomRandom"(%s) {dtype = f32} : (tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Every unsupported op of the program is reported.
func.func @several_unsupported(%x: tensor<2xf64>) -> tensor<2xf64> {
  // expected-error@+1 {{'tf.Relu' op has no fallback kernel for T=f64}}
  %0 = "tf.Relu"(%x) {T = f64} : (tensor<2xf64>) -> tensor<2xf64>
  // expected-error@+1 {{'tf.Exp' op has no fallback kernel: the kernel manifest}}
  %1 = "tf.Exp"(%0) {T = f64} : (tensor<2xf64>) -> tensor<2xf64>
  return %1 : tensor<2xf64>
}

// -----

// Op names are case sensitive.
func.func @case_sensitive(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{has no kernel for op 'RELU'}}
  %0 = "tf.RELU"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// A node that gives a numeric tensor where its OpDef fixes a string,
// resource or variant input (or the other way round) is rejected when the
// program is loaded: the kernel would read a number buffer as string views
// or handles. Numeric inputs of a fixed dtype stay the kernels' to check
// (several take int64 where TF's OpDef says int32).
// RUN: split-file %s %t
// RUN: fallback-translate --mlir-to-bef %t/number-as-string.mlir -o %t/number-as-string.bef
// RUN: not fallback-run-lite %t/number-as-string.bef 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: fallback-translate --mlir-to-bef %t/string-as-number.mlir -o %t/string-as-number.bef
// RUN: not fallback-run-lite %t/string-as-number.bef 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: fallback-translate --mlir-to-bef %t/number-as-resource.mlir -o %t/number-as-resource.bef
// RUN: not fallback-run-lite %t/number-as-resource.bef 2>&1 | FileCheck %s --check-prefix=RESOURCE

//--- number-as-string.mlir
func.func @main() -> tensor<!tf_type.string> {
  %x = tfrt_fallback.constant dense<[1, 2]> : tensor<2xi64>
  // STRING: error: {{.*}}op 'StringJoin' takes a string tensor as input #0 (its OpDef fixes it) but the program gives i64
  %0 = tfrt_fallback.kernel_call "StringJoin"(%x) {N = 1 : i64, separator = ""} : (tensor<2xi64>) -> tensor<!tf_type.string>
  return %0 : tensor<!tf_type.string>
}

//--- string-as-number.mlir
func.func @main() -> tensor<2xi1> {
  %s = tfrt_fallback.constant dense<["a", "b"]> : tensor<2x!tf_type.string>
  %t = tfrt_fallback.constant dense<[0, 1]> : tensor<2xi32>
  %k = tfrt_fallback.constant dense<1> : tensor<i32>
  // NUMBER: error: {{.*}}op 'InTopKV2' takes a f32 tensor as input #0 (its OpDef fixes it) but the program gives string
  %0 = tfrt_fallback.kernel_call "InTopKV2"(%s, %t, %k) {T = i32} : (tensor<2x!tf_type.string>, tensor<2xi32>, tensor<i32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

//--- number-as-resource.mlir
func.func @main() -> tensor<2xf32> {
  %x = tfrt_fallback.constant dense<[1.0, 2.0]> : tensor<2xf32>
  // RESOURCE: error: {{.*}}op 'ReadVariableOp' takes a resource tensor as input #0 (its OpDef fixes it) but the program gives f32
  %0 = tfrt_fallback.kernel_call "ReadVariableOp"(%x) {dtype = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

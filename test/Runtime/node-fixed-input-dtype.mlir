// A node that gives an input of another dtype than its OpDef fixes is
// rejected when the program is loaded: the kernel would read a number
// buffer as string views or handles, or read past a narrower buffer. int32
// and int64 stand for each other (kernels read index inputs as either).
// RUN: split-file %s %t
// RUN: fallback-translate --mlir-to-bef %t/number-as-string.mlir -o %t/number-as-string.bef
// RUN: not fallback-run-lite %t/number-as-string.bef 2>&1 | FileCheck %s --check-prefix=STRING
// RUN: fallback-translate --mlir-to-bef %t/string-as-number.mlir -o %t/string-as-number.bef
// RUN: not fallback-run-lite %t/string-as-number.bef 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: fallback-translate --mlir-to-bef %t/number-as-resource.mlir -o %t/number-as-resource.bef
// RUN: not fallback-run-lite %t/number-as-resource.bef 2>&1 | FileCheck %s --check-prefix=RESOURCE
// RUN: fallback-translate --mlir-to-bef %t/narrower.mlir -o %t/narrower.bef
// RUN: not fallback-run-lite %t/narrower.bef 2>&1 | FileCheck %s --check-prefix=NARROWER
// RUN: fallback-translate --mlir-to-bef %t/index-i64.mlir -o %t/index-i64.bef
// RUN: fallback-run-lite %t/index-i64.bef 2>&1 | FileCheck %s --check-prefix=INDEX

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

//--- narrower.mlir
func.func @main(%x: tensor<1x2x2x1xf32>) -> tensor<1x4x4x1xf32> {
  %size = tfrt_fallback.constant dense<[4, 4]> : tensor<2xi8>
  // NARROWER: error: {{.*}}op 'ResizeBilinear' takes a i32 tensor as input #1 (its OpDef fixes it) but the program gives i8
  %0 = tfrt_fallback.kernel_call "ResizeBilinear"(%x, %size) {T = f32, align_corners = false, half_pixel_centers = false} : (tensor<1x2x2x1xf32>, tensor<2xi8>) -> tensor<1x4x4x1xf32>
  return %0 : tensor<1x4x4x1xf32>
}

//--- index-i64.mlir
// An int64 where the OpDef fixes int32 loads and runs: Conv2DBackpropInput
// of a 1x1 filter [2] is out_backprop * 2.
func.func @main() -> tensor<1x2x2x1xf32> {
  %sizes = tfrt_fallback.constant dense<[1, 2, 2, 1]> : tensor<4xi64>
  %filter = tfrt_fallback.constant dense<2.0> : tensor<1x1x1x1xf32>
  %dy = tfrt_fallback.constant dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %0 = tfrt_fallback.kernel_call "Conv2DBackpropInput"(%sizes, %filter, %dy) {T = f32, strides = [1, 1, 1, 1], padding = "VALID"} : (tensor<4xi64>, tensor<1x1x1x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}
// INDEX: result #0: tensor<1x2x2x1xf32>
// INDEX-NEXT: {{\[\[\[\[}}2.],

// A C program reads a program's signature through libtfrt_fallback_c.so,
// runs it by name, with tensors over its own memory, string and complex
// tensors, asynchronously and with a profile, and keeps an output after the
// program and runtime are gone (unittests/CAPI/c-api-io-test.c). Expected
// values by hand: alpha * gamma = [1, 2] * 2.5, beta * gamma = [10, 20, 30]
// * 2.5; "tf" and "lite\0x" joined with themselves by "-"; conj(1+2i,
// 3-4i).
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: rm -f %t.json
// RUN: c-api-io-test %t.bef %t.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=TRACE < %t.json

// CHECK: version 2
// CHECK-NEXT: main: 3 inputs, 2 outputs
// CHECK-NEXT:   input 0 'alpha' type 1 rank 1 dims [2]
// CHECK-NEXT:   input 1 'beta' type 1 rank 1 dims [-1]
// CHECK-NEXT:   input 2 'gamma' type 1 rank 0 dims []
// CHECK-NEXT:   output 0 'scaled_alpha' type 1 rank 1 dims [2]
// CHECK-NEXT:   output 1 'scaled_beta' type 1 rank 1 dims [-1]
// CHECK-NEXT: strings: 1 inputs, 2 outputs
// CHECK-NEXT:   input 0 'input_0' type 7 rank 1 dims [-1]
// CHECK-NEXT:   output 0 'output_0' type 7 rank 1 dims [-1]
// CHECK-NEXT:   output 1 'output_1' type 3 rank 1 dims [-1]
// CHECK-NEXT: out of range: NULL 0 -2 -1; nope: NULL
// CHECK-NEXT: index: beta 1, beta:0 1, delta -1; output scaled_alpha 0
// CHECK-NEXT: from buffer: code 0, no copy 1
// CHECK-NEXT: by name: code 0
// CHECK-NEXT:   scaled_alpha: 2.5 5
// CHECK-NEXT:   scaled_beta: 25 50 75
// CHECK-NEXT: deallocated: 1
// CHECK-NEXT: unknown name: code 3: function 'main' has no input named 'delta' (its inputs: 'alpha', 'beta', 'gamma')
// CHECK-NEXT: twice: code 3: input 'beta' of 'main' is given twice
// CHECK-NEXT: missing: code 3: no value for input 0 'alpha' of 'main'
// CHECK-NEXT: misaligned: code 0, copied 1, deallocated: 2
// CHECK-NEXT:   values: 10 20 30
// CHECK-NEXT: wrong size: NULL code 3: TFRTF_NewTensorFromBuffer: 4 bytes given for [3] f32, which takes 12; deallocated: 2
// CHECK-NEXT: strings: code 0, type 7, bytes 0, data NULL
// CHECK-NEXT:   joined 0: 5 bytes 'tf-tf' length 2
// CHECK-NEXT:   joined 1: 13 bytes 'lite0x-lite0x' length 6
// CHECK-NEXT:   element 2: NULL 0; of a float tensor: NULL
// CHECK-NEXT: NULL element: NULL code 3: TFRTF_NewStringTensor: element 1 is NULL
// CHECK-NEXT: complex: code 0 type 8: 1 -2 3 4
// CHECK-NEXT: async started: code 0
// CHECK-NEXT: async done: code 0, 2 outputs, scaled_beta 25 50 75
// CHECK-NEXT: async wrong inputs: code 3: function 'main' takes 3 inputs, got 2
// CHECK-NEXT: async without callback: code 3: TFRTF_RunAsync: no done callback
// CHECK-NEXT: bad profile path: code 3: cannot write the profile to '/nonexistent/dir/trace.json'; outputs set
// CHECK-NEXT: deleted program with a run in flight: finished 1
// CHECK-NEXT: kept output: 25 50 75
// TRACE: "traceEvents"
// TRACE-DAG: "name":"Mul"

func.func @main(%a: tensor<2xf32>, %b: tensor<?xf32>, %c: tensor<f32>)
    -> (tensor<2xf32>, tensor<?xf32>)
    attributes {tf.entry_function = {inputs = "alpha,beta,gamma",
                outputs = "scaled_alpha,scaled_beta"}} {
  %0 = "tf.Mul"(%a, %c) {T = f32} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = "tf.Mul"(%b, %c) {T = f32} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
  return %0, %1 : tensor<2xf32>, tensor<?xf32>
}

func.func @strings(%s: tensor<?x!tf_type.string>)
    -> (tensor<?x!tf_type.string>, tensor<?xi32>) {
  %j = "tf.StringJoin"(%s, %s) {N = 2 : i64, separator = "-"}
      : (tensor<?x!tf_type.string>, tensor<?x!tf_type.string>) -> tensor<?x!tf_type.string>
  %l = "tf.StringLength"(%s) {unit = "BYTE"} : (tensor<?x!tf_type.string>) -> tensor<?xi32>
  return %j, %l : tensor<?x!tf_type.string>, tensor<?xi32>
}

func.func @conj(%x: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = "tf.Conj"(%x) {T = complex<f32>} : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
}

// A C program drives the runtime through libtfrt_fallback_c.so: load a
// binary program, run it, read the outputs, and get every error as a status.
// Expected values by hand: 2 * [1, 2, 3] + 1.
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: c-api-test %t.bef | FileCheck %s

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %y = "tf.Mul"(%x, %two) {T = f32} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %z = "tf.AddV2"(%y, %one) {T = f32} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %z : tensor<3xf32>
}

// CHECK: version 2
// CHECK-NEXT: main: 1 inputs, 1 outputs; nope: -1
// CHECK-NEXT: run: code 0
// CHECK-NEXT: output: type 1 dims [3] bytes 12 values 3 5 7
// CHECK-NEXT: bad size: NULL code 3: TFRTF_NewTensor: 5 bytes given for [3] f32, which takes 12
// CHECK-NEXT: bad type: NULL code 3: TFRTF_NewTensor: unsupported data type 24
// CHECK-NEXT: no function: code 5: the program has no function 'nope'
// CHECK-NEXT: no room: code 3: function 'main' takes 1 inputs and returns 1 outputs; got 1 and room for 0
// CHECK-NEXT: wrong shape: code 3: input #0 of 'main': expected tensor<3xf32>, got tensor<2xf32>
// CHECK-NEXT: cancelled: code 1 output NULL: the run was cancelled before Mul '{{.*}}c-api.mlir:{{[0-9]+}}:{{[0-9]+}}' in 'main'
// CHECK-NEXT: again: code 0
// CHECK-NEXT: output: type 1 dims [3] bytes 12 values 3 5 7
// CHECK-NEXT: garbage: NULL code 3: invalid binary program: {{.*}}
// CHECK-NEXT: missing: NULL code 5

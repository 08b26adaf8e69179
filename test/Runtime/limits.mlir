// The runner's limits (docs/Reliability.md): each is an error naming the
// op, its location and the limit; what the limit did not stop is still
// computed and written; fallback-run exits 1. i32_shape_2.npy is [3, 2]:
// each Fill makes 6 floats, 24 bytes.
// RUN: fallback-run %s --input=%S/Inputs/i32_shape_2.npy --threads=1 --max-tensor-bytes=24 --max-run-bytes=64 --max-loop-iterations=4 | FileCheck %s --check-prefix=FITS
// FITS: result #0: tensor<3x2xf32>
// FITS: result #1: tensor<3x2xf32>
// FITS: result #2: tensor<i32>
// FITS-NEXT: 4

// The tensor limit, for both Fills; the loop is not held up.
// RUN: not fallback-run %s --input=%S/Inputs/i32_shape_2.npy --threads=1 --max-tensor-bytes=23 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=TENSOR < %t.err
// RUN: FileCheck %s --check-prefix=COUNT < %t.out
// TENSOR: error: result #0: Fill '{{.*}}limits.mlir:{{[0-9]+}}:8': output 0: allocating 24 bytes exceeds the run's limit of 23 bytes per tensor
// TENSOR: error: result #1: Fill '{{.*}}limits.mlir:{{[0-9]+}}:8': output 0: allocating 24 bytes exceeds
// COUNT-NOT: result #0
// COUNT: result #2: tensor<i32>
// COUNT-NEXT: 4

// The run's bytes: the first Fill's 24 are held (it is a result) when the
// second asks for 24 more (one thread, program order).
// RUN: not fallback-run %s --input=%S/Inputs/i32_shape_2.npy --threads=1 --max-run-bytes=40 --output-dir=%t.dir 2>&1 | FileCheck %s --check-prefix=RUNBYTES
// RUN: ls %t.dir | FileCheck %s --check-prefix=WRITTEN
// RUNBYTES: error: result #1: Fill '{{.*}}limits.mlir:{{[0-9]+}}:8': output 0: allocating 24 bytes while the run holds 24 exceeds the run's limit of 40 bytes
// WRITTEN-NOT: output_1.npy
// WRITTEN: output_0.npy
// WRITTEN-NEXT: output_2.npy

// The loop's iterations: the condition still holds after 3.
// RUN: not fallback-run %s --input=%S/Inputs/i32_shape_2.npy --threads=1 --max-loop-iterations=3 2>&1 | FileCheck %s --check-prefix=LOOP
// LOOP: error: result #2: While '{{.*}}limits.mlir:{{[0-9]+}}:8': the loop's condition still holds after 3 iterations, the run's limit

// An input past the tensor limit: [3, 2] i32 is 8 bytes.
// RUN: not fallback-run %s --input=%S/Inputs/i32_shape_2.npy --max-tensor-bytes=7 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: error: invalid .npy file '{{.*}}i32_shape_2.npy': allocating 8 bytes exceeds the run's limit of 7 bytes per tensor

// Without any limit: a shape input of [2^31-1, 2^31-1] asks the Fills for
// 2^62 floats (2^64 bytes), and a .npy header for 2^62 floats. Errors, not
// an attempt to allocate.
// RUN: not fallback-run %s --input=%S/Inputs/i32_shape_huge.npy --threads=1 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: result #0: Fill '{{.*}}limits.mlir:{{[0-9]+}}:8': output 0: tensor of shape [2147483647,2147483647] and dtype f32 exceeds the limit of 1099511627776 bytes
// HUGE: result #2: tensor<i32>
// RUN: not fallback-run %s --input=%S/Inputs/huge_shape.npy 2>&1 | FileCheck %s --check-prefix=HUGENPY
// HUGENPY: error: invalid .npy file '{{.*}}huge_shape.npy': shape (4611686018427387904,) is too large

func.func private @below_four(%i: tensor<i32>) -> tensor<i1> {
  %four = "tf.Const"() {value = dense<4> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %four) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @step(%i: tensor<i32>) -> tensor<i32> {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j : tensor<i32>
}

func.func @main(%dims: tensor<2xi32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<i32>) {
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %a = "tf.Fill"(%dims, %one) : (tensor<2xi32>, tensor<f32>) -> tensor<?x?xf32>
  %b = "tf.Fill"(%dims, %two) : (tensor<2xi32>, tensor<f32>) -> tensor<?x?xf32>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.While"(%zero) {cond = @below_four, body = @step, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<i32>) -> tensor<i32>
  return %a, %b, %n : tensor<?x?xf32>, tensor<?x?xf32>, tensor<i32>
}

// A result whose first dimension is unknown (a batch) is planned for a
// batch of 1 (docs/MemoryPlan.md); a larger batch does not fit its buffer
// and is allocated, with the same answer.
// Input: x = f32_2x3.npy = [[1, 2, 3], [4, 5, 6]]; row sums of x^2.
// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=PLAN
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy --threads=1 --benchmark=1 | FileCheck %s

// PLAN: tfrt_fallback.memory_plan = {arena_bytes = 12 : i64, offsets = array<i64: 0>, sizes = array<i64: 12>}
// PLAN: "Neg"{{.*}}array<i32: 0>
// PLAN: "Square"{{.*}}array<i32: 0>
// Two runs (a warm-up and a timed one), each allocating the 2x3 Neg.
// CHECK: memory plan: arenas 0.00 MiB (of the live tensors), 1 buffers, 0 results in them, 2 allocated (buffer taken or too small)
// CHECK: result #0: tensor<2xf32>
// CHECK-NEXT: [14., 77.]
func.func @main(%x: tensor<?x3xf32>) -> tensor<?xf32> {
  %axis = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %a = "tf.Neg"(%x) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %b = "tf.Square"(%a) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %s = "tf.Sum"(%b, %axis) {keep_dims = false} : (tensor<?x3xf32>, tensor<1xi32>) -> tensor<?xf32>
  return %s : tensor<?xf32>
}

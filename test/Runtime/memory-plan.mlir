// The static memory plan end to end: the pipeline plans the 0.75 MiB tile
// and the two element-wise ops that write over it into one buffer
// (docs/MemoryPlan.md), the runtime takes it from the frame's arena, and the
// answer is the same on one thread, on two, and from the binary program.
// Input: x = f32_3.npy = [10, 20, 30]; max((-tile(x))^2) = 900.
// RUN: fallback-run %s --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_3.npy --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s --check-prefix=PLAN
// RUN: fallback-opt %s --tfrt-fallback-pipeline=plan-memory=false | FileCheck %s --check-prefix=NOPLAN
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_3.npy --threads=1 --benchmark=3 | FileCheck %s --check-prefixes=CHECK,BENCH
// A run under a memory budget charges what its kernels allocate, so it
// takes nothing from the plan (its frame has no arena): the tile counts
// against --max-run-bytes like any tensor.
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_3.npy --threads=1 --benchmark=3 --max-run-bytes=1M | FileCheck %s --check-prefixes=CHECK,BUDGET
// RUN: not fallback-run-lite %t.bef --input=%S/Inputs/f32_3.npy --threads=1 --max-run-bytes=512K 2>&1 | FileCheck %s --check-prefix=OVER
// BUDGET: memory plan: arenas 0.75 MiB (of the live tensors), 1 buffers, 0 results in them, 0 allocated
// OVER: error: result #0: Tile {{.*}}: output 0: allocating 786432 bytes while the run holds 0 exceeds the run's limit of 524288 bytes
// Without the plan the tile is a heap tensor (196,608 x 4 bytes).
// RUN: fallback-opt %s --tfrt-fallback-pipeline=plan-memory=false | fallback-translate --mlir-to-bef -o %t.noplan.bef
// RUN: fallback-run-lite %t.noplan.bef --input=%S/Inputs/f32_3.npy --threads=1 --benchmark=3 | FileCheck %s --check-prefixes=CHECK,NOPLANBENCH

// PLAN-LABEL: func.func @main
// PLAN-SAME: tfrt_fallback.memory_plan = {arena_bytes = 786432 : i64, offsets = array<i64: 0>, sizes = array<i64: 786432>}
// PLAN: "Tile"{{.*}}array<i32: 0>
// PLAN: "Neg"{{.*}}array<i32: 0>
// PLAN: "Square"{{.*}}array<i32: 0>
// PLAN: "Max"
// PLAN-NOT: tfrt_fallback.buffers
// NOPLAN-NOT: tfrt_fallback.memory_plan
// NOPLAN-NOT: tfrt_fallback.buffers

// The tile takes its buffer in each of the 4 runs (a warm-up and 3 timed):
// the 0.75 MiB of live tensors are the arena's.
// BENCH: memory: weights 0.0 MiB + peak live tensors 0.8 MiB
// BENCH-NEXT: memory plan: arenas 0.75 MiB (of the live tensors), 1 buffers, 4 results in them, 0 allocated (buffer taken or too small)
// NOPLANBENCH: memory: weights 0.0 MiB + peak live tensors 0.8 MiB
// NOPLANBENCH-NOT: memory plan:
// CHECK: result #0: tensor<f32>
// CHECK-NEXT: 900.
func.func @main(%x: tensor<3xf32>) -> tensor<f32> {
  %multiples = "tf.Const"() {value = dense<65536> : tensor<1xi32>} : () -> tensor<1xi32>
  %axis = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %t = "tf.Tile"(%x, %multiples) : (tensor<3xf32>, tensor<1xi32>) -> tensor<196608xf32>
  %n = "tf.Neg"(%t) : (tensor<196608xf32>) -> tensor<196608xf32>
  %q = "tf.Square"(%n) : (tensor<196608xf32>) -> tensor<196608xf32>
  %m = "tf.Max"(%q, %axis) {keep_dims = false} : (tensor<196608xf32>, tensor<1xi32>) -> tensor<f32>
  return %m : tensor<f32>
}

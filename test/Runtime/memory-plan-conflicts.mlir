// A plan is never trusted: a planned buffer is taken only when no buffer
// whose bytes overlap it is in use, and a result that does not fit its
// buffer is allocated as usual (docs/MemoryPlan.md). This hand-written plan
// puts %a and %b, alive together, in buffer 0, puts %c in buffer 1, which
// overlaps buffer 0, plans the returned %c and %d (their buffers are still
// held by the previous run's results when the next run starts), and gives
// the 6-element %e a 3-element buffer: every answer is still right.
// Input: x = f32_3.npy = [10, 20, 30].
// RUN: fallback-run %s --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_3.npy --threads=2 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_3.npy --threads=1 --benchmark=3 | FileCheck %s --check-prefixes=CHECK,COUNTS
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_3.npy --threads=2 --benchmark=3 | FileCheck %s

// On one thread, in each of the 4 runs: %a takes buffer 0; %b (buffer 0
// taken), %c (buffer 1 overlaps it), %e (too large) and %d are allocated
// (%d cannot write over %a, which has other readers: the runtime lends
// only the buffer of a value with one reader). The previous run's results
// are gone when a run starts.
// COUNTS: memory plan: arenas 0.00 MiB (of the live tensors), 3 buffers, 4 results in them, 16 allocated (buffer taken or too small)
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: [110., 420., 930.]
// CHECK: result #1: tensor<3xf32>
// CHECK-NEXT: [90., 380., 870.]
// CHECK: result #2: tensor<6xf32>
// CHECK-NEXT: [-10., -20., -30., -10., -20., -30.]
func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<6xf32>)
    attributes {tfrt_fallback.memory_plan = {arena_bytes = 128 : i64, offsets = array<i64: 0, 8, 64>, sizes = array<i64: 12, 12, 12>}} {
  %two = tfrt_fallback.constant dense<2> : tensor<1xi32>
  %a = tfrt_fallback.kernel_call "Neg"(%x) {T = f32} attributes {tfrt_fallback.buffers = array<i32: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  %b = tfrt_fallback.kernel_call "Square"(%x) {T = f32} attributes {tfrt_fallback.buffers = array<i32: 0>} : (tensor<3xf32>) -> tensor<3xf32>
  %c = tfrt_fallback.kernel_call "Sub"(%b, %a) {T = f32} attributes {tfrt_fallback.buffers = array<i32: 1>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %e = tfrt_fallback.kernel_call "Tile"(%a, %two) {T = f32, Tmultiples = i32} attributes {tfrt_fallback.buffers = array<i32: 2>} : (tensor<3xf32>, tensor<1xi32>) -> tensor<6xf32>
  %d = tfrt_fallback.kernel_call "AddV2"(%a, %b) {T = f32} attributes {tfrt_fallback.buffers = array<i32: 0>} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %c, %d, %e : tensor<3xf32>, tensor<3xf32>, tensor<6xf32>
}

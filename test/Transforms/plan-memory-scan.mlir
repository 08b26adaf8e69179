// The two ways offsets are assigned. Greedy by size (the default) places the
// largest buffer first; past `max-overlap-pairs` pairs of buffers alive at
// once (0 here forces it), a linear scan in program order gives each buffer,
// at its definition, the smallest free range that fits, else the top of the
// arena. Both keep buffers alive together apart.
// RUN: fallback-opt %s --tfrt-fallback-plan-memory | FileCheck %s --check-prefix=GREEDY
// RUN: fallback-opt %s --tfrt-fallback-plan-memory=max-overlap-pairs=0 | FileCheck %s --check-prefix=SCAN

// Lifetimes, by instruction: %a 0-1 (1024 B), %p 1-6, %b 2-3 (256 B),
// %q 3-6, %c 4-5 (2048 B), %r 5-6 (4 B each for the sums).
//
// Greedy by size: %c, %a and %b never live together (all at 0); the sums
// live with them, each after the highest one alive with it: %p at 2048,
// %q at 2112, %r at 2176. Buffers by offset: %a %b %c %p %q %r.
// GREEDY-LABEL: func @plan
// GREEDY-SAME: arena_bytes = 2180 : i64, offsets = array<i64: 0, 0, 0, 2048, 2112, 2176>, sizes = array<i64: 1024, 256, 2048, 4, 4, 4>
// GREEDY: "Exp"{{.*}} array<i32: 0>
// GREEDY: "Sum"{{.*}} array<i32: 3>
// GREEDY: "Exp"{{.*}} array<i32: 1>
// GREEDY: "Sum"{{.*}} array<i32: 4>
// GREEDY: "Exp"{{.*}} array<i32: 2>
// GREEDY: "Sum"{{.*}} array<i32: 5>
//
// Scan: %a takes [0, 1024); %p, with %a alive, the top: 1024. %a is free
// at 2: %b takes the front of it (0), %q the best fit, the rest of it
// (256). %b is free at 4, but 2048 bytes fit in no free range ([0, 256),
// [320, 1024)): %c goes on top, at 1088. %r takes the smallest free range
// that fits, [0, 256). Buffers by offset: %a %b %r %q %p %c.
// SCAN-LABEL: func @plan
// SCAN-SAME: arena_bytes = 3136 : i64, offsets = array<i64: 0, 0, 0, 256, 1024, 1088>, sizes = array<i64: 1024, 256, 4, 4, 4, 2048>
// SCAN: "Exp"{{.*}} array<i32: 0>
// SCAN: "Sum"{{.*}} array<i32: 4>
// SCAN: "Exp"{{.*}} array<i32: 1>
// SCAN: "Sum"{{.*}} array<i32: 3>
// SCAN: "Exp"{{.*}} array<i32: 5>
// SCAN: "Sum"{{.*}} array<i32: 2>
func.func @plan(%x: tensor<256xf32>, %y: tensor<64xf32>, %z: tensor<512xf32>,
                %axes: tensor<1xi32>) -> tensor<3xf32> {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
      : (tensor<256xf32>) -> tensor<256xf32>
  %p = tfrt_fallback.kernel_call "Sum"(%a, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<256xf32>, tensor<1xi32>) -> tensor<f32>
  %b = tfrt_fallback.kernel_call "Exp"(%y) {T = f32}
      : (tensor<64xf32>) -> tensor<64xf32>
  %q = tfrt_fallback.kernel_call "Sum"(%b, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<64xf32>, tensor<1xi32>) -> tensor<f32>
  %c = tfrt_fallback.kernel_call "Exp"(%z) {T = f32}
      : (tensor<512xf32>) -> tensor<512xf32>
  %r = tfrt_fallback.kernel_call "Sum"(%c, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<512xf32>, tensor<1xi32>) -> tensor<f32>
  %o = tfrt_fallback.kernel_call "Pack"(%p, %q, %r) {N = 3 : i64, T = f32, axis = 0 : i64}
      : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  return %o : tensor<3xf32>
}

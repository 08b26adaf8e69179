// RUN: fallback-opt %s --tfrt-fallback-plan-memory --split-input-file | FileCheck %s
// Planning again gives the same plan (old attributes are dropped first).
// RUN: fallback-opt %s --tfrt-fallback-plan-memory --tfrt-fallback-plan-memory --split-input-file | FileCheck %s

// The pass's own example: Relu writes over Exp's result at its last use and
// Reshape views it, so the three share one buffer of 256 x 4 bytes; the
// returned Sum stays on the heap.
// CHECK-LABEL: func @in_place_and_view
// CHECK-SAME: tfrt_fallback.memory_plan = {arena_bytes = 1024 : i64, offsets = array<i64: 0>, sizes = array<i64: 1024>}
// CHECK: "Exp"{{.*}} attributes {tfrt_fallback.buffers = array<i32: 0>}
// CHECK: "Relu"{{.*}} attributes {tfrt_fallback.buffers = array<i32: 0>}
// CHECK: "Reshape"{{.*}} attributes {tfrt_fallback.buffers = array<i32: 0>}
// CHECK: "Sum"
// CHECK-NOT: attributes
// CHECK: return
func.func @in_place_and_view(%x: tensor<256xf32>, %shape: tensor<2xi32>,
                             %axes: tensor<2xi32>) -> tensor<f32> {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
      : (tensor<256xf32>) -> tensor<256xf32>
  %b = tfrt_fallback.kernel_call "Relu"(%a) {T = f32}
      : (tensor<256xf32>) -> tensor<256xf32>
  %c = tfrt_fallback.kernel_call "Reshape"(%b, %shape) {T = f32, Tshape = i32}
      : (tensor<256xf32>, tensor<2xi32>) -> tensor<16x16xf32>
  %d = tfrt_fallback.kernel_call "Sum"(%c, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<16x16xf32>, tensor<2xi32>) -> tensor<f32>
  return %d : tensor<f32>
}

// -----

// Lifetimes, by instruction: %a 0-1, %s 1-4, %c 2-3, %t 3-4. %a and %c
// never live together: both at offset 0. %t is alive with %c (and is
// written while %c is read): after it, at 1024. The returned AddV2 writes
// over %s, its operand at its last use, so %s's buffer would leave the run
// with the result: %s is not planned.
// CHECK-LABEL: func @disjoint_lifetimes
// CHECK-SAME: arena_bytes = 1028 : i64, offsets = array<i64: 0, 0, 1024>, sizes = array<i64: 1024, 1024, 4>
// CHECK: "Exp"{{.*}} array<i32: 0>
// CHECK: "Sum"
// CHECK-NOT: attributes
// CHECK: "Exp"{{.*}} array<i32: 1>
// CHECK: "Sum"{{.*}} array<i32: 2>
// CHECK: "AddV2"
// CHECK-NOT: attributes
func.func @disjoint_lifetimes(%x: tensor<256xf32>, %y: tensor<256xf32>,
                              %axes: tensor<1xi32>) -> tensor<f32> {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
      : (tensor<256xf32>) -> tensor<256xf32>
  %s = tfrt_fallback.kernel_call "Sum"(%a, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<256xf32>, tensor<1xi32>) -> tensor<f32>
  %c = tfrt_fallback.kernel_call "Exp"(%y) {T = f32}
      : (tensor<256xf32>) -> tensor<256xf32>
  %t = tfrt_fallback.kernel_call "Sum"(%c, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<256xf32>, tensor<1xi32>) -> tensor<f32>
  %r = tfrt_fallback.kernel_call "AddV2"(%s, %t) {T = f32}
      : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

// An element-wise op writes over an operand only when it is the operand's
// one reader (the runtime forwards nothing else): %a has two, Neg and
// AddV2, so Neg gets a buffer of its own; AddV2 writes over %b, its second
// operand, which it alone reads. A dynamic shape and a string are not
// planned; neither is the returned value.
// CHECK-LABEL: func @not_in_place
// CHECK-SAME: arena_bytes = 96 : i64, offsets = array<i64: 0, 64>, sizes = array<i64: 32, 32>
// CHECK: "Exp"{{.*}} array<i32: 0>
// CHECK: "Neg"{{.*}} array<i32: 1>
// CHECK: "AddV2"{{.*}} array<i32: 1>
// CHECK: "Sum"
// CHECK-NOT: tfrt_fallback.buffers
// CHECK: return
func.func @not_in_place(%x: tensor<8xf32>, %d: tensor<?xf32>, %s: tensor<2x!tf_type.string>,
                        %axes: tensor<1xi32>)
    -> (tensor<f32>, tensor<?xf32>, tensor<2x!tf_type.string>) {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
      : (tensor<8xf32>) -> tensor<8xf32>
  %b = tfrt_fallback.kernel_call "Neg"(%a) {T = f32}
      : (tensor<8xf32>) -> tensor<8xf32>
  %c = tfrt_fallback.kernel_call "AddV2"(%a, %b) {T = f32}
      : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %r = tfrt_fallback.kernel_call "Sum"(%c, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<8xf32>, tensor<1xi32>) -> tensor<f32>
  %e = tfrt_fallback.kernel_call "Exp"(%d) {T = f32}
      : (tensor<?xf32>) -> tensor<?xf32>
  %t = tfrt_fallback.kernel_call "Identity"(%s) {T = !tf_type.string}
      : (tensor<2x!tf_type.string>) -> tensor<2x!tf_type.string>
  return %r, %e, %t : tensor<f32>, tensor<?xf32>, tensor<2x!tf_type.string>
}

// -----

// A view that is returned keeps its operand's buffer past the run: the
// whole group stays on the heap, and so nothing is planned.
// CHECK-LABEL: func @returned_view
// CHECK-NOT: tfrt_fallback.memory_plan
// CHECK-NOT: tfrt_fallback.buffers
// CHECK: return
func.func @returned_view(%x: tensor<8xf32>) -> tensor<8xf32> {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
      : (tensor<8xf32>) -> tensor<8xf32>
  %b = tfrt_fallback.kernel_call "Identity"(%a) {T = f32}
      : (tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

// An unknown first dimension (a model's batch) is planned as 1; the
// runtime allocates a larger batch's results. Another unknown dimension
// is not planned.
// CHECK-LABEL: func @batch
// CHECK-SAME: arena_bytes = 16 : i64, offsets = array<i64: 0>, sizes = array<i64: 16>
// CHECK: "Exp"{{.*}} array<i32: 0>
// CHECK: "Exp"
// CHECK-NOT: tfrt_fallback.buffers
// CHECK: return
func.func @batch(%x: tensor<?x4xf32>, %y: tensor<4x?xf32>, %axes: tensor<2xi32>)
    -> (tensor<f32>, tensor<f32>) {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
      : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %s = tfrt_fallback.kernel_call "Sum"(%a, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<?x4xf32>, tensor<2xi32>) -> tensor<f32>
  %b = tfrt_fallback.kernel_call "Exp"(%y) {T = f32}
      : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %t = tfrt_fallback.kernel_call "Sum"(%b, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<4x?xf32>, tensor<2xi32>) -> tensor<f32>
  return %s, %t : tensor<f32>, tensor<f32>
}

// -----

// The op table's Buffer column says which operands a result may take
// over: FakeQuantWithMinMaxArgs and ZerosLike write over their operand at
// its last use, so Exp's 1,024 bytes serve all three.
// CHECK-LABEL: func @in_place_rows
// CHECK-SAME: arena_bytes = 1024 : i64, offsets = array<i64: 0>, sizes = array<i64: 1024>
// CHECK: "Exp"{{.*}} array<i32: 0>
// CHECK: "FakeQuantWithMinMaxArgs"{{.*}} array<i32: 0>
// CHECK: "ZerosLike"{{.*}} array<i32: 0>
func.func @in_place_rows(%x: tensor<256xf32>, %axes: tensor<1xi32>) -> tensor<f32> {
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32}
      : (tensor<256xf32>) -> tensor<256xf32>
  %b = tfrt_fallback.kernel_call "FakeQuantWithMinMaxArgs"(%a)
      {max = 6.0 : f32, min = -6.0 : f32, narrow_range = false, num_bits = 8 : i64}
      : (tensor<256xf32>) -> tensor<256xf32>
  %c = tfrt_fallback.kernel_call "ZerosLike"(%b) {T = f32}
      : (tensor<256xf32>) -> tensor<256xf32>
  %d = tfrt_fallback.kernel_call "Sum"(%c, %axes)
      {T = f32, Tidx = i32, keep_dims = false}
      : (tensor<256xf32>, tensor<1xi32>) -> tensor<f32>
  return %d : tensor<f32>
}

// -----

// Select's kernel writes over t or e ("1, 2"), never over its condition,
// even one of the result's type at its last use: the result shares t's
// buffer (1), not the condition's (0). All three operands are alive at the
// Select: 3 x 64 bytes.
// CHECK-LABEL: func @select_in_place
// CHECK-SAME: arena_bytes = 192 : i64
// CHECK: "LogicalNot"{{.*}} array<i32: 0>
// CHECK: "LogicalNot"{{.*}} array<i32: 1>
// CHECK: "LogicalNot"{{.*}} array<i32: 2>
// CHECK: "Select"{{.*}} array<i32: 1>
func.func @select_in_place(%m: tensor<64xi1>, %n: tensor<64xi1>, %o: tensor<64xi1>,
                           %axes: tensor<1xi32>) -> tensor<i1> {
  %c = tfrt_fallback.kernel_call "LogicalNot"(%m)
      : (tensor<64xi1>) -> tensor<64xi1>
  %t = tfrt_fallback.kernel_call "LogicalNot"(%n)
      : (tensor<64xi1>) -> tensor<64xi1>
  %e = tfrt_fallback.kernel_call "LogicalNot"(%o)
      : (tensor<64xi1>) -> tensor<64xi1>
  %s = tfrt_fallback.kernel_call "Select"(%c, %t, %e) {T = i1}
      : (tensor<64xi1>, tensor<64xi1>, tensor<64xi1>) -> tensor<64xi1>
  %r = tfrt_fallback.kernel_call "Any"(%s, %axes) {Tidx = i32, keep_dims = false}
      : (tensor<64xi1>, tensor<1xi32>) -> tensor<i1>
  return %r : tensor<i1>
}

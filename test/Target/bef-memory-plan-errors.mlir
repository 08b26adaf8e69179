// RUN: fallback-translate --mlir-to-bef --split-input-file --verify-diagnostics %s -o /dev/null
// A memory plan the binary program cannot hold is an error at its op.

// expected-error@+1 {{'func.func' op 'tfrt_fallback.memory_plan' needs arena_bytes (i64 >= 0) and as many offsets as sizes (array<i64>)}}
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32>
    attributes {tfrt_fallback.memory_plan = {arena_bytes = 64 : i64, offsets = array<i64: 0>}} {
  return %x : tensor<8xf32>
}

// -----

// expected-error@+1 {{'func.func' op 'tfrt_fallback.memory_plan' must be a dictionary}}
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32>
    attributes {tfrt_fallback.memory_plan = 3 : i64} {
  return %x : tensor<8xf32>
}

// -----

// expected-error@+1 {{'func.func' op planned buffer of 32 bytes at 64 is not inside the arena of 64 bytes}}
func.func @main(%x: tensor<8xf32>) -> tensor<8xf32>
    attributes {tfrt_fallback.memory_plan = {arena_bytes = 64 : i64, offsets = array<i64: 64>, sizes = array<i64: 32>}} {
  return %x : tensor<8xf32>
}

// -----

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32>
    attributes {tfrt_fallback.memory_plan = {arena_bytes = 64 : i64, offsets = array<i64: 0>, sizes = array<i64: 32>}} {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op names planned buffer 1 of a plan of 1}}
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32} attributes {tfrt_fallback.buffers = array<i32: 1>} : (tensor<8xf32>) -> tensor<8xf32>
  %b = tfrt_fallback.kernel_call "Neg"(%a) {T = f32} : (tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

func.func @main(%x: tensor<8xf32>) -> tensor<8xf32>
    attributes {tfrt_fallback.memory_plan = {arena_bytes = 64 : i64, offsets = array<i64: 0>, sizes = array<i64: 32>}} {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op 'tfrt_fallback.buffers' needs one buffer (array<i32>) per tensor result}}
  %a = tfrt_fallback.kernel_call "Exp"(%x) {T = f32} attributes {tfrt_fallback.buffers = array<i32: 0, 0>} : (tensor<8xf32>) -> tensor<8xf32>
  %b = tfrt_fallback.kernel_call "Neg"(%a) {T = f32} : (tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

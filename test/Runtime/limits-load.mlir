// The loader's limits (docs/Reliability.md): the program's size and how
// deep its calls nest (main -> middle -> inner: 3 deep).
// RUN: fallback-run %s --input=%S/Inputs/f32_scalar.npy --max-call-depth=3 | FileCheck %s --check-prefix=FITS
// FITS: result #0: tensor<f32>
// RUN: not fallback-run %s --input=%S/Inputs/f32_scalar.npy --max-call-depth=2 2>&1 | FileCheck %s --check-prefix=DEPTH
// DEPTH: error: function 'main' of the program nests calls 3 deep, past the limit of 2
// The same from a .bef, with fallback-run-lite.
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: not fallback-run-lite %t.bef --input=%S/Inputs/f32_scalar.npy --max-call-depth=2 2>&1 | FileCheck %s --check-prefix=DEPTH
// RUN: not fallback-run-lite %t.bef --input=%S/Inputs/f32_scalar.npy --max-program-bytes=64 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: error: the program has {{[0-9]+}} bytes, past the limit of 64
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_scalar.npy --max-program-bytes=1M | FileCheck %s --check-prefix=FITS

// Flag values.
// RUN: not fallback-run %s --max-tensor-bytes=12X 2>&1 | FileCheck %s --check-prefix=BADBYTES
// BADBYTES: error: --max-tensor-bytes takes a number of bytes (e.g. 512M), got '12X'
// RUN: not fallback-run %s --max-run-bytes=-1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: --max-run-bytes takes a number of bytes (e.g. 512M), got '-1'
// RUN: not fallback-run %s --max-loop-iterations=many 2>&1 | FileCheck %s --check-prefix=BADLOOP
// BADLOOP: error: --max-loop-iterations takes a number of iterations, got 'many'
// RUN: not fallback-run %s --max-call-depth=-2 2>&1 | FileCheck %s --check-prefix=BADDEPTH
// BADDEPTH: error: --max-call-depth takes a depth, got '-2'
// RUN: fallback-run --help | FileCheck %s --check-prefix=HELP
// HELP: LIMITS
// HELP: --max-tensor-bytes=<n>
// HELP: --max-call-depth=<n>

func.func private @inner(%x: tensor<f32>) -> tensor<f32> {
  %r = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func private @middle(%x: tensor<f32>) -> tensor<f32> {
  %r = "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @inner} : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  %r = "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @middle} : (tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

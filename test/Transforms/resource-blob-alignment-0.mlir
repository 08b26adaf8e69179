// RUN: not fallback-opt %s 2>&1 | FileCheck %s
// RUN: not fallback-opt %s --tfrt-fallback-pipeline 2>&1 | FileCheck %s
// RUN: not fallback-translate --mlir-to-bef %s -o %t.bef 2>&1 | FileCheck %s
// RUN: not fallback-translate --emit-kernel-manifest %s 2>&1 | FileCheck %s
// RUN: not fallback-run %s 2>&1 | FileCheck %s

// A resource blob whose alignment (its first four bytes) is 0: MLIR 22's
// parser accepts it and then aborts in llvm::allocate_buffer ("Buffer
// allocation failed"; found by the MLIR pipeline fuzzer). Every tool refuses
// it with an error at the blob instead, before MLIR parses the file. Blobs
// with a power-of-two alignment parse as before (dense-resource lit tests).

// CHECK: resource-blob-alignment-0.mlir:[[# @LINE + 12]]:15: error: resource blob with alignment 0: its first four bytes must be a power of two
// CHECK-NOT: module
func.func @main() -> (tensor<2xf32>, tensor<2x2xi32>) {
  %0 = "tf.Const"() {value = dense_resource<weights> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "tf.Const"() {value = dense_resource<matrix> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  return %0, %1 : tensor<2xf32>, tensor<2x2xi32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040",
      matrix: "0x0000000001000000020000000300000004000000"
    }
  }
#-}

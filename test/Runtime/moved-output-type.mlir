// An input moved into its kernel's output (forwarding, OpKernelContext::
// finish) skips the output check only when the output is declared with the
// input's own type: here it is not, and the check catches the shape.
// RUN: not fallback-run %s --input=%S/Inputs/f32_3.npy --threads=1 2>&1 | FileCheck %s
// With equal types the moved value is the result.
// RUN: fallback-run %s --entry=same --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s --check-prefix=SAME

// CHECK: Neg '{{.*}}moved-output-type.mlir:{{[0-9:]+}}': output #0 is tensor<3xf32> but the program declares tensor<2xf32>
func.func @main(%x: tensor<*xf32>) -> tensor<2xf32> {
  %0 = tfrt_fallback.kernel_call "Neg"(%x) {T = f32} : (tensor<*xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// SAME: result #0: tensor<3xf32>
// SAME-NEXT: [-10., -20., -30.]
func.func @same(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tfrt_fallback.kernel_call "Neg"(%x) {T = f32} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

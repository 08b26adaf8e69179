// A kernel failure is a value: the failing result is an error naming the op
// and its location, its dependants are skipped, independent results are
// still computed, and fallback-run exits 1.
// RUN: not fallback-run %s --input=%S/Inputs/f32_2x3.npy --input=%S/Inputs/f32_3.npy --threads=1 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// The same through the parallel executor.
// RUN: not fallback-run %s --input=%S/Inputs/f32_2x3.npy --input=%S/Inputs/f32_3.npy --threads=4 > %t.par.out 2> %t.par.err
// RUN: FileCheck %s --check-prefix=OUT < %t.par.out
// RUN: FileCheck %s --check-prefix=ERR < %t.par.err

func.func @main(%x: tensor<?x?xf32>, %y: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  // [2,3] x [3] as matrices: inner dimensions 3 and 3 do not line up with
  // a reshaped [3] -> [1,3].
  %s = "tf.Const"() {value = dense<[1, 3]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %y2 = "tf.Reshape"(%y, %s) {T = f32, Tshape = i32} : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x?xf32>
  %bad = "tf.MatMul"(%x, %y2) {T = f32, transpose_a = false, transpose_b = false} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %dependant = "tf.Relu"(%bad) {T = f32} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %good = "tf.MatMul"(%x, %y2) {T = f32, transpose_a = false, transpose_b = true} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %bad, %dependant, %good : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}

// ERR: error: result #0: MatMul '{{.*}}errors.mlir:17:10': Matrix size-incompatible: In[0]: [2,3], In[1]: [1,3]
// ERR: error: result #1: MatMul '{{.*}}errors.mlir:17:10': Matrix size-incompatible
// OUT-NOT: result #0
// OUT: result #2: tensor<2x1xf32>
// OUT-NEXT: {{\[\[}}140.],
// OUT-NEXT: [320.]]

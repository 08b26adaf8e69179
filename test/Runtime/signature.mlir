// A program's inputs and outputs by name (tf.entry_function, as the
// GraphDef and TF.js importers write it): --signature lists them, inputs
// are fed by name in any order (a positional input fills the rest), and
// --output-names writes each result as <name>.npy.
// Inputs: alpha = f32_2.npy = [1, 2], beta = f32_3.npy = [10, 20, 30],
// gamma = f32_scalar.npy = 2.5.
// RUN: fallback-run %s --signature | FileCheck %s --check-prefix=SIG
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run-lite %t.bef --signature | FileCheck %s --check-prefix=SIG
// RUN: fallback-translate --bef-to-mlir %t.bef | FileCheck %s --check-prefix=MLIR
// A selective runtime for it keeps the names (docs/KernelManifest.md).
// RUN: fallback-translate --emit-kernel-manifest %t.bef | FileCheck %s --check-prefix=MANIFEST
// MANIFEST: feature signatures
// RUN: rm -rf %t.out
// RUN: fallback-run-lite %t.bef --input=gamma=%S/Inputs/f32_scalar.npy --input=beta=%S/Inputs/f32_3.npy --input=alpha:0=%S/Inputs/f32_2.npy --output-dir=%t.out --output-names | FileCheck %s
// RUN: ls %t.out | FileCheck %s --check-prefix=FILES
// RUN: fallback-run %s --input=beta=%S/Inputs/f32_3.npy --input=%S/Inputs/f32_2.npy --input=%S/Inputs/f32_scalar.npy | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_2.npy --input=%S/Inputs/f32_3.npy --input=%S/Inputs/f32_scalar.npy | FileCheck %s

// In the wrong order, by position: a shape error naming the input.
// RUN: not fallback-run-lite %t.bef --input=%S/Inputs/f32_3.npy --input=%S/Inputs/f32_2.npy --input=%S/Inputs/f32_scalar.npy 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not fallback-run-lite %t.bef --input=beta=%S/Inputs/f32_3.npy --input=beta=%S/Inputs/f32_3.npy 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not fallback-run-lite %t.bef --input=beta=%S/Inputs/f32_3.npy --input=gamma=%S/Inputs/f32_scalar.npy 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not fallback-run-lite %t.bef --input=beta=%S/Inputs/f32_3.npy --input=%S/Inputs/f32_2.npy --input=%S/Inputs/f32_scalar.npy --input=%S/Inputs/f32_scalar.npy 2>&1 | FileCheck %s --check-prefix=EXTRA
// A name that is not an input's is a file name.
// RUN: not fallback-run-lite %t.bef --input=delta=%S/Inputs/f32_3.npy --input=%S/Inputs/f32_2.npy --input=%S/Inputs/f32_scalar.npy 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// SIG: main: 3 inputs, 2 outputs
// SIG-NEXT: input 0 'alpha' tensor<2xf32>
// SIG-NEXT: input 1 'beta' tensor<3xf32>
// SIG-NEXT: input 2 'gamma' tensor<f32>
// SIG-NEXT: output 0 'scaled_alpha' tensor<2xf32>
// SIG-NEXT: output 1 'StatefulPartitionedCall/beta:0' tensor<3xf32>
// MLIR: func.func @main(%{{.*}}: tensor<2xf32> {tf_saved_model.index_path = ["alpha"]}, %{{.*}}: tensor<3xf32> {tf_saved_model.index_path = ["beta"]}, %{{.*}}: tensor<f32> {tf_saved_model.index_path = ["gamma"]}) -> (tensor<2xf32> {tf_saved_model.index_path = ["scaled_alpha"]}, tensor<3xf32> {tf_saved_model.index_path = ["StatefulPartitionedCall/beta:0"]})
// CHECK: result #0: tensor<2xf32>
// CHECK-NEXT: [2.5, 5.]
// CHECK: result #1: tensor<3xf32>
// CHECK-NEXT: [25., 50., 75.]
// FILES: StatefulPartitionedCall_beta_0.npy
// FILES-NEXT: scaled_alpha.npy
// ORDER: error: input #0 of 'main': expected tensor<2xf32>, got tensor<3xf32>
// TWICE: error: input 'beta' of 'main' is given twice
// MISSING: error: no value for input 0 'alpha' of 'main'
// EXTRA: error: 'main' takes 3 inputs, got 4
// UNKNOWN: error: {{.*}}delta={{.*}}f32_3.npy
func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>, %c: tensor<f32>)
    -> (tensor<2xf32>, tensor<3xf32>)
    attributes {tf.entry_function = {inputs = "alpha,beta,gamma",
                outputs = "scaled_alpha,StatefulPartitionedCall/beta:0"}} {
  %0 = "tf.Mul"(%a, %c) {T = f32} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %1 = "tf.Mul"(%b, %c) {T = f32} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0, %1 : tensor<2xf32>, tensor<3xf32>
}

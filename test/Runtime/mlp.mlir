// The bundled example, run directly from TF MLIR and through a binary
// program; both print the same values.
// RUN: fallback-run %src_root/examples/mlp.mlir --input=%src_root/examples/mlp_input.npy --threads=1 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %src_root/examples/mlp.mlir -o %t.bef
// RUN: fallback-run %t.bef --input=%src_root/examples/mlp_input.npy --threads=1 | FileCheck %s
// RUN: fallback-opt --tfrt-fallback-pipeline %src_root/examples/mlp.mlir -o %t.lowered.mlir
// RUN: fallback-run %t.lowered.mlir --input=%src_root/examples/mlp_input.npy --threads=1 | FileCheck %s

// Hand-derived: x = [1, 2, 3, 4]; relu(x W0 + b0) = [1.85, 0.8, 5.8];
// h W1 = [-3.55, 12, -1.45]; softmax = [1.76490e-07, 0.9999984, 1.44125e-06].
// CHECK: result #0: tensor<1x3xf32>
// CHECK-NEXT: {{\[\[}}1.764{{[89][0-9]*}}e-07, 0.99999{{[78][0-9]*}}, 1.4412{{[0-9]*}}e-06]]

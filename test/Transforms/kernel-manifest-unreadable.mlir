// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/does-not-exist.manifest" 2>&1 | FileCheck %s
// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs" 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: fallback-opt %s --split-input-file --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/does-not-exist.manifest" --verify-diagnostics

// A kernel manifest that cannot be read is an error of the whole module,
// naming the file.

// CHECK: error: cannot read kernel manifest '{{.*}}does-not-exist.manifest': {{.*}}
// DIR: error: cannot read kernel manifest '{{.*}}Inputs':

// expected-error@+1 {{cannot read kernel manifest}}
module {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}

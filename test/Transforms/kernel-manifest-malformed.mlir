// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/manifest-no-header.manifest" 2>&1 | FileCheck %s --check-prefix=HEADER
// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/manifest-bad-line.manifest" 2>&1 | FileCheck %s --check-prefix=LINE
// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/manifest-bad-constraint.manifest" 2>&1 | FileCheck %s --check-prefix=CONSTRAINT
// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/manifest-empty-attr.manifest" 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%S/../Inputs/manifest-missing-op.manifest" 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not fallback-opt %s --tfrt-fallback-pipeline="kernel-manifest=%S/../Inputs/manifest-bad-line.manifest" 2>&1 | FileCheck %s --check-prefix=LINE

// A malformed kernel manifest is an error naming the file and the line.

// HEADER: error: {{.*}}manifest-no-header.manifest:1: expected the header '# tfrt-fallback kernel manifest v1'
// LINE: error: {{.*}}manifest-bad-line.manifest:5: expected 'kernel <OpName> [<attr>=<dtype>|...]...'
// CONSTRAINT: error: {{.*}}manifest-bad-constraint.manifest:4: expected '<attr>=<dtype>|...', got 'T'
// ATTR: error: {{.*}}manifest-empty-attr.manifest:2: expected '<attr>=<dtype>|...', got '=f32'
// OP: error: {{.*}}manifest-missing-op.manifest:2: expected 'kernel <OpName> [<attr>=<dtype>|...]...'

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.AddV2"(%x, %x) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

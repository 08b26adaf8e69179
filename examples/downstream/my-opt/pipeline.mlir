// Upstream passes and tfrt-fallback's pipeline in one my-opt run.
// Run by scripts/check-downstream.sh:
//   my-opt %s --canonicalize --tfrt-fallback-pipeline | FileCheck %s

// CHECK-LABEL: func.func @main
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // Dead TF ops are removed by canonicalize (the tf dialect marks pure ops).
  %unused = "tf.Neg"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK-NOT: tf.Neg
  // CHECK: tfrt_fallback.kernel_call "Relu"
  %y = "tf.Relu"(%x) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

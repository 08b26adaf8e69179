// RUN: fallback-opt %s --tfrt-fallback-pipeline="native-ops=MatMul" | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline="native-ops=MatMul,Relu" | FileCheck %s --check-prefix=TWO

// The pipeline takes the options of tf-to-tfrt-fallback.

// CHECK-LABEL: func @main
// CHECK: %[[MM:.*]] = "tf.MatMul"(%{{.*}}, %{{.*}}) {T = f32}
// CHECK: tfrt_fallback.kernel_call "Relu"(%[[MM]]) {T = f32}
// TWO-LABEL: func @main
// TWO: %[[MM:.*]] = "tf.MatMul"(%{{.*}}, %{{.*}}) {T = f32}
// TWO: "tf.Relu"(%[[MM]]) {T = f32}
// TWO-NOT: kernel_call
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %0 = "tf.MatMul"(%x, %x) {T = f32} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %1 = "tf.Relu"(%0) {T = f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  return %1 : tensor<2x2xf32>
}

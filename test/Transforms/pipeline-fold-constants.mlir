// RUN: fallback-opt %s --tfrt-fallback-pipeline | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline=fold-constants=false | FileCheck %s --check-prefix=NOFOLD

// The pipeline folds the constant subgraph (tfrt-fallback-fold-constants):
// Shape([2, 3] zeros) = [2, 3], its element 1 is 3, Pack(3, 2) = [3, 2];
// only the Reshape of the input is left to run. Without folding, each op
// is a kernel call.
// CHECK-LABEL: func @main
// CHECK-NOT: kernel_call "Shape"
// CHECK-NOT: kernel_call "StridedSlice"
// CHECK-NOT: kernel_call "Pack"
// CHECK: %[[S:.*]] = tfrt_fallback.constant dense<[3, 2]> : tensor<2xi32>
// CHECK-NEXT: %[[R:.*]] = tfrt_fallback.kernel_call "Reshape"(%{{.*}}, %[[S]])
// CHECK-NEXT: return %[[R]]
// NOFOLD-LABEL: func @main
// (The Shape of a static shape is a constant even without folding: the
// pipeline's --tfrt-fallback-infer-shapes materializes it.)
// NOFOLD-NOT: kernel_call "Shape"
// NOFOLD: kernel_call "StridedSlice"
// NOFOLD: kernel_call "Pack"
// NOFOLD: kernel_call "Reshape"
func.func @main(%x: tensor<6xf32>) -> tensor<3x2xf32> {
  %zeros = "tf.Const"() {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %shape = "tf.Shape"(%zeros) : (tensor<2x3xf32>) -> tensor<2xi32>
  %begin = "tf.Const"() {value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %end = "tf.Const"() {value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %stride = "tf.Const"() {value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %dim = "tf.StridedSlice"(%shape, %begin, %end, %stride) {begin_mask = 0 : i64, end_mask = 0 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %two = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %new_shape = "tf.Pack"(%dim, %two) {axis = 0 : i64} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
  %r = "tf.Reshape"(%x, %new_shape) : (tensor<6xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

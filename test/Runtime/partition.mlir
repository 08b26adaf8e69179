// RUN: fallback-run %s --threads=1 | FileCheck %s
// DynamicStitch and DynamicPartition end to end from TF MLIR (type
// attributes left implicit): a partition and the stitch that undoes it, as
// tf.dynamic_partition / tf.dynamic_stitch are used together. Expected
// values derived by hand.

func.func @main() -> (tensor<2x2xf32>, tensor<1x2xf32>, tensor<3x2xf32>) {
  %x = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>, dtype = f32} : () -> tensor<3x2xf32>
  %p = "tf.Const"() {value = dense<[0, 1, 0]> : tensor<3xi32>, dtype = i32} : () -> tensor<3xi32>
  %0:2 = "tf.DynamicPartition"(%x, %p) {num_partitions = 2 : i64} : (tensor<3x2xf32>, tensor<3xi32>) -> (tensor<2x2xf32>, tensor<1x2xf32>)
  %i0 = "tf.Const"() {value = dense<[0, 2]> : tensor<2xi32>, dtype = i32} : () -> tensor<2xi32>
  %i1 = "tf.Const"() {value = dense<[1]> : tensor<1xi32>, dtype = i32} : () -> tensor<1xi32>
  %1 = "tf.DynamicStitch"(%i0, %i1, %0#0, %0#1) : (tensor<2xi32>, tensor<1xi32>, tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  return %0#0, %0#1, %1 : tensor<2x2xf32>, tensor<1x2xf32>, tensor<3x2xf32>
}

// Rows 0 and 2 go to partition 0, row 1 to partition 1.
// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}1., 2.],
// CHECK-NEXT: [5., 6.]]
// CHECK: result #1: tensor<1x2xf32>
// CHECK-NEXT: {{\[\[}}3., 4.]]
// Stitching them back by the original positions restores x.
// CHECK: result #2: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}1., 2.],
// CHECK-NEXT: [3., 4.],
// CHECK-NEXT: [5., 6.]]

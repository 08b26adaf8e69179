// The sparse reads and writes of a resource variable: ResourceGather and
// ResourceGatherNd read it, ResourceScatterAdd / Sub (in a tf.While body,
// a scalar index per iteration) / Max / NdUpdate and
// ResourceStridedSliceAssign update it, VariableShape reads its shape. The
// chains order them as the program does. From the .mlir and through a
// .bef, on one thread and on the dataflow executor; every run starts from
// the assignment, so a second run prints the same.
// RUN: fallback-run %s --threads=1 | FileCheck %s
// RUN: fallback-run %s --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run-lite %t.bef --threads=1 | FileCheck %s
// RUN: fallback-run-lite %t.bef --threads=2 --benchmark=1 | FileCheck %s

// Hand-derived. v = [[1, 2], [3, 4], [5, 6]].
// #0: rows 2 and 0 before any update.
// CHECK: result #0: tensor<2x2xf32>
// CHECK-NEXT: {{\[\[}}5., 6.],
// CHECK-NEXT: [1., 2.]]
// ScatterAdd of [10, 20], [30, 40], [50, 60] at rows 0, 2, 0:
// [[61, 82], [3, 4], [35, 46]]; the loop subtracts [1, 1] from rows 0, 1,
// 2: [[60, 81], [2, 3], [34, 45]]; NdUpdate sets [1, 0] to 100; the
// strided slice [0:3:2, 1:2] is set to [[0], [0]]; Max of [50, 50] at
// row 1: [[60, 0], [100, 50], [34, 0]].
// CHECK: result #1: tensor<3x2xf32>
// CHECK-NEXT: {{\[\[}}60., 0.],
// CHECK-NEXT: [100., 50.],
// CHECK-NEXT: [34., 0.]]
// #2: elements [1, 0] and [0, 0].
// CHECK: result #2: tensor<2xf32>
// CHECK-NEXT: {{\[}}100., 60.]
// CHECK: result #3: tensor<2xi32>
// CHECK-NEXT: {{\[}}3, 2]

func.func private @cond(%i: tensor<i32>) -> tensor<i1> {
  %three = "tf.Const"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %three) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}
func.func private @body(%i: tensor<i32>) -> tensor<i32> {
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %ones = "tf.Const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<3x2>} : () -> tensor<!tf_type.resource<tensor<3x2xf32>>>
  "tf.ResourceScatterSub"(%h, %i, %ones) {dtype = f32, Tindices = i32} : (tensor<!tf_type.resource<tensor<3x2xf32>>>, tensor<i32>, tensor<2xf32>) -> ()
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j : tensor<i32>
}

func.func @main() -> (tensor<2x2xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<2xi32>) {
  %h = "tf.VarHandleOp"() {container = "", shared_name = "v", dtype = f32, shape = #tf_type.shape<3x2>} : () -> tensor<!tf_type.resource<tensor<3x2xf32>>>
  %init = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  "tf.AssignVariableOp"(%h, %init) {dtype = f32} : (tensor<!tf_type.resource<tensor<3x2xf32>>>, tensor<3x2xf32>) -> ()
  %rows = "tf.Const"() {value = dense<[2, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %gathered = "tf.ResourceGather"(%h, %rows) {dtype = f32, Tindices = i32, batch_dims = 0 : i64, validate_indices = true} : (tensor<!tf_type.resource<tensor<3x2xf32>>>, tensor<2xi32>) -> tensor<2x2xf32>

  %addAt = "tf.Const"() {value = dense<[0, 2, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %adds = "tf.Const"() {value = dense<[[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  "tf.ResourceScatterAdd"(%h, %addAt, %adds) {dtype = f32, Tindices = i32} : (tensor<!tf_type.resource<tensor<3x2xf32>>>, tensor<3xi32>, tensor<3x2xf32>) -> ()
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %n = "tf.While"(%zero) {cond = @cond, body = @body, is_stateless = false} : (tensor<i32>) -> tensor<i32>

  %ndAt = "tf.Const"() {value = dense<[[1, 0]]> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  %hundred = "tf.Const"() {value = dense<[100.0]> : tensor<1xf32>} : () -> tensor<1xf32>
  "tf.ResourceScatterNdUpdate"(%h, %ndAt, %hundred) {T = f32, Tindices = i32, use_locking = true} : (tensor<!tf_type.resource<tensor<3x2xf32>>>, tensor<1x2xi32>, tensor<1xf32>) -> ()

  %begin = "tf.Const"() {value = dense<[0, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %end = "tf.Const"() {value = dense<[3, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %strides = "tf.Const"() {value = dense<[2, 1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %zeros = "tf.Const"() {value = dense<0.0> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  "tf.ResourceStridedSliceAssign"(%h, %begin, %end, %strides, %zeros) {T = f32, Index = i32, begin_mask = 0 : i64, end_mask = 0 : i64, ellipsis_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64} : (tensor<!tf_type.resource<tensor<3x2xf32>>>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2x1xf32>) -> ()

  %maxAt = "tf.Const"() {value = dense<[1]> : tensor<1xi32>} : () -> tensor<1xi32>
  %fifties = "tf.Const"() {value = dense<50.0> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  "tf.ResourceScatterMax"(%h, %maxAt, %fifties) {dtype = f32, Tindices = i32} : (tensor<!tf_type.resource<tensor<3x2xf32>>>, tensor<1xi32>, tensor<1x2xf32>) -> ()

  %value = "tf.ReadVariableOp"(%h) {dtype = f32} : (tensor<!tf_type.resource<tensor<3x2xf32>>>) -> tensor<3x2xf32>
  %ndPicks = "tf.Const"() {value = dense<[[1, 0], [0, 0]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %picked = "tf.ResourceGatherNd"(%h, %ndPicks) {dtype = f32, Tindices = i32} : (tensor<!tf_type.resource<tensor<3x2xf32>>>, tensor<2x2xi32>) -> tensor<2xf32>
  %shape = "tf.VariableShape"(%h) {out_type = i32} : (tensor<!tf_type.resource<tensor<3x2xf32>>>) -> tensor<2xi32>
  return %gathered, %value, %picked, %shape : tensor<2x2xf32>, tensor<3x2xf32>, tensor<2xf32>, tensor<2xi32>
}

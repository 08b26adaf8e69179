// TensorMaps: a tf.While inserts key i -> 10 * row i of x into a map that
// crosses the loop as a loop value; then Lookup, HasKey, Size, StackKeys
// and Erase read and rebuild it, and a second map keyed by strings is
// built and stacked. From the .mlir and through a .bef, on one thread and
// on the dataflow executor.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline | fallback-translate --mlir-to-bef -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-run-lite %t.bef --input=%S/Inputs/f32_2x3.npy --threads=2 | FileCheck %s

// Hand-derived from x = [[1, 2, 3], [4, 5, 6]]: the map is
// {0: [10, 20, 30], 1: [40, 50, 60]}.
// #0: Lookup of key 1.
// CHECK: result #0: tensor<3xf32>
// CHECK-NEXT: {{\[}}40., 50., 60.]
// #1, #2: HasKey 1 and 5.
// CHECK: result #1: tensor<i1>
// CHECK-NEXT: True
// CHECK: result #2: tensor<i1>
// CHECK-NEXT: False
// #3: the keys, in insertion order.
// CHECK: result #3: tensor<2xi32>
// CHECK-NEXT: {{\[}}0, 1]
// #4: the size after erasing key 0, #5 the size of the loop's map, which
// the erase did not change.
// CHECK: result #4: tensor<i32>
// CHECK-NEXT: 1
// CHECK: result #5: tensor<i32>
// CHECK-NEXT: 2
// #6: the string keys of a map with "b" inserted twice.
// CHECK: result #6: tensor<2x!tf_type.string>
// CHECK-NEXT: {{\[}}b'a', b'b']

func.func private @cond(%i: tensor<i32>, %map: tensor<!tf_type.variant>, %x: tensor<2x3xf32>) -> tensor<i1> {
  %n = "tf.Const"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %lt = "tf.Less"(%i, %n) : (tensor<i32>, tensor<i32>) -> tensor<i1>
  return %lt : tensor<i1>
}

func.func private @body(%i: tensor<i32>, %map: tensor<!tf_type.variant>, %x: tensor<2x3xf32>) -> (tensor<i32>, tensor<!tf_type.variant>, tensor<2x3xf32>) {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %row = "tf.GatherV2"(%x, %i, %axis) {batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<3xf32>
  %ten = "tf.Const"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
  %value = "tf.Mul"(%row, %ten) : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %next = "tf.TensorMapInsert"(%map, %i, %value) {key_dtype = i32, value_dtype = f32} : (tensor<!tf_type.variant>, tensor<i32>, tensor<3xf32>) -> tensor<!tf_type.variant>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %j = "tf.AddV2"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
  return %j, %next, %x : tensor<i32>, tensor<!tf_type.variant>, tensor<2x3xf32>
}

func.func @main(%x: tensor<2x3xf32>) -> (tensor<*xf32>, tensor<i1>, tensor<i1>, tensor<*xi32>, tensor<i32>, tensor<i32>, tensor<*x!tf_type.string>) {
  %empty = "tf.EmptyTensorMap"() : () -> tensor<!tf_type.variant>
  %zero = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %loop:3 = "tf.While"(%zero, %empty, %x) {cond = @cond, body = @body, is_stateless = true} : (tensor<i32>, tensor<!tf_type.variant>, tensor<2x3xf32>) -> (tensor<i32>, tensor<!tf_type.variant>, tensor<2x3xf32>)
  %map = "tf.Identity"(%loop#1) : (tensor<!tf_type.variant>) -> tensor<!tf_type.variant>
  %one = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %five = "tf.Const"() {value = dense<5> : tensor<i32>} : () -> tensor<i32>
  %found = "tf.TensorMapLookup"(%map, %one) {key_dtype = i32, value_dtype = f32} : (tensor<!tf_type.variant>, tensor<i32>) -> tensor<*xf32>
  %has1 = "tf.TensorMapHasKey"(%map, %one) {key_dtype = i32} : (tensor<!tf_type.variant>, tensor<i32>) -> tensor<i1>
  %has5 = "tf.TensorMapHasKey"(%map, %five) {key_dtype = i32} : (tensor<!tf_type.variant>, tensor<i32>) -> tensor<i1>
  %keys = "tf.TensorMapStackKeys"(%map) {key_dtype = i32} : (tensor<!tf_type.variant>) -> tensor<*xi32>
  %erased = "tf.TensorMapErase"(%map, %zero) {key_dtype = i32, value_dtype = f32} : (tensor<!tf_type.variant>, tensor<i32>) -> tensor<!tf_type.variant>
  %left = "tf.TensorMapSize"(%erased) : (tensor<!tf_type.variant>) -> tensor<i32>
  %size = "tf.TensorMapSize"(%map) : (tensor<!tf_type.variant>) -> tensor<i32>

  %a = "tf.Const"() {value = dense<"a"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %b = "tf.Const"() {value = dense<"b"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %s0 = "tf.EmptyTensorMap"() : () -> tensor<!tf_type.variant>
  %s1 = "tf.TensorMapInsert"(%s0, %a, %one) {key_dtype = !tf_type.string, value_dtype = i32} : (tensor<!tf_type.variant>, tensor<!tf_type.string>, tensor<i32>) -> tensor<!tf_type.variant>
  %s2 = "tf.TensorMapInsert"(%s1, %b, %five) {key_dtype = !tf_type.string, value_dtype = i32} : (tensor<!tf_type.variant>, tensor<!tf_type.string>, tensor<i32>) -> tensor<!tf_type.variant>
  %s3 = "tf.TensorMapInsert"(%s2, %b, %one) {key_dtype = !tf_type.string, value_dtype = i32} : (tensor<!tf_type.variant>, tensor<!tf_type.string>, tensor<i32>) -> tensor<!tf_type.variant>
  %skeys = "tf.TensorMapStackKeys"(%s3) {key_dtype = !tf_type.string} : (tensor<!tf_type.variant>) -> tensor<*x!tf_type.string>
  return %found, %has1, %has5, %keys, %left, %size, %skeys : tensor<*xf32>, tensor<i1>, tensor<i1>, tensor<*xi32>, tensor<i32>, tensor<i32>, tensor<*x!tf_type.string>
}

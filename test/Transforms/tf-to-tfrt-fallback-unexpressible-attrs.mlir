// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file | FileCheck %s

// Attributes of TensorFlow's MLIR that no TF op attribute can hold are
// dropped or converted, as TF's own TFRT lowering does
// (IsUnusedTfrtAttribute): segment sizes, unit attributes, dialect
// attributes, MLIR dense arrays.

// MLIR's segment sizes (both spellings) place the tensors of variadic
// arguments and are dropped.
// CHECK-LABEL: func @segment_sizes
// CHECK: kernel_call "_FusedMatMul"(%{{.*}}, %{{.*}}, %{{.*}}) {T = f32, fused_ops = ["BiasAdd"], num_args = 1 : i64}
// CHECK: kernel_call "MyVariadicOp"(%{{.*}}, %{{.*}}) chain(%{{.*}}) : (tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NOT: segment
// CHECK-NOT: Segment
func.func @segment_sizes(%x: tensor<2x2xf32>, %b: tensor<2xf32>) {
  %0 = "tf._FusedMatMul"(%x, %x, %b) {fused_ops = ["BiasAdd"], operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %1:2 = "tf.MyVariadicOp"(%x, %x) {operand_segment_sizes = dense<[1, 1]> : vector<2xi32>, resultSegmentSizes = array<i32: 2>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  return
}

// -----

func.func private @cond(%x: tensor<f32>) -> tensor<i1>
func.func private @body(%x: tensor<f32>) -> tensor<f32>

// A unit attribute is TF's MLIR for an attribute without a value, which no
// kernel can read: dropped.
// CHECK-LABEL: func @unit_attrs
// CHECK: kernel_call "MyLoop"(%{{.*}}) chain(%{{.*}}) {T = [f32], body = @body, cond = @cond, is_stateless = true, parallel_iterations = 10 : i64} : (tensor<f32>) -> tensor<f32>
// CHECK: kernel_call "Relu"(%{{.*}}) {T = f32} : (tensor<f32>) -> tensor<f32>
func.func @unit_attrs(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf.MyLoop"(%x) {T = [f32], body = @body, cond = @cond, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant} : (tensor<f32>) -> tensor<f32>
  %1 = "tf.Relu"(%0) {flag} : (tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Dialect attributes (a dotted name no OpDef attribute has: f.*, tf.*,
// tf_saved_model.*) are dropped; op names starting with `_` are kept.
// CHECK-LABEL: func @dialect_attrs
// CHECK: kernel_call "SomeOp"(%{{.*}}) chain(%{{.*}}) {Tin = [f32]} : (tensor<f32>) -> tensor<f32>
// CHECK: kernel_call "_FusedMatMul"
func.func @dialect_attrs(%x: tensor<f32>, %m: tensor<2x2xf32>) {
  %0 = "tf.SomeOp"(%x) {Tin = [f32], f.Tin = [f32], f._read_only_resource_inputs = [], tf._input_shapes = [#tf_type.shape<>], tf_saved_model.index_path = [0]} : (tensor<f32>) -> tensor<f32>
  %1 = "tf._FusedMatMul"(%m, %m) {fused_ops = []} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return
}

// -----

// MLIR's dense arrays, which TF's ODS uses for some list attributes, become
// lists of bools, ints and floats.
// CHECK-LABEL: func @dense_arrays
// CHECK: kernel_call "IfrtRestoreVariableOp"(%{{.*}}) chain(%{{.*}}) {empty = [], f32s = [5.000000e-01 : f32, 2.000000e+00 : f32], f64s = [1.500000e+00], i32s = [1, 2], ksize = [1, 2, 2, 1], truncate_in_cast = [false, true]}
func.func @dense_arrays(%x: tensor<f32>) {
  "tf.IfrtRestoreVariableOp"(%x) {truncate_in_cast = array<i1: false, true>, ksize = array<i64: 1, 2, 2, 1>, i32s = array<i32: 1, 2>, f32s = array<f32: 0.5, 2.0>, f64s = array<f64: 1.5>, empty = array<i64>} : (tensor<f32>) -> ()
  return
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file | FileCheck %s

// TensorFlow's MLIR leaves the type and number attributes that the operand
// and result types determine implicit; the lowering derives them from each
// op's signature in the op table (OpTable.def).

// One type attribute for several operands; a bool result is fixed.
// CHECK-LABEL: func @type_attr
// CHECK: kernel_call "Less"(%{{.*}}, %{{.*}}) {T = f32} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
// CHECK: kernel_call "AddV2"(%{{.*}}, %{{.*}}) {T = i64} : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
func.func @type_attr(%a: tensor<2xf32>, %b: tensor<2xf32>, %c: tensor<*xi64>, %d: tensor<i64>) -> (tensor<2xi1>, tensor<*xi64>) {
  %0 = "tf.Less"(%a, %b) {device = ""} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  %1 = "tf.AddV2"(%c, %d) : (tensor<*xi64>, tensor<i64>) -> tensor<*xi64>
  return %0, %1 : tensor<2xi1>, tensor<*xi64>
}

// -----

// Type attributes of operands and results, each by its own name.
// CHECK-LABEL: func @named_type_attrs
// CHECK: kernel_call "Cast"(%{{.*}}) {DstT = f32, SrcT = i1, Truncate = false}
// CHECK: kernel_call "Reshape"(%{{.*}}, %{{.*}}) {T = f32, Tshape = i64}
// CHECK: kernel_call "Transpose"(%{{.*}}, %{{.*}}) {T = f32, Tperm = i32}
// CHECK: kernel_call "Pad"(%{{.*}}, %{{.*}}) {T = f32, Tpaddings = i64}
// CHECK: kernel_call "GatherV2"(%{{.*}}, %{{.*}}, %{{.*}}) {Taxis = i64, Tindices = i32, Tparams = f32, batch_dims = 0 : i64}
// CHECK: kernel_call "Shape"(%{{.*}}) {T = f32, out_type = i64}
// CHECK: kernel_call "ArgMax"(%{{.*}}, %{{.*}}) {T = f32, Tidx = i32, output_type = i32}
// CHECK: kernel_call "OneHot"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {T = f32, TI = ui8, axis = -1 : i64}
// CHECK: kernel_call "Tile"(%{{.*}}, %{{.*}}) {T = f32, Tmultiples = i64}
// CHECK: kernel_call "Slice"(%{{.*}}, %{{.*}}, %{{.*}}) {Index = i32, T = f32}
// CHECK: kernel_call "Fill"(%{{.*}}, %{{.*}}) {T = !tf_type.string, index_type = i64}
func.func @named_type_attrs(%p: tensor<2x3xi1>, %x: tensor<2x3xf32>, %s64: tensor<2xi64>, %s32: tensor<2xi32>, %pad: tensor<2x2xi64>, %i: tensor<2xi32>, %ax: tensor<i64>, %k: tensor<i32>, %u: tensor<4xui8>, %on: tensor<f32>, %str: tensor<!tf_type.string>) {
  %0 = "tf.Cast"(%p) {Truncate = false} : (tensor<2x3xi1>) -> tensor<2x3xf32>
  %1 = "tf.Reshape"(%x, %s64) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %2 = "tf.Transpose"(%x, %s32) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %3 = "tf.Pad"(%x, %pad) : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<?x?xf32>
  %4 = "tf.GatherV2"(%x, %i, %ax) {batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<2xi32>, tensor<i64>) -> tensor<?x?xf32>
  %5 = "tf.Shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi64>
  %6 = "tf.ArgMax"(%x, %k) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2xi32>
  %7 = "tf.OneHot"(%u, %k, %on, %on) {axis = -1 : i64} : (tensor<4xui8>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<4x?xf32>
  %8 = "tf.Tile"(%x, %s64) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %9 = "tf.Slice"(%x, %s32, %s32) : (tensor<2x3xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?xf32>
  %10 = "tf.Fill"(%s64, %str) : (tensor<2xi64>, tensor<!tf_type.string>) -> tensor<?x?x!tf_type.string>
  return
}

// -----

// Number attributes count a variadic argument's tensors: operands, results,
// or both (ShapeN).
// CHECK-LABEL: func @number_attrs
// CHECK: kernel_call "ConcatV2"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {N = 3 : i64, T = f32, Tidx = i32}
// CHECK: kernel_call "AddN"(%{{.*}}) {N = 1 : i64, T = f32}
// CHECK: kernel_call "Split"(%{{.*}}, %{{.*}}) {T = f32, num_split = 2 : i64}
// CHECK: kernel_call "Unpack"(%{{.*}}) {T = f32, axis = 1 : i64, num = 3 : i64}
// CHECK: kernel_call "ShapeN"(%{{.*}}, %{{.*}}) {N = 2 : i64, T = f32, out_type = i32}
// CHECK: kernel_call "Concat"(%{{.*}}, %{{.*}}, %{{.*}}) {N = 2 : i64, T = f32}
func.func @number_attrs(%x: tensor<2x3xf32>, %axis: tensor<i32>) {
  %0 = "tf.ConcatV2"(%x, %x, %x, %axis) : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<6x3xf32>
  %1 = "tf.AddN"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2:2 = "tf.Split"(%axis, %x) : (tensor<i32>, tensor<2x3xf32>) -> (tensor<1x3xf32>, tensor<1x3xf32>)
  %3:3 = "tf.Unpack"(%x) {axis = 1 : i64} : (tensor<2x3xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %4:2 = "tf.ShapeN"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> (tensor<2xi32>, tensor<2xi32>)
  %5 = "tf.Concat"(%axis, %x, %x) : (tensor<i32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

// A list of types ([T]) takes one dtype per tensor; an empty list is
// derived too.
// CHECK-LABEL: func @type_lists
// CHECK: kernel_call "Assert"(%{{.*}}, %{{.*}}, %{{.*}}) chain(%{{.*}}) {T = [!tf_type.string, f32], summarize = 3 : i64}
// CHECK: kernel_call "Print"(%{{.*}}) chain(%{{.*}}) {T = f32, U = []} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK: kernel_call "Print"(%{{.*}}, %{{.*}}, %{{.*}}) chain(%{{.*}}) {T = f32, U = [i1, !tf_type.string]}
func.func @type_lists(%p: tensor<i1>, %s: tensor<!tf_type.string>, %x: tensor<2xf32>) {
  "tf.Assert"(%p, %s, %x) {summarize = 3 : i64} : (tensor<i1>, tensor<!tf_type.string>, tensor<2xf32>) -> ()
  %0 = "tf.Print"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Print"(%x, %p, %s) : (tensor<2xf32>, tensor<i1>, tensor<!tf_type.string>) -> tensor<2xf32>
  return
}

// -----

// Two variadic arguments: MLIR's operandSegmentSizes places the tensors
// (and is dropped), or an explicit count leaves the rest to the other one.
// CHECK-LABEL: func @segments
// CHECK: kernel_call "_FusedConv2D"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {T = f32, TArgs = [f32, f32], num_host_args = 0 : i64}
// CHECK: kernel_call "_FusedConv2D"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {T = f32, TArgs = [f32], num_host_args = 1 : i64}
// CHECK-NOT: SegmentSizes
func.func @segments(%x: tensor<1x2x2x1xf32>, %f: tensor<1x1x1x1xf32>, %b: tensor<1xf32>) {
  %0 = "tf._FusedConv2D"(%x, %f, %b, %b) {operandSegmentSizes = array<i32: 1, 1, 2, 0>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %1 = "tf._FusedConv2D"(%x, %f, %b, %b) {num_host_args = 1 : i64} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  return
}

// -----

// Resource and variant dtypes drop their subtypes; stateful ops derive too.
// CHECK-LABEL: func @resources
// CHECK: kernel_call "ReadVariableOp"(%{{.*}}) chain(%{{.*}}) {dtype = f32}
// CHECK: kernel_call "AssignVariableOp"(%{{.*}}, %{{.*}}) chain(%{{.*}}) {dtype = f32}
// CHECK: kernel_call "ZerosLike"(%{{.*}}) {T = !tf_type.variant}
func.func @resources(%r: tensor<!tf_type.resource<tensor<2xf32>>>, %v: tensor<!tf_type.variant<tensor<f32>>>) {
  %0 = "tf.ReadVariableOp"(%r) : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
  "tf.AssignVariableOp"(%r, %0) : (tensor<!tf_type.resource<tensor<2xf32>>>, tensor<2xf32>) -> ()
  %1 = "tf.ZerosLike"(%v) : (tensor<!tf_type.variant<tensor<f32>>>) -> tensor<!tf_type.variant<tensor<f32>>>
  return
}

// -----

// Explicit attributes that agree with the types are kept as written; ops the
// op table does not know get nothing derived.
// CHECK-LABEL: func @explicit_agrees
// CHECK: kernel_call "ConcatV2"(%{{.*}}, %{{.*}}, %{{.*}}) {N = 2 : i32, T = f32, Tidx = i32}
// CHECK: kernel_call "Assert"(%{{.*}}, %{{.*}}) chain(%{{.*}}) {T = [f32]}
// CHECK: kernel_call "MyCustomOp"(%{{.*}}) chain(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @explicit_agrees(%x: tensor<2x3xf32>, %axis: tensor<i32>, %p: tensor<i1>) {
  %0 = "tf.ConcatV2"(%x, %x, %axis) {N = 2 : i32, T = f32} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  "tf.Assert"(%p, %x) {T = [f32]} : (tensor<i1>, tensor<2x3xf32>) -> ()
  %1 = "tf.MyCustomOp"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// Segment sizes and counts no op could have place nothing: the tensors are
// placed as without them.
// CHECK-LABEL: func @odd_sizes
// CHECK: kernel_call "ConcatV2"(%{{.*}}, %{{.*}}, %{{.*}}) {N = 2 : i64, T = f32, Tidx = i32}
// CHECK: kernel_call "ConcatV2"(%{{.*}}, %{{.*}}, %{{.*}}) {N = 2 : i64, T = f32, Tidx = i32}
// CHECK: kernel_call "ConcatV2"(%{{.*}}, %{{.*}}, %{{.*}}) {N = 2 : i64, T = f32, Tidx = i32}
func.func @odd_sizes(%x: tensor<2x3xf32>, %axis: tensor<i32>) {
  %0 = "tf.ConcatV2"(%x, %x, %axis) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  %1 = "tf.ConcatV2"(%x, %x, %axis) {operand_segment_sizes = dense<[2, 1]> : tensor<2xindex>} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  %2 = "tf.ConcatV2"(%x, %x, %axis) {operand_segment_sizes = dense<[2, 1]> : tensor<2xi128>} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>) -> tensor<4x3xf32>
  return
}

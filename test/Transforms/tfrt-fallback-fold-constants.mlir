// RUN: fallback-opt %s --tfrt-fallback-fold-constants --split-input-file -verify-diagnostics | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-fold-constants=max-size-bytes=16 --split-input-file | FileCheck %s --check-prefix=LIMIT

// Expected values are derived by hand in the comments. No diagnostic is
// emitted, not even for ops whose kernel fails (-verify-diagnostics).

// Shape arithmetic: Shape([2, 3] zeros) = [2, 3]; its element 1 is 3;
// Pack(3, 2) = [3, 2]. Every constant that only folded ops used is gone.
// CHECK-LABEL: func @shape_arithmetic
// CHECK-SAME: (%[[X:.*]]: tensor<6xf32>)
// CHECK-NEXT: %[[S:.*]] = "tf.Const"() {dtype = i32, value = dense<[3, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
// CHECK-NEXT: %[[R:.*]] = "tf.Reshape"(%[[X]], %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @shape_arithmetic(%x: tensor<6xf32>) -> tensor<3x2xf32> {
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

// -----

// ConcatV2([1, 2], [3, -4]) = [1, 2, 3, -4], cast to f32; an arith.constant
// operand folds too: [1, 2, 3, -4] + 0.5 = [1.5, 2.5, 3.5, -3.5].
// CHECK-LABEL: func @concat_cast
// CHECK-NEXT: %[[C:.*]] = "tf.Const"() {dtype = f32, value = dense<[1.500000e+00, 2.500000e+00, 3.500000e+00, -3.500000e+00]> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @concat_cast() -> tensor<4xf32> {
  %a = "tf.Const"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b = "tf.Const"() {value = dense<[3, -4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %c = "tf.ConcatV2"(%a, %b, %axis) : (tensor<2xi32>, tensor<2xi32>, tensor<i32>) -> tensor<4xi32>
  %f = "tf.Cast"(%c) : (tensor<4xi32>) -> tensor<4xf32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %s = "tf.AddV2"(%f, %half) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// -----

// Weight transforms: Transpose([[1, 2, 3], [4, 5, 6]]) = [[1, 4], [2, 5],
// [3, 6]], times 0.5 = [[0.5, 2], [1, 2.5], [1.5, 3]]. The MatMul of the
// input stays. The result is no larger than the operands (24 bytes of
// weights and 8 of permutation), so even a 16-byte limit folds it.
// CHECK-LABEL: func @weights
// CHECK-SAME: (%[[X:.*]]: tensor<1x3xf32>)
// CHECK-NEXT: %[[W:.*]] = "tf.Const"() {dtype = f32, value = dense<{{\[\[}}5.000000e-01, 2.000000e+00], [1.000000e+00, 2.500000e+00], [1.500000e+00, 3.000000e+00]]> : tensor<3x2xf32>}
// CHECK-NEXT: %[[Y:.*]] = "tf.MatMul"(%[[X]], %[[W]])
// CHECK-NEXT: return %[[Y]]
// LIMIT-LABEL: func @weights
// LIMIT-NOT: tf.Transpose
// LIMIT-NOT: tf.Mul"
// LIMIT: tf.MatMul
func.func @weights(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = "tf.Const"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %perm = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %t = "tf.Transpose"(%w, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %half = "tf.Const"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %m = "tf.Mul"(%t, %half) : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
  %y = "tf.MatMul"(%x, %m) {transpose_a = false, transpose_b = false} : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// Weights in a dense_resource blob, as the importers write them:
// Transpose([[1, 2], [3, 4]]) = [[1, 3], [2, 4]].
// CHECK-LABEL: func @resource_weights
// CHECK-NEXT: %[[W:.*]] = "tf.Const"() {dtype = f32, value = dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>}
// CHECK-NEXT: return %[[W]]
func.func @resource_weights() -> tensor<2x2xf32> {
  %w = "tf.Const"() {value = dense_resource<w> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %perm = "tf.Const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %t = "tf.Transpose"(%w, %perm) : (tensor<2x2xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  return %t : tensor<2x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Several results: Split([1, 2, 3, 4, 5, 6], 3) = [1, 2], [3, 4], [5, 6];
// the unused middle one gets no constant.
// CHECK-LABEL: func @split
// CHECK-NEXT: %[[A:.*]] = "tf.Const"() {dtype = i32, value = dense<[1, 2]> : tensor<2xi32>}
// CHECK-NEXT: %[[C:.*]] = "tf.Const"() {dtype = i32, value = dense<[5, 6]> : tensor<2xi32>}
// CHECK-NEXT: return %[[A]], %[[C]]
func.func @split() -> (tensor<2xi32>, tensor<2xi32>) {
  %axis = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %v = "tf.Const"() {value = dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>} : () -> tensor<6xi32>
  %s:3 = "tf.Split"(%axis, %v) {num_split = 3 : i64} : (tensor<i32>, tensor<6xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
  return %s#0, %s#2 : tensor<2xi32>, tensor<2xi32>
}

// -----

// Unpack([[1, 2], [3, 4]]) = [1, 2], [3, 4], of less refined types than
// the constants': the AddV2 takes the constant's own type, the return gets
// it through an Identity of the type it had. [3, 4] + x stays.
// CHECK-LABEL: func @unpack_refined
// CHECK-SAME: (%[[X:.*]]: tensor<2xi32>)
// CHECK-NEXT: %[[A:.*]] = "tf.Const"() {dtype = i32, value = dense<[1, 2]> : tensor<2xi32>}
// CHECK-NEXT: %[[I:.*]] = "tf.Identity"(%[[A]]) {{.*}}: (tensor<2xi32>) -> tensor<*xi32>
// CHECK-NEXT: %[[B:.*]] = "tf.Const"() {dtype = i32, value = dense<[3, 4]> : tensor<2xi32>}
// CHECK-NEXT: %[[S:.*]] = "tf.AddV2"(%[[X]], %[[B]]) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
// CHECK-NEXT: return %[[I]], %[[S]]
func.func @unpack_refined(%x: tensor<2xi32>) -> (tensor<*xi32>, tensor<2xi32>) {
  %m = "tf.Const"() {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %u:2 = "tf.Unpack"(%m) {axis = 0 : i64, num = 2 : i64} : (tensor<2x2xi32>) -> (tensor<*xi32>, tensor<?xi32>)
  %s = "tf.AddV2"(%x, %u#1) : (tensor<2xi32>, tensor<?xi32>) -> tensor<2xi32>
  return %u#0, %s : tensor<*xi32>, tensor<2xi32>
}

// -----

// Size limit: Fill([2, 3], 1.0) is 24 bytes from 12 bytes of operands;
// folded by default, not under a 16-byte limit. A Fill whose shape is
// unknown until it runs is refused by the kernel's allocation limit.
// CHECK-LABEL: func @fill
// CHECK-NEXT: %[[F:.*]] = "tf.Const"() {dtype = f32, value = dense<1.000000e+00> : tensor<2x3xf32>}
// CHECK-NEXT: %[[D:.*]] = "tf.Const"() {dtype = f32, value = dense<1.000000e+00> : tensor<2x3xf32>}
// CHECK-NEXT: %[[DI:.*]] = "tf.Identity"(%[[D]]) {{.*}}: (tensor<2x3xf32>) -> tensor<?x?xf32>
// CHECK-NEXT: return %[[F]], %[[DI]]
// LIMIT-LABEL: func @fill
// LIMIT-NEXT: "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>}
// LIMIT-NEXT: "tf.Const"() {value = dense<1.000000e+00> : tensor<f32>}
// LIMIT-NEXT: "tf.Fill"
// LIMIT-NEXT: "tf.Fill"
// LIMIT-NEXT: return
func.func @fill() -> (tensor<2x3xf32>, tensor<?x?xf32>) {
  %dims = "tf.Const"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %f = "tf.Fill"(%dims, %one) : (tensor<2xi32>, tensor<f32>) -> tensor<2x3xf32>
  %d = "tf.Fill"(%dims, %one) : (tensor<2xi32>, tensor<f32>) -> tensor<?x?xf32>
  return %f, %d : tensor<2x3xf32>, tensor<?x?xf32>
}

// -----

// The default limit, 100 KiB: a 4 MiB Fill of a scalar is refused before it
// runs, a broadcast of unknown shape when its kernel allocates.
// CHECK-LABEL: func @big_fill
// CHECK: "tf.Fill"
// CHECK: "tf.BroadcastTo"
// CHECK: return
func.func @big_fill() -> (tensor<1024x1024xf32>, tensor<*xf32>) {
  %dims = "tf.Const"() {value = dense<[1024, 1024]> : tensor<2xi32>} : () -> tensor<2xi32>
  %one = "tf.Const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %f = "tf.Fill"(%dims, %one) : (tensor<2xi32>, tensor<f32>) -> tensor<1024x1024xf32>
  %b = "tf.BroadcastTo"(%one, %dims) : (tensor<f32>, tensor<2xi32>) -> tensor<*xf32>
  return %f, %b : tensor<1024x1024xf32>, tensor<*xf32>
}

// -----

// A kernel that fails leaves its op in place, silently: the run reports
// the error (6 elements do not reshape to 4).
// CHECK-LABEL: func @reshape_error
// CHECK-NEXT: "tf.Const"
// CHECK-NEXT: "tf.Const"
// CHECK-NEXT: "tf.Reshape"
// CHECK-NEXT: return
func.func @reshape_error() -> tensor<4xf32> {
  %c = "tf.Const"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>} : () -> tensor<6xf32>
  %s = "tf.Const"() {value = dense<[4]> : tensor<1xi32>} : () -> tensor<1xi32>
  %r = "tf.Reshape"(%c, %s) : (tensor<6xf32>, tensor<1xi32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Not folded: a stateful op (random numbers), an op ordered by a control
// edge, an op of an ordered constant, an op whose result nobody uses, an
// op of a function argument (even if every caller passes a constant), an
// op the runtime has no kernel for, and an Identity of the same types
// (forwarded by the lowering: folding would copy the constant).
// CHECK-LABEL: func @not_folded
// CHECK: "tf.RandomUniform"
// CHECK: "tf.Neg"{{.*}}_tfrt_fallback_ordered
// CHECK: "tf.Abs"
// CHECK: "tf.Square"
// CHECK: "tf.NoSuchOp"
// CHECK: "tf.Identity"
// CHECK: return
func.func @not_folded() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %shape = "tf.Const"() {value = dense<[2]> : tensor<1xi32>} : () -> tensor<1xi32>
  %r = "tf.RandomUniform"(%shape) {dtype = f32, seed = 1 : i64, seed2 = 2 : i64} : (tensor<1xi32>) -> tensor<2xf32>
  %c = "tf.Const"() {value = dense<[1.0, -2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %n = "tf.Neg"(%c) {_tfrt_fallback_ordered} : (tensor<2xf32>) -> tensor<2xf32>
  %oc = "tf.Const"() {value = dense<[1.0, -2.0]> : tensor<2xf32>, _tfrt_fallback_ordered} : () -> tensor<2xf32>
  %a = "tf.Abs"(%oc) : (tensor<2xf32>) -> tensor<2xf32>
  %unused = "tf.Square"(%c) : (tensor<2xf32>) -> tensor<2xf32>
  %u = "tf.NoSuchOp"(%c) : (tensor<2xf32>) -> tensor<2xf32>
  %i = "tf.Identity"(%c) : (tensor<2xf32>) -> tensor<2xf32>
  return %r, %n, %a, %u, %i : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// CHECK-LABEL: func @argument
// CHECK: "tf.Neg"
func.func @argument(%x: tensor<2xf32>) -> tensor<2xf32> {
  %n = "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %n : tensor<2xf32>
}

// -----

// Strings: StringJoin(["ab", "c"], ["x", "y"], separator "-") =
// ["ab-x", "c-y"].
// CHECK-LABEL: func @strings
// CHECK-NEXT: %[[J:.*]] = "tf.Const"() {dtype = !tf_type.string, value = dense<["ab-x", "c-y"]> : tensor<2x!tf_type.string>}
// CHECK-NEXT: return %[[J]]
func.func @strings() -> tensor<2x!tf_type.string> {
  %a = "tf.Const"() {value = dense<["ab", "c"]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  %b = "tf.Const"() {value = dense<["x", "y"]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  %j = "tf.StringJoin"(%a, %b) {separator = "-"} : (tensor<2x!tf_type.string>, tensor<2x!tf_type.string>) -> tensor<2x!tf_type.string>
  return %j : tensor<2x!tf_type.string>
}

// -----

// Left in place, silently: an op the runtime has no kernel for with these
// dtypes (Neg of bool: the pipeline's lowering reports it), and a kernel
// failing on strings (Fingerprint has no method "nope").
// CHECK-LABEL: func @no_kernel
// CHECK: "tf.Neg"
// CHECK: "tf.Fingerprint"
func.func @no_kernel() -> (tensor<2xi1>, tensor<1x8xui8>) {
  %t = "tf.Const"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %n = "tf.Neg"(%t) : (tensor<2xi1>) -> tensor<2xi1>
  %s = "tf.Const"() {value = dense<"abc"> : tensor<1x!tf_type.string>} : () -> tensor<1x!tf_type.string>
  %m = "tf.Const"() {value = dense<"nope"> : tensor<!tf_type.string>} : () -> tensor<!tf_type.string>
  %f = "tf.Fingerprint"(%s, %m) : (tensor<1x!tf_type.string>, tensor<!tf_type.string>) -> tensor<1x8xui8>
  return %n, %f : tensor<2xi1>, tensor<1x8xui8>
}

// RUN: fallback-opt %s | fallback-opt | FileCheck %s
// RUN: fallback-opt %s --mlir-print-op-generic | fallback-opt | FileCheck %s

// Every TensorFlow attribute kind the op_attrs dictionary of a kernel_call
// holds, alone and in lists. The dictionary is sorted by name.

// CHECK-LABEL: func @int_attr
func.func @int_attr(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: {axis = -1 : i64}
  %0 = tfrt_fallback.kernel_call "Softmax"(%x) {axis = -1 : i64} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @float_attr
func.func @float_attr(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: {alpha = 2.000000e-01 : f32}
  %0 = tfrt_fallback.kernel_call "LeakyRelu"(%x) {alpha = 0.2 : f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @bool_attr
func.func @bool_attr(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // CHECK: {transpose_a = true, transpose_b = false}
  %0 = tfrt_fallback.kernel_call "MatMul"(%x, %x) {transpose_a = true, transpose_b = false} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// CHECK-LABEL: func @string_attr
func.func @string_attr(%x: tensor<1x3xf32>, %b: tensor<3xf32>) -> tensor<1x3xf32> {
  // CHECK: {data_format = "NHWC"}
  %0 = tfrt_fallback.kernel_call "BiasAdd"(%x, %b) {data_format = "NHWC"} : (tensor<1x3xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// CHECK-LABEL: func @type_attr
func.func @type_attr(%x: tensor<2xf32>) -> tensor<2xi32> {
  // CHECK: {DstT = i32, SrcT = f32, Truncate = false}
  %0 = tfrt_fallback.kernel_call "Cast"(%x) {SrcT = f32, DstT = i32, Truncate = false} : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func @tf_type_attr
func.func @tf_type_attr(%x: tensor<2xf32>) -> tensor<2x!tf_type.string> {
  // CHECK: {T = f32, out_type = !tf_type.string}
  %0 = tfrt_fallback.kernel_call "AsString"(%x) {T = f32, out_type = !tf_type.string} : (tensor<2xf32>) -> tensor<2x!tf_type.string>
  return %0 : tensor<2x!tf_type.string>
}

// CHECK-LABEL: func @shape_attr
func.func @shape_attr(%x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  // CHECK: {dtype = f32, shape = #tfrt_fallback.shape<?x3>}
  %0 = tfrt_fallback.kernel_call "PlaceholderWithDefault"(%x) {dtype = f32, shape = #tfrt_fallback.shape<?x3>} : (tensor<2x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func @tensor_attr
func.func @tensor_attr() -> tensor<2x2xi32> {
  // CHECK: {dtype = i32, value = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>}
  %0 = tfrt_fallback.kernel_call "Const"() {dtype = i32, value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// CHECK-LABEL: func @string_tensor_attr
func.func @string_tensor_attr() -> tensor<2x!tf_type.string> {
  // CHECK: {value = dense<["a", "bc"]> : tensor<2x!tf_type.string>}
  %0 = tfrt_fallback.kernel_call "Const"() {value = dense<["a", "bc"]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  return %0 : tensor<2x!tf_type.string>
}

func.func private @body(%x: tensor<f32>) -> tensor<f32>

// CHECK-LABEL: func @func_attr
func.func @func_attr(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: {Tin = [f32], Tout = [f32], f = @body}
  %0 = tfrt_fallback.kernel_call "PartitionedCall"(%x) {Tin = [f32], Tout = [f32], f = @body} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @list_attrs
func.func @list_attrs(%x: tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32> {
  // CHECK: {bools = [true, false],
  // CHECK-SAME: floats = [1.000000e+00 : f32, 2.500000e+00 : f32],
  // CHECK-SAME: funcs = [@body, @body],
  // CHECK-SAME: ints = [1, 2, 2, 1],
  // CHECK-SAME: shapes = [#tfrt_fallback.shape<2x?>, #tfrt_fallback.shape<*>, #tfrt_fallback.shape<>],
  // CHECK-SAME: strings = ["VALID", "SAME"],
  // CHECK-SAME: tensors = [dense<1> : tensor<i64>, dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>],
  // CHECK-SAME: types = [f32, i64, !tf_type.string]}
  %0 = tfrt_fallback.kernel_call "AllKinds"(%x) {
    ints = [1, 2, 2, 1], floats = [1.0 : f32, 2.5 : f32], bools = [true, false],
    strings = ["VALID", "SAME"], types = [f32, i64, !tf_type.string],
    shapes = [#tfrt_fallback.shape<2x?>, #tfrt_fallback.shape<*>, #tfrt_fallback.shape<>],
    tensors = [dense<1> : tensor<i64>, dense<[1.0, 2.0]> : tensor<2xf32>],
    funcs = [@body, @body]
  } : (tensor<1x4x4x1xf32>) -> tensor<1x2x2x1xf32>
  return %0 : tensor<1x2x2x1xf32>
}

// An empty list is valid for every list kind.
// CHECK-LABEL: func @empty_list_attr
func.func @empty_list_attr(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: {T = f32, squeeze_dims = []}
  %0 = tfrt_fallback.kernel_call "Squeeze"(%x) {T = f32, squeeze_dims = []} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// An op without TF attributes prints no dictionary.
// CHECK-LABEL: func @no_attrs
func.func @no_attrs(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: tfrt_fallback.kernel_call "Relu"(%{{.*}}) : (tensor<2xf32>) -> tensor<2xf32>
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported -split-input-file | FileCheck %s

// TensorFlow prints constants it has no dense form for as the hexadecimal
// bytes of their TensorProto; the lowering decodes them. Expected values
// are hand-decoded from the protobuf wire format (field 1 dtype, 2 shape,
// 4 tensor_content, 5 float_val, 6 double_val, 7 int_val, 8 string_val,
// 10 int64_val, 11 bool_val, 13 half_val).

// CHECK-LABEL: func @numeric
func.func @numeric() -> (tensor<1xf32>, tensor<3xi32>, tensor<i1>, tensor<2xi64>, tensor<f64>, tensor<f16>) {
  // dtype 1, shape [1], tensor_content 00 00 80 3f (1.0f).
  // CHECK-DAG: tfrt_fallback.constant dense<1.000000e+00> : tensor<1xf32>
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080112041202080122040000803F"> : tensor<1xf32>} : () -> tensor<1xf32>
  // dtype 3, shape [3], int_val 5 and -1: TensorFlow repeats the last value.
  // CHECK-DAG: tfrt_fallback.constant dense<[5, -1, -1]> : tensor<3xi32>
  %1 = "tf.Const"() {value = #tf_type<tensor_proto : "0x0803120412020803380538FFFFFFFFFFFFFFFFFF01"> : tensor<3xi32>} : () -> tensor<3xi32>
  // dtype 10, scalar, bool_val true.
  // CHECK-DAG: tfrt_fallback.constant dense<true> : tensor<i1>
  %2 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080A12005801"> : tensor<i1>} : () -> tensor<i1>
  // dtype 9, shape [2], no values: zeros.
  // CHECK-DAG: tfrt_fallback.constant dense<0> : tensor<2xi64>
  %3 = "tf.Const"() {value = #tf_type<tensor_proto : "0x0809120412020802"> : tensor<2xi64>} : () -> tensor<2xi64>
  // dtype 2, scalar, double_val 2.5 (0x4004000000000000).
  // CHECK-DAG: tfrt_fallback.constant dense<2.500000e+00> : tensor<f64>
  %4 = "tf.Const"() {value = #tf_type<tensor_proto : "0x08021200310000000000000440"> : tensor<f64>} : () -> tensor<f64>
  // dtype 19, scalar, half_val 0x3c00 (1.0).
  // CHECK-DAG: tfrt_fallback.constant dense<1.000000e+00> : tensor<f16>
  %5 = "tf.Const"() {value = #tf_type<tensor_proto : "0x08131200688078"> : tensor<f16>} : () -> tensor<f16>
  return %0, %1, %2, %3, %4, %5 : tensor<1xf32>, tensor<3xi32>, tensor<i1>, tensor<2xi64>, tensor<f64>, tensor<f16>
}

// -----

// dtype 7, shape [2], string_val "a" and "bc".
// CHECK-LABEL: func @strings
// CHECK: tfrt_fallback.constant dense<["a", "bc"]> : tensor<2x!tf_type.string>
func.func @strings() -> tensor<2x!tf_type.string> {
  %0 = "tf.Const"() {value = #tf_type<tensor_proto : "0x080712041202080242016142026263"> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  return %0 : tensor<2x!tf_type.string>
}

// -----

// A tensor attribute of another op is decoded the same way.
// CHECK-LABEL: func @attribute
// CHECK: tfrt_fallback.kernel_call "MadeUpOp"() chain(%{{.*}}) {t = dense<1.000000e+00> : tensor<1xf32>}
func.func @attribute() {
  "tf.MadeUpOp"() {t = #tf_type<tensor_proto : "0x080112041202080122040000803F"> : tensor<1xf32>} : () -> ()
  return
}

// -----

// A function attribute without instantiation attributes is a symbol.
// CHECK-LABEL: func @func_attr
// CHECK: tfrt_fallback.kernel_call "MadeUpCall"(%{{.*}}) chain(%{{.*}}) {f = @callee}
func.func @func_attr(%x: tensor<f32>) {
  "tf.MadeUpCall"(%x) {f = #tf_type.func<@callee, {}>} : (tensor<f32>) -> ()
  return
}
func.func private @callee(%x: tensor<f32>) {
  return
}

// -----

// With instantiation attributes it is the symbol too (the module holds the
// function already instantiated); TensorFlow's "no function",
// #tf_type.func<"", {}>, is the empty name.
// CHECK-LABEL: func @func_attr_instantiated
// CHECK: tfrt_fallback.kernel_call "MadeUpCall"(%{{.*}}) chain(%{{.*}}) {f = @callee2}
// CHECK: tfrt_fallback.kernel_call "MadeUpCall"(%{{.*}}) chain(%{{.*}}) {f = ""}
func.func @func_attr_instantiated(%x: tensor<f32>) {
  "tf.MadeUpCall"(%x) {f = #tf_type.func<@callee2, {T = f32}>} : (tensor<f32>) -> ()
  "tf.MadeUpCall"(%x) {f = #tf_type.func<"", {}>} : (tensor<f32>) -> ()
  return
}
func.func private @callee2(%x: tensor<f32>) {
  return
}

// -----

// TensorFlow's older MLIR spells dtypes as strings; they become types, in
// lists too. A string that names no dtype stays a string.
// CHECK-LABEL: func @tfdtype_strings
// CHECK: tfrt_fallback.kernel_call "Neg"(%{{.*}}) {T = f32}
// CHECK: tfrt_fallback.kernel_call "MadeUpOp"(%{{.*}}) chain(%{{.*}}) {Tlist = [i32, !tf_type.string], other = "tfdtype$DT_NOTHING"}
func.func @tfdtype_strings(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.Neg"(%x) {T = "tfdtype$DT_FLOAT"} : (tensor<2xf32>) -> tensor<2xf32>
  "tf.MadeUpOp"(%0) {Tlist = ["tfdtype$DT_INT32", "tfdtype$DT_STRING"], other = "tfdtype$DT_NOTHING"} : (tensor<2xf32>) -> ()
  return %0 : tensor<2xf32>
}

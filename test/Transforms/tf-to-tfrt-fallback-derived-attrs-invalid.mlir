// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported --split-input-file --verify-diagnostics

// Derived attributes that the types, or explicit attributes, contradict.

func.func @operands_disagree(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xi1> {
  // expected-error@+1 {{'tf.Less' op attribute 'T' is f32 by operand #0 but f64 by operand #1}}
  %0 = "tf.Less"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @operand_and_result_disagree(%a: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error@+1 {{'tf.Relu' op attribute 'T' is f32 by operand #0 but i32 by result #0}}
  %0 = "tf.Relu"(%a) : (tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @explicit_type(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error@+1 {{'tf.Less' op attribute 'T' is f64, but the types make it f32 (by operand #0)}}
  %0 = "tf.Less"(%a, %b) {T = f64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @explicit_result_type(%a: tensor<2xi32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Cast' op attribute 'DstT' is f16, but the types make it f32 (by result #0)}}
  %0 = "tf.Cast"(%a) {SrcT = i32, DstT = f16} : (tensor<2xi32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @explicit_not_a_type(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Relu' op attribute 'T' is "float", but the types make it f32 (by operand #0)}}
  %0 = "tf.Relu"(%a) {T = "float"} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @explicit_count(%a: tensor<2xf32>, %axis: tensor<i32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tf.ConcatV2' op has 3 operands, but its attribute N = 3 : i64 makes 4 for its signature 'N*T, Tidx'}}
  %0 = "tf.ConcatV2"(%a, %a, %axis) {N = 3 : i64} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @explicit_result_count(%a: tensor<2xf32>, %dim: tensor<i32>) -> tensor<1xf32> {
  // expected-error@+1 {{'tf.Split' op has 2 results, but its attribute num_split = 3 : i64 makes 3 for its signature 'num_split*T'}}
  %0:2 = "tf.Split"(%dim, %a) {num_split = 3 : i64} : (tensor<i32>, tensor<2xf32>) -> (tensor<1xf32>, tensor<1xf32>)
  return %0#0 : tensor<1xf32>
}

// -----

// ShapeN's N counts its operands and its results alike.
func.func @count_by_operands(%a: tensor<2xf32>) -> tensor<1xi32> {
  // expected-error@+1 {{'tf.ShapeN' op has 3 results, but its attribute N = 2 : i64 (by 2 operands) makes 2 for its signature 'N*out_type'}}
  %0:3 = "tf.ShapeN"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>)
  return %0#0 : tensor<1xi32>
}

// -----

func.func @explicit_list(%p: tensor<i1>, %a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error@+1 {{'tf.Assert' op attribute 'T' is [f32, f32], but the types make it [f32, i32] (by operands #1 to #2)}}
  "tf.Assert"(%p, %a, %b) {T = [f32, f32]} : (tensor<i1>, tensor<2xf32>, tensor<2xi32>) -> ()
  return
}

// -----

func.func @explicit_list_length(%p: tensor<i1>, %a: tensor<2xf32>) {
  // expected-error@+1 {{'tf.Assert' op has 2 operands, but its attribute T = [f32, f32] makes 3 for its signature 'bool, [T]'}}
  "tf.Assert"(%p, %a) {T = [f32, f32]} : (tensor<i1>, tensor<2xf32>) -> ()
  return
}

// -----

func.func @const_dtype() -> tensor<2xf32> {
  // expected-error@+1 {{'tf.Const' op attribute 'dtype' is f64, but its value makes it f32}}
  %0 = "tf.Const"() {value = dense<1.0> : tensor<2xf32>, dtype = f64} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @huge_count(%a: tensor<2xf32>, %axis: tensor<i32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tf.ConcatV2' op attribute 'N' is 100000000000000000000000 : i128, but the types make it 2 : i64 (by 2 operands)}}
  %0 = "tf.ConcatV2"(%a, %a, %axis) {N = 100000000000000000000000 : i128} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_count(%a: tensor<2xf32>, %axis: tensor<i32>) -> tensor<4xf32> {
  // expected-error@+1 {{'tf.ConcatV2' op attribute 'N' is -1 : i64, but the types make it 2 : i64 (by 2 operands)}}
  %0 = "tf.ConcatV2"(%a, %a, %axis) {N = -1 : i64} : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Without its reference, operand #0 makes `T` f32, which the written i64
// contradicts.
func.func @ref_contradicts(%arg0: tensor<3x!tf_type.f32ref>, %arg1: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'tf.Maximum' op attribute 'T' is i64, but the types make it f32 (by operand #0)}}
  %0 = "tf.Maximum"(%arg0, %arg1) {T = i64} : (tensor<3x!tf_type.f32ref>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

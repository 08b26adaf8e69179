// RUN: fallback-opt %s --split-input-file --verify-diagnostics

// op_attrs values that TensorFlow cannot express.

func.func @dictionary(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tfrt_fallback.kernel_call' op attribute 'config' is {a = 1 : i64}, which TensorFlow cannot express}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {config = {a = 1 : i64}} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unit(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'flag' is unit, which TensorFlow cannot express}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {flag} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @nested_symbol(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'f' is @lib::@body, which TensorFlow cannot express}}
  %0 = tfrt_fallback.kernel_call "PartitionedCall"(%x) {f = @lib::@body} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @affine_map(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'm' is affine_map<(d0) -> (d0)>, which TensorFlow cannot express}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {m = affine_map<(d0) -> (d0)>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @nested_list(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'ksize' is a list of lists, which TensorFlow cannot express}}
  %0 = tfrt_fallback.kernel_call "MaxPool"(%x) {ksize = [[1, 2], [2, 1]]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @nested_empty_list(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'l' is a list of lists, which TensorFlow cannot express}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {l = [[]]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @mixed_list(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'l' is a list that mixes int and string elements}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {l = [1, "a"]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @mixed_list_type_shape(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'l' is a list that mixes type and shape elements}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {l = [f32, #tfrt_fallback.shape<2>]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A bool is not an int, even though MLIR stores it as an i1 integer.
func.func @mixed_list_bool_int(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'l' is a list that mixes bool and int elements}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {l = [true, 1]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @list_with_unit(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'l' has an element that is unit, which TensorFlow cannot express}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {l = [unit]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @type_i7(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'T' is the type i7, which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = i7} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @type_index(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'T' is the type index, which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = index} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @type_signed(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'T' is the type si32, which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = si32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A type attribute holds a dtype, not a tensor type.
func.func @type_tensor(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'T' is the type tensor<2xf32>, which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {T = tensor<2xf32>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @type_list_element(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'Tin' has an element that is the type i7, which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "IdentityN"(%x) {Tin = [f32, i7]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tensor_i7(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'value' is a tensor of i7, which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {value = dense<1> : tensor<2xi7>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tensor_index(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'value' is a tensor of index, which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {value = dense<[1, 2]> : tensor<2xindex>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tensor_list_element(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{op attribute 'values' has an element that is a tensor of i7, which is not a TensorFlow dtype}}
  %0 = tfrt_fallback.kernel_call "Relu"(%x) {values = [dense<1> : tensor<i32>, dense<1> : tensor<i7>]} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// RUN: fallback-opt %s --tf-to-tfrt-fallback="allow-unsupported native-ops=IfRegion,Yield" --split-input-file --verify-diagnostics

// Side effects inside nested regions cannot be ordered on a chain yet.

func.func @stateful_in_region(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.IfRegion"(%p) ({
    // expected-error@+1 {{'tf.Print' op has side effects inside a nested region, which tf-to-tfrt-fallback cannot order yet}}
    "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
    "tf.Yield"(%x) : (tensor<2xf32>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<2xf32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unknown_op_in_region(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.IfRegion"(%p) ({
    // expected-error@+1 {{'tf.MyCustomOp' op has side effects inside a nested region}}
    %1 = "tf.MyCustomOp"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "tf.Yield"(%1) : (tensor<2xf32>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<2xf32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A call of a private function with side effects in a region would need a
// chain too.
func.func private @effect(%x: tensor<2xf32>) -> tensor<2xf32> {
  "tf.Print"(%x) {T = f32} : (tensor<2xf32>) -> ()
  return %x : tensor<2xf32>
}

func.func @effectful_call_in_region(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.IfRegion"(%p) ({
    // expected-error@+1 {{'func.call' op has side effects inside a nested region, which tf-to-tfrt-fallback cannot order yet}}
    %1 = func.call @effect(%x) : (tensor<2xf32>) -> tensor<2xf32>
    "tf.Yield"(%1) : (tensor<2xf32>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<2xf32>) -> ()
  }) {is_stateless = false} : (tensor<i1>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A pure op in a region with a bad operand is reported like at top level.
func.func @bad_pure_op_in_region(%p: tensor<i1>, %x: tensor<2xindex>) -> tensor<2xindex> {
  %0 = "tf.IfRegion"(%p) ({
    // expected-error@+1 {{'tf.Neg' op operand #0 has type 'tensor<2xindex>', which is not a tensor of a TensorFlow dtype}}
    %1 = "tf.Neg"(%x) : (tensor<2xindex>) -> tensor<2xindex>
    "tf.Yield"(%1) : (tensor<2xindex>) -> ()
  }, {
    "tf.Yield"(%x) : (tensor<2xindex>) -> ()
  }) {is_stateless = true} : (tensor<i1>) -> tensor<2xindex>
  return %0 : tensor<2xindex>
}

// -----

// Region-based control flow has no fallback kernel: a kernel call cannot
// hold regions. Its regions are not looked at further.
func.func @region_op_not_native(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf.WhileRegion' op has regions, which a fallback kernel call cannot hold (pass native-ops=WhileRegion if the runtime has a native kernel)}}
  %0 = "tf.WhileRegion"(%x) ({
  ^bb0(%a: tensor<2xf32>):
    "tf.Print"(%a) {T = f32} : (tensor<2xf32>) -> ()
    %c = "tf.Const"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
    "tf.Yield"(%c) : (tensor<i1>) -> ()
  }, {
  ^bb0(%a: tensor<2xf32>):
    "tf.Yield"(%a) : (tensor<2xf32>) -> ()
  }) {is_stateless = false} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

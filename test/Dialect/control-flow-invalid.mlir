// RUN: fallback-opt %s --split-input-file --verify-diagnostics

func.func @missing_callee(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.if' op has the then branch @nope, which is not a function}}
  %0 = tfrt_fallback.if %p then @nope else @nope (%x) : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @two(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32>
func.func @wrong_arity(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.if' op passes 1 values to the then branch @two, which takes 2}}
  %0 = tfrt_fallback.if %p then @two else @two (%x) : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @f(%a: tensor<3xf32>) -> tensor<3xf32>
func.func @incompatible_argument(%p: tensor<i1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tfrt_fallback.if' op passes 'tensor<2xf32>' as argument #0 of the then branch @f, which takes 'tensor<3xf32>'}}
  %0 = tfrt_fallback.if %p then @f else @f (%x) : (tensor<i1>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func private @f(%a: tensor<f32>) -> tensor<i32>
func.func @incompatible_result(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.case' op has the branch #0 @f, whose result #0 has type 'tensor<i32>', which differs from the op's 'tensor<f32>'}}
  %0 = tfrt_fallback.case %i [@f] (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @print(%c: !tfrt_fallback.chain, %a: tensor<f32>) -> (tensor<f32>, !tfrt_fallback.chain)
func.func @chained_callee_without_chain(%p: tensor<i1>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.if' op has the else branch @print, which takes a chain, but the op has no chain}}
  %0 = tfrt_fallback.if %p then @print2 else @print (%x) : (tensor<i1>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
func.func private @print2(%a: tensor<f32>) -> tensor<f32>

// -----

func.func private @bad(%c: !tfrt_fallback.chain, %a: tensor<f32>) -> tensor<f32>
func.func @chain_not_returned(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  %c = tfrt_fallback.new_chain
  // expected-error@+1 {{'tfrt_fallback.case' op has the branch #0 @bad, which takes a chain but does not return one as its last result}}
  %0, %c1 = tfrt_fallback.case %i [@bad] (%x) chain(%c) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @no_branches(%i: tensor<i32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.case' op requires at least one branch}}
  %0 = tfrt_fallback.case %i [] (%x) : (tensor<i32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @f32_index(%i: tensor<f32>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.case' op operand #0 must be tensor of 32-bit signless integer values}}
  %0 = tfrt_fallback.case %i [@f32_index] (%x) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @cond(%a: tensor<f32>) -> (tensor<i1>, tensor<i1>)
func.func private @body(%a: tensor<f32>) -> tensor<f32>
func.func @cond_two_results(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.while' op has the cond @cond, which must return one predicate tensor}}
  %0 = tfrt_fallback.while @cond @body (%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @cond(%a: tensor<f32>) -> tensor<i1>
func.func private @body(%a: tensor<f32>) -> tensor<f32>
func.func @loop_arity(%x: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
  // expected-error@+1 {{'tfrt_fallback.while' op has 1 operands but 2 results; a loop's results are its carried values}}
  %0:2 = tfrt_fallback.while @cond @body (%x) : (tensor<f32>) -> (tensor<f32>, tensor<f32>)
  return %0#0, %0#1 : tensor<f32>, tensor<f32>
}

// -----

func.func private @cond(%a: tensor<f32>) -> tensor<i1>
func.func private @body(%a: tensor<f32>) -> tensor<i32>
func.func @body_result(%x: tensor<f32>) -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.while' op has the body @body, whose result #0 has type 'tensor<i32>', which differs from the op's 'tensor<f32>'}}
  %0 = tfrt_fallback.while @cond @body (%x) : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func private @cond(%a: tensor<?xf32>) -> tensor<i1>
func.func private @body(%a: tensor<?xf32>) -> tensor<?xf32>
func.func @operand_does_not_fit(%x: tensor<2xi32>) -> tensor<?xf32> {
  // expected-error@+1 {{'tfrt_fallback.while' op operand #0 has type 'tensor<2xi32>', which does not fit result #0 of type 'tensor<?xf32>'}}
  %0 = tfrt_fallback.while @cond @body (%x) : (tensor<2xi32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @types_count(%p: tensor<i1>, %x: tensor<f32>) {
  // expected-error@+1 {{expected 2 operand types, got 1}}
  tfrt_fallback.if %p then @a else @b (%x) : (tensor<i1>) -> ()
  return
}

// RUN: fallback-opt %s --split-input-file --verify-diagnostics

// Verifier errors of the chain ops.

func.func @merge_nothing() -> !tfrt_fallback.chain {
  // expected-error@+1 {{'tfrt_fallback.merge_chains' op requires at least one chain to merge}}
  %0 = tfrt_fallback.merge_chains
  return %0 : !tfrt_fallback.chain
}

// -----

func.func @merge_nothing_generic() -> !tfrt_fallback.chain {
  // expected-error@+1 {{'tfrt_fallback.merge_chains' op requires at least one chain to merge}}
  %0 = "tfrt_fallback.merge_chains"() : () -> !tfrt_fallback.chain
  return %0 : !tfrt_fallback.chain
}

// -----

func.func @merge_tensor(%x: tensor<f32>) -> !tfrt_fallback.chain {
  // expected-error@+1 {{'tfrt_fallback.merge_chains' op operand #0 must be variadic of a chain that orders ops with side effects, but got 'tensor<f32>'}}
  %0 = "tfrt_fallback.merge_chains"(%x) : (tensor<f32>) -> !tfrt_fallback.chain
  return %0 : !tfrt_fallback.chain
}

// -----

func.func @new_chain_wrong_type() -> tensor<f32> {
  // expected-error@+1 {{'tfrt_fallback.new_chain' op result #0 must be a chain that orders ops with side effects, but got 'tensor<f32>'}}
  %0 = "tfrt_fallback.new_chain"() : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @new_chain_operand(%c: !tfrt_fallback.chain) -> !tfrt_fallback.chain {
  // expected-error@+1 {{'tfrt_fallback.new_chain' op requires zero operands}}
  %0 = "tfrt_fallback.new_chain"(%c) : (!tfrt_fallback.chain) -> !tfrt_fallback.chain
  return %0 : !tfrt_fallback.chain
}

// -----

// expected-note@+1 {{prior use here}}
func.func @merge_chains_tensor_operand(%x: tensor<f32>) -> !tfrt_fallback.chain {
  // expected-error@+1 {{use of value '%x' expects different type than prior uses: '!tfrt_fallback.chain' vs 'tensor<f32>'}}
  %0 = tfrt_fallback.merge_chains %x
  return %0 : !tfrt_fallback.chain
}

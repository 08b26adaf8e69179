// RUN: fallback-opt %s | fallback-opt | FileCheck %s

// The #tfrt_fallback.shape attribute: static, unknown (?) and unknown-rank
// (*) shapes, and the scalar shape <>.

// CHECK-LABEL: func @shapes
func.func @shapes() attributes {
  // CHECK-SAME: dynamic = #tfrt_fallback.shape<?>
  // CHECK-SAME: mixed = #tfrt_fallback.shape<?x3x?x4>
  // CHECK-SAME: scalar = #tfrt_fallback.shape<>
  // CHECK-SAME: static = #tfrt_fallback.shape<2x3>
  // CHECK-SAME: unranked = #tfrt_fallback.shape<*>
  // CHECK-SAME: zero = #tfrt_fallback.shape<0x5>
  static = #tfrt_fallback.shape<2x3>,
  dynamic = #tfrt_fallback.shape<?>,
  mixed = #tfrt_fallback.shape<?x3x?x4>,
  unranked = #tfrt_fallback.shape<*>,
  scalar = #tfrt_fallback.shape<>,
  zero = #tfrt_fallback.shape<0x5>
} {
  return
}

// Equal shapes are the same attribute.
// CHECK-LABEL: func @uniqued
func.func @uniqued(%x: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: {a = #tfrt_fallback.shape<1x?>, b = #tfrt_fallback.shape<1x?>}
  %0 = tfrt_fallback.kernel_call "EnsureShape"(%x) {b = #tfrt_fallback.shape<1x?>, a = #tfrt_fallback.shape<1x?>} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK-LABEL: func @large_dims
func.func @large_dims() attributes {big = #tfrt_fallback.shape<9223372036854775807x1>} {
  // CHECK-SAME: big = #tfrt_fallback.shape<9223372036854775807x1>
  return
}

// RUN: fallback-opt %s --split-input-file --verify-diagnostics

// Malformed #tfrt_fallback.shape (and #tf_type.shape) attributes. An unknown
// dimension is written ?, not as TensorFlow's protos write it (-1).

// expected-error@+1 {{shape dimensions cannot be negative; write '?' for an unknown dimension}}
func.func private @negative_dim() attributes {s = #tfrt_fallback.shape<-1>}

// -----

// expected-error@+1 {{shape dimensions cannot be negative; write '?' for an unknown dimension}}
func.func private @negative_leading_dim() attributes {s = #tfrt_fallback.shape<-2x3>}

// -----

// expected-error@+1 {{invalid dimension}}
func.func private @negative_inner_dim() attributes {s = #tfrt_fallback.shape<2x-3>}

// -----

// expected-error@+1 {{expected '<'}}
func.func private @missing_angle() attributes {s = #tfrt_fallback.shape}

// -----

// expected-error@+1 {{expected '>'}}
func.func private @unranked_with_dims() attributes {s = #tfrt_fallback.shape<*x2>}

// -----

// expected-error@+1 {{unbalanced '<' character in pretty dialect name}}
func.func private @unclosed() attributes {s = #tfrt_fallback.shape<2x3}

// -----

// expected-error@+1 {{invalid dimension}}
func.func private @trailing_x() attributes {s = #tfrt_fallback.shape<2x>}

// -----

// expected-error@+1 {{invalid dimension}}
func.func private @element_type() attributes {s = #tfrt_fallback.shape<2xf32>}

// -----

// expected-error@+1 {{shape dimensions cannot be negative; write '?' for an unknown dimension}}
func.func private @tf_type_negative_dim() attributes {s = #tf_type.shape<-1>}

// -----

// expected-error@+1 {{unbalanced '<' character in pretty dialect name}}
func.func private @tf_type_unclosed() attributes {s = #tf_type.shape<?x3}

// -----

// expected-error@+1 {{unknown attribute `shapes` in dialect `tfrt_fallback`}}
func.func private @unknown_attr() attributes {s = #tfrt_fallback.shapes<2>}

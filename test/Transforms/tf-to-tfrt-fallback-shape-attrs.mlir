// RUN: fallback-opt %s --tf-to-tfrt-fallback=allow-unsupported | FileCheck %s

// TensorFlow's #tf_type.shape becomes #tfrt_fallback.shape, alone and in
// lists, keeping unknown dimensions, unknown rank and scalars.

// CHECK-LABEL: func @shape_attrs
func.func @shape_attrs(%x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  // CHECK: tfrt_fallback.kernel_call "PlaceholderWithDefault"(%{{.*}}) {dtype = f32, shape = #tfrt_fallback.shape<?x3>}
  %0 = "tf.PlaceholderWithDefault"(%x) {dtype = f32, shape = #tf_type.shape<?x3>} : (tensor<2x3xf32>) -> tensor<?x3xf32>
  // CHECK: tfrt_fallback.kernel_call "EnsureShape"(%{{.*}}) {T = f32, shape = #tfrt_fallback.shape<2x3>}
  %1 = "tf.EnsureShape"(%x) {T = f32, shape = #tf_type.shape<2x3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: tfrt_fallback.kernel_call "Unknown"(%{{.*}}) chain(%{{.*}}) {s = #tfrt_fallback.shape<*>, t = #tfrt_fallback.shape<>}
  %2 = "tf.Unknown"(%1) {s = #tf_type.shape<*>, t = #tf_type.shape<>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: tfrt_fallback.kernel_call "FIFOQueueV2"() chain(%{{.*}}) {component_types = [f32, i32], shapes = [#tfrt_fallback.shape<2x?>, #tfrt_fallback.shape<*>, #tfrt_fallback.shape<>]}
  %3 = "tf.FIFOQueueV2"() {component_types = [f32, i32], shapes = [#tf_type.shape<2x?>, #tf_type.shape<*>, #tf_type.shape<>]} : () -> tensor<!tf_type.resource>
  // CHECK-NOT: #tf_type.shape
  return %0 : tensor<?x3xf32>
}

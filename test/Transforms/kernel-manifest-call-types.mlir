// RUN: printf '# tfrt-fallback kernel manifest v1\nkernel AddV2 T=f32\n' > %t.manifest
// RUN: fallback-opt %s --tf-to-tfrt-fallback="kernel-manifest=%t.manifest" --verify-diagnostics

// A call whose types differ from its callee's needs Identity kernels to
// pass its values; a runtime without them cannot run it.

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tf.PartitionedCall' op has types more or less refined than @f's, which need an Identity kernel the target runtime lacks}}
  %0 = "tf.PartitionedCall"(%x) {config = "", config_proto = "", executor_type = "", f = @f} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @f(%x: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "tf.AddV2"(%x, %x) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

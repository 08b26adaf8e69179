// RUN: fallback-opt %s --tf-device-inline --split-input-file --verify-diagnostics

func.func @conflicting_device(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf_device.launch"() ({
    // expected-error@+1 {{'tf.Neg' op is placed on "/device:CPU:1" inside a tf_device.launch on "/device:CPU:0"}}
    %1 = "tf.Neg"(%x) {device = "/device:CPU:1"} : (tensor<2xf32>) -> tensor<2xf32>
    tf_device.return %1 : tensor<2xf32>
  }) {device = "/device:CPU:0"} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unsupported_op(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf_device.cluster_func' op is not supported yet by --tf-device-inline: of tf_device, only launch, cluster and return are}}
  %0 = "tf_device.cluster_func"(%x) {func = @f} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// TensorFlow accepts a cluster with results it gives no value; they must be
// unused to be inlined.
func.func @result_without_value(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{'tf_device.cluster' op returns 0 values, but its result #0 is used}}
  %0 = "tf_device.cluster"() ({
    "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    tf_device.return
  }) : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

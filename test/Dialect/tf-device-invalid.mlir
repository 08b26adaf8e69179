// RUN: fallback-opt %s --split-input-file --verify-diagnostics

func.func @return_types(%x: tensor<f32>) -> tensor<i32> {
  // expected-error@+1 {{'tf_device.launch' op returns 'tensor<f32>' as its result #0 of type 'tensor<i32>'}}
  %0 = "tf_device.launch"() ({
    tf_device.return %x : tensor<f32>
  }) {device = "/device:CPU:0"} : () -> tensor<i32>
  return %0 : tensor<i32>
}

// -----

func.func @return_shape(%x: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error@+1 {{'tf_device.cluster' op returns 'tensor<2xf32>' as its result #0 of type 'tensor<3xf32>'}}
  %0 = "tf_device.cluster"() ({
    tf_device.return %x : tensor<2xf32>
  }) : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @launch_without_device(%x: tensor<f32>) {
  // expected-error@+1 {{'tf_device.launch' op requires attribute 'device'}}
  "tf_device.launch"() ({
    tf_device.return
  }) : () -> ()
  return
}

// -----

func.func @stray_return(%x: tensor<f32>) {
  // expected-error@+1 {{'tf_device.return' op expects parent op to be one of 'tf_device.launch, tf_device.cluster'}}
  tf_device.return %x : tensor<f32>
}

// -----

func.func @custom_form_of_unsupported_op(%x: tensor<f32>) {
  // expected-error@+1 {{'tf_device.replicate' is not supported yet: of tf_device, only launch, cluster and return are}}
  %0 = tf_device.replicate([%x, %x] as %a: tensor<f32>) {n = 2 : i32} {
    tf_device.return %a : tensor<f32>
  }
  return
}

// RUN: fallback-opt %s --tf-device-inline --split-input-file | FileCheck %s
// RUN: fallback-opt %s --tfrt-fallback-pipeline --split-input-file | FileCheck %s --check-prefix=LOWERED

// tf_device.launch and tf_device.cluster are inlined; the launch's device
// goes onto the tf ops inside, and from there onto the kernel calls.

// CHECK-LABEL: func @launch
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[N:.*]] = "tf.Neg"(%[[X]]) {device = "/job:localhost/replica:0/task:0/device:CPU:0"}
// CHECK-NEXT: %[[R:.*]] = "tf.Relu"(%[[N]]) {T = f32, device = "/job:localhost/replica:0/task:0/device:CPU:0"}
// CHECK-NEXT: return %[[R]], %[[N]]
// LOWERED-LABEL: func @launch
// LOWERED: kernel_call "Neg"(%{{.*}}) device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32}
// LOWERED: kernel_call "Relu"(%{{.*}}) device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32}
func.func @launch(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %0:2 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "tf.Relu"(%1) {T = f32, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    tf_device.return %2, %1 : tensor<2xf32>, tensor<2xf32>
  }) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> (tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// An inner launch's device wins; an op that names the launch's own device
// keeps it.
// CHECK-LABEL: func @nested
// CHECK-NEXT: "tf.Neg"(%{{.*}}) {device = "/device:CPU:0"}
// CHECK-NEXT: "tf.Abs"(%{{.*}}) {device = "/device:CPU:1"}
// CHECK-NEXT: "tf.Relu"(%{{.*}}) {device = "/device:CPU:0"}
// CHECK-NEXT: return
func.func @nested(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%x) {device = "/device:CPU:0"} : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "tf_device.launch"() ({
      %3 = "tf.Abs"(%1) : (tensor<2xf32>) -> tensor<2xf32>
      tf_device.return %3 : tensor<2xf32>
    }) {device = "/device:CPU:1"} : () -> tensor<2xf32>
    %4 = "tf.Relu"(%2) : (tensor<2xf32>) -> tensor<2xf32>
    tf_device.return %4 : tensor<2xf32>
  }) {device = "/device:CPU:0"} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A cluster places nothing unless it has a device; an empty device places
// nothing either.
// CHECK-LABEL: func @clusters
// CHECK-NEXT: %[[A:.*]] = "tf.Neg"(%{{.*}}) : (tensor<2xf32>)
// CHECK-NEXT: %[[B:.*]] = "tf.Abs"(%[[A]]) {device = "/device:CPU:0"}
// CHECK-NEXT: %[[C:.*]] = "tf.Relu"(%[[B]]) : (tensor<2xf32>)
// CHECK-NEXT: return %[[C]]
// LOWERED-LABEL: func @clusters
// LOWERED: kernel_call "Neg"(%{{.*}}) {T = f32}
// LOWERED: kernel_call "Abs"(%{{.*}}) device("/device:CPU:0") {T = f32}
// LOWERED: kernel_call "Relu"(%{{.*}}) {T = f32}
func.func @clusters(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf_device.cluster"() ({
    %1 = "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    tf_device.return %1 : tensor<2xf32>
  }) {_xla_compile_device_type = "CPU", allow_soft_placement = true} : () -> tensor<2xf32>
  %2 = "tf_device.cluster"() ({
    %3 = "tf.Abs"(%0) : (tensor<2xf32>) -> tensor<2xf32>
    tf_device.return %3 : tensor<2xf32>
  }) {device = "/device:CPU:0"} : () -> tensor<2xf32>
  %4 = "tf_device.launch"() ({
    %5 = "tf.Relu"(%2) : (tensor<2xf32>) -> tensor<2xf32>
    tf_device.return %5 : tensor<2xf32>
  }) {device = ""} : () -> tensor<2xf32>
  return %4 : tensor<2xf32>
}

// -----

// A launch inside a tf_executor island, as TensorFlow's export writes it.
// CHECK-LABEL: func @in_island
// LOWERED-LABEL: func @in_island
// LOWERED: kernel_call "Neg"(%{{.*}}) device("/device:CPU:0") {T = f32}
func.func @in_island(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tf_executor.graph {
    %out, %ctl = tf_executor.island {
      %1 = "tf_device.launch"() ({
        %2 = "tf.Neg"(%x) : (tensor<2xf32>) -> tensor<2xf32>
        tf_device.return %2 : tensor<2xf32>
      }) {device = "/device:CPU:0"} : () -> tensor<2xf32>
      tf_executor.yield %1 : tensor<2xf32>
    }
    tf_executor.fetch %out : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// As TensorFlow writes them: a launch returning values less refined than
// its results (they reach the users through an Identity of the result's
// type), and a cluster with a result it gives no value and nothing uses.
// CHECK-LABEL: func @refined_and_unused
// CHECK-SAME: (%[[X:.*]]: tensor<*xf32>, %[[Y:.*]]: tensor<*xi32>)
// CHECK-NEXT: %[[A:.*]] = "tf.Identity"(%[[X]]) {T = f32} : (tensor<*xf32>) -> tensor<2xf32>
// CHECK-NEXT: %[[B:.*]] = "tf.Identity"(%[[Y]]) {T = i32} : (tensor<*xi32>) -> tensor<?xi32>
// CHECK-NEXT: %[[C:.*]] = "tf.Const"() {value = dense<16> : tensor<i32>}
// CHECK-NEXT: return %[[A]], %[[B]], %[[C]]
// LOWERED-LABEL: func @refined_and_unused
// LOWERED: return
func.func @refined_and_unused(%x: tensor<*xf32>, %y: tensor<*xi32>) -> (tensor<2xf32>, tensor<?xi32>, tensor<i32>) {
  %0:2 = "tf_device.launch"() ({
    tf_device.return %x, %y : tensor<*xf32>, tensor<*xi32>
  }) {device = "/device:CPU:0"} : () -> (tensor<2xf32>, tensor<?xi32>)
  %1 = "tf_device.cluster"() ({
    %2 = "tf.Const"() {value = dense<16> : tensor<i32>} : () -> tensor<i32>
    tf_device.return %2 : tensor<i32>
  }) {num_cores_per_replica = 1 : i64} : () -> tensor<i32>
  %3 = "tf_device.cluster"() ({
    tf_device.return
  }) : () -> tensor<i32>
  return %0#0, %0#1, %1 : tensor<2xf32>, tensor<?xi32>, tensor<i32>
}

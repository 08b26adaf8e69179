// RUN: fallback-opt %s | FileCheck %s
// RUN: fallback-opt %s | fallback-opt | FileCheck %s

// tf_device.launch and tf_device.cluster as TensorFlow prints them (generic
// form, the device as an attribute or a property) round-trip.

// CHECK-LABEL: func @launch
// CHECK: %[[L:.*]] = "tf_device.launch"() <{device = "/device:CPU:0"}> ({
// CHECK-NEXT: %[[N:.*]] = "tf.Neg"
// CHECK-NEXT: tf_device.return %[[N]] : tensor<f32>
// CHECK-NEXT: }) : () -> tensor<f32>
// CHECK: "tf_device.launch"() <{device = "/device:CPU:1"}> ({
// CHECK-NEXT: tf_device.return
// CHECK-NEXT: }) : () -> ()
// CHECK: return %[[L]]
func.func @launch(%x: tensor<f32>) -> tensor<f32> {
  %0 = "tf_device.launch"() ({
    %1 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
    tf_device.return %1 : tensor<f32>
  }) {device = "/device:CPU:0"} : () -> tensor<f32>
  "tf_device.launch"() <{device = "/device:CPU:1"}> ({
    tf_device.return
  }) : () -> ()
  return %0 : tensor<f32>
}

// CHECK-LABEL: func @cluster
// CHECK: %[[C:.*]]:2 = "tf_device.cluster"() ({
// CHECK: tf_device.return %{{.*}}, %{{.*}} : tensor<f32>, tensor<i32>
// CHECK-NEXT: }) {_xla_compile_device_type = "CPU", allow_soft_placement = true} : () -> (tensor<f32>, tensor<i32>)
func.func @cluster(%x: tensor<f32>, %y: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %0:2 = "tf_device.cluster"() ({
    %1 = "tf.Neg"(%x) : (tensor<f32>) -> tensor<f32>
    "tf_device.return"(%1, %y) : (tensor<f32>, tensor<i32>) -> ()
  }) {_xla_compile_device_type = "CPU", allow_soft_placement = true} : () -> (tensor<f32>, tensor<i32>)
  return %0#0, %0#1 : tensor<f32>, tensor<i32>
}

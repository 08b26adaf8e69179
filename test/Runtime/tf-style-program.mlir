// A program as TensorFlow's own tools write it runs unchanged: no derived
// attributes, tf_saved_model attributes on the module, the function and its
// arguments, arith.constant, ops in a tf_device.launch and a
// tf_device.cluster, operandSegmentSizes, unit and `_` attributes.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-translate --bef-to-mlir %t.bef | FileCheck %s --check-prefix=BEF

// The launch's device reaches the kernel call in the binary program.
// BEF: kernel_call "_FusedMatMul"(%{{.*}}, %{{.*}}, %{{.*}}) device("/job:localhost/replica:0/task:0/device:CPU:0") {T = f32, epsilon = 0.000000e+00 : f32, fused_ops = ["BiasAdd", "Relu"], leakyrelu_alpha = 2.000000e-01 : f32, num_args = 1 : i64, transpose_a = false, transpose_b = false}
// BEF: kernel_call "Sum"(%{{.*}}, %{{.*}}) {T = f32, Tidx = i32, keep_dims = false}

// Hand-derived from x = [[1, 2, 3], [4, 5, 6]],
// W = [[1, 0, -1], [0.5, 2, 0], [0, 1, 1]], b = [1, -20, 0.5]:
// x W = [[2, 7, 2], [6.5, 16, 2]]; + b = [[3, -13, 2.5], [7.5, -4, 2.5]];
// relu = [[3, 0, 2.5], [7.5, 0, 2.5]]; its sum over axis 0 = [10.5, 0, 5].
// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}3., 0., 2.5],
// CHECK-NEXT: [7.5, 0., 2.5]]
// CHECK: result #1: tensor<3xf32>
// CHECK-NEXT: [10.5, 0., 5.]

module attributes {tf_saved_model.semantics, tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 1395 : i32}} {
  func.func @main(%x: tensor<2x3xf32> {tf._user_specified_name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x3xf32> {tf_saved_model.index_path = ["y"]}, tensor<3xf32> {tf_saved_model.index_path = ["s"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0,StatefulPartitionedCall:1"}, tf_saved_model.exported_names = ["serving_default"]} {
    %w = arith.constant dense<[[1.0, 0.0, -1.0], [0.5, 2.0, 0.0], [0.0, 1.0, 1.0]]> : tensor<3x3xf32>
    %b = arith.constant dense<[1.0, -20.0, 0.5]> : tensor<3xf32>
    %axis = arith.constant dense<0> : tensor<i32>
    %0 = "tf_device.launch"() ({
      %1 = "tf._FusedMatMul"(%x, %w, %b) {device = "", fused_ops = ["BiasAdd", "Relu"], epsilon = 0.000000e+00 : f32, leakyrelu_alpha = 2.000000e-01 : f32, transpose_a = false, transpose_b = false, operandSegmentSizes = array<i32: 1, 1, 1>, _output_shapes = [#tf_type.shape<2x3>], f._read_only_resource_inputs = []} : (tensor<2x3xf32>, tensor<3x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
      tf_device.return %1 : tensor<2x3xf32>
    }) {device = "/job:localhost/replica:0/task:0/device:CPU:0"} : () -> tensor<2x3xf32>
    %2 = "tf_device.cluster"() ({
      %3 = "tf.Sum"(%0, %axis) {keep_dims = false, _class = ["loc:@x"], _noinline} : (tensor<2x3xf32>, tensor<i32>) -> tensor<3xf32>
      tf_device.return %3 : tensor<3xf32>
    }) {_xla_compile_device_type = "CPU", allow_soft_placement = true} : () -> tensor<3xf32>
    return %0, %2 : tensor<2x3xf32>, tensor<3xf32>
  }
}

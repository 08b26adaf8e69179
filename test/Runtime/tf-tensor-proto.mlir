// TensorFlow's own spellings run: a constant as a TensorProto, a dtype as a
// "tfdtype$" string, a ControlTrigger in the graph.
// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-run %t.bef --input=%S/Inputs/f32_2x3.npy --threads=1 | FileCheck %s

// The TensorProto: dtype 1 (float), shape [3], float_val 0.5 once, which
// TensorFlow repeats to [0.5, 0.5, 0.5]. With x = [[1, 2, 3], [4, 5, 6]],
// x * c = [[0.5, 1, 1.5], [2, 2.5, 3]].
// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}0.5, 1., 1.5],
// CHECK-NEXT: [2., 2.5, 3.]]

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = tf_executor.graph {
    %c, %c_ctl = tf_executor.island wraps "tf.Const"() {device = "", value = #tf_type<tensor_proto : "0x08011204120208032A040000003F"> : tensor<3xf32>} : () -> tensor<3xf32>
    %m, %m_ctl = tf_executor.island wraps "tf.Mul"(%x, %c) {T = "tfdtype$DT_FLOAT", device = ""} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %t = tf_executor.ControlTrigger %c_ctl, %m_ctl
    tf_executor.fetch %m, %t : tensor<2x3xf32>, !tf_executor.control
  }
  return %0 : tensor<2x3xf32>
}

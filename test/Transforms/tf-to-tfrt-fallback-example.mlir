// RUN: fallback-opt %src_root/examples/mlp.mlir --tf-to-tfrt-fallback | FileCheck %s

// The example shipped in examples/ lowers without tf ops left.

// CHECK-LABEL: func @main
// CHECK-NOT: "tf.
// CHECK-COUNT-3: tfrt_fallback.constant
// CHECK-NOT: "tf.
// CHECK: tfrt_fallback.kernel_call "MatMul"({{.*}}) device("/device:CPU:0")
// CHECK: tfrt_fallback.kernel_call "BiasAdd"
// CHECK: tfrt_fallback.kernel_call "Relu"
// CHECK: tfrt_fallback.kernel_call "MatMul"
// CHECK: %[[R:.*]] = tfrt_fallback.kernel_call "Softmax"
// CHECK-NOT: "tf.
// CHECK: return %[[R]]

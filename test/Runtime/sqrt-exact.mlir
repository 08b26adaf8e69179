// Sqrt is IEEE's correctly rounded square root (as TF's is), not an
// rsqrt estimate refined once: that gave sqrt(1) = 0.99999994 on Intel
// CPUs. 16 elements take the vector path.
// RUN: fallback-run %s --threads=1 | FileCheck %s

// CHECK: result #0: tensor<16xf32>
// CHECK-NEXT: [1., 2., 3., 1., 2., 3., 1., 2., 3., 1., 2., 3., 1., 2., 3., 0.]
func.func @main() -> tensor<*xf32> {
  %a = "tf.Const"() {value = dense<[1.0, 4.0, 9.0, 1.0, 4.0, 9.0, 1.0, 4.0, 9.0, 1.0, 4.0, 9.0, 1.0, 4.0, 9.0, 0.0]> : tensor<16xf32>} : () -> tensor<16xf32>
  %s = "tf.Sqrt"(%a) : (tensor<16xf32>) -> tensor<*xf32>
  return %s : tensor<*xf32>
}

// An op without a kernel in this runtime fails at load time, naming the op,
// its dtypes and its location.
// RUN: not fallback-run %s 2>&1 | FileCheck %s

func.func @main() -> tensor<2xf32> {
  %c = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  // CHECK: error: {{.*}}missing-kernel.mlir:[[@LINE+1]]:8: no kernel registered for op 'NoSuchOp'
  %0 = "tf.NoSuchOp"(%c) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}


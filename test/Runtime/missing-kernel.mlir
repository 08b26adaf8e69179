// An op without a kernel in this build's runtime is an error at compile time
// (the lowering checks against the runtime's registry, compiled into the
// compiler), naming the op and its location: in fallback-run on TF input and
// in fallback-translate --mlir-to-bef.
// RUN: not fallback-run %s 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: not fallback-translate --mlir-to-bef %s -o %t.bef 2>&1 | FileCheck %s --check-prefix=COMPILE
// A program lowered with allow-unsupported still fails at load time.
// RUN: fallback-opt %s --tfrt-fallback-pipeline=allow-unsupported --mlir-print-debuginfo | fallback-translate --mlir-to-bef -o %t.unsupported.bef
// RUN: not fallback-run %t.unsupported.bef 2>&1 | FileCheck %s --check-prefix=LOAD

func.func @main() -> tensor<2xf32> {
  %c = "tf.Const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>, dtype = f32} : () -> tensor<2xf32>
  // COMPILE: missing-kernel.mlir:[[@LINE+2]]:8: error: 'tf.NoSuchOp' op has no fallback kernel: this build's runtime has no kernel for op 'NoSuchOp'
  // LOAD: error: {{.*}}missing-kernel.mlir:[[@LINE+1]]:8: no kernel registered for op 'NoSuchOp'
  %0 = "tf.NoSuchOp"(%c) {T = f32} : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// A program with a string tensor: scripts/size-report.sh --check runs it on
// the runners that leave string tensors out, which must refuse it at load.
func.func @main() -> tensor<2x!tf_type.string> {
  %0 = "tf.Const"() {value = dense<["a", "bc"]> : tensor<2x!tf_type.string>} : () -> tensor<2x!tf_type.string>
  return %0 : tensor<2x!tf_type.string>
}

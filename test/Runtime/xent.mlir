// RUN: fallback-run %s --threads=1 | FileCheck %s
// SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits
// end to end from TF MLIR. Equal logits give softmax 1/2: the loss is
// log(2) = 0.693147 and the gradient softmax - labels.

func.func @main() -> (tensor<1xf32>, tensor<1x2xf32>, tensor<1xf32>, tensor<1x2xf32>) {
  %logits = "tf.Const"() {value = dense<[[0.0, 0.0]]> : tensor<1x2xf32>, dtype = f32} : () -> tensor<1x2xf32>
  %labels = "tf.Const"() {value = dense<[[1.0, 0.0]]> : tensor<1x2xf32>, dtype = f32} : () -> tensor<1x2xf32>
  %0:2 = "tf.SoftmaxCrossEntropyWithLogits"(%logits, %labels) : (tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<1xf32>, tensor<1x2xf32>)
  %sparse = "tf.Const"() {value = dense<[1]> : tensor<1xi64>, dtype = i64} : () -> tensor<1xi64>
  %1:2 = "tf.SparseSoftmaxCrossEntropyWithLogits"(%logits, %sparse) : (tensor<1x2xf32>, tensor<1xi64>) -> (tensor<1xf32>, tensor<1x2xf32>)
  return %0#0, %0#1, %1#0, %1#1 : tensor<1xf32>, tensor<1x2xf32>, tensor<1xf32>, tensor<1x2xf32>
}

// CHECK: result #0: tensor<1xf32>
// CHECK-NEXT: [0.693147]
// CHECK: result #1: tensor<1x2xf32>
// CHECK-NEXT: {{\[\[}}-0.5, 0.5]]
// CHECK: result #2: tensor<1xf32>
// CHECK-NEXT: [0.693147]
// CHECK: result #3: tensor<1x2xf32>
// CHECK-NEXT: {{\[\[}}0.5, -0.5]]

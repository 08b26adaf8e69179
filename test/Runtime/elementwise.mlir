// RUN: fallback-run %s --input=%S/Inputs/f32_2x3.npy --input=%S/Inputs/f32_3.npy --threads=1 | FileCheck %s
// Binary ops with TF broadcasting; expected values derived by hand from
// x = [[1, 2, 3], [4, 5, 6]] and y = [10, 20, 30].

func.func @main(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %two = "tf.Const"() {value = dense<2.0> : tensor<f32>, dtype = f32} : () -> tensor<f32>
  %col = "tf.Const"() {value = dense<[[100.0], [200.0]]> : tensor<2x1xf32>, dtype = f32} : () -> tensor<2x1xf32>
  %0 = "tf.AddV2"(%x, %y) {T = f32} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "tf.Sub"(%x, %two) {T = f32} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %2 = "tf.Mul"(%x, %col) {T = f32} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %3 = "tf.RealDiv"(%y, %x) {T = f32} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "tf.Maximum"(%x, %two) {T = f32} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %5 = "tf.Minimum"(%x, %two) {T = f32} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %6 = "tf.Add"(%col, %y) {T = f32} : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// CHECK: result #0: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}11., 22., 33.],
// CHECK-NEXT: [14., 25., 36.]]
// CHECK: result #1: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}-1., 0., 1.],
// CHECK-NEXT: [2., 3., 4.]]
// CHECK: result #2: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}100., 200., 300.],
// CHECK-NEXT: [800., 1000., 1200.]]
// CHECK: result #3: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}10., 10., 10.],
// CHECK-NEXT: [2.5, 4., 5.]]
// CHECK: result #4: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}2., 2., 3.],
// CHECK-NEXT: [4., 5., 6.]]
// CHECK: result #5: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}1., 2., 2.],
// CHECK-NEXT: [2., 2., 2.]]
// CHECK: result #6: tensor<2x3xf32>
// CHECK-NEXT: {{\[\[}}110., 120., 130.],
// CHECK-NEXT: [210., 220., 230.]]

// String inputs from NumPy's '<U' arrays (what np.array(["été"]) makes):
// UTF-32 items are read as UTF-8 bytes; results are '|S' arrays.
// RUN: fallback-run %s --input=%S/Inputs/unicode_3.npy --threads=1 --output-dir=%t | FileCheck %s
// RUN: head -c 128 %t/output_0.npy | FileCheck %s --check-prefix=NPY
// A string array where the program takes numbers is an input error.
// RUN: not fallback-run %s --entry=numbers --input=%S/Inputs/str_3.npy 2>&1 | FileCheck %s --check-prefix=WRONG

// unicode_3.npy is ['été', 'ab', '😀'].
// CHECK: result #0: tensor<3x!tf_type.string>
// CHECK-NEXT: [b'\xc3\xa9t\xc3\xa9', b'ab', b'\xf0\x9f\x98\x80']
// NPY: {'descr': '|S5', 'fortran_order': False, 'shape': (3,), }
func.func @main(%arg0: tensor<3x!tf_type.string>) -> tensor<*x!tf_type.string> {
  %0 = tf_executor.graph {
    %outputs, %control = tf_executor.island wraps "tf.Identity"(%arg0) {device = ""} : (tensor<3x!tf_type.string>) -> tensor<*x!tf_type.string>
    tf_executor.fetch %outputs : tensor<*x!tf_type.string>
  }
  func.return %0 : tensor<*x!tf_type.string>
}

// WRONG: error: input #0 of 'numbers': expected tensor<3xf32>, got tensor<3x!tf_type.string>
func.func @numbers(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  func.return %arg0 : tensor<3xf32>
}

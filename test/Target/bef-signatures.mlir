// The names of a function's arguments and results go into the binary
// program's signatures section (format 1.4) and come back from it as
// tf_saved_model.index_path attributes. tf_saved_model.index_path on an
// argument or result (SavedModel's convention) wins over tf.entry_function
// (the GraphDef importer's), whose lists count only when they name every
// argument (result); what neither names gets input_<i> or output_<i>; a
// function that names nothing has no signature.
// RUN: fallback-translate --mlir-to-bef %s -o %t.bef
// RUN: fallback-translate --bef-to-mlir %t.bef | FileCheck %s
// RUN: fallback-run-lite %t.bef --signature | FileCheck %s --check-prefix=SIG
// RUN: fallback-run-lite %t.bef --entry=unnamed --signature | FileCheck %s --check-prefix=UNNAMED

// CHECK-LABEL: func.func @main
// CHECK-SAME: {tf_saved_model.index_path = ["images"]}
// CHECK-SAME: {tf_saved_model.index_path = ["y"]}
// CHECK-SAME: -> (tensor<2xf32> {tf_saved_model.index_path = ["scores"]}, tensor<2xf32> {tf_saved_model.index_path = ["output_1"]})
// CHECK-LABEL: func.func private @unnamed
// CHECK-NOT: index_path
// SIG: main: 2 inputs, 2 outputs
// SIG-NEXT: input 0 'images' tensor<2xf32>
// SIG-NEXT: input 1 'y' tensor<2xf32>
// SIG-NEXT: output 0 'scores' tensor<2xf32>
// SIG-NEXT: output 1 'output_1' tensor<2xf32>
// UNNAMED: unnamed: 1 inputs, 1 outputs
// UNNAMED-NEXT: input 0 'input_0' tensor<2xf32>
// UNNAMED-NEXT: output 0 'output_0' tensor<2xf32>
func.func @main(%x: tensor<2xf32> {tf_saved_model.index_path = ["images"]},
                %y: tensor<2xf32>)
    -> (tensor<2xf32> {tf_saved_model.index_path = ["scores"]}, tensor<2xf32>)
    attributes {tf.entry_function = {inputs = "x,y", outputs = "a,b,c"}} {
  %0 = tfrt_fallback.kernel_call "AddV2"(%x, %y) {T = f32}
      : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %y : tensor<2xf32>, tensor<2xf32>
}

func.func @unnamed(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
